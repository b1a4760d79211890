"""setData (merge, replace, unknown keys), setFieldValue arguments, reveals after writes,
getData, modified flags and type coercion."""

from __future__ import annotations

import json

import pytest

from .support import Form

PORTAL = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "showSources": {"type": "boolean"},
        "datasets": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
        "theme": {
            "type": "object",
            "properties": {
                "font": {"type": "string"},
                "colors": {
                    "type": "object",
                    "properties": {"primary": {"type": "string"}, "secondary": {"type": "string"}},
                },
            },
        },
        "menu": {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}}}},
    },
}
PORTAL_DATA = {
    "title": "Portail",
    "showSources": True,
    "datasets": [{"id": "a"}],
    "theme": {"font": "Nunito", "colors": {"primary": "#1565c0", "secondary": "#ad1457"}},
    "menu": [{"title": "Accueil"}, {"title": "Données"}],
}


def test_set_data_merges_objects_and_replaces_lists():
    form = Form(PORTAL, PORTAL_DATA)
    answer = form.call("setData", data={"theme": {"colors": {"primary": "#1b5e20"}}, "menu": [{"title": "Accueil"}]})
    assert "stored 2 key(s): theme, menu" in answer and "#1b5e20" not in answer
    data = form.data()
    assert data["theme"] == {"font": "Nunito", "colors": {"primary": "#1b5e20", "secondary": "#ad1457"}}
    assert data["menu"] == [{"title": "Accueil"}]
    assert data["datasets"] == [{"id": "a"}] and data["title"] == "Portail" and data["showSources"] is True


def test_set_data_without_merge_replaces_and_names_what_it_removed():
    form = Form(PORTAL, PORTAL_DATA)
    answer = form.call("setData", data={"title": "Autre", "theme": {"font": "Roboto"}, "menu": []}, merge=False)
    assert "removed 2 key(s) you did not pass: showSources, datasets" in answer
    assert form.data() == {"title": "Autre", "theme": {"font": "Roboto"}, "menu": []}


def test_set_data_names_keys_that_match_no_field_without_false_alarms():
    form = Form(PORTAL, PORTAL_DATA)
    answer = form.call("setData", data={"sectionz": [1], "theme": {"colorz": {}, "font": "A"}, "title": "T"})
    assert "2 key(s) match no field of this form: /sectionz, /theme/colorz" in answer
    assert form.state.valid, "unknown keys are kept when the schema allows them"
    clean = form.call("setData", data={"title": "T", "theme": {"colors": {"primary": "#000"}}})
    assert "match no field" not in clean


def test_set_data_keeps_keys_a_closed_schema_refuses_as_errors_on_their_fields():
    schema = {"type": "object", "additionalProperties": False, "properties": {"name": {"type": "string"}}}
    form = Form(schema, {})
    answer = form.call("setData", data={"name": "A", "nmae": "typo"})
    assert "1 key(s) this form does not accept: /nmae (kept in the data as errors" in answer
    assert form.data() == {"name": "A", "nmae": "typo"} and not form.state.valid
    assert [(e.path, e.message.split(":")[0]) for e in form.state.errors] == [
        ("/nmae", "a key this form does not accept")
    ]
    form.call("setFieldValue", path="/nmae", value=None)
    assert form.data() == {"name": "A"} and form.state.valid


@pytest.mark.parametrize("data", ["just text", 42, [1, 2], '{"title": "Autre",'])
def test_set_data_refuses_what_is_not_an_object(data):
    form = Form(PORTAL, PORTAL_DATA)
    assert "must be a JSON object" in form.error("setData", data=data)
    assert form.data() == PORTAL_DATA


def test_set_data_accepts_a_json_string():
    form = Form(PORTAL, {})
    form.call("setData", data='{"title": "From text"}')
    assert form.data("/title") == "From text"


def test_set_data_reports_validity_and_whole_form_errors():
    schema = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "minLength": 2}}}
    form = Form(schema, {})
    answer = form.call("setData", data={"name": "A"})
    assert answer.splitlines()[:3] == [
        "the form is not valid: 1 error(s)",
        "Errors:",
        "- /name: must be at least 2 characters long",
    ]
    assert form.call("setData", data={"name": "Al"}).startswith("the form is valid")


SIMPLE = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "title": "Name"},
        "age": {"type": "integer", "title": "Age"},
        "nick": {"type": ["string", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}


def test_set_field_value_argument_checks():
    form = Form(SIMPLE, {"name": "Alice"})
    assert "not both" in form.error("setFieldValue", path="/name", value="x", suggestionIndex=0)
    assert "value or suggestionIndex is required" in form.error("setFieldValue", path="/name")
    assert "does not take" in form.error("setFieldValue", path="/name", value="x", other=1)
    assert form.call("setFieldValue", path="/name", value="Bob").splitlines()[0] == '/name (text) = "Bob"'


def test_null_clears_a_field_and_keeps_null_for_nullable_ones():
    form = Form(SIMPLE, {"name": "Alice", "age": 3, "nick": "Al"})
    form.call("setFieldValue", path="/age", value=None)
    form.call("setFieldValue", path="/nick", value=None)
    assert form.data() == {"name": "Alice", "nick": None}
    form.call("setFieldValue", path="/name", value="")
    assert form.data()["name"] == "", "in an existing document an empty string is a value"
    form.call("setFieldValue", path="/name", value=None)
    assert "name" not in form.data()
    assert form.state.errors[0].message == "required: give this field a value"


def test_filling_defaults_an_emptied_field_goes():
    form = Form(SIMPLE, {"name": "Alice"}, fill_defaults=True)
    form.call("setFieldValue", path="/name", value="")
    assert "name" not in form.data()


def test_structural_keys_in_values_are_refused():
    form = Form(PORTAL, {})
    message = form.error("setData", data={"theme": {"$oneOf": 1}})
    assert '"$oneOf"' in message and "nothing was written" in message
    assert form.data() == {}


REVEALS = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean"},
        "other": {"type": "string"},
        "contribColor": {"type": "string", "layout": {"if": "parent.data.enabled"}},
        "contribDataset": {"type": "string", "layout": {"if": "parent.data.enabled"}},
        "billing": {"type": "string", "enum": ["free", "paid"]},
    },
    "allOf": [
        {
            "if": {"properties": {"billing": {"const": "paid"}}, "required": ["billing"]},
            "then": {"required": ["card"], "properties": {"card": {"type": "string"}}},
        }
    ],
}


def test_writes_say_which_fields_appeared_or_disappeared():
    form = Form(REVEALS, {})
    shown = form.call("setFieldValue", path="/enabled", value=True)
    assert "2 field(s) now shown: /contribColor, /contribDataset" in shown
    assert "now shown" not in form.call("setFieldValue", path="/other", value="x")
    hidden = form.call("setData", data={"enabled": False})
    assert "2 field(s) now hidden: /contribColor, /contribDataset" in hidden
    assert "now shown: /contribColor" in form.call("setData", data={"enabled": True})


def test_schema_conditions_reveal_the_branch_field_by_its_full_path():
    form = Form(REVEALS, {})
    answer = form.call("setFieldValue", path="/billing", value="paid")
    assert "1 field(s) now shown: /$allOf-0/$then/card" in answer
    assert "the form has 1 more error(s) elsewhere" in answer
    form.call("setFieldValue", path="/card", value="4242")
    assert form.state.valid
    gone = form.call("setFieldValue", path="/billing", value="free")
    assert "now hidden: /$allOf-0/$then/card" in gone
    assert form.data() == {"billing": "free", "card": "4242"}, "only the value written changes"
    assert form.line("/card") == '- /card (json, extra key) key="card" value="4242"', "a key no field names now"


def test_filling_defaults_a_branch_takes_its_keys_when_it_stops_applying():
    form = Form(REVEALS, {}, fill_defaults=True)
    form.call("setFieldValue", path="/billing", value="paid")
    form.call("setFieldValue", path="/card", value="4242")
    form.call("setFieldValue", path="/billing", value="free")
    assert form.data() == {"billing": "free"}, "the form library's behaviour, for a record being created"


def test_a_variant_switch_reports_its_fields_once():
    from .test_variants import SHAPES

    form = Form(SHAPES, {"shape": {}})
    answer = form.call("setFieldValue", path="/shape/$oneOf", value=1)
    assert "now shown" not in answer and "now hidden" not in answer


def test_get_data_whole_by_path_and_unset():
    form = Form(PORTAL, PORTAL_DATA)
    assert json.loads(form.call("getData")) == {"data": PORTAL_DATA, "valid": True}
    assert json.loads(form.call("getData", path="/datasets/0")) == {"data": {"id": "a"}, "valid": True}
    assert json.loads(form.call("getData", path="/theme/colors/primary"))["data"] == "#1565c0"
    assert json.loads(form.call("getData", path="/menu/0/title")) == {"data": "Accueil", "valid": True}
    assert json.loads(Form(PORTAL, {}).call("getData", path="/title")) == {"unset": True, "valid": True}
    assert 'no field at "/nope"' in form.error("getData", path="/nope")


def test_get_data_refuses_a_layout_group_and_names_its_fields():
    schema = {
        "type": "object",
        "allOf": [{"properties": {f"extra{i}": {"type": "string"} for i in range(20)}}],
        "properties": {"deep": {"type": "object", "allOf": [{"properties": {"x": {"type": "string"}}}]}},
    }
    form = Form(schema, {})
    message = form.error("getData", path="/$allOf-0")
    assert "holds no data of its own" in message and "the whole document" in message
    assert "/$allOf-0/extra0" in message and "and 8 more" in message and len(message) < 700
    nested = form.error("getData", path="/deep/$allOf-0")
    assert '"/deep"' in nested and "/deep/$allOf-0/x" in nested


def test_modified_flags_follow_the_base_copy():
    form = Form(SIMPLE, {"name": "Alice", "age": 30}, base={"name": "Alice", "age": 30})
    assert not form.state.modified
    form.call("setFieldValue", path="/name", value="Bob")
    assert "modified" in form.line("/name") and "modified" not in form.line("/age")
    assert form.state.modified
    form.call("setFieldValue", path="/name", value="Alice")
    assert "modified" not in form.line("/name") and not form.state.modified
    form.call("setFieldValue", path="/tags", value=["a"])
    assert "modified" in form.line("/tags")
    form.state.set_base(form.state.document)
    assert not form.state.modified


def test_without_a_base_copy_nothing_is_modified():
    form = Form(SIMPLE, {"name": "Alice"})
    form.call("setFieldValue", path="/name", value="Bob")
    assert not form.state.modified and "modified" not in form.call("describeState")


def test_a_record_being_created_is_modified_once_written():
    form = Form(SIMPLE, None, base=None)
    assert not form.state.modified
    form.call("setFieldValue", path="/name", value="New")
    assert form.state.modified


def test_a_changed_list_is_modified_as_a_whole():
    schema = {"type": "object", "properties": {"items": PORTAL["properties"]["menu"]}}
    form = Form(schema, {"items": [{"title": "a"}]}, base={"items": [{"title": "a"}]})
    form.call("setFieldValue", path="/items/0/title", value="b")
    assert "modified" in form.line("/items")
    assert "modified" not in form.line("/items/0/title"), "inside a changed list, items are not compared"


def test_no_type_coercion_by_default():
    form = Form(SIMPLE, {"name": "A"})
    form.call("setFieldValue", path="/age", value="3")
    assert form.data("/age") == "3"
    assert form.state.errors[0].message == "must be an integer"
    form.call("setData", data={"tags": "single"})
    assert form.data("/tags") == "single"


def test_coercion_when_the_form_asks_for_it():
    form = Form(SIMPLE, {"name": "A"}, coerce_types=True)
    form.call("setFieldValue", path="/age", value="42")
    form.call("setData", data={"tags": "single"})
    assert form.data() == {"name": "A", "age": 42, "tags": ["single"]}
    assert form.state.valid
    form.call("setFieldValue", path="/age", value="4.5")
    assert form.data("/age") == "4.5", "a lossy conversion is not made"


def test_coercion_converts_what_is_written_not_what_was_loaded():
    loaded = {"name": "A", "age": "42"}
    form = Form(SIMPLE, loaded, base=loaded, coerce_types=True)
    assert form.data() == loaded and not form.state.modified and not form.state.valid
    form.call("setFieldValue", path="/tags", value="single")
    assert form.data() == {"name": "A", "age": "42", "tags": ["single"]}


def test_edit_counter_counts_tool_writes_only():
    form = Form(PORTAL, PORTAL_DATA)
    form.call("describeState")
    form.call("getData")
    assert form.state.edit_count == 0
    form.call("setFieldValue", path="/title", value="x")
    form.call("setData", data={"title": "y"})
    form.call("editArray", path="/menu", action="remove")
    assert form.state.edit_count == 3
