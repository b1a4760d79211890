"""Every field whose value could not be checked against its pattern says so (issue 15, item 11).

jsonschema-rs 0.61 drops the "backtrack limit exceeded" error of all but one field when it
validates a whole document (and all of them once another error is present), so patterns that
need backtracking are tested by deskcheck one value at a time (``engine.forms.patterns``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine import jsonpointer
from deskcheck.engine.forms.schema.patterns import needs_backtracking, pattern_verdict
from deskcheck.engine.forms.schema.validation import SchemaValidator

from .support import Form

SLOW = "a" * 5000 + "c"


def errors(schema, data) -> dict[str, str]:
    return {e.path: e.message for e in Form(schema, data).state.errors}


def test_two_fields_that_cannot_be_checked_both_say_so():
    """The reproduction of the issue."""
    schema = {
        "type": "object",
        "properties": {
            "first": {"type": "string", "pattern": "^(a+)\\1*b$"},
            "second": {"type": "string", "pattern": "^(a*)*\\1$"},
            "short": {"type": "string", "maxLength": 1},
        },
    }
    found = errors(schema, {"first": SLOW, "second": SLOW, "short": "xx"})
    assert found["/second"].startswith("could not be checked against the pattern ^(a*)*\\1$")
    assert "/first" in found  # decided (no match) or not checkable: either way, reported
    assert found["/short"].startswith("must NOT have more than 1 character") or "/short" in found
    assert set(found) == {"/first", "/second", "/short"}


@pytest.mark.parametrize(
    ("schema", "data", "paths"),
    [
        (
            {
                "type": "array",
                "items": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a*)*\\1$"}}},
            },
            [{"code": SLOW}, {"code": "aa"}, {"code": SLOW}, {"code": SLOW}],
            {"/0/code", "/2/code", "/3/code"},
        ),
        (
            {"type": "object", "additionalProperties": {"type": "string", "pattern": "(?=(a*)*\\1$)a"}},
            {"x": SLOW, "y": SLOW},
            {"/x", "/y"},
        ),
        (
            {
                "$defs": {"code": {"type": "string", "pattern": "^(a*)*\\1$"}},
                "type": "object",
                "properties": {"a": {"$ref": "#/$defs/code"}, "b": {"$ref": "#/$defs/code"}},
            },
            {"a": SLOW, "b": SLOW},
            {"/a", "/b"},
        ),
        (
            {
                "type": "object",
                "properties": {
                    "a": {"allOf": [{"pattern": "^(a*)*\\1$"}, {"pattern": "^(?!(a*)*\\1$)"}]},
                    "b": {"type": "string", "pattern": "^(a*)*\\1$"},
                },
            },
            {"a": SLOW, "b": SLOW},
            {"/a", "/b"},
        ),
    ],
    ids=["array items", "additionalProperties", "$ref", "allOf"],
)
def test_every_value_that_could_not_be_checked_is_reported(schema, data, paths):
    found = SchemaValidator(schema).iter_errors(data)
    assert {jsonpointer.join(e.path) for e in found if e.undecided} == paths


def test_a_pattern_that_needs_backtracking_still_gives_real_verdicts():
    schema = {"type": "object", "properties": {"twice": {"type": "string", "pattern": "^(ab)\\1$"}}}
    assert errors(schema, {"twice": "abab"}) == {}
    assert errors(schema, {"twice": "abba"}) == {"/twice": "must match the pattern ^(ab)\\1$"}


def test_property_names_that_cannot_be_checked_are_reported_too():
    schema = {"type": "object", "propertyNames": {"pattern": "^(a*)*\\1$"}}
    found = SchemaValidator(schema).iter_errors({SLOW: 1, "aa": 2, SLOW + "x": 3})
    assert [e.text for e in found] == ["could not be checked against the pattern"] * 2


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("^(a+)+$", False),
        ("^[a-z]{3}\\d+$", False),
        ("(?<name>x)", False),
        ("[\\1(?=]", False),
        ("\\\\1", False),
        ("(a)\\1", True),
        ("(?<n>a)\\k<n>", True),
        ("a(?=b)", True),
        ("a(?!b)", True),
        ("(?<=a)b", True),
        ("(?<!a)b", True),
        ("[]](?=x)", True),
    ],
)
def test_which_patterns_need_backtracking(pattern, expected):
    assert needs_backtracking(pattern) is expected


@given(st.text(alphabet="ab", max_size=30))
def test_the_bounded_test_agrees_with_python_where_both_decide(text):
    import re

    for pattern in ("^(a|b)\\1*$", "^(?=a)(ab)+$", "^(a+)(?!b)"):
        verdict = pattern_verdict(pattern, text)
        assert verdict is None or verdict == bool(re.search(pattern, text))
