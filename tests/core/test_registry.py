"""One registry of finding codes (core/registry.py): the rules, the SARIF log and the docs all
take each code from it, and what is written from it is current."""

from pathlib import Path

from sourcecheck.core import registry, rules
from sourcecheck.formats.sarif import sarif_rule

ROOT = Path(__file__).resolve().parents[2]


def test_docs_rules_md_the_readme_and_docs_codes_md_are_written_from_the_registry():
    assert registry.findings_table() in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert registry.findings_table(quoted=True) in (ROOT / "README.md").read_text(encoding="utf-8")
    assert (ROOT / "docs" / "codes.md").read_text(encoding="utf-8") == registry.codes_page(), (
        "docs/codes.md is not current: run scripts/regenerate-docs"
    )


def test_the_rules_report_each_code_with_the_registrys_severity_and_exit_code():
    assert rules.SEVERITY is registry.SEVERITY and rules.EXIT_CLASS is registry.EXIT_CLASS
    codes = [rule.code for rule in registry.RULES]
    assert len(codes) == len(set(codes))  # each code once
    for rule in registry.FINDINGS:
        assert (rule.severity.value == "error") == (rule.exit_code > 0), rule.code


def test_each_sarif_rule_is_its_registry_entry():
    for rule in registry.RULES:
        written = sarif_rule(rule.code)
        assert written["id"] == rule.code and written["shortDescription"]["text"] == rule.title + "."
        assert rule.meaning in written["fullDescription"]["text"] and rule.fix in written["help"]["text"]
        assert written["properties"]["exitCode"] == rule.exit_code
