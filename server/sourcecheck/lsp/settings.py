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
        section: dict[str, Any] = value if isinstance(value, dict) else {}
        hints: dict[str, Any] = section["inlayHints"] if isinstance(section.get("inlayHints"), dict) else {}
        lens: dict[str, Any] = section["codeLens"] if isinstance(section.get("codeLens"), dict) else {}
        defaults = cls()
        return cls(
            inlay_hints=_boolean(hints.get("enabled"), defaults.inlay_hints, "inlayHints.enabled"),
            inlay_max_length=_number(
                hints.get("maxLength"), defaults.inlay_max_length, "inlayHints.maxLength", 4, 1000
            ),
            code_lens=_boolean(lens.get("enabled"), defaults.code_lens, "codeLens.enabled"),
            max_file_size_mb=_number(
                section.get("maxFileSizeMB"), defaults.max_file_size_mb, "maxFileSizeMB", 1, 100_000
            ),
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
    log.warning(
        "sourcecheck.%s should be a whole number from %s to %s, not %r; using %s", name, low, high, value, default
    )
    return default
