"""Files the commands write: whole or not at all, with the mode a user expects."""

import os

from sourcecheck.cli.files import write_atomically


def test_a_new_file_gets_the_usual_mode_not_the_temporary_files(tmp_path):
    umask = os.umask(0o022)
    try:
        target = tmp_path / "new.json"
        write_atomically(str(target), "{}")
        assert target.read_text() == "{}" and target.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(umask)


def test_a_replaced_file_keeps_its_mode_and_no_temporary_file_is_left(tmp_path):
    target = tmp_path / "kept.json"
    target.write_text("old")
    target.chmod(0o600)
    write_atomically(str(target), "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["kept.json"]
