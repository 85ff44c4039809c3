"""The JSON Schema of both session shapes agrees with the checker on what is well-formed."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "sourcecheck.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)
GOOD = ["spec-example", "worked-example", "orbit-article"]
# Findings a schema can see; the others (resolution, duplicates, warnings) need the checker.
# The invalid-field fixture writes a line as 1.0, which JSON Schema counts as an integer.
SCHEMA_VISIBLE = ["bad-polarity", "bad-confidence", "empty-sources", "unknown-field"]


def test_the_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", GOOD)
def test_good_sessions_of_both_shapes_validate(name):
    VALIDATOR.validate(json.loads((ROOT / "fixtures" / f"{name}.sourcecheck.json").read_text()))


@pytest.mark.parametrize("code", SCHEMA_VISIBLE)
def test_schema_errors_are_schema_invalid(code):
    instance = json.loads((ROOT / "fixtures" / "broken" / f"{code}.sourcecheck.json").read_text())
    assert not VALIDATOR.is_valid(instance)


def test_every_field_is_described():
    def walk(node):
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                assert "description" in value or "$ref" in value, key
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(SCHEMA)
