"""One table of hostile strings through every output: none of their invisible, control,
bidirectional or tag characters reaches a person raw.

Each string is put where text from outside the program enters it: a session file's name, a
document's path, a key, a boundary string, a document's text. Then every output is made:
the check's human lines (stdout and stderr), GitHub annotations, SARIF, ``--json``,
``sync``, ``show``, the review report, and in the editor: diagnostics, hover, inlay hints,
code lenses, the outline, code actions. Each must show those characters only as escapes
(``core/display.py``'s ``visible``), or, in JSON, as ``\\u`` escapes of the same value.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from typing import Any

import pytest
from lsprotocol import types

from sourcecheck.cli.main import main
from sourcecheck.core.display import HIDDEN_CHARACTERS
from sourcecheck.lsp.features import actions, diagnostics, hints, hover, lens, symbols
from sourcecheck.review import render
from tests.support.views import doc, view_of, whole_range

HOSTILE = [
    "esc \x1b]0;OWNED\x07 title \x1b[31mred",
    "bidi \u202etxt.exe\u2066iso\u2069 \u200f\u061c",
    "zero\u200bwidth\u200c\u200d\u2060join \ufeffbom",
    "line\u2028sep\u2029para \x85nel",
    "c1 \x9b31m \x90dcs \x9c",
    "nul\x00 bel\x07 bs\x08 cr\r del\x7f",
    "tags \U000e0049\U000e0047\U000e004e\U000e004f\U000e0052\U000e0045 hidden",
    "soft\u00adhyphen filler\u3164 \u115f",
]
RAW = re.compile(f"[{HIDDEN_CHARACTERS}]".replace("\\x0b-\\x1f", "\\x0b\\x0c\\x0e-\\x1f"))
"""A raw hidden character (a line break or tab between lines of output is layout, not text)."""


def raw(text: str) -> list[str]:
    return sorted({f"U+{ord(ch):04X}" for ch in RAW.findall(text.replace("\r\n", "\n"))})


def hostile_session() -> dict[str, Any]:
    content = "\n".join(f"{text} ends here." for text in HOSTILE)
    documents = [{"path": f"notes {h}", "content": content} for h in HOSTILE[:2]]
    documents.append({"path": "article", "content": "The claim is here.\n" + content})
    annotations = []
    for index, text in enumerate(HOSTILE):
        line = index + 1
        annotations.append(
            {
                "claim": {"path": "article", "start": {"line": 1, "str": "claim"}, "end": {"line": 1, "str": "here"}},
                "sources": [
                    {  # resolves: its text holds the hostile characters
                        "path": documents[0]["path"],
                        "start": {"line": line, "str": text[:6]},
                        "end": {"line": line, "str": "ends here."},
                        "polarity": "supports",
                        "confidence": 0.9,
                    },
                    {  # does not resolve: the message quotes the hostile string
                        "path": documents[1]["path"],
                        "start": {"line": line, "str": text + " not there"},
                        "end": {"line": line, "str": "here"},
                        "polarity": "supports",
                        "confidence": 0.9,
                        f"key {text}": 1,  # an unknown key, named in its message
                    },
                    {  # an unknown path, named in its message
                        "path": f"gone {text}",
                        "start": {"line": 1, "str": "x"},
                        "end": {"line": 1, "str": "x"},
                        "polarity": f"support {text}",
                        "confidence": 0.9,
                    },
                ],
            }
        )
    return {"documents": documents, "annotations": annotations}


@pytest.fixture
def session_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    name = "s \x1b]0;OWNED\x07 \u202eevil.json"
    with open(name, "w", encoding="utf-8") as out:
        json.dump(hostile_session(), out, ensure_ascii=False, indent=2)
    for path in [d["path"] for d in hostile_session()["documents"]]:
        if "\x00" not in path:
            with contextlib.suppress(OSError):
                with open(os.path.join(tmp_path, path), "w", encoding="utf-8") as out:
                    out.write("changed on disk\n")
    return name


def run(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(list(args))
    return out.getvalue() + err.getvalue()


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--format", "github"],
        ["--format", "sarif"],
        ["--json"],
        ["--fail-on", "unverified"],
    ],
    ids=["human", "github", "sarif", "json", "fail-on"],
)
def test_no_command_output_holds_a_raw_hidden_character(session_file, args):
    said = run(*args, session_file)
    assert "OWNED" in said or "evil" in said  # the file was checked, and named
    assert raw(said) == []


def test_nor_do_the_writing_commands(session_file):
    for args in (["sync", session_file], ["sync", "--json", session_file], ["show", session_file, "article"]):
        assert raw(run(*args)) == [], args
    assert raw(run("report", session_file, "-o", "-")) == []
    assert raw(run("missing \x1b[2J \u202e.json")) == []  # the note that no such file exists


def text_of(value: Any) -> str:
    """Every string a client would show, from an LSP answer."""
    found: list[str] = []

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            for key, element in item.items():
                if key not in ("uri", "data"):
                    walk(element)
        elif isinstance(item, (list, tuple)):
            for element in item:
                walk(element)
        elif hasattr(item, "__attrs_attrs__"):
            for field in item.__attrs_attrs__:
                if field.name not in ("uri", "data"):
                    walk(getattr(item, field.name))

    walk(value)
    return "\n".join(found)


def test_no_editor_output_holds_a_raw_hidden_character():
    view = view_of(json.dumps(hostile_session(), ensure_ascii=False, indent=2))
    shown = [text_of(list(diagnostics.diagnostics(view).wires))]
    shown.append(text_of(hints.inlay_hints(view, types.InlayHintParams(text_document=doc(), range=whole_range(view)))))
    shown.append(text_of(symbols.document_symbols(view, types.DocumentSymbolParams(text_document=doc()))))
    lenses = lens.code_lenses(view, types.CodeLensParams(text_document=doc()))
    shown.append(text_of(lenses) + text_of([lens.resolve(view, item) for item in lenses]))
    context = types.CodeActionContext(diagnostics=[])
    shown.append(text_of(actions.code_actions(view, types.CodeActionParams(doc(), whole_range(view), context))))
    text = view.text
    for offset in range(0, len(text), 7):  # a hover at every few characters
        position = view.position(offset)
        answer = hover.hover(view, types.HoverParams(text_document=doc(), position=position))
        if answer is not None:
            shown.append(text_of(answer))
    assert raw("\n".join(shown)) == []


def test_the_review_page_holds_none_outside_its_json_data_either():
    page = render(view_of(json.dumps(hostile_session(), ensure_ascii=False)).analysis, "s \u202e.json")
    assert raw(page) == []
