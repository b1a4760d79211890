"""Variant selectors (object-level oneOf): activation, refused indices, errors of the active
variant only, repeated unions listed once."""

from __future__ import annotations

import pytest

from .support import Form

SHAPES = {
    "type": "object",
    "properties": {
        "shape": {
            "type": "object",
            "title": "Shape",
            "oneOf": [
                {
                    "title": "Circle",
                    "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "title": "Radius"}},
                },
                {
                    "title": "Rect",
                    "properties": {
                        "kind": {"const": "rect"},
                        "w": {"type": "number", "title": "Width"},
                        "h": {"type": "number", "title": "Height"},
                    },
                },
            ],
        }
    },
}

STRICT_SHAPES = {
    "type": "object",
    "properties": {
        "shape": {
            "type": "object",
            "oneOf": [
                {
                    "title": "Circle",
                    "required": ["radius"],
                    "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
                },
                {
                    "title": "Rect",
                    "required": ["w", "h"],
                    "properties": {"kind": {"const": "rect"}, "w": {"type": "number"}, "h": {"type": "number"}},
                },
            ],
        }
    },
}


def test_first_matching_variant_is_active_and_its_constant_shown_not_written():
    form = Form(SHAPES, {"shape": {}})
    assert form.data() == {"shape": {}}, "a loaded record is not changed"
    text = form.call("describeState")
    assert "variant 0: Circle (active)" in text
    assert "variant 1: Rect" in text and "variant 1: Rect (active)" not in text
    assert '- /shape/$oneOf/0/kind (select, values=["circle"]) label="kind" value=unset' in text


def test_a_state_that_fills_defaults_writes_the_active_variants_constant():
    form = Form(SHAPES, {"shape": {}}, fill_defaults=True)
    assert form.data() == {"shape": {"kind": "circle"}}


def test_switching_lists_the_fields_of_the_chosen_variant():
    form = Form(SHAPES, {"shape": {"kind": "circle", "radius": 3}})
    answer = form.call("setFieldValue", path="/shape/$oneOf", value=1)
    assert "chosen variant" in answer
    assert "/shape/$oneOf/1/w" in answer and "Width" in answer and "Height" in answer
    assert form.data() == {"shape": {"kind": "rect"}}, "the circle's radius leaves with its variant"
    assert "variant 1: Rect (active)" in form.call("describeState")


@pytest.mark.parametrize("index", ["1", " 1 ", 1.0])
def test_digit_strings_and_integral_numbers_choose_a_variant(index):
    form = Form(SHAPES, {"shape": {}})
    form.call("setFieldValue", path="/shape/$oneOf", value=index)
    assert form.data() == {"shape": {"kind": "rect"}}


@pytest.mark.parametrize("index", ['"0"', 7, -1, "rect", True, 0.5])
def test_bad_variant_indices_are_refused_and_nothing_changes(index):
    form = Form(SHAPES, {"shape": {}})
    message = form.error("setFieldValue", path="/shape/$oneOf", value=index)
    assert "variant" in message and "variant 0: Circle, variant 1: Rect" in message
    assert form.data() == {"shape": {}}


def test_an_ordinary_write_lists_no_variant_fields():
    form = Form(SHAPES, {"shape": {}})
    answer = form.call("setFieldValue", path="/shape/$oneOf/0/radius", value=2)
    assert "chosen variant" not in answer
    assert answer.splitlines()[0] == "/shape/$oneOf/0/radius (number) = 2"


def test_only_the_active_variant_reports_errors():
    form = Form(STRICT_SHAPES, {"shape": {"kind": "circle"}})
    form.call("setFieldValue", path="/shape/$oneOf", value=1)
    text = form.call("describeState")
    listed = text.split("Errors:\n")[1].split("\n\n")[0].splitlines()
    assert sorted(line.split(":")[0][2:] for line in listed) == ["/shape", "/shape/$oneOf/1/h", "/shape/$oneOf/1/w"]
    assert "radius" not in "\n".join(listed)
    form.call("setFieldValue", path="/shape/w", value=2)
    answer = form.call("setFieldValue", path="/shape/h", value=3)
    assert answer.endswith("the form is valid")
    assert form.state.valid and form.data() == {"shape": {"kind": "rect", "w": 2, "h": 3}}


def test_suggestions_of_a_variant_selector_are_its_variants():
    form = Form(SHAPES, {"shape": {}})
    answer = form.call("getFieldSuggestions", path="/shape/$oneOf")
    assert "[0] Circle" in answer and "[1] Rect" in answer
    form.call("setFieldValue", path="/shape/$oneOf", suggestionIndex=1)
    assert form.data() == {"shape": {"kind": "rect"}}


RECURSIVE = {
    "type": "object",
    "$defs": {
        "element": {
            "type": "object",
            "oneOf": [
                {"title": "Text", "properties": {"type": {"const": "text"}, "content": {"type": "string"}}},
                {
                    "title": "Group",
                    "properties": {
                        "type": {"const": "group"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/element"}},
                    },
                },
            ],
        }
    },
    "properties": {"elements": {"type": "array", "items": {"$ref": "#/$defs/element"}}},
}


def test_a_repeated_union_is_listed_once_per_answer_and_again_on_request():
    form = Form(RECURSIVE, {})
    first = form.call("editArray", path="/elements", action="add")
    assert "- variant 0: Text" in first
    form.call("setFieldValue", path="/elements/0/$oneOf", value=1)
    nested = form.call("editArray", path="/elements/0/children", action="add")
    assert "- variant 0: Text" not in nested
    assert "2 variants (variant 0: Text active), the same list as for /elements/0/$oneOf" in nested
    assert "describeState /elements/0/$oneOf/1/children/0/$oneOf" in nested
    asked = form.call("describeState", path="/elements/0/$oneOf/1/children/0/$oneOf")
    assert "- variant 0: Text (active)" in asked and "- variant 1: Group" in asked
    full = form.call("describeState")
    assert full.count("- variant 1: Group") == 1, "a whole read lists each union once"


def test_with_nothing_listed_yet_every_union_is_printed():
    form = Form(RECURSIVE, {"elements": [{"type": "text"}, {"type": "group", "children": []}]})
    text = form.call("describeState", path="/elements/1/$oneOf")
    assert "- variant 0: Text" in text and "- variant 1: Group (active)" in text


def test_a_discriminator_picks_the_variant_and_is_printed():
    schema = {
        "type": "object",
        "properties": {
            "pet": {
                "type": "object",
                "discriminator": {"propertyName": "kind"},
                "oneOf": [
                    {"title": "Cat", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}},
                    {"title": "Dog", "properties": {"kind": {"const": "dog"}, "bark": {"type": "string"}}},
                ],
            }
        },
    }
    form = Form(schema, {"pet": {"kind": "dog"}})
    text = form.call("describeState")
    assert '- variant 1: Dog (kind="dog") (active)' in text


def test_a_header_of_one_of_items_is_not_a_variant():
    schema = {
        "type": "object",
        "properties": {
            "shape": {
                "type": "object",
                "oneOfLayout": {
                    "oneOfItems": [
                        {"header": True, "title": "Round shapes"},
                        {"key": 0, "title": "A circle"},
                        {"header": True, "title": "Square shapes"},
                        {"key": 1, "title": "A rectangle"},
                    ]
                },
                "oneOf": SHAPES["properties"]["shape"]["oneOf"],
            }
        },
    }
    form = Form(schema, {"shape": {"kind": "rect"}})
    text = form.call("describeState")
    assert "- variant 0: A circle\n" in text and "- variant 1: A rectangle (active)" in text
    assert "Round shapes" not in text and "Square shapes" not in text
    listed = form.call("getFieldSuggestions", path="/shape/$oneOf")
    assert "[0] A circle" in listed and "[1] A rectangle" in listed and "shapes" not in listed
