"""Defaults, constants and empty values: what the form writes on its own, and what it leaves
for the document to decide."""

from __future__ import annotations

from .support import Form

SCHEMA = {
    "type": "object",
    "required": ["settings", "agree", "items"],
    "properties": {
        "title": {"type": "string", "default": "Untitled"},
        "settings": {
            "type": "object",
            "properties": {"size": {"type": "integer", "default": 10}, "unit": {"type": "string"}},
        },
        "optional": {"type": "object", "properties": {"level": {"type": "integer", "default": 3}}},
        "agree": {"type": "boolean"},
        "items": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
        "note": {"type": ["string", "null"]},
        "version": {"const": 2},
    },
}


def test_defaults_fill_what_exists_and_required_containers_start_empty():
    form = Form(SCHEMA, {})
    assert form.data() == {
        "title": "Untitled",
        "settings": {"size": 10},
        "agree": False,
        "items": [],
        "version": 2,
    }
    assert "optional" not in form.data(), "an optional object stays absent until something is written in it"
    assert form.line("/optional/level").endswith("value=unset")
    form.call("setFieldValue", path="/optional/level", value=5)
    assert form.data("/optional") == {"level": 5}


def test_a_default_comes_back_when_its_field_is_emptied():
    form = Form(SCHEMA, {"title": "Mine"})
    form.call("setFieldValue", path="/title", value="")
    assert form.data("/title") == "Untitled"


def test_emptying_the_last_field_of_an_optional_object_removes_the_object():
    form = Form(SCHEMA, {"optional": {"level": 4}})
    form.call("setFieldValue", path="/optional/level", value=None)
    assert "optional" not in form.data()


def test_an_emptied_required_object_stays():
    form = Form(SCHEMA, {"settings": {"size": 1, "unit": "cm"}})
    form.call("setFieldValue", path="/settings/unit", value="")
    assert form.data("/settings") == {"size": 1}


def test_constants_always_apply_and_are_not_listed():
    form = Form(SCHEMA, {"version": 1})
    assert form.data()["version"] == 2
    assert "/version" not in form.call("describeState")


def test_loaded_values_are_not_cleaned_up():
    form = Form(SCHEMA, {"title": "", "note": "", "items": [], "extra": {}})
    data = form.data()
    assert data["note"] == "" and data["extra"] == {}, "only writes remove empty values"


def test_open_any_of_lists_suggestions_and_accepts_free_values():
    schema = {
        "type": "object",
        "properties": {"color": {"type": "string", "anyOf": [{"const": "red"}, {"const": "blue"}, {}]}},
    }
    form = Form(schema, {})
    assert '(combobox, values=["red", "blue"])' in form.line("/color")
    form.call("setFieldValue", path="/color", value="teal")
    assert form.state.valid and form.data("/color") == "teal"


def test_a_path_inside_a_whole_value_says_how_to_change_it():
    schema = {"type": "object", "properties": {"extra": {"type": "object"}}}
    form = Form(schema, {"extra": {"a": 1}})
    message = form.error("setFieldValue", path="/extra/a", value=2)
    assert "inside /extra" in message and "getData" in message
