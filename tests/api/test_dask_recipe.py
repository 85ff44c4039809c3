"""The Dask recipe (docs/examples/dask_recipe.py): files cut into parts at line beginnings,
each part's reports written to a file of its own, on the local schedulers and on a
dask.distributed LocalCluster of two workers; read in order, what the command prints."""

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
distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "docs" / "examples" / "dask_recipe.py"
SMALL = 700  # bytes a part: every file here in several parts, lines across the boundaries


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
    made = [generate(seed, documents=2, lines=6, annotations=3, broken=0.3) for seed in range(8)]
    sessions = [json.dumps(generated.session) for generated in made]
    first = tmp_path / "first.jsonl"
    first.write_bytes(
        "\n".join([sessions[0], "", sessions[1], '{"documents": [', sessions[2]]).encode()
        + b"\r\n\xff\xfe\n"
        + sessions[3].replace(", ", ",\r ", 1).encode()  # a \r inside a line is no line break
        + b"\r\n"
        + sessions[6].encode()  # the last line without a newline
    )
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n")
    last = tmp_path / "last.jsonl"
    last.write_text(sessions[4] + "\n" + sessions[5] + "\n" + sessions[7] + "\n", encoding="utf-8")
    return [first, empty, last]


def test_the_parts_cut_every_file_at_line_beginnings(files):
    module = recipe()
    found = module.parts([str(p) for p in files], SMALL)
    assert [number for number, _, _ in found] == list(range(len(found)))
    for path in files:
        data = path.read_bytes()
        mine = [part for _, name, part in found if name == str(path)]
        assert len(mine) > 1 or len(data) <= SMALL
        assert all(data[part.start - 1 : part.start] in (b"", b"\n") for part in mine)
        assert [p.first_line for p in mine] == [data[: p.start].count(b"\n") + 1 for p in mine]


def test_objects_are_what_the_command_prints_for_the_same_files(files):
    module = recipe()
    _, expected, code = command(*files)
    assert code == 2 and len(expected) == 10
    with dask.config.set(scheduler="processes", num_workers=2):
        got = module.objects([str(p) for p in files], SMALL).compute()
    assert got == expected
    _, alone, _ = command(files[0])
    assert module.objects([str(files[0])], SMALL).compute(scheduler="threads") == alone
    with dask.config.set(scheduler="sync"):
        reports = module.reports([str(p) for p in files], SMALL).compute()
    assert [r.to_json() for r in reports] == [{k: v for k, v in o.items() if k != "file"} for o in expected]


def test_the_recipe_run_prints_the_commands_json_lines(files):
    module = recipe()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with mock.patch.object(sys, "stdout", out):
        code = module.main([str(p) for p in files] + ["--scheduler", "sync", "--blocksize", str(SMALL)])
    printed, _, expected_code = command(*files)
    assert (code, out.buffer.getvalue()) == (expected_code, printed)


def test_on_a_local_cluster_of_two_workers_each_part_is_written_to_its_own_file(files, tmp_path):
    from distributed import Client, LocalCluster

    module = recipe()
    out = tmp_path / "reports"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            written = module.write([str(p) for p in files], str(out), SMALL)
            workers = client.run(lambda: 1)
    assert len(workers) == 2
    printed, expected, code = command(*files)
    assert [Path(each["file"]).name for each in written] == [f"part-{n:06d}.jsonl" for n in range(len(written))]
    assert sorted(p.name for p in out.iterdir()) == [Path(each["file"]).name for each in written]  # no .partial
    assert b"".join(Path(each["file"]).read_bytes() for each in written) == printed
    assert sum(each["sessions"] for each in written) == len(expected)
    assert max(each["exit_code"] for each in written) == code
    assert all(set(each) == {"file", "sessions", "exit_code"} for each in written)  # no report held


def test_a_part_checked_again_replaces_its_file(files, tmp_path):
    module = recipe()
    out = tmp_path / "reports"
    with dask.config.set(scheduler="sync"):
        once = module.write([str(files[2])], str(out), SMALL)
        twice = module.write([str(files[2])], str(out), SMALL)
    assert once == twice and len(list(out.iterdir())) == len(once)
