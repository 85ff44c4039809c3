"""Diagnostics, as a function of a view: every finding on its exact value, JSON written once
and kept while an edit cannot have moved it."""

import json
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.features.diagnostics import MAX_DIAGNOSTICS, diagnostics, range_json, report, too_large
from sourcecheck.lsp.wire import Shifted
from tests.support.helpers import claim, crafted, session, source
from tests.support.lsp_support import value_at
from tests.support.views import (
    ENCODINGS,
    FIXTURES,
    URI,
    doc,
    edited,
    fixture,
    per_encoding,
    range_text,
    same_for_every_encoding,
    session_text,
    view_of,
)

BROKEN = sorted((FIXTURES / "broken").glob("*.json"))
CRAFTED = session_text(crafted())
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "hint": types.DiagnosticSeverity.Hint,
}


def written(view):
    """Each diagnostic's JSON text, as it goes on the wire."""
    return [json.dumps(wire) for wire in json.loads(diagnostics(view).encoded)]


def wire_range(wire):
    return types.Range(start=types.Position(**wire["start"]), end=types.Position(**wire["end"]))


def test_every_finding_code_is_a_diagnostic_on_its_exact_json_value():
    assert len(BROKEN) == 19
    for path in BROKEN:
        text, code = path.read_text(encoding="utf-8"), path.name.split(".")[0]
        found = diagnostics(view_of(text)).wires
        assert code in {d["code"] for d in found}, code
        root = None if code == "invalid-json" else json.loads(text)
        for wire, finding in zip(found, Analysis(text).findings, strict=True):
            assert (wire["code"], wire["message"], wire["source"]) == (finding.code, finding.message, "sourcecheck")
            assert wire["severity"] == SEVERITY[finding.severity.value], code
            if root is not None and finding.code != "duplicate-key":
                assert json.loads(range_text(text, wire_range(wire["range"]))) == value_at(root, finding.pointer), code


def test_calling_diagnostics_twice_on_the_same_view_gives_the_same_json():
    view = view_of(CRAFTED)
    found = diagnostics(view)
    assert json.loads(found.encoded) == found.wires and len(found) == 11  # the JSON text is the list
    assert [d.code for d in found] == [w["code"] for w in found.wires]  # read as lsprotocol Diagnostics
    first = found.encoded
    assert diagnostics(view).encoded == first
    assert first == diagnostics(view_of(CRAFTED)).encoded  # and the same as a fresh view's


def test_the_ambiguous_boundary_lists_every_occurrence_inside_the_content_in_every_encoding():
    value = {
        "documents": [{"path": "d", "content": "🚀 中文 said and 😬 said"}, {"path": "e", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "d", "start": {"line": 1, "str": "said"}, "end": {"line": 1, "str": "😬"}},
                "sources": [
                    {
                        "path": "e",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    text = session_text(value, indent=None)

    def occurrences(encoding):
        (ambiguous,) = [
            d for d in diagnostics(view_of(text, encoding=encoding)).wires if d["code"] == "boundary-ambiguous"
        ]
        related = ambiguous["relatedInformation"]
        assert all(info["location"]["uri"] == URI for info in related)
        return [
            (info["message"].split(":")[0], range_text(text, wire_range(info["location"]["range"]), encoding))
            for info in related
        ]

    expected = [("occurrence 1 of 2, column 6", "said"), ("occurrence 2 of 2, column 17", "said")]
    assert per_encoding(occurrences) == same_for_every_encoding(expected)


def test_an_ambiguous_boundary_moved_by_whole_lines_keeps_its_related_locations_in_the_content():
    """An annotation pasted before it moves its diagnostic down; the occurrences it lists
    are in a document's content, before the edit: they stay as written, in every encoding."""
    value = {
        "documents": [{"path": "d", "content": "🚀 中文 said and 😬 said"}, {"path": "e", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "d", "start": {"line": 1, "str": "said"}, "end": {"line": 1, "str": "😬"}},
                "sources": [source(path="e", start=(1, "ok"), end=(1, "ok"))],
            }
        ],
    }
    text = session_text(value)
    pasted = json.dumps(value["annotations"][0]) + ",\n"
    for encoding in ENCODINGS:
        view = view_of(text, encoding=encoding)
        (before,) = [d for d in diagnostics(view).wires if d["code"] == "boundary-ambiguous"]
        at = view.analysis.node(("annotations", 0)).start
        after = [d for d in diagnostics(edited(view, at, at, pasted)).wires if d["code"] == "boundary-ambiguous"]
        moved = after[-1]
        assert moved["range"]["start"]["line"] == before["range"]["start"]["line"] + 1
        assert moved["relatedInformation"] is before["relatedInformation"]  # kept, not written again
        assert after == diagnostics(view_of(text[:at] + pasted + text[at:], encoding=encoding)).wires


def fourth_annotation(view):
    """Where the fourth annotation of the crafted session starts: its findings and the next
    one's come after, those of the first three before."""
    return view.analysis.node(("annotations", 3)).start


def test_after_an_edit_a_diagnostic_before_it_keeps_its_json_and_one_after_a_new_line_moves():
    view = view_of(CRAFTED)
    before = written(view)
    at = fourth_annotation(view)
    after = written(edited(view, at, at, "\n"))
    assert [json.loads(d)["code"] for d in after[-2:]] == ["empty-sources", "boundary-not-found"]
    assert after[:-2] == before[:-2]  # byte for byte
    for old, new in zip(before[-2:], after[-2:], strict=True):
        old, new = json.loads(old), json.loads(new)
        assert new["range"]["start"]["line"] == old["range"]["start"]["line"] + 1
        assert new["range"]["start"]["character"] == old["range"]["start"]["character"]
    assert after == written(view_of(CRAFTED[:at] + "\n" + CRAFTED[at:]))


@given(st.lists(st.integers(min_value=0, max_value=2**31 - 1), min_size=4, max_size=4))
def test_a_moved_diagnostic_s_range_is_written_as_json_dumps_writes_it(numbers):
    # A diagnostic moved by whole lines has its range written again in front of the rest of
    # its JSON text: the bytes must be those json.dumps (and so pygls) would send.
    start = {"line": numbers[0], "character": numbers[1]}
    end = {"line": numbers[2], "character": numbers[3]}
    assert range_json(*numbers) == json.dumps({"range": {"start": start, "end": end}})[:-1]


def test_diagnostics_moved_twice_read_as_values_and_as_lsp_objects_are_those_built_afresh():
    # A diagnostic moved by whole lines is kept as its first value and its new range (made a
    # dict only when read): read back, after two Enters above it, it is what a fresh build says.
    view = view_of(CRAFTED)
    diagnostics(view)
    at = fourth_annotation(view)
    once = edited(view, at, at, "\n")
    diagnostics(once)
    twice = edited(once, at, at, "\n")
    moved = diagnostics(twice)
    fresh = diagnostics(view_of(twice.text))
    assert moved.encoded == fresh.encoded
    assert sum(isinstance(item, Shifted) for item in moved.items) == 2  # kept as moved, not built again
    assert moved.wires == fresh.wires
    assert moved[-1] == fresh[-1] and moved[-1].range.start.line == diagnostics(view)[-1].range.start.line + 2


def test_a_kept_diagnostic_is_not_written_again():
    view = view_of(CRAFTED)
    first = diagnostics(view)
    at = fourth_annotation(view)
    again = diagnostics(edited(view, at, at, "\n"))
    # Those of the first three annotations are the very JSON values built before (the
    # document's own finding, first, is checked afresh with its document).
    assert all(again.wires[i] is first.wires[i] for i in range(1, 9))
    assert again.wires[-1] is not first.wires[-1]  # moved: written again


def test_an_edit_earlier_on_the_same_line_moves_a_diagnostic_by_its_width_in_the_clients_encoding():
    value = crafted()
    value["documents"].insert(0, {"path": "notes", "content": "nobody cites this"})
    text = session_text(value, indent=None)  # one line: every finding after the edit's place
    at = text.index("nobody")

    def shifts(encoding):
        view = view_of(text, encoding=encoding)
        before = [json.loads(w) for w in written(view)]
        after_edit = edited(view, at, at, "🚀中 ")
        after = [json.loads(w) for w in written(after_edit)]
        assert written(after_edit) == written(view_of(after_edit.text, encoding=encoding))  # as a fresh view has them
        return {
            new["range"]["start"]["character"] - old["range"]["start"]["character"]
            for old, new in zip(before, after, strict=True)
        }

    assert per_encoding(shifts) == {"utf-16": {4}, "utf-8": {8}, "utf-32": {3}}


def test_an_edit_after_every_finding_keeps_them_all():
    view = view_of(CRAFTED)
    before = written(view)
    end = CRAFTED.rindex("}")
    assert written(edited(view, end, end, "\n")) == before


def test_an_edit_that_fixes_a_finding_drops_only_its_diagnostic():
    view = view_of(CRAFTED)
    before = written(view)
    at = CRAFTED.index('"reprot"')
    after = written(edited(view, at + 1, at + 7, "report"))
    assert [json.loads(d)["code"] for d in after].count("unknown-path") == 0
    assert len(after) == len(before) - 1
    assert after == written(view_of(CRAFTED[: at + 1] + "report" + CRAFTED[at + 7 :]))


def test_a_view_in_another_encoding_does_not_reuse_diagnostics_written_for_the_first():
    value = session([{"claim": claim("article", (1, "outcome"), (1, "positive")), "sources": [source(polarity="x")]}])
    value["documents"][1]["content"] = "🚀 中文 " + value["documents"][1]["content"]
    text = session_text(value, indent=None)  # the finding sits after the emoji
    utf16 = view_of(text, encoding=ENCODINGS[0])
    diagnostics(utf16)
    utf8 = replace(utf16, client=replace(utf16.client, encoding=ENCODINGS[1]))  # same analysis, same memo
    assert written(utf8) == written(view_of(text, encoding=ENCODINGS[1]))
    assert written(utf8) != written(view_of(text, encoding=ENCODINGS[0]))


def test_past_the_limit_one_note_says_how_many_findings_there_are():
    value = session([{"claim": claim(), "sources": [source(polarity="x")]} for _ in range(MAX_DIAGNOSTICS + 5)])
    found = diagnostics(view_of(session_text(value)))
    assert len(found) == MAX_DIAGNOSTICS + 1
    note = found.wires[0]
    assert note["code"] == "too-many-findings" and note["severity"] == types.DiagnosticSeverity.Information
    assert note["message"].startswith(f"{MAX_DIAGNOSTICS + 5} findings; the first {MAX_DIAGNOSTICS} are shown")


def test_a_file_too_large_gets_one_warning_at_its_start_naming_the_limit():
    (note,) = too_large(70_000_000, 64).wires
    assert note["code"] == "file-too-large" and note["severity"] == types.DiagnosticSeverity.Warning
    assert note["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    assert "70 million characters" in note["message"] and "sourcecheck.maxFileSizeMB (64)" in note["message"]


def test_a_pull_report_is_unchanged_when_the_client_has_this_versions_diagnostics():
    view = view_of(fixture("broken/unknown-path"))
    full = report(view, types.DocumentDiagnosticParams(text_document=doc()))
    assert isinstance(full, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in full.items] == ["unknown-path"]
    same = report(view, types.DocumentDiagnosticParams(text_document=doc(), previous_result_id=full.result_id))
    assert isinstance(same, types.RelatedUnchangedDocumentDiagnosticReport) and same.result_id == full.result_id
    at = view.text.index('"reprot"')
    newer = report(
        edited(view, at, at, " "),
        types.DocumentDiagnosticParams(text_document=doc(), previous_result_id=full.result_id),
    )
    assert isinstance(newer, types.RelatedFullDocumentDiagnosticReport) and newer.result_id != full.result_id


def _findings_everywhere(documents_last: bool, count: int, ensure_ascii: bool = True) -> str:
    """A session whose annotations have findings all along (ambiguous boundaries with their
    related locations, boundaries not found, a misspelt polarity), its documents before or
    after them (an emoji and CJK in them, raw or escaped), two of them on one line."""
    documents = [
        {"path": "notes", "content": "the cat \U0001f431 and the dog\nthe end of the line, the end\nplain words here"},
        {"path": "other", "content": "alpha \u65e5\u672c beta\nbeta gamma beta"},
    ]
    annotations = []
    for index in range(count):
        kind = index % 4
        start = {"line": 1, "str": "the"} if kind == 0 else {"line": 2, "str": "the end"}
        end = {"line": 1, "str": "dog"} if kind != 2 else {"line": 3, "str": "missing"}
        annotations.append(
            {
                "claim": {"path": "notes", "start": {"line": 3, "str": "plain"}, "end": {"line": 3, "str": "here"}},
                "sources": [
                    {
                        "path": "other" if kind == 3 else "notes",
                        "start": {"line": 2, "str": "beta"} if kind == 3 else start,
                        "end": {"line": 2, "str": "gamma"} if kind == 3 else end,
                        "polarity": "suports" if index % 5 == 0 else "supports",
                        "confidence": 0.9,
                    }
                ],
            }
        )
    value = {"annotations": annotations, "documents": documents} if documents_last else session(annotations, documents)
    text = json.dumps(value, indent=2, ensure_ascii=ensure_ascii)
    # two annotations on one line: an edit before the second moves its columns, not its line
    return text.replace("}\n    },\n    {", "}\n    }, {", 1)


EDITS = st.lists(
    st.tuples(st.sampled_from(["letter", "enter", "join", "space", "brace"]), st.floats(min_value=0, max_value=1)),
    min_size=1,
    max_size=8,
)
PLACES = {
    "letter": (re.compile(r"(?<=[a-z])(?=[a-z])"), "x", 0),  # a letter typed in a word (a value or a key)
    "enter": (re.compile(r'(?<=[,{\[]) ?(?=\s*")'), "\n      ", 0),  # a line broken before a key or an item
    "join": (re.compile(r"\n +(?=\")"), "", -1),  # a line joined with the one before (its break removed)
    "space": (re.compile(r"(?<=:) "), "  ", 1),  # a space widened after a key
    "brace": (re.compile(r"\{"), "", 1),  # an object's brace deleted: the JSON breaks, and is checked whole
}


def keystroke(text: str, kind: str, where: float) -> tuple[int, int, str]:
    pattern, inserted, removed = PLACES[kind]
    places = list(pattern.finditer(text))
    match = places[int(where * (len(places) - 1))]
    if removed < 0:  # the whole match
        return match.start(), match.end(), inserted
    return match.start(), match.start() + removed, inserted


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.booleans(), st.sampled_from(ENCODINGS), EDITS)
def test_typing_anywhere_among_many_findings_sends_what_a_fresh_build_sends(documents_last, escaped, encoding, edits):
    # The diagnostics before an edit and those on the lines after it are taken from the last
    # version's as runs (moved by the lines an Enter adds or removes); what the edit touched is
    # built. Keystroke after keystroke, what is sent is byte for byte a fresh build's, in the
    # client's encoding.
    text = _findings_everywhere(documents_last, 24, escaped)
    view = view_of(text, encoding=encoding)
    diagnostics(view)
    for kind, where in edits:
        at, end, inserted = keystroke(view.text, kind, where)
        new_text = view.text[:at] + inserted + view.text[end:]
        analysis = Analysis.incremental(new_text, view.analysis, (at, end, inserted)) or Analysis(new_text)
        view = replace(view, version=view.version + 1, analysis=analysis)
        sent, fresh = diagnostics(view), diagnostics(view_of(new_text, encoding=encoding))
        assert sent.encoded == fresh.encoded
        assert sent.wires == fresh.wires


def test_related_locations_are_not_placed_again_after_an_edit_that_took_every_diagnostic_as_it_was():
    # An Enter at the start of the annotations takes every diagnostic as it was (moved a line):
    # nothing asks that version for its contents' maps. The `{` typed next moves each finding
    # to a new path; the ambiguous boundaries' related locations, in the documents before, are
    # still those built first (the maps handed on), not placed again for each.
    view = view_of(_findings_everywhere(False, 24))
    first = diagnostics(view)
    at = view.text.index("[", view.text.index('"annotations"')) + 1
    entered = edited(view, at, at, "\n    ")
    diagnostics(entered)
    braced = edited(entered, at + 5, at + 5, "{")
    after = diagnostics(braced)
    assert after.encoded == diagnostics(view_of(braced.text)).encoded
    related = [item for item in first.items if isinstance(item, dict) and item.get("relatedInformation")]
    assert len(related) > 10
    kept = [item.base if isinstance(item, Shifted) else item for item in after.items]
    assert all(any(wire is value for value in kept) for wire in related)
