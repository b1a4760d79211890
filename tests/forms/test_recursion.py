"""Recursive schemas unfold as deep as the data goes and one level more: what a form builds and
shows grows with the data, never with the schema's recursion (issue 16: a 66-byte schema with two
recursive properties hung; jsone and renovate took gigabytes)."""

from __future__ import annotations

import json

from deskcheck.engine.forms import FormState, compile_form, form_toolset
from tests.conftest import REPO

from .support import Form

STORE = REPO / "tests" / "fixtures" / "schemastore"
TWO_WAYS = {"properties": {"a": {"$ref": "#"}, "b": {"$ref": "#"}}}


def nodes(state: FormState) -> int:
    return len(state.tree.nodes)


def test_two_recursive_properties_over_an_empty_record():
    form = Form(TWO_WAYS, {})
    assert nodes(form.state) == 3
    text = form.call("describeState")
    assert '- /a (section) label="a" value=unset — can hold 2 field(s): describeState /a lists them' in text
    assert "- /a/a (object, declared)" in form.call("describeState", path="/a")


def test_the_tree_follows_the_data_and_a_path_builds_what_it_names():
    deep: dict = {}
    for _ in range(30):
        deep = {"a": deep}
    form = Form(TWO_WAYS, deep)
    assert nodes(form.state) == 1 + 2 * 31, "each object of the data, and its two fields"
    form.call("setFieldValue", path="/b/a/b/a", value={})
    assert form.data()["b"] == {"a": {"b": {"a": {}}}}
    assert form.state.valid


def test_filling_defaults_fills_a_recursive_required_property_once():
    node = {"type": "object", "required": ["left", "right"], "properties": {"left": {"$ref": "#/$defs/node"}}}
    node["properties"]["right"] = {"$ref": "#/$defs/node"}
    schema = {"type": "object", "required": ["tree"], "properties": {"tree": {"$ref": "#/$defs/node"}}}
    form = Form({**schema, "$defs": {"node": node}}, None)
    assert form.data() == {"tree": {}}, "a node inside a node being filled in is not filled in again"
    assert Form({**TWO_WAYS, "required": ["a", "b"]}, None).data() == {}


def test_jsone_and_renovate_stay_small():
    jsone = json.loads((STORE / "schemas/jsone.json").read_text())
    sort = json.loads((STORE / "test/jsone/sort.json").read_text())
    state = FormState(compile_form(jsone), sort, base=sort)
    assert state.valid and nodes(state) < 60
    renovate = json.loads((STORE / "schemas/renovate-43.json").read_text())
    form = compile_form(renovate)
    empty = FormState(form, {}, base={})
    assert nodes(empty) < 2 * len(renovate["properties"])
    text = form_toolset(empty).call("form_describeState", {}).value
    assert len(text.splitlines()) < 2 * len(renovate["properties"])
    record = {"packageRules": [{"matchPackageNames": ["react"]}], "lockFileMaintenance": {"enabled": True}}
    state = FormState(form, record, base=record)
    assert state.valid and nodes(state) < 3 * nodes(empty)
    assert form_toolset(state).call("form_setFieldValue", {"path": "/packageRules/0/enabled", "value": False}).ok
    assert state.document["packageRules"][0] == {"matchPackageNames": ["react"], "enabled": False}


def test_a_path_deeper_than_any_field_is_answered_at_once():
    form = Form(TWO_WAYS, {})
    assert "fields are at most 40 levels deep" in form.error("setFieldValue", path="/a" * 5000, value=1)
    assert "no field at" in form.error("setFieldValue", path="/a" * 79, value=1)
    assert form.data() == {}
