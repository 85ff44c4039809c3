"""The bench runs: anyone can run it, so a refactoring that breaks it is caught here, not by
the next person who measures (its numbers are not asserted: speed is measured, not tested)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench import pipelines
from bench.sessiongen import generate

ROOT = Path(__file__).resolve().parent.parent


def test_the_server_rows_run_on_a_small_session_and_say_what_the_slowest_keystroke_was():
    done = subprocess.run(
        [sys.executable, "-m", "bench.run", "--sizes", "20K", "--only", "open,requests,typing,cli"]
        + ["--opens", "1", "--keystrokes", "5", "--no-verify"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "open to first diagnostics" in done.stdout
    assert "hover" in done.stdout and "CLI (sourcecheck --json)" in done.stdout
    typed = [line for line in done.stdout.splitlines() if "type a new annotation" in line]
    assert len(typed) == 4 and all("max" in line for line in typed), done.stdout
    # The slowest keystroke taken apart in process: what placing the annotations after it costs.
    (brace,) = [line for line in done.stdout.splitlines() if 'the "{" at the start, in process' in line]
    assert "placing again the" in brace and "annotations after it" in brace, brace


def test_the_pipeline_rows_run_in_process_on_small_inputs(tmp_path):
    texts = [generate(seed, documents=1, lines=4, annotations=3, broken=0.3).text(None) for seed in range(20)]
    rows = pipelines.in_process_rows(texts)
    assert any("sessions/s" in value for _, value, _ in rows)
    findings = pipelines.findings_rows(5)
    floors = [value for name, value, _ in findings if name.strip().startswith("floor:")]
    shares = [value for name, value, _ in findings if name.startswith("    ") or "part by part" in name]
    assert len(floors) == 2 and len(shares) == 4, findings  # the parts: analysis, ranges, fixes, the rest
    assert all(value.endswith("x") for value in floors + shares)
    small = tmp_path / "small.sourcecheck.json"
    small.write_text(generate(1, documents=2, lines=30, annotations=20, broken=0.2).text(), encoding="utf-8")
    parts = pipelines.big_json_rows(small, 1)
    assert parts and all(len(row) == 3 for row in parts)
