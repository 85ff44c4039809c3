"""A folder of sessions: which files under a path are sessions, and under which configuration.

As ruff finds what to lint: every ``*.sourcecheck.json`` and ``*.sourcecheck.jsonl`` under a
folder (and what a configuration's ``include`` adds), leaving out what ``.gitignore`` files
ignore (those of the folders from the repository's root down), what a configuration's
``exclude`` or ``--exclude`` names, hidden folders and the usual folders of tools
(``node_modules``, ``.venv``, ``build``, ...); symbolic links to folders are not followed. A
file named on the command line is always checked.

The configuration is ``[tool.sourcecheck]`` of a ``pyproject.toml``, or a ``sourcecheck.toml``
(whose keys are at its top), found by walking up from each file's folder: the nearest one
wins (``sourcecheck.toml`` before ``pyproject.toml`` in one folder), as ruff's do. Its keys:

- ``include``: more glob patterns of sessions (relative to the configuration's folder);
- ``exclude``: glob patterns of files and folders to leave out (gitignore's syntax);
- ``fail-on``: verdicts that fail the check (a name or a list), as ``--fail-on``;
- ``output-format``: ``human``, ``json``, ``github`` or ``sarif``, as ``--format``;
- ``placeholder-confidence``: the confidence a new source gets when none is given (0 to 1).

A key this does not know, or a value of the wrong kind, is a :class:`ConfigError` naming the
file, the key and what is accepted. The CLI and the language server (workspace diagnostics)
both ask here; nothing is read that the walk does not list.
"""

from __future__ import annotations

import difflib
import math
import os
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .core.display import visible
from .formats import NAMES

if TYPE_CHECKING:
    import pathspec

SESSION_PATTERNS = ("*.sourcecheck.json", "*.sourcecheck.jsonl")
VERDICTS = ("unresolved", "unverified", "refuted", "contested", "weak")
SKIPPED = frozenset(
    {"node_modules", "__pycache__", "__pypackages__", "_build", "build", "dist", "buck-out", "site-packages", "venv"}
)
"""Folder names never walked into (besides hidden ones), as ruff's default ``exclude``."""
KEYS = ("include", "exclude", "fail-on", "output-format", "placeholder-confidence")


class ConfigError(Exception):
    """A configuration that cannot be used: one line for a person, naming the file and key."""


@dataclass(frozen=True)
class Config:
    """A configuration, and the folder its patterns are relative to (None: none was found)."""

    source: str | None = None  # the file it was read from
    folder: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    fail_on: frozenset[str] | None = None
    output_format: str | None = None
    placeholder_confidence: float | None = None
    _include: pathspec.PathSpec[Any] | None = field(default=None, compare=False, repr=False)
    _exclude: pathspec.PathSpec[Any] | None = field(default=None, compare=False, repr=False)

    def relative(self, path: str) -> str | None:
        if self.folder is None:
            return None
        relative = os.path.relpath(path, self.folder)
        return None if relative.startswith("..") else relative.replace(os.sep, "/")

    def excludes(self, path: str, is_dir: bool = False) -> bool:
        relative = self.relative(path)
        if relative is None or self._exclude is None:
            return False
        return self._exclude.match_file(relative + ("/" if is_dir else ""))

    def includes(self, path: str) -> bool:
        relative = self.relative(path)
        return relative is not None and self._include is not None and self._include.match_file(relative)


NO_CONFIG = Config()


def _table(path: str) -> dict[str, Any] | None:
    """The sourcecheck table of a configuration file (None: it has none, as a pyproject.toml
    without ``[tool.sourcecheck]``)."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{visible(path)}: cannot be read ({error.strerror or error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{visible(path)}: is not valid TOML ({visible(str(error))})") from None
    if os.path.basename(path) == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("sourcecheck") if isinstance(tool, dict) else None
        return table if isinstance(table, dict) else None
    return data


def _strings(where: str, key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ConfigError(f"{where}: `{key}` must be a string or a list of strings (glob patterns), not {_kind(value)}")


def _kind(value: Any) -> str:
    return visible(repr(value)) if isinstance(value, (int, float, bool, str)) else type(value).__name__


def parse(path: str, table: dict[str, Any]) -> Config:
    """The configuration that ``table`` (read from ``path``) says, checked key by key."""
    where = visible(path) + (" [tool.sourcecheck]" if os.path.basename(path) == "pyproject.toml" else "")
    for key in table:
        if key not in KEYS:
            near = difflib.get_close_matches(key, KEYS, 1)
            hint = f"; did you mean `{near[0]}`?" if near else f"; the keys are {', '.join(KEYS)}"
            raise ConfigError(f"{where}: unknown key `{visible(key)}`{hint}")
    include = _strings(where, "include", table.get("include", []))
    exclude = _strings(where, "exclude", table.get("exclude", []))
    fail_on = None
    if "fail-on" in table:
        names = _strings(where, "fail-on", table["fail-on"])
        unknown = [name for name in names if name not in VERDICTS]
        if unknown:
            raise ConfigError(
                f"{where}: `fail-on`: {visible(unknown[0])!r} is not a verdict; use {', '.join(VERDICTS)}"
            )
        fail_on = frozenset(names)
    output_format = table.get("output-format")
    if output_format is not None and output_format not in NAMES:
        raise ConfigError(f"{where}: `output-format` must be one of {', '.join(NAMES)}, not {_kind(output_format)}")
    confidence = table.get("placeholder-confidence")
    if confidence is not None and (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not math.isfinite(confidence)
        or not 0 <= confidence <= 1
    ):
        raise ConfigError(f"{where}: `placeholder-confidence` must be a number from 0 to 1, not {_kind(confidence)}")
    folder = os.path.dirname(os.path.abspath(path))
    return Config(
        path,
        folder,
        include,
        exclude,
        fail_on,
        output_format,
        float(confidence) if confidence is not None else None,
        gitignore_spec(include) if include else None,
        gitignore_spec(exclude) if exclude else None,
    )


def load(path: str) -> Config:
    """The configuration in ``path`` (a ``pyproject.toml`` without a sourcecheck table: none)."""
    table = _table(path)
    return parse(path, table) if table is not None else NO_CONFIG


class Configs:
    """The configuration of each folder, found by walking up (each folder looked at once)."""

    def __init__(self, named: str | None = None, isolated: bool = False) -> None:
        self.named = load(named) if named is not None else None  # --config: for every file
        self.isolated = isolated
        self.known: dict[str, Config] = {}

    def of(self, folder: str) -> Config:
        """The configuration that applies in ``folder``: the nearest one above it."""
        if self.named is not None:
            return self.named
        if self.isolated:
            return NO_CONFIG
        folder = os.path.abspath(folder)
        seen: list[str] = []
        found = NO_CONFIG
        while True:
            if folder in self.known:
                found = self.known[folder]
                break
            seen.append(folder)
            config = self._here(folder)
            if config is not None:
                found = config
                break
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for each in seen:
            self.known[each] = found
        return found

    @staticmethod
    def _here(folder: str) -> Config | None:
        for name in ("sourcecheck.toml", "pyproject.toml"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                table = _table(path)
                if table is not None:
                    return parse(path, table)
        return None


def _repository_root(folder: str) -> str | None:
    folder = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def gitignore_spec(lines: Iterable[str]) -> pathspec.PathSpec[Any]:
    """The gitignore-style patterns of ``lines``, as git reads them (``pathspec`` is imported
    with the first: a check of files named on the command line reads none)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


class Ignored:
    """What the ``.gitignore`` files say, from the repository's root down to each folder."""

    def __init__(self) -> None:
        self.specs: dict[str, pathspec.PathSpec[Any] | None] = {}

    def _spec(self, folder: str) -> pathspec.PathSpec[Any] | None:
        if folder not in self.specs:
            path = os.path.join(folder, ".gitignore")
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    self.specs[folder] = gitignore_spec(handle)
            except OSError:
                self.specs[folder] = None
        return self.specs[folder]

    def ignored(self, path: str, is_dir: bool, root: str | None) -> bool:
        """Whether a ``.gitignore`` of a folder above ``path`` (up to ``root``) ignores it."""
        if root is None:
            return False
        folder = os.path.dirname(path)
        while True:
            spec = self._spec(folder)
            if spec is not None:
                relative = os.path.relpath(path, folder).replace(os.sep, "/") + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
            if folder == root or os.path.dirname(folder) == folder:
                return False
            folder = os.path.dirname(folder)


@dataclass(frozen=True)
class Found:
    """A file to check, and the configuration it is checked under."""

    path: str
    config: Config


def _is_session(name: str) -> bool:
    return name.endswith((".sourcecheck.json", ".sourcecheck.jsonl"))


def sessions(
    paths: Iterable[str], configs: Configs, exclude: Iterable[str] = (), gitignore: bool = True
) -> Iterator[Found]:
    """The files to check under ``paths`` (files named are always checked; folders walked as
    the module's docstring says), each with its configuration, in a stable order."""
    patterns = list(exclude)
    extra = gitignore_spec(patterns) if patterns else None
    ignored = Ignored()
    cwd = os.getcwd()

    def left_out(path: str, is_dir: bool, config: Config, root: str | None) -> bool:
        relative = os.path.relpath(path, cwd).replace(os.sep, "/") + ("/" if is_dir else "")
        return (
            (extra is not None and extra.match_file(relative))
            or config.excludes(path, is_dir)
            or (gitignore and ignored.ignored(path, is_dir, root))
        )

    for given in paths:
        if given == "-" or not os.path.isdir(given):
            yield Found(given, configs.of(os.path.dirname(os.path.abspath(given)) if given != "-" else cwd))
            continue
        top = os.path.abspath(given)
        root = _repository_root(top)
        under: list[Found] = []
        for folder, folders, files in os.walk(top):
            config = configs.of(folder)
            folders[:] = sorted(
                name
                for name in folders
                if not name.startswith(".")
                and name not in SKIPPED
                and not left_out(os.path.join(folder, name), True, configs.of(os.path.join(folder, name)), root)
            )
            for name in sorted(files):
                path = os.path.join(folder, name)
                if not (_is_session(name) or config.includes(path)) or left_out(path, False, config, root):
                    continue
                shown = os.path.relpath(path) if not os.path.isabs(given) else path
                under.append(Found(shown, config))
        yield from sorted(under, key=lambda found: found.path)


__all__ = ["Config", "ConfigError", "Configs", "Found", "KEYS", "NO_CONFIG", "SESSION_PATTERNS", "load", "sessions"]
