"""Reading the editor's messages over stdio: each frame read as the LSP base protocol has
it (:class:`Frames`), in a loop of the shape of pygls's (``pygls.io_.run_async``), each body
decoded by orjson where that gives exactly what ``json.loads`` gives, and by ``json.loads``
otherwise.

pygls's loop took only ``Content-Length: N\\r\\n`` as written there: a lowercase name, a
line ending in ``\\n`` alone or a length shorter than its body left it out of step, alive
and answering nothing again; a length of 100 GB was a MemoryError. Here the headers are read
as LSP allows, and a frame that cannot be read past ends the server with status 1 and one
line of the log that says why (:func:`serve`), so that the editor starts it again.

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
from concurrent.futures import Executor
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCProtocol

fast_loads: Callable[[bytes], Any] | None
try:
    from orjson import loads as fast_loads
except ImportError:  # pragma: no cover - an install without the optional speed-up
    fast_loads = None

# pygls's own logger, as its loop logs (to stderr only: not the editor's log, see main.py).
log = logging.getLogger("pygls.io_")


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


# The largest body read, in bytes. A session as big as the default size limit (64 million
# characters, settings.py) is a ``didOpen`` of 64 MB (ASCII) to 256 MB (four UTF-8 bytes a
# character), escapes aside: past 512 MiB a length is no message an editor sends but a stream
# out of step, refused before anything is allocated. Below it a file past the size limit is
# still read, and told that it is too large.
MAX_BODY_BYTES = 512 << 20
# The most a message's headers may take: they are ``Content-Length`` and ``Content-Type``, some
# 80 bytes. Bytes with no line end past this are no headers (the rest of a body, say).
MAX_HEADER_BYTES = 8 << 10

_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # a header name (RFC 9110's token)


class BrokenStream(Exception):
    """A frame the server cannot read past; its text says why, in one line."""


def _shown(data: bytes, limit: int = 40) -> str:
    """Bytes as they may be quoted in one log line (escaped, cut short)."""
    return repr(data[:limit].decode("latin-1")) + ("..." if len(data) > limit else "")


class Frames:
    """The bodies of the messages on a byte stream, one at a time, as the LSP base protocol
    frames them: header lines, an empty line, then ``Content-Length`` bytes.

    Header names are read whatever their case, a line may end with ``\\n`` alone, headers
    other than ``Content-Length`` (``Content-Type``) are ignored, and empty lines between
    messages are skipped (pygls skipped them). A frame that cannot be read past raises
    :class:`BrokenStream`: no ``Content-Length`` before the empty line, one that is not a
    number or is past :data:`MAX_BODY_BYTES`, a line that is no header, or the stream ending
    inside a message. The stream is then out of step (wherever the next message starts, it
    is not where the reader is), and going on would read every message after it as junk."""

    def __init__(self, stream: BinaryIO, max_body: int = MAX_BODY_BYTES) -> None:
        self.stream = stream
        self.max_body = max_body

    def next_body(self) -> bytes | None:
        """The next message's body; None if the stream ends between messages. Blocks."""
        length: int | None = None
        read = 0  # bytes of this message's headers
        while True:
            line = self.stream.readline(MAX_HEADER_BYTES + 1 - read)
            if read + len(line) > MAX_HEADER_BYTES:
                raise BrokenStream(f"a message's headers run past {MAX_HEADER_BYTES} bytes: {_shown(line)}")
            if not line.endswith(b"\n"):
                if not line and not read:
                    return None
                raise BrokenStream("the input ended inside a message's headers")
            content = line[:-2] if line.endswith(b"\r\n") else line[:-1]
            if not content:
                if not read:
                    continue  # an empty line between messages
                break
            read += len(line)
            name, colon, value = content.partition(b":")
            name = name.strip(b" \t")
            if not colon or not _TOKEN.fullmatch(name):
                raise BrokenStream(f"not a header line: {_shown(line)}")
            if name.lower() == b"content-length":
                given = self._length(value.strip(b" \t"))
                if length is not None and given != length:
                    raise BrokenStream(f"two Content-Length headers that differ: {length} and {given}")
                length = given
        if length is None:
            raise BrokenStream("a message without Content-Length")
        return self._body(length)

    def _length(self, value: bytes) -> int:
        if not value.isdigit():  # ASCII digits only, no sign
            raise BrokenStream(f"Content-Length is not a number: {_shown(value)}")
        digits = value.lstrip(b"0") or b"0"
        # Compared as text first: no huge int is made of a huge number.
        if len(digits) > len(str(self.max_body)) or int(digits) > self.max_body:
            raise BrokenStream(f"Content-Length {_shown(digits)} is past the limit of {self.max_body} bytes")
        return int(digits)

    def _body(self, length: int) -> bytes:
        try:
            body = self.stream.read(length)
            if len(body) < length:  # a stream without a buffer gives what has come: read on
                parts = [body]
                got = len(body)
                while got < length and (more := self.stream.read(length - got)):
                    parts.append(more)
                    got += len(more)
                body = b"".join(parts)
        except MemoryError:
            raise BrokenStream(f"no memory for a message of {length} bytes") from None
        if len(body) < length:
            raise BrokenStream(f"the input ended {len(body)} bytes into a message of {length}")
        return body


async def read_messages(
    stop: threading.Event,
    frames: Frames,
    protocol: JsonRPCProtocol,
    error_handler: Callable[[Exception, type[JsonRpcException]], Any],
    executor: Executor | None = None,
) -> None:
    """Hand each message read to the protocol, decoded with :func:`decode`, until the stream
    ends between messages or ``stop`` is set; each frame is read in ``executor`` (the loop
    goes on meanwhile). Raises :class:`BrokenStream` on a frame it cannot read past. The
    protocol's ``structure_message`` leaves every object as it is (see protocol.py), so no
    object hook is needed; a body that is not JSON goes to ``error_handler``, as in pygls's
    loop (``pygls.io_.run_async``), which answers it -32700."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        body = await loop.run_in_executor(executor, frames.next_body)
        if body is None:
            break
        try:
            protocol.handle_message(decode(body))
        except Exception as error:
            log.exception("Unable to handle message")
            error_handler(error, JsonRpcException)


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


def serve(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Serve LSP over stdio until the editor goes away or says ``exit`` (what pygls's
    ``LanguageServer.start_io`` does, with :func:`read_messages`); the process's exit status.

    0 when the editor closes stdin between messages; ``exit``'s as LSP has it (0 after
    ``shutdown``, else 1); 1 on a frame that cannot be read (:class:`BrokenStream`), said
    in one line of the log first, so that the editor starts the server again rather than
    talk to a server that can no longer read it."""
    widen(stdin)
    widen(stdout)
    server._stop_event = stop = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout))
    status = 0
    try:
        asyncio.run(read_messages(stop, Frames(stdin), server.protocol, server.report_server_error, server.thread_pool))
    except BrokenStream as error:
        status = 1
        logging.getLogger("sourcecheck").error(
            "the editor's messages cannot be read any more: %s; exiting (status 1) to be started again", error
        )
    except BrokenPipeError:
        status = 1
        log.error("Connection to the client is lost! Shutting down the server.")
    except SystemExit as done:  # ``exit``: pygls ends the process with LSP's status
        status = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
    except KeyboardInterrupt:
        status = 1
    finally:
        server.shutdown()
    return status
