"""Objects whose keys the document chooses (maps: compose services, import maps, environment
variables) and keys the schema does not name: each key is a field of its own, added, renamed
and removed through the form tools, and nothing is dropped behind the user's back."""

from __future__ import annotations

import json

from tests.conftest import REPO

from .support import Form

IMPORTMAP = json.loads((REPO / "tests/fixtures/schemastore/schemas/importmap.json").read_text())

COMPOSE = {
    "type": "object",
    "required": ["services"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "services": {
            "type": "object",
            "patternProperties": {"^[a-zA-Z0-9._-]+$": {"$ref": "#/definitions/service"}},
            "additionalProperties": False,
        },
    },
    "definitions": {
        "service": {
            "type": "object",
            "properties": {
                "image": {"type": "string"},
                "environment": {"type": "object", "additionalProperties": {"type": ["string", "number", "null"]}},
                "ports": {"type": "array", "items": {"type": "string"}},
            },
            "additionalProperties": False,
        }
    },
}
STACK = {"services": {"web": {"image": "nginx", "environment": {"MODE": "prod"}}, "db": {"image": "postgres"}}}


def test_map_entries_are_fields_of_their_own():
    form = Form(COMPOSE, STACK)
    text = form.call("describeState")
    assert "- /services (map, required)\n" in text
    assert '- /services/web (section) key="web"' in text
    assert '- /services/web/image (text) label="image" value="nginx"' in text
    assert '- /services/web/environment/MODE (json) key="MODE" value="prod"' in text
    form.call("setFieldValue", path="/services/web/image", value="nginx:1.27")
    assert form.data() == {
        "services": {"web": {"image": "nginx:1.27", "environment": {"MODE": "prod"}}, "db": {"image": "postgres"}}
    }


def test_keys_are_added_renamed_and_removed_in_place():
    form = Form(COMPOSE, STACK)
    added = form.call("editArray", path="/services", action="add", key="cache", value={"image": "redis"})
    assert added.startswith('added the key "cache" to /services')
    assert '- /services/cache (section) key="cache"' in added
    assert '- /services/cache/image (text) label="image" value="redis"' in added
    renamed = form.call("editArray", path="/services", action="rename", key="web", newKey="front")
    assert renamed.startswith('renamed the key "web" of /services to "front"') and "now hidden" not in renamed
    form.call("editArray", path="/services/front/environment", action="remove", key="MODE")
    form.call("setFieldValue", path="/services/front/environment/DEBUG", value="1")
    assert list(form.data("/services")) == ["front", "db", "cache"], "a renamed key keeps its place"
    assert form.data("/services/front") == {"image": "nginx", "environment": {"DEBUG": "1"}}
    form.call("editArray", path="/services", action="remove", key="db")
    assert list(form.data("/services")) == ["front", "cache"] and form.state.valid


def test_key_edits_say_what_is_wrong():
    form = Form(COMPOSE, STACK)
    assert "already has the key" in form.error("editArray", path="/services", action="add", key="db")
    assert 'has no key "nope"' in form.error("editArray", path="/services", action="remove", key="nope")
    assert "newKey is required" in form.error("editArray", path="/services", action="rename", key="db")
    refused = form.error("editArray", path="/services", action="add", key="bad name!")
    assert 'does not accept the key "bad name!"' in refused and "^[a-zA-Z0-9._-]+$" in refused
    assert "key is required" in form.error("editArray", path="/services", action="add")
    assert "not a list of items" in form.error("editArray", path="/name", action="add")
    assert form.data() == STACK


def test_a_key_the_schema_refuses_is_kept_and_is_an_error_on_its_own_field():
    data = {"services": {"web": {"image": "nginx", "imag": "typo"}}, "version": "3"}
    form = Form(COMPOSE, data)
    assert form.data() == data, "nothing is dropped"
    errors = {e.path: e.message for e in form.state.errors}
    assert set(errors) == {"/services/web/imag", "/version"}
    assert errors["/version"].startswith("a key this form does not accept")
    assert form.line("/services/web/imag").startswith('- /services/web/imag (json, error) key="imag" value="typo"')
    assert "already has the key" in form.error(
        "editArray", path="/services/web", action="rename", key="imag", newKey="image"
    )
    form.call("setFieldValue", path="/services/web/imag", value=None)
    form.call("editArray", path="/", action="remove", key="version")
    assert form.state.valid and form.data() == {"services": {"web": {"image": "nginx"}}}


def test_keys_refused_inside_a_variant_are_kept_too():
    schema = {
        "type": "object",
        "properties": {
            "sort": {
                "oneOf": [
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {"order": {"const": "legacy"}, "legacySortOptions": {"type": "object"}},
                    },
                    {"type": "object", "additionalProperties": False, "properties": {"order": {"const": "fifo"}}},
                ]
            }
        },
    }
    data = {"sort": {"order": "fifo", "legacySortOptions": {"x": 1}}}
    form = Form(schema, data)
    assert form.data() == data and not form.state.valid


def test_importmap_unknown_property_is_reported_not_removed():
    data = json.loads((REPO / "tests/fixtures/schemastore/negative_test/importmap/unknown_property.json").read_text())
    form = Form(IMPORTMAP, data, base=data)
    assert form.data() == data and not form.state.modified
    assert [e.path for e in form.state.errors] == ["/unknown_property"]
    form.call("setFieldValue", path="/unknown_property", value=None)
    assert form.data() == {} and form.state.valid


def test_set_data_keeps_the_keys_it_wrote():
    form = Form(IMPORTMAP, {})
    answer = form.call("setData", data={"imports": {"react": "/r.js"}, "scope": {}})
    assert "1 key(s) this form does not accept: /scope" in answer
    assert form.data() == {"imports": {"react": "/r.js"}, "scope": {}}


def test_an_empty_map_says_what_its_entries_are():
    form = Form(COMPOSE, {"services": {}})
    assert '- /services (map, required) label="services" value={}' in form.call("describeState")
    form2 = Form(COMPOSE, {})
    listed = form2.call("describeState", path="/services")
    assert "- /services/<key> (object, declared map entry, keys matching ^[a-zA-Z0-9._-]+$)" in listed
