"""Reading the editor's messages over stdio: pygls's loop (``pygls.io_.run_async``), with
each body decoded by orjson where that gives exactly what ``json.loads`` gives, and by
``json.loads`` otherwise.

Opening a 12 MB session is one 14 MB ``didOpen`` message (the text is one JSON string,
its quotes and line breaks escaped): ``json.loads`` takes ~75 ms of it before anything
else can start, orjson less than half. orjson reads an integer past 64 bits as a float
(``json`` keeps it exact) and refuses what RFC 8259 does not allow (``NaN``, a lone
surrogate escape, a byte order mark): a body it refuses, or whose value holds a float, is
decoded again by ``json.loads``, so that every message means what it meant before and a
body that is not JSON fails as it did (answered -32700, see
``SourceCheckProtocol.answer_unreadable``). Without orjson (the VS Code extension bundles
only pure-Python packages) every body goes to ``json.loads``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import stat
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.protocol import JsonRPCProtocol

fast_loads: Callable[[bytes], Any] | None
try:
    from orjson import loads as fast_loads
except ImportError:  # pragma: no cover - an install without the optional speed-up
    fast_loads = None

# pygls's own logger, as its loop logs (to stderr only: not the editor's log, see main.py).
log = logging.getLogger("pygls.io_")

_CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")


def decode(body: bytes) -> Any:
    """The JSON value of a message body, as ``json.loads`` reads it (raises as it does)."""
    if fast_loads is not None:
        try:
            value = fast_loads(body)
        except ValueError:
            pass
        else:
            if not _holds_float(value):
                return value
    return json.loads(body)


def _holds_float(value: Any) -> bool:
    """Whether a decoded value holds a float anywhere (an LSP message seldom does)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is float:
            return True
    return False


async def read_messages(
    stop: threading.Event,
    reader: StdinAsyncReader,
    protocol: JsonRPCProtocol,
    error_handler: Callable[[Exception, type[JsonRpcException]], Any],
) -> None:
    """pygls's reading loop (headers, then a body of ``Content-Length`` bytes), decoding
    with :func:`decode`. The protocol's ``structure_message`` leaves every object as it
    is (see protocol.py), so no object hook is needed."""
    content_length = 0
    while not stop.is_set():
        header = await reader.readline()
        if not header:
            break
        if not content_length:
            match = _CONTENT_LENGTH.fullmatch(header)
            if match:
                content_length = int(match.group(1))
        if content_length and not header.strip():
            body = await reader.readexactly(content_length)
            if not body:
                break
            try:
                protocol.handle_message(decode(body))
            except Exception as error:
                log.exception("Unable to handle message")
                error_handler(error, JsonRpcException)
            finally:
                content_length = 0


# What the kernel holds between the editor and the server, each way (1 MiB: Linux's
# /proc/sys/fs/pipe-max-size by default, the most an unprivileged process may ask).
BUFFER_BYTES = 1 << 20


def widen(stream: BinaryIO) -> None:
    """Let the kernel hold up to :data:`BUFFER_BYTES` of a stdio pipe or socket.

    The 14 MB ``didOpen`` of a 12 MB session crosses a 64 KiB pipe in some 220 turns of
    writer and reader (18 ms here); with 1 MiB, in 14 (10 ms). Not a pipe or socket (a file,
    a terminal), or a kernel that refuses: left as it is."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode):
            import fcntl  # not on Windows

            if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux only
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, BUFFER_BYTES)
        elif stat.S_ISSOCK(mode):  # what libuv gives a child's stdio (VS Code, Neovim)
            with socket.socket(fileno=os.dup(fd)) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER_BYTES)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, BUFFER_BYTES)
    except (OSError, ValueError, ImportError):
        pass


def serve(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve LSP over stdio until the editor goes away or says ``exit`` (what pygls's
    ``LanguageServer.start_io`` does, with :func:`read_messages`)."""
    widen(stdin)
    widen(stdout)
    server._stop_event = stop = threading.Event()
    reader = StdinAsyncReader(stdin, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(read_messages(stop, reader, server.protocol, server.report_server_error))
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
