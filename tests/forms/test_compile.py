"""Schema preparation (vjsf-v2 keywords, bundling, layouts) and compiled forms (cache by
version, recursive and broken references, drafts)."""

from __future__ import annotations

import copy
import json

import pytest

from deskcheck.engine.forms import (
    CompileOptions,
    FormSchemaError,
    FormState,
    clear_compile_cache,
    compile_form,
    compile_stats,
    prepare_schema,
)
from deskcheck.engine.forms.schema.compat_v2 import translate_v2
from tests.conftest import REPO

from .support import Form

# A record schema in the vjsf v2 dialect (x-fromUrl lookups, a textarea, an attachment, a computed
# column), written for these tests.
LINE_SCHEMA = json.loads((REPO / "tests" / "fixtures" / "forms" / "v2-record-schema.json").read_text())


def test_v2_url_lists_become_get_items_and_the_source_is_untouched():
    source = copy.deepcopy(LINE_SCHEMA)
    prepared = prepare_schema(source)
    assert source == LINE_SCHEMA
    region = prepared["properties"]["region"]
    assert not any(key.startswith("x-") for key in region)
    assert region["layout"] == {
        "getItems": {
            "url": {"type": "js-tpl", "expr": "https://example.org/regions", "pure": True},
            "itemsResults": 'data["items"]',
            "itemTitle": 'data["label"]',
            "itemKey": 'data["id"]',
        }
    }
    assert prepared["properties"]["remarks"]["layout"] == {"comp": "textarea"}
    assert prepared["properties"]["reference"] == LINE_SCHEMA["properties"]["reference"]


def test_v2_search_urls_keep_q_and_interpolate_other_fields():
    schema = {
        "type": "object",
        "properties": {
            "city": {
                "type": "string",
                "x-fromUrl": "https://example.com/cities?q={q}&dep={departement.code}",
                "x-itemsProp": "results",
            },
            "flag": {"type": "string", "x-if": "settings.enabled"},
            "pick": {"type": "string", "x-fromData": "context.options"},
            "kind": {"type": "string", "enum": ["a", "b"], "x-display": "radio"},
            "hidden": {"type": "string", "x-display": "hidden"},
            "tint": {"type": "string", "format": "hexcolor"},
            "words": {"type": "string", "separator": ","},
            "rows": {
                "type": "array",
                "items": {"type": "object", "properties": {"title": {"type": "string"}}},
            },
        },
    }
    prepared = translate_v2(schema)["properties"]
    assert prepared["city"]["layout"]["getItems"]["url"] == {
        "type": "js-tpl",
        "expr": "https://example.com/cities?q={q}&dep=${rootData.departement.code}",
        "pure": False,
    }
    assert prepared["flag"]["layout"] == {"if": {"type": "js-eval", "expr": "rootData.settings.enabled", "pure": False}}
    assert prepared["pick"]["layout"]["getItems"]["expr"] == "context.options"
    assert prepared["kind"]["layout"] == "radio-group"
    assert prepared["hidden"]["layout"] == "none"
    assert prepared["tint"]["layout"] == "color-picker" and "format" not in prepared["tint"]
    assert prepared["words"]["layout"] == {"separator": ","}
    assert prepared["rows"]["layout"] == {"itemTitle": "data.title"}


def test_v2_old_style_expressions_are_rewritten():
    schema = {"type": "object", "properties": {"a": {"type": "string", "x-if": "parent.value.items.0.on"}}}
    assert translate_v2(schema)["properties"]["a"]["layout"]["if"]["expr"] == "parent.data.items[0].on"


def test_v2_one_of_labels_come_from_the_constant_of_the_first_variant():
    schema = {
        "type": "object",
        "required": ["type", "name"],
        "oneOf": [
            {"properties": {"type": {"const": "a", "title": "Kind of thing"}}},
            {"properties": {"type": {"const": "b"}}},
        ],
        "properties": {"name": {"type": "string"}},
    }
    prepared = translate_v2(schema)
    assert prepared["oneOfLayout"] == {"label": "Kind of thing"}
    assert prepared["required"] == ["name"]


def test_a_fragment_with_a_layout_is_left_alone():
    schema = {"type": "string", "layout": {"comp": "text-field"}, "x-display": "textarea"}
    assert translate_v2(schema) == schema


def test_the_v2_record_schema_compiles_into_pickers_and_text_areas():
    form = Form(LINE_SCHEMA, {})
    assert "(select, suggestions)" in form.line("/region")
    assert "(textarea)" in form.line("/remarks")
    assert form.state.valid


def test_compiling_a_version_again_uses_the_cache():
    clear_compile_cache()
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    first = compile_form(schema, "v1")
    assert compile_form(schema, "v1") is first
    assert compile_stats()["compiles"] == 1 and compile_stats()["hits"] == 1
    assert compile_form(schema, "v2") is not first
    assert compile_form(schema, "v1", options=CompileOptions(coerce_types=True)) is not first
    assert compile_stats()["compiles"] == 3


def test_without_a_version_the_content_decides():
    clear_compile_cache()
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    first = compile_form(schema)
    assert compile_form(copy.deepcopy(schema)) is first
    changed = copy.deepcopy(schema)
    changed["properties"]["b"] = {"type": "integer"}
    assert compile_form(changed) is not first
    assert first.version.startswith("sha256:")


def test_the_same_fields_in_another_order_are_another_form():
    """Field order is the order a form lists its fields, so it is part of a schema's content."""
    clear_compile_cache()
    ab = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    ba = {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}
    first, second = compile_form(ab), compile_form(ba)
    assert first is not second
    assert list(second.schema["properties"]) == ["b", "a"]


def test_two_hundred_records_of_one_schema_compile_once():
    clear_compile_cache()
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    for number in range(200):
        state = FormState(compile_form(schema, "schema-v1"), {"n": number})
        assert state.valid
    assert compile_stats()["compiles"] == 1


def test_recursive_schemas_expand_as_deep_as_the_data():
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
            }
        },
        "$ref": "#/$defs/node",
    }
    data = {"name": "root", "children": [{"name": "a", "children": [{"name": "b"}]}]}
    form = Form(schema, data)
    assert form.line("/children/0/children/0/name").endswith('value="b"')
    form.call("editArray", path="/children/0/children/0/children", action="add", value={"name": "c"})
    assert form.data("/children/0/children/0/children/0/name") == "c"


def test_references_that_cannot_be_followed_are_left_out_and_named():
    missing = Form({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}, {"a": 1})
    assert missing.state.valid and missing.line("/a").endswith("value=1")
    assert "- /properties/a: $ref '#/$defs/missing' leads nowhere" in missing.call("describeState")
    other = Form({"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}}, {"a": 1})
    assert other.state.valid
    assert "- /properties/a: $ref 'other.json#/x' is not followed (other.json" in other.call("describeState")


def test_a_reference_loop_is_refused_clearly():
    with pytest.raises(FormSchemaError, match="loop"):
        FormState(
            compile_form({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}), {}
        )
    with pytest.raises(FormSchemaError, match="JSON Schema object"):
        compile_form(["not", "a", "schema"])


def test_a_body_schema_is_bundled_with_what_it_refers_to():
    document = {
        "components": {
            "schemas": {
                "pet": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "tag": {"$ref": "#/components/schemas/tag"}},
                },
                "tag": {"type": "string", "enum": ["a", "b"]},
            }
        }
    }
    form = compile_form({"$ref": "#/components/schemas/pet"}, document=document)
    state = FormState(form, {"name": "Rex", "tag": "c"})
    assert [(e.path, e.message) for e in state.errors] == [("/tag", 'must be one of the accepted values: "a", "b"')]


def test_draft7_dependencies_and_2020_dependent_schemas():
    draft7 = {
        "type": "object",
        "properties": {"card": {"type": "string"}},
        "dependencies": {"card": {"properties": {"billing": {"type": "string"}}, "required": ["billing"]}},
    }
    form = Form(draft7, {})
    assert "/$deps-card" not in form.call("describeState")
    answer = form.call("setFieldValue", path="/card", value="4242")
    assert "now shown: /$deps-card/billing" in answer
    assert form.state.errors[0].path == "/$deps-card/billing"
    modern = dict(draft7)
    modern["dependentSchemas"] = modern.pop("dependencies")
    modern_form = Form(modern, {"card": "1"})
    assert modern_form.state.errors[0].path == "/$deps-card/billing"


def test_the_agent_guide_is_kept():
    form = compile_form({"type": "object", "x-agent-guide": "  Social links take an identifier, not a URL.  "})
    assert form.agent_guide == "Social links take an identifier, not a URL."
    assert compile_form({"type": "object", "properties": {}}).agent_guide is None


def test_preparing_twice_changes_nothing_more():
    once = prepare_schema(LINE_SCHEMA)
    assert prepare_schema(once) == once


def test_forms_whose_root_is_not_an_object():
    items = {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}
    form = Form(items, None)
    assert form.line("/").startswith("- / (array, required, 0 items)")
    form.call("editArray", path="/", action="add", value={"a": "x"})
    assert form.data() == [{"a": "x"}]
    assert form.call("setData", data=[{"a": "y"}]).splitlines()[1] == "stored the whole document"
    text = Form({"type": "string", "maxLength": 3}, None)
    assert "must be at most 3 characters long" in text.call("setFieldValue", path="/", value="abcd")
