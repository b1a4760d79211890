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


def test_a_loaded_record_is_not_changed_and_defaults_are_shown():
    form = Form(SCHEMA, {"note": None})
    assert form.data() == {"note": None}
    assert not form.state.modified, "nothing was written, so nothing is modified"
    assert form.line("/title") == '- /title (text) label="title" value=unset default="Untitled"'
    assert "- /settings/size (integer, declared, default=10)" in form.call("describeState", path="/settings")


def test_a_constant_is_checked_and_suggested_not_written():
    form = Form(SCHEMA, {"settings": {}, "agree": True, "items": [], "version": 1})
    assert form.data()["version"] == 1, "a value is never replaced by the schema's constant"
    assert form.line("/version") == '- /version (select, error, values=[2]) label="version" value=1 — must be exactly 2'
    assert "[0] 2" in form.call("getFieldSuggestions", path="/version")
    missing = Form(SCHEMA, {"settings": {}, "agree": True, "items": []})
    assert "version" not in missing.data() and missing.state.valid, "an optional constant is not filled in"


def test_emptying_a_field_keeps_its_object():
    form = Form(SCHEMA, {"optional": {"level": 4}})
    form.call("setFieldValue", path="/optional/level", value=None)
    assert form.data() == {"optional": {}}, "only the value written changes"


# A state that fills defaults (a record being created: `fill_defaults`, the editor group's create
# mode, `--fill-defaults`) follows the form library: defaults, constants and required containers
# are written where the data has no value.


def test_filling_defaults_writes_them_where_values_are_missing_and_required_containers_start_empty():
    form = Form(SCHEMA, {}, fill_defaults=True)
    assert form.data() == {
        "title": "Untitled",
        "settings": {"size": 10},
        "agree": False,
        "items": [],
        "version": 2,
    }
    assert "optional" not in form.data(), "an optional object stays absent until something is written in it"
    assert "- /optional/level (integer, declared, default=3)" in form.call("describeState", path="/optional")
    form.call("setFieldValue", path="/optional/level", value=5)
    assert form.data("/optional") == {"level": 5}


def test_filling_defaults_never_replaces_a_value():
    form = Form(SCHEMA, {"title": "", "version": 1, "settings": {}}, fill_defaults=True)
    assert form.data("/title") == "" and form.data("/version") == 1 and form.data("/settings") == {"size": 10}


def test_a_new_document_fills_defaults():
    assert Form(SCHEMA, None).data()["title"] == "Untitled"


def test_a_default_comes_back_when_its_field_is_emptied():
    form = Form(SCHEMA, {"title": "Mine"}, fill_defaults=True)
    form.call("setFieldValue", path="/title", value="")
    assert form.data("/title") == "Untitled"


def test_emptying_the_last_field_of_an_optional_object_removes_the_object():
    form = Form(SCHEMA, {"optional": {"level": 4}}, fill_defaults=True)
    form.call("setFieldValue", path="/optional/level", value=None)
    assert "optional" not in form.data()


def test_an_emptied_required_object_stays():
    form = Form(SCHEMA, {"settings": {"size": 1, "unit": "cm"}}, fill_defaults=True)
    form.call("setFieldValue", path="/settings/unit", value="")
    assert form.data("/settings") == {"size": 1}


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
    schema = {"type": "object", "properties": {"extra": {"type": "object", "layout": "json"}}}
    form = Form(schema, {"extra": {"a": 1}})
    message = form.error("setFieldValue", path="/extra/a", value=2)
    assert "inside /extra" in message and "getData" in message
