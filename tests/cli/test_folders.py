"""A folder of sessions (`sourcecheck .`): every session under it, .gitignore honoured, a
configuration found by walking up from each file (workspace.py, cli/folders.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.command import sc

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "orbit-article.sourcecheck.json"  # 1 contested claim


@pytest.fixture(autouse=True)
def repository(tmp_path, monkeypatch):
    """A repository of sessions: two checked, one in node_modules, one hidden, one ignored by
    .gitignore, one excluded by the configuration, and a JSON file that is not a session."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    (tmp_path / ".git").mkdir()
    for place in ("docs/a", "docs/a/deep", "node_modules/pkg", ".cache", "build-output", "drafts"):
        (tmp_path / place).mkdir(parents=True, exist_ok=True)
    for place in ("docs/a/one", "docs/a/deep/two", "node_modules/pkg/n", ".cache/h", "build-output/b", "drafts/d"):
        shutil.copy(FIXTURE, tmp_path / f"{place}.sourcecheck.json")
    (tmp_path / "docs" / "package.json").write_text("{}")
    (tmp_path / ".gitignore").write_text("build-output/\n")
    (tmp_path / "pyproject.toml").write_text('[tool.sourcecheck]\nexclude = ["drafts/"]\nfail-on = "contested"\n')
    return tmp_path


def test_a_folder_is_every_session_under_it_but_what_is_ignored_or_excluded(capsys):
    code, out, err = sc(capsys, "--show-files", ".")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "docs/a/deep/two.sourcecheck.json  (pyproject.toml)",
        "docs/a/one.sourcecheck.json  (pyproject.toml)",
    ]
    code, out, _ = sc(capsys, ".")
    assert code == 1  # fail-on = "contested", from the configuration: each has a contested claim
    assert out.count("failed: 1 contested (--fail-on)") == 2


def test_the_command_line_wins_a_named_file_is_always_checked_and_isolated_ignores_the_configuration(capsys):
    assert sc(capsys, "--fail-on", "refuted", ".")[0] == 0  # --fail-on over fail-on
    code, out, _ = sc(capsys, "--show-files", "drafts/d.sourcecheck.json", "--exclude", "docs/a/deep/", "docs")
    assert out.splitlines() == [
        "drafts/d.sourcecheck.json  (pyproject.toml)",
        "docs/a/one.sourcecheck.json  (pyproject.toml)",
    ]
    code, out, _ = sc(capsys, "--isolated", "--show-files", ".")
    assert "drafts/d.sourcecheck.json" in out.splitlines() and "(pyproject.toml)" not in out
    assert sc(capsys, "--isolated", ".")[0] == 0


def test_the_nearest_configuration_wins_sourcecheck_toml_before_pyproject(capsys, repository):
    (repository / "docs" / "a" / "deep" / "sourcecheck.toml").write_text('output-format = "json"\n')
    code, out, _ = sc(capsys, "--show-files", ".")
    assert "docs/a/deep/two.sourcecheck.json  (docs/a/deep/sourcecheck.toml)" in out.splitlines()
    code, out, _ = sc(capsys, "docs/a/deep")
    assert code == 0 and json.loads(out)["exit_code"] == 0  # output-format = "json"; no fail-on there
    code, out, _ = sc(capsys, "--config", "docs/a/deep/sourcecheck.toml", "--show-files", ".")
    assert "drafts/d.sourcecheck.json  (docs/a/deep/sourcecheck.toml)" in out.splitlines()


@pytest.mark.parametrize(
    "text, said",
    [
        ('[tool.sourcecheck]\nfail_on = "weak"\n', "unknown key `fail_on`; did you mean `fail-on`?"),
        ('[tool.sourcecheck]\nfail-on = ["contstested"]\n', "`fail-on`: 'contstested' is not a verdict; use"),
        ("[tool.sourcecheck]\nexclude = 3\n", "`exclude` must be a string or a list of strings"),
        ('[tool.sourcecheck]\noutput-format = "xml"\n', "`output-format` must be one of human, json, github, sarif"),
        ("[tool.sourcecheck]\nplaceholder-confidence = 70\n", "`placeholder-confidence` must be a number from 0 to 1"),
        ("[tool.sourcecheck\n", "is not valid TOML"),
    ],
)
def test_a_bad_configuration_is_one_line_naming_the_file_and_the_key(capsys, repository, text, said):
    (repository / "pyproject.toml").write_text(text)
    code, out, err = sc(capsys, ".")
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("sourcecheck: configuration: ") and "pyproject.toml" in err and said in err


def test_a_pyproject_without_a_sourcecheck_table_is_passed_by_and_a_folder_without_sessions_said(capsys, repository):
    (repository / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    assert sc(capsys, ".")[0] == 0  # no configuration: no fail-on
    (repository / "empty").mkdir()
    code, out, err = sc(capsys, "empty")
    assert code == 0 and out == "" and "empty: holds no session (*.sourcecheck.json, *.jsonl)" in err


def test_a_link_to_a_folder_is_not_walked_into(capsys, repository):
    (repository / "docs" / "loop").symlink_to(repository, target_is_directory=True)
    code, out, _ = sc(capsys, "--show-files", "docs")
    assert len(out.splitlines()) == 2


def test_the_placeholder_confidence_of_a_configuration_is_what_add_and_import_give(capsys, repository):
    (repository / "sourcecheck.toml").write_text("placeholder-confidence = 0.4\n")
    (repository / "notes.txt").write_text("The flag is optional.\n")
    (repository / "article.md").write_text("Flags are optional.\n")
    assert sc(capsys, "new", "article.md", "notes.txt", "-o", "s.sourcecheck.json")[0] == 0
    code, out, err = sc(
        capsys, "add", "s.sourcecheck.json", "--claim", "article.md", "Flags are optional.", "--supports",
        "notes.txt", "The flag is optional.",
    )  # fmt: skip
    assert code == 0, err
    (source,) = json.loads((repository / "s.sourcecheck.json").read_text())["annotations"][0]["sources"]
    assert source["confidence"] == 0.4
