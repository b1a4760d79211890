"""Validation (jsonschema-rs) as the form shows it: drafts, our messages and the schema's
errorMessage, the order errors come in, regular-expression dialect and limits, schemas with
broken parts, values JSON has no type for."""

from __future__ import annotations

import datetime
import threading

import pytest

from deskcheck.engine.forms import FormState, compile_form
from deskcheck.engine.forms.schema.validation import draft_of
from tests.forms.support import Form


def errors_of(schema: dict, data) -> dict[str, str]:
    return {e.path: e.message for e in Form(schema, data).state.errors}


@pytest.mark.parametrize(
    ("declared", "draft"),
    [
        ("http://json-schema.org/draft-04/schema#", 4),
        ("http://json-schema.org/draft-06/schema#", 6),
        ("http://json-schema.org/draft-07/schema#", 7),
        ("https://json-schema.org/draft-07/schema", 7),
        ("https://json-schema.org/draft/2019-09/schema", 2019),
        ("https://json-schema.org/draft/2020-12/schema", 2020),
        ("http://json-schema.org/draft-03/schema#", 4),
        ("https://example.org/my-dialect", 2020),
    ],
)
def test_the_draft_comes_from_dollar_schema(declared, draft):
    assert draft_of({"$schema": declared}) == draft


def test_without_dollar_schema_draft_7_shapes_are_read_as_draft_7():
    assert draft_of({"definitions": {"a": {}}}) == 7
    assert draft_of({"properties": {"t": {"items": [{"type": "string"}]}}}) == 7
    assert draft_of({"properties": {"t": {"prefixItems": [{"type": "string"}]}}}) == 2020
    assert draft_of({"type": "object"}) == 2020
    # Without the detection the tuple would not be checked at all under 2020-12.
    tuple_schema = {"type": "object", "properties": {"pair": {"type": "array", "items": [{"type": "string"}]}}}
    assert errors_of(tuple_schema, {"pair": [1]}) == {"/pair/0": "must be a string"}


def test_draft_4_exclusive_bounds_and_draft_7_dependencies_read_in_our_words():
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"m": {"type": "number", "minimum": 3, "exclusiveMinimum": True}},
    }
    assert errors_of(draft4, {"m": 3}) == {"/m": "must be more than 3"}
    assert errors_of(draft4, {"m": 3.5}) == {}
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}},
        "dependencies": {"card": ["cvv"]},
    }
    assert errors_of(draft7, {"card": "4242"}) == {"/cvv": "required when a related field is set"}


def test_error_message_overrides_by_keyword_by_required_property_and_default():
    schema = {
        "type": "object",
        "required": ["name", "code"],
        "errorMessage": {"required": {"name": "Give the association's name."}},
        "properties": {
            "name": {"type": "string"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "errorMessage": {"pattern": "three capitals"}},
            "mail": {"type": "string", "format": "email", "errorMessage": "an address like a@b.org"},
            "n": {"type": "integer", "minimum": 1, "errorMessage": {"_": "a positive whole number"}},
        },
    }
    assert errors_of(schema, {"code": "ab", "mail": "nope", "n": 0}) == {
        "/name": "Give the association's name.",
        "/code": "three capitals",
        "/mail": "an address like a@b.org",
        "/n": "a positive whole number",
    }
    # A required property without its own message gets ours.
    assert errors_of(schema, {"name": "x"})["/code"] == "required: give this field a value"


def test_a_field_shows_the_error_of_the_keyword_the_schema_declares_first():
    # (Different titles: the compile cache reads a schema's content without its key order.)
    length_first = {"title": "L", "properties": {"c": {"type": "string", "maxLength": 3, "pattern": "^[0-9]+$"}}}
    pattern_first = {"title": "P", "properties": {"c": {"type": "string", "pattern": "^[0-9]+$", "maxLength": 3}}}
    assert errors_of(length_first, {"c": "abcdef"}) == {"/c": "must be at most 3 characters long"}
    assert errors_of(pattern_first, {"c": "abcdef"}) == {"/c": "must match the pattern ^[0-9]+$"}


def test_a_list_drawn_as_one_field_shows_the_error_of_its_first_item():
    schema = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "maxLength": 4}}}}
    assert errors_of(schema, {"tags": ["much too long", None]}) == {"/tags": "must be at most 4 characters long"}
    assert errors_of(schema, {"tags": [None, "much too long"]}) == {"/tags": "must be a string"}


def test_variants_and_conditions_resolve_references_in_the_whole_schema():
    schema = {
        "$defs": {
            "person": {"type": "object", "required": ["first"], "properties": {"first": {"type": "string"}}},
            "company": {"type": "object", "required": ["siret"], "properties": {"siret": {"type": "string"}}},
            "french": {"properties": {"country": {"const": "fr"}}, "required": ["country"]},
        },
        "type": "object",
        "properties": {
            "party": {"oneOf": [{"$ref": "#/$defs/person"}, {"$ref": "#/$defs/company"}]},
            "address": {
                "type": "object",
                "properties": {"country": {"type": "string"}, "zip": {"type": "string"}},
                "if": {"$ref": "#/$defs/french"},
                "then": {"required": ["zip"]},
            },
        },
    }
    form = Form(schema, {"party": {"siret": "123"}, "address": {"country": "fr"}})
    assert "siret" in form.call("describeState", path="/party")  # the company branch was recognised
    assert {e.path: e.message for e in form.state.errors} == {"/address/zip": "required: give this field a value"}


def test_a_catastrophic_back_reference_pattern_is_stopped_and_reported_on_its_field():
    schema = {"type": "object", "properties": {"evil": {"type": "string", "pattern": "^(a|a)*\\1$"}}}
    answer: dict[str, str] = {}

    def validate() -> None:  # in its own thread: the JavaScript engine is per thread
        from deskcheck.engine.forms.schema.expressions import engine_loaded

        answer.update(errors_of(schema, {"evil": "a" * 40 + "b"}))
        answer["engine"] = str(engine_loaded())

    thread = threading.Thread(target=validate)
    thread.start()
    thread.join(60)
    assert answer["/evil"].startswith("could not be checked against the pattern ^(a|a)*\\1$")
    assert answer["engine"] == "False", "stopped by the regex engine's backtracking limit, not by JavaScript"
    assert errors_of(schema, {"evil": "aa"}) == {}


def test_patterns_only_javascript_reads_are_tested_in_the_javascript_engine():
    schema = {
        "type": "object",
        "properties": {
            "twice": {"type": "string", "pattern": "^(?<w>[a-z]+)-\\k<w>$"},  # a named back-reference
            "any": {"type": "string", "pattern": "^[^]$"},  # [^] matches any character, line breaks too
            "broken": {"type": "string", "pattern": "(unclosed"},
        },
    }
    assert errors_of(schema, {"twice": "ab-ab", "any": "\n"}) == {}
    errors = errors_of(schema, {"twice": "ab-cd", "any": "xy", "broken": "x"})
    assert errors["/twice"] == "must match the pattern ^(?<w>[a-z]+)-\\k<w>$"
    assert errors["/any"] == "must match the pattern ^[^]$"
    assert errors["/broken"].startswith("could not be checked against the pattern (unclosed")


def test_pattern_dialect_is_javascript_s():
    schema = {
        "type": "object",
        "properties": {
            "word": {"type": "string", "pattern": "^\\w+$"},
            "space": {"type": "string", "pattern": "^\\s$"},
            "dot": {"type": "string", "pattern": "^.$"},
        },
    }
    # \w is ASCII, \s includes the no-break space, . is one code point but not a line break.
    assert errors_of(schema, {"word": "abc_1", "space": "\u00a0", "dot": "😀"}) == {}
    errors = errors_of(schema, {"word": "été", "space": "x", "dot": "\n"})
    assert set(errors) == {"/word", "/space", "/dot"}


def test_a_broken_keyword_is_left_out_and_named_while_the_rest_is_checked():
    schema = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": "2"},
            "age": {"type": "strnig"},
            "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
            "other": {"not": {"$ref": "#/$defs/missing"}},
        },
    }
    form = Form(schema, {"name": "x", "age": 3, "zip": "abc"})
    assert {e.path: e.message for e in form.state.errors} == {"/zip": "must match the pattern ^[0-9]{5}$"}
    text = form.call("describeState")
    assert "Not checked (a part of the schema deskcheck cannot use):" in text
    assert '- /properties/name/minLength: "2" is not valid JSON Schema there, so it is not checked' in text
    assert '- /properties/age/type: "strnig" is not valid JSON Schema there, so it is not checked' in text
    assert "$ref '#/$defs/missing' leads nowhere" in text
    assert "the form is valid" in form.call("setFieldValue", path="/zip", value="75001")
    assert "Not checked" not in Form({"type": "object"}, {}).call("describeState")


def test_a_reference_to_another_document_is_never_fetched():
    schema = {"type": "object", "properties": {"a": {"not": {"$ref": "https://example.invalid/schema.json"}}}}
    form = Form(schema, {"a": 1})
    assert form.state.valid, "a `not` whose schema cannot be read refuses nothing"
    assert (
        "- /properties/a/not: $ref 'https://example.invalid/schema.json' is not followed "
        "(https://example.invalid/schema.json is another document, and this schema is read on its own)"
    ) in form.call("describeState")


def test_yaml_dates_are_validated_as_their_iso_text():
    schema = {
        "type": "object",
        "properties": {"day": {"type": "string", "format": "date"}, "n": {"type": "integer"}},
        "examples": [{"day": datetime.date(2025, 1, 2)}],
    }
    state = FormState(compile_form(schema), {"day": datetime.date(2025, 6, 15), "n": "x"})
    assert {e.path: e.message for e in state.errors} == {"/n": "must be an integer"}


def test_formats_we_do_not_check_are_annotations():
    schema = {
        "type": "object",
        "properties": {"d": {"type": "string", "format": "duration"}, "r": {"type": "string", "format": "iri"}},
    }
    assert errors_of(schema, {"d": "not a duration", "r": "::"}) == {}
    assert errors_of({"type": "string", "format": "date"}, "2025-02-30") == {"/": "must be a date such as 2025-06-15"}
