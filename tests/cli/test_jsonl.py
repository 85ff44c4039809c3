"""JSON Lines: each line a session checked alone, streamed in and out, in every format."""

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.sessiongen import generate
from sourcecheck import check, check_lines
from tests.support.command import run_main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
AMBIGUOUS = json.dumps(json.loads((FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json").read_text()))
GOOD = json.dumps(json.loads((FIXTURES / "spec-example.sourcecheck.json").read_text()), ensure_ascii=False)


def objects(data):
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def small(seed):
    return generate(seed, documents=2, lines=6, annotations=3, broken=0.3).session


LINE = st.one_of(
    st.integers(0, 10_000).map(lambda seed: json.dumps(small(seed), ensure_ascii=False)),
    st.integers(0, 10_000).map(lambda seed: json.dumps(small(seed), ensure_ascii=False, separators=(",", ":"))),
    st.sampled_from(["", "  ", "\t", '{"documents": [', "[1, 2]", "nonsense", GOOD, AMBIGUOUS, "\ufeff" + GOOD]),
)


@settings(max_examples=30)
@given(st.lists(LINE, min_size=0, max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_each_line_is_the_session_checked_alone(lines, ending, final_newline):
    text = ending.join(lines) + (ending if final_newline and lines else "")
    expected = [{"line": number, **check(line).to_json()} for number, line in enumerate(lines, 1) if line.strip(" \t")]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sessions.jsonl"
        path.write_bytes(text.encode("utf-8"))
        code, out, _ = run_main("--json", path)
        assert objects(out) == expected
        assert code == max((o["exit_code"] for o in expected), default=0)
        assert [r.to_json() for r in check_lines(path)] == expected
        assert [r.to_json() for r in check_lines(io.StringIO(text, newline=""))] == expected
        code_in, out_in, _ = run_main("--jsonl", "--json", "-", stdin=text.encode("utf-8"))
        assert (code_in, out_in) == (code, out)


def test_a_broken_line_is_reported_with_its_number_and_the_rest_checked(tmp_path):
    path = tmp_path / "batch.jsonl"
    path.write_bytes(
        b"\n".join([GOOD.encode(), b'{"documents": [', b"", b"\xff" + GOOD.encode(), AMBIGUOUS.encode()]) + b"\n"
    )
    code, out, err = run_main("--json", path)
    found = objects(out)
    assert code == 2
    assert [(o["line"], o["exit_code"]) for o in found] == [(1, 0), (2, 2), (4, 2), (5, 1)]
    assert found[1]["findings"][0]["code"] == "invalid-json"
    assert found[2] == {
        "line": 4,
        "exit_code": 2,
        "error": f"{path}:4: is not UTF-8 text (byte 0xff at offset 0, line 1); save it as UTF-8",
        "findings": [],
        "refs": [],
    }
    assert err == f"sourcecheck: {path}:4: is not UTF-8 text (byte 0xff at offset 0, line 1); save it as UTF-8\n"
    assert found[3]["findings"][0]["code"] == "boundary-ambiguous"


def test_the_size_limit_is_for_a_line_not_the_file(tmp_path):
    path = tmp_path / "big.jsonl"
    many = (GOOD + "\n") * (1_500_000 // len(GOOD))  # 1.5 MB of small sessions
    huge = json.dumps({"documents": [{"path": "a", "content": "x" * 1_200_000}], "annotations": []})
    path.write_text(many + huge + "\n" + GOOD + "\n", encoding="utf-8")
    code, out, err = run_main("--json", "--max-size-mb", "1", path)
    found = objects(out)
    count = many.count("\n")
    assert len(found) == count + 2 and code == 2
    assert all(o["exit_code"] == 0 for o in found[:count]) and found[-1] == {"line": count + 2, **check(GOOD).to_json()}
    assert found[count]["error"] == f"{path}:{count + 1}: is 1 MB, more than the limit of 1 MB; raise it with " + (
        "--max-size-mb to read it"
    )


def test_human_github_and_sarif_place_each_finding_on_its_line(tmp_path):
    path = tmp_path / "batch.jsonl"
    path.write_text(f"{GOOD}\n\n{AMBIGUOUS}\n", encoding="utf-8")
    column = AMBIGUOUS.index('"the"') + 1
    code, out, _ = run_main(path)
    human = out.decode().splitlines()
    assert code == 1
    assert human[0] == f"{path}:1: ok: 2 refs: 2 resolved, 0 failed; no findings"
    assert human[2].startswith(f"{path}:3:{column}: error[boundary-ambiguous] ")
    assert human[3].startswith("  3 | ")
    assert f"{path}:3: failed: 2 refs: 1 resolved, 1 failed; 1 error" in human
    assert human[-1] == f"{path}: failed: 2 sessions (JSON Lines): 1 ok, 1 failed, 0 invalid"
    _, out, _ = run_main("--format", "github", path)
    errors = [line for line in out.decode().splitlines() if line.startswith("::error")]
    assert errors[0].startswith(f"::error file={path},line=3,col={column},endLine=3,endColumn={column + 5},")
    _, out, _ = run_main("--format", "sarif", path)
    (result,) = json.loads(out)["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endLine"]) == (3, column, 3)


def test_several_inputs_each_object_names_its_file(tmp_path):
    lines = tmp_path / "a.jsonl"
    lines.write_text(f"{GOOD}\n{AMBIGUOUS}\n", encoding="utf-8")
    single = FIXTURES / "spec-example.sourcecheck.json"
    code, out, _ = run_main("--json", lines, single, tmp_path / "missing.jsonl")
    found = objects(out)
    assert code == 2
    assert [(o["file"], o.get("line"), o["exit_code"]) for o in found] == [
        (str(lines), 1, 0),
        (str(lines), 2, 1),
        (str(single), None, 0),
        (str(tmp_path / "missing.jsonl"), None, 2),
    ]
    assert found[2] == {"file": str(single), **check(single).to_json()}
    assert found[3]["error"].endswith("missing.jsonl: no such file")


def test_an_empty_file_holds_no_session(tmp_path):
    path = tmp_path / "none.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    assert run_main("--json", path)[:2] == (0, b"")
    code, out, _ = run_main(path)
    assert (code, out.decode()) == (0, f"{path}: ok: no sessions (no line that is not blank)\n")


def test_a_file_far_larger_than_the_limit_is_read_a_line_at_a_time(tmp_path):
    """10 MB of sessions with --max-size-mb 1: read whole, it would be refused (and held)."""
    path = tmp_path / "many.jsonl"
    line = (json.dumps(small(1), ensure_ascii=False) + "\n").encode()
    count = 10_000_000 // len(line)
    path.write_bytes(line * count)
    done = subprocess.run(
        [sys.executable, "-c", SPY, "--max-size-mb", "1", "--jobs", "1", str(path)],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "server")},
        timeout=600,
    )
    *_, total, peak = done.stdout.decode().splitlines()
    assert f": {count} sessions (JSON Lines): " in total
    assert int(peak) < 8_000_000, "more memory than a few lines' worth: was the file read whole?"


# The command, then how much more memory its peak held than before it read anything.
SPY = """
import resource, sys
from sourcecheck.cli.main import main
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
code = main(sys.argv[1:])
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


def test_a_reader_that_stops_reading_ends_the_run_without_a_traceback(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text((GOOD + "\n") * 3000, encoding="utf-8")  # some 2 MB of reports: more than a pipe holds
    process = subprocess.Popen(
        [sys.executable, "-m", "sourcecheck", "--json", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert json.loads(first)["line"] == 1
    assert err == ""  # quietly, as any command that a reader stops reading


def test_a_fifo_of_json_lines_is_refused_at_once_whatever_its_name(tmp_path):
    """Issue 35 item 13 / issue 38: opening a FIFO to read its lines waited for a writer forever."""
    for name, flags in (("s.jsonl", []), ("feed", ["--jsonl"])):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        done = subprocess.run(
            [sys.executable, "-m", "sourcecheck", *flags, str(fifo)], capture_output=True, text=True, timeout=20
        )
        assert done.returncode == 2 and "is a pipe or socket, not a regular file" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_check_lines_refuses_a_fifo_at_once(tmp_path):
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    found = []
    reader = threading.Thread(target=lambda: found.extend(check_lines(fifo)), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # waiting for a writer: give it one, so that the test ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
        raise AssertionError("check_lines waited on a FIFO")
    (report,) = found
    assert report.exit_code == 2 and "is a pipe or socket" in (report.error or "")
