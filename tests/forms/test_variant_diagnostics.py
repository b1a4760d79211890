"""Diagnostics that name the field (issue 28, item 2): a value no entry of a union accepts is
reported on the failing field of the closest entry, as jsonschema's best match picks it, and a
path the form cannot find says the real reason."""

from __future__ import annotations

from tests.conftest import REPO

from .schemastore import read
from .support import Form
from .test_composition import published

ANSIBLE = REPO / "tests" / "fixtures" / "composition" / "ansible-lint"


def test_an_ansible_play_with_become_yes_names_become_and_what_it_accepts():
    # YAML 1.2 reads `yes` as a string: the play is the closest variant, `become` its problem.
    data = read(ANSIBLE / "test" / "playbook-become-yes.yml")
    form = published(ANSIBLE / "schemas" / "playbook.json", data)
    errors = {e.path: e.message for e in form.state.errors}
    assert errors["/0"].startswith('matches none of the variants; the closest is "play" (/0/$oneOf = 1)')
    become = errors["/0/$oneOf/1/become"]
    assert "must match the pattern" in become and "true or false" in become
    assert "\n" not in become, "a pattern's line break is written as \\n"
    assert not any("extra key" in line for line in form.call("describeState").splitlines() if "/0/" in line)


def test_a_union_of_types_names_the_entry_for_the_values_type():
    schema = {
        "type": "object",
        "properties": {
            "port": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[0-9]+$"}]}
        },
    }
    form = Form(schema, {"port": "eighty"})
    assert form.state.errors[0].message == "must match the pattern ^[0-9]+$ (or else it must be an integer)"
    form.call("setFieldValue", path="/port", value=0)
    assert form.state.errors[0].message == "must be 1 or more (or else it must be a string)"
    form.call("setFieldValue", path="/port", value=[1])
    assert form.state.errors[0].message == "must be an integer or a string"


def test_the_closest_entrys_errors_are_on_the_fields_of_a_switched_value():
    schema = {
        "type": "object",
        "properties": {
            "retry": {
                "oneOf": [
                    {"type": "boolean"},
                    {"type": "object", "required": ["times"], "properties": {"times": {"type": "integer"}}},
                ]
            }
        },
    }
    form = Form(schema, {"retry": {"times": "3"}})
    assert [(e.path, e.message) for e in form.state.errors] == [("/retry/times", "must be an integer")]
    form.call("setFieldValue", path="/retry", value={})
    assert [(e.path, e.message) for e in form.state.errors] == [("/retry/times", "required: give this field a value")]
    form.call("setFieldValue", path="/retry", value="yes")
    assert [(e.path, e.message) for e in form.state.errors] == [("/retry", "must be true or false or an object")]


def test_a_field_hidden_by_its_condition_says_so():
    schema = {
        "type": "object",
        "properties": {
            "kind": {"type": "string"},
            "detail": {"type": "string", "layout": {"if": "parent.data.kind === 'long'"}},
        },
    }
    form = Form(schema, {"kind": "short", "detail": "x"})
    message = form.error("setFieldValue", path="/detail", value="y")
    assert "hidden by its condition (layout.if)" in message


def test_an_any_of_of_bare_constraints_only_checks_and_names_no_entry():
    # "a or b is required": no variant selector, and neither entry is closer than the other.
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    form = Form(schema, {})
    assert "$oneOf" not in form.call("describeState")
    assert [(e.path, e.message) for e in form.state.errors] == [("/", "does not match any of the accepted shapes")]
    form.call("setFieldValue", path="/b", value="x")
    assert form.state.valid
