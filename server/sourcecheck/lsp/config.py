"""Settings from the client (``workspace/configuration``, section ``sourcecheck``).

    sourcecheck.inlayHints.enabled     true   cited text after each ref
    sourcecheck.inlayHints.maxLength   40     characters of cited text shown before "…"
    sourcecheck.codeLens.enabled       true   verdicts on annotations, coverage on documents
    sourcecheck.maxFileSizeMB          64     files with more million characters are not checked

A bad value is logged and replaced by its default; a changed setting takes effect at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

log = logging.getLogger("sourcecheck")


@dataclass(frozen=True)
class Settings:
    inlay_hints: bool = True
    inlay_max_length: int = 40
    code_lens: bool = True
    max_file_size_mb: int = 64

    @classmethod
    def from_client(cls, value: Any) -> Settings:
        """Settings from the client's ``sourcecheck`` section, defaults where it says nothing."""
        section = value if isinstance(value, dict) else {}
        hints = section.get("inlayHints") if isinstance(section.get("inlayHints"), dict) else {}
        lens = section.get("codeLens") if isinstance(section.get("codeLens"), dict) else {}
        defaults = cls()
        return cls(
            inlay_hints=_boolean(hints.get("enabled"), defaults.inlay_hints, "inlayHints.enabled"),
            inlay_max_length=_number(hints.get("maxLength"), defaults.inlay_max_length, "inlayHints.maxLength", 4, 1000),
            code_lens=_boolean(lens.get("enabled"), defaults.code_lens, "codeLens.enabled"),
            max_file_size_mb=_number(section.get("maxFileSizeMB"), defaults.max_file_size_mb, "maxFileSizeMB", 1, 100_000),
        )


def _boolean(value: Any, default: bool, name: str) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    log.warning("sourcecheck.%s should be true or false, not %r; using %s", name, value, default)
    return default


def _number(value: Any, default: int, name: str, low: int, high: int) -> int:
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    log.warning("sourcecheck.%s should be a whole number from %s to %s, not %r; using %s", name, low, high, value, default)
    return default


def register(server: Any) -> None:
    from .server import SourceCheckServer, guarded

    async def apply(ls: SourceCheckServer, settings: Settings) -> None:
        if settings == ls.settings:
            return
        ls.settings = settings
        log.info("settings: %s", settings)
        await ls.refresh_views()

    async def ask(ls: SourceCheckServer) -> None:
        workspace = ls.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return
        try:
            answer = await ls.workspace_configuration_async(types.ConfigurationParams(items=[types.ConfigurationItem(section="sourcecheck")]))
        except Exception as error:  # an old or odd client: keep what we have
            log.warning("could not read the sourcecheck settings: %s", error)
            return
        await apply(ls, Settings.from_client(answer[0] if answer else None))

    @server.feature(types.INITIALIZED)
    @guarded()
    async def initialized(ls: SourceCheckServer, params: types.InitializedParams) -> None:
        await ask(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def changed(ls: SourceCheckServer, params: types.DidChangeConfigurationParams) -> None:
        pushed = params.settings.get("sourcecheck") if isinstance(params.settings, dict) else None
        if pushed is not None:  # clients that send the settings along
            await apply(ls, Settings.from_client(pushed))
        else:
            await ask(ls)
