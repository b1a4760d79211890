"""Lists: adding and removing items, index bounds, the active item, scoped errors, tuples."""

from __future__ import annotations

import pytest

from .support import Form

FILTERS = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string"},
        "filters": {"type": "array", "items": {"$ref": "#/$defs/filter"}},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "$defs": {
        "filter": {
            "type": "object",
            "required": ["type", "field"],
            "properties": {"type": {"type": "string", "enum": ["in", "out"]}, "field": {"type": "string"}},
        }
    },
}


def test_an_empty_list_shows_the_fields_its_items_will_have():
    form = Form(FILTERS, {"name": "x"})
    text = form.call("describeState")
    assert '- /filters/0/type (string, declared, required, enum=["in", "out"])' in text
    assert "- /filters/0/field (string, declared, required)" in text


def test_adding_returns_the_new_items_fields_and_the_lists_errors_only():
    form = Form(FILTERS, {})
    answer = form.call("editArray", path="/filters", action="add")
    assert answer.startswith("added an item at index 0; the list has 1 item(s) now")
    assert "- /filters/0/type (select, required, error" in answer
    assert "- /filters/0/field (text, required, error" in answer
    assert "readOnly" not in answer
    scoped = answer.split("2 error(s) here:\n")[1].splitlines()
    assert scoped[:2] == [
        "- /filters/0/type: required: give this field a value",
        "- /filters/0/field: required: give this field a value",
    ]
    assert "/name" not in "\n".join(scoped[:2])
    assert "the form has 1 more error(s) elsewhere" in answer
    form.call("setFieldValue", path="/filters/0/type", value="in")
    assert form.data("/filters/0") == {"type": "in"}


def test_add_accepts_a_value_given_as_a_json_string():
    form = Form(FILTERS, {"name": "x"})
    form.call("editArray", path="/filters", action="add", value='{"type": "out", "field": "a"}')
    assert form.data("/filters") == [{"type": "out", "field": "a"}]
    assert form.state.valid


@pytest.mark.parametrize("index", [5, -1, 1.5, "0"])
def test_add_refuses_an_index_out_of_bounds_and_changes_nothing(index):
    form = Form(FILTERS, {"name": "x", "filters": [{"type": "in", "field": "a"}]})
    message = form.error("editArray", path="/filters", action="add", index=index)
    assert "out of range" in message and "0 to 1" in message
    assert form.data("/filters") == [{"type": "in", "field": "a"}]


@pytest.mark.parametrize("index", [0, 2])
def test_add_at_the_start_and_at_the_end(index):
    form = Form(FILTERS, {"name": "x", "filters": [{"type": "in", "field": "a"}, {"type": "in", "field": "b"}]})
    form.call("editArray", path="/filters", action="add", index=index, value={"type": "out", "field": "new"})
    assert form.data("/filters")[index] == {"type": "out", "field": "new"}


def test_remove_refuses_bad_indices_and_empty_lists():
    form = Form(FILTERS, {"name": "x", "filters": [{"type": "in", "field": "a"}]})
    assert "out of range" in form.error("editArray", path="/filters", action="remove", index=1.7)
    assert "out of range" in form.error("editArray", path="/filters", action="remove", index=1)
    form.call("editArray", path="/filters", action="remove")
    assert form.data("/filters") == []
    assert "no item to remove" in form.error("editArray", path="/filters", action="remove")
    assert 'use "add" or "remove"' in form.error("editArray", path="/filters", action="insert")


def test_only_lists_can_be_edited_as_lists():
    form = Form(FILTERS, {"name": "x"})
    message = form.error("editArray", path="/name", action="add")
    assert "is not a list of items" in message and "text" in message
    form.call("setFieldValue", path="/tags", value='["a", "b"]')
    assert form.data("/tags") == ["a", "b"]


def test_a_list_of_values_gets_items_by_index_and_through_edit_array():
    form = Form(FILTERS, {"name": "x", "tags": ["a", "b"]})
    assert form.call("setFieldValue", path="/tags/1", value="c").startswith('/tags/1 (text) = "c"')
    assert form.data("/tags") == ["a", "c"]
    message = form.error("editArray", path="/tags", action="add")
    assert "give value" in message and "/tags" in message, "a string list has no empty item to add"
    form.call("editArray", path="/tags", action="add", value="d", index=0)
    form.call("editArray", path="/tags", action="remove", index=1)
    assert form.data("/tags") == ["d", "c"]
    message = form.error("setFieldValue", path="/tags/2", value="e")
    assert '"/tags/2"' in message and "items 0 to 1" in message and "editArray" in message
    form.call("setFieldValue", path="/tags/0", value=7)
    assert "must be a string" in form.call("describeState", path="/tags/0")


@pytest.mark.parametrize(
    ("active", "removed", "after"),
    [(3, 0, 2), (1, 3, 1), (2, 2, None), (0, 3, 0)],
)
def test_the_active_item_follows_removals(active, removed, after):
    items = [{"type": "in", "field": str(i)} for i in range(5)]
    form = Form(FILTERS, {"name": "x", "filters": items})
    form.call("describeState", path=f"/filters/{active}/field")  # looking at an item makes it active
    assert form.state.active_items["/filters"] == active
    form.call("editArray", path="/filters", action="remove", index=removed)
    assert form.state.active_items.get("/filters") == after


def test_variant_choices_inside_items_move_with_the_items():
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "oneOf": [
                        {"title": "A", "properties": {"a": {"type": "string"}}},
                        {"title": "B", "properties": {"b": {"type": "string"}}},
                    ],
                },
            }
        },
    }
    form = Form(schema, {"items": [{}, {}]})
    form.call("setFieldValue", path="/items/1/$oneOf", value=1)
    form.call("editArray", path="/items", action="add", index=0)
    assert "variant 1: B (active)" in form.call("describeState", path="/items/2/$oneOf")
    form.call("editArray", path="/items", action="remove", index=0)
    assert "variant 1: B (active)" in form.call("describeState", path="/items/1/$oneOf")


def test_long_lists_show_the_active_item_whole_and_the_others_in_one_line():
    items = [{"type": "in", "field": f"f{i}"} for i in range(8)]
    wrapped = {"type": "object", "properties": {"wrap": FILTERS}, "$defs": FILTERS["$defs"]}
    form = Form(wrapped, {"wrap": {"name": "x", "filters": items}})
    form.call("setFieldValue", path="/wrap/filters/6/field", value="changed")
    text = form.call("describeState")
    assert '- /wrap/filters/6/field (text, required) label="field" value="changed"' in text
    assert "- /wrap/filters/2 (section) — 2 field(s): describeState /wrap/filters/2 shows them" in text
    assert "/wrap/filters/2/field" not in text
    assert "/wrap/filters/2/field" in form.call("describeState", path="/wrap/filters/2")


def test_errors_under_an_item_are_scoped_to_the_list():
    form = Form(FILTERS, {"filters": [{"type": "in"}]})
    answer = form.call("editArray", path="/filters", action="add")
    listed = answer.split("error(s) here:\n")[1].splitlines()
    assert [line.split(":")[0] for line in listed if line.startswith("- ")] == [
        "- /filters/0/field",
        "- /filters/1/type",
        "- /filters/1/field",
    ]
    assert "- /name:" not in answer and "elsewhere" in answer
    assert "no errors here" in form.call("setFieldValue", path="/name", value="n")


TUPLE = {
    "type": "object",
    "properties": {
        "pair": {
            "type": "array",
            "minItems": 1,
            "prefixItems": [{"type": "string", "title": "First"}, {"type": "integer", "title": "Second"}],
        },
        "loose": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]},
    },
}


def test_tuple_entries_are_required_below_min_items():
    form = Form(TUPLE, {"pair": ["a", 2], "loose": []})
    assert form.line("/pair/0").startswith("- /pair/0 (text, required)")
    assert form.line("/pair/1").startswith("- /pair/1 (number, step=1")
    assert "required" not in form.line("/loose/0") and "required" not in form.line("/loose/1")
    assert form.state.valid
    form.call("setFieldValue", path="/pair/1", value=5)
    assert form.data("/pair") == ["a", 5]


def test_draft7_tuples_work_the_same():
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"pair": {"type": "array", "minItems": 1, "items": [{"type": "string"}, {"type": "integer"}]}},
    }
    form = Form(schema, {"pair": ["a", "b"]})
    assert not form.state.valid
    assert form.state.errors[0].path == "/pair/1" and form.state.errors[0].message == "must be an integer"
