"""Starts the language server.

sourcecheck-ls            LSP over stdio (``--stdio`` is accepted: clients append it)
sourcecheck-ls --tcp      LSP over TCP, for debugging (``--host``, ``--port``)
python -m sourcecheck.lsp
"""

from __future__ import annotations

import argparse
import logging
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ..core.display import EscapingParser
from ..version import __version__
from .runtime import configure_process
from .server import build_server
from .stdio import serve

log = logging.getLogger("sourcecheck")


class ClientLogHandler(logging.Handler):
    """Sends log records to the client's log (``window/logMessage``)."""

    LEVELS = {
        logging.ERROR: types.MessageType.Error,
        logging.WARNING: types.MessageType.Warning,
        logging.INFO: types.MessageType.Info,
    }

    def __init__(self, server: LanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server

    def emit(self, record: logging.LogRecord) -> None:
        try:
            kind = self.LEVELS.get(record.levelno, types.MessageType.Log)
            self.server.window_log_message(types.LogMessageParams(type=kind, message=self.format(record)))
        except Exception:  # the transport may be gone; stderr still has it
            pass


class OneLine(logging.Filter):
    """Keeps pygls's records to one line each: pygls logs what it cannot do with
    ``logger.exception`` (a message that is not JSON, say), which put a traceback on stderr
    for the editor's mistake. The exception's type and text stay, on the same line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.name.partition(".")[0] == "pygls":
            error = record.exc_info[1]
            if error is not None:
                record.msg, record.args = f"{record.getMessage()}: {type(error).__name__}: {error}", ()
            record.exc_info = record.exc_text = None
        return True


def build_parser() -> argparse.ArgumentParser:
    parser = EscapingParser(
        prog="sourcecheck-ls", description="The SourceCheck language server: live checking of SourceCheck sessions."
    )
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", action="store_true", help="listen for one client over TCP instead, for debugging")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="how much to log to stderr and the client",
    )
    parser.add_argument("--version", action="version", version=f"sourcecheck-ls {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_process()
    # stdout carries the protocol: every log line goes to stderr (and the client's log).
    logging.basicConfig(
        stream=sys.stderr, level=args.log_level, format="%(asctime)s %(name)s %(levelname)s: %(message)s"
    )
    logging.getLogger("pygls").setLevel(logging.WARNING)
    for handler in logging.getLogger().handlers:
        handler.addFilter(OneLine())
    server = build_server()
    client_log = ClientLogHandler(server)
    client_log.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(client_log)
    if args.tcp:  # pygls's own loop (for debugging): ``exit`` ends the process from inside it
        server.start_tcp(args.host, args.port)
        return 0 if server.protocol._shutdown else 1
    # 0 when the editor closes stdin; exit's status as LSP says (0 after shutdown, else 1);
    # 1 on a message the server cannot read past (see stdio.py).
    status = serve(server, sys.stdin.buffer, sys.stdout.buffer)
    server.documents.stop_all()  # else the process ends only once an analysis under way is done
    return status
