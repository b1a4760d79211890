"""Property: whatever document is written with setData (merge=false), getData gives it back
unchanged, and the form's validity (jsonschema-rs) is exactly the verdict of Python's jsonschema,
an independent implementation, given the same format checkers."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker

from deskcheck.engine.forms import FormState, compile_form, form_toolset
from deskcheck.engine.forms.schema.formats import CHECKERS
from tests.hypothesis_profiles import examples

SCHEMA = {
    "type": "object",
    "required": ["name", "address"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 20},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "score": {"type": "number", "exclusiveMaximum": 10},
        "email": {"type": "string", "format": "email"},
        "born": {"type": "string", "format": "date"},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 4},
        "kind": {"type": "string", "enum": ["a", "b", "c"]},
        "nick": {"type": ["string", "null"]},
        "address": {
            "type": "object",
            "required": ["city"],
            "properties": {"city": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
        },
        "contacts": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["label"],
                "properties": {"label": {"type": "string"}, "phone": {"type": "string"}},
            },
        },
        "extra": {"type": "object"},
    },
}

FORM = compile_form(SCHEMA, "roundtrip-v1")


def reference_validator(schema: dict) -> Draft202012Validator:
    checker = FormatChecker(formats=())
    for name, check in CHECKERS.items():
        checker.checks(name)(lambda value, check=check: not isinstance(value, str) or check(value))
    return Draft202012Validator(schema, format_checker=checker)


VALIDATOR = reference_validator(SCHEMA)

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.text(max_size=8))
texts = st.text(max_size=12)


def maybe_wrong(good):
    """Mostly values of the right shape, sometimes anything."""
    return st.one_of(good, good, good, scalars)


address = st.fixed_dictionaries(
    {},
    optional={
        "city": maybe_wrong(texts),
        "zip": maybe_wrong(st.one_of(st.from_regex(r"^[0-9]{5}$", fullmatch=True), texts)),
    },
)
contact = st.fixed_dictionaries({}, optional={"label": maybe_wrong(texts), "phone": maybe_wrong(texts)})
documents = st.fixed_dictionaries(
    {"name": maybe_wrong(texts), "address": maybe_wrong(address)},
    optional={
        "age": maybe_wrong(st.integers(-5, 200)),
        "score": maybe_wrong(st.floats(-20, 20, allow_nan=False)),
        "email": maybe_wrong(st.one_of(st.emails(), texts)),
        "born": maybe_wrong(st.one_of(st.dates().map(str), texts)),
        "tags": maybe_wrong(st.lists(texts, max_size=5)),
        "kind": maybe_wrong(st.sampled_from(["a", "b", "c", "d"])),
        "nick": st.one_of(st.none(), texts),
        "contacts": maybe_wrong(st.lists(contact, max_size=3)),
        "extra": maybe_wrong(st.dictionaries(st.text(max_size=4), scalars, max_size=3)),
    },
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_set_data_then_get_data_round_trips_and_validity_agrees(document):
    state = FormState(FORM, {"name": "start", "address": {"city": "x"}})
    tools = form_toolset(state)
    written = tools.call("form_setData", {"data": document, "merge": False})
    assert written.ok, written.error
    answer = json.loads(tools.call("form_getData", {}).value)
    assert answer["data"] == document
    assert answer["valid"] is VALIDATOR.is_valid(document)
    assert ("the form is valid" in written.value.splitlines()[0]) is answer["valid"]


@settings(max_examples=examples(60), deadline=None)
@given(documents)
def test_a_snapshot_of_any_document_rebuilds_the_same_state(document):
    state = FormState(FORM, document, base=document)
    again = FormState.from_snapshot(FORM, json.loads(json.dumps(state.snapshot())))
    assert again.document == state.document and again.valid == state.valid and not again.modified
