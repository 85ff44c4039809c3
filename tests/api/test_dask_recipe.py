"""The Dask recipe (docs/examples/dask_recipe.py) on the local scheduler gives what the command prints."""

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from bench.sessiongen import generate

dask = pytest.importorskip("dask")  # the [test] extra installs it; [dask] for users

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "docs" / "examples" / "dask_recipe.py"


def recipe():
    spec = importlib.util.spec_from_file_location("dask_recipe", RECIPE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def command(*paths):
    done = subprocess.run([sys.executable, "-m", "sourcecheck", "--json", *map(str, paths)], capture_output=True)
    return done.stdout, [json.loads(line) for line in done.stdout.splitlines()], done.returncode


@pytest.fixture
def files(tmp_path):
    made = [generate(seed, documents=2, lines=6, annotations=3, broken=0.3) for seed in range(6)]
    sessions = [json.dumps(generated.session) for generated in made]
    first = tmp_path / "first.jsonl"
    first.write_bytes(
        "\n".join([sessions[0], "", sessions[1], '{"documents": [', sessions[2]]).encode()
        + b"\r\n\xff\xfe\n"
        + sessions[3].replace(", ", ",\r ", 1).encode()  # a \r inside a line is no line break
    )
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n")
    last = tmp_path / "last.jsonl"
    last.write_text(sessions[4] + "\n" + sessions[5] + "\n", encoding="utf-8")
    return [first, empty, last]


def test_objects_are_what_the_command_prints_for_the_same_files(files):
    module = recipe()
    _, expected, code = command(*files)
    assert code == 2 and len(expected) == 8
    got = module.objects([str(p) for p in files]).compute(scheduler="processes", num_workers=2)
    assert got == expected
    _, alone, _ = command(files[0])
    assert module.objects([str(files[0])]).compute(scheduler="threads") == alone
    reports = module.reports([str(p) for p in files]).compute(scheduler="sync")
    assert [r.to_json() for r in reports] == [{k: v for k, v in o.items() if k != "file"} for o in expected]


def test_the_recipe_run_prints_the_commands_json_lines(files):
    module = recipe()
    out = io.StringIO()
    with mock.patch.object(sys, "stdout", out):
        code = module.main([str(p) for p in files] + ["--scheduler", "sync"])
    printed, _, expected_code = command(*files)
    assert (code, out.getvalue()) == (expected_code, printed.decode())


def test_blocks_of_one_file_checked_apart_give_each_session_alone(files):
    module = recipe()
    _, expected, _ = command(files[2])
    found = module.quick([str(files[2])], blocksize=500).compute(scheduler="threads")
    assert [r.to_json() for r in found] == [{k: v for k, v in o.items() if k != "line"} for o in expected]
