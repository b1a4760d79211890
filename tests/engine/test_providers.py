"""Exported tool definitions: provider shapes and the conservative schema subset."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine.providers import SHAPES, conservative_schema, export_tools, subset_violations
from deskcheck.engine.tools import READ_ONLY, Tool

RICH = {
    "type": "object",
    "properties": {
        "mode": {"const": "x"},
        "colour": {"oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
        "when": {"type": ["string", "null"], "format": "date"},
        "value": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]},
        "code": {"type": "string", "pattern": "^[A-Z]+$", "default": "AB"},
        "meta": {"type": "object", "additionalProperties": {"type": "integer", "exclusiveMinimum": 0}},
        "both": {"allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}]},
    },
    "required": ["mode"],
    "$defs": {"unused": {}},
}


def test_conservative_schema_rewrites_and_keeps_information():
    out = conservative_schema(RICH)
    assert subset_violations(out) == []
    props = out["properties"]
    assert props["mode"] == {"type": "string", "enum": ["x"]}
    assert props["colour"]["enum"] == ["r", "g"] and "Red" in props["colour"]["description"]
    # Nullable: left untyped (the subset has no unions), so that a validating client sends the null.
    assert "type" not in props["when"] and "a string" in props["when"]["description"]
    assert "date" in props["when"]["description"]
    assert "null" in props["when"]["description"]
    assert "one of" in props["value"]["description"]
    assert props["pair"]["type"] == "array" and props["pair"]["items"] == {}
    assert "pattern" in props["code"]["description"] and "default" in props["code"]["description"]
    assert props["both"]["required"] == ["a"]
    assert out["required"] == ["mode"]


def test_subset_violations_name_the_place():
    assert subset_violations({"type": "object", "properties": {"a": {"anyOf": []}}}) == [
        "$.properties.a.anyOf: keyword not in the conservative subset"
    ]
    assert subset_violations({"type": ["string", "null"]})[0].startswith("$.type")


def test_every_shape_is_exported():
    tool = Tool("t", "Describe.", RICH, lambda a: None, READ_ONLY)
    for shape in SHAPES:
        [definition] = export_tools([tool], shape)
        schema = definition.get("input_schema") or definition.get("inputSchema") or definition["function"]["parameters"]
        assert subset_violations(schema) == []
    assert export_tools([tool], "openai")[0]["type"] == "function"
    assert export_tools([tool], "mcp")[0]["annotations"]["readOnlyHint"] is True


leaf = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["string", "number", "integer", "boolean", "null", ["string", "null"]]),
        "const": st.integers(),
        "format": st.sampled_from(["date", "email"]),
        "enum": st.lists(st.text(max_size=3), min_size=1, max_size=3),
        "minimum": st.integers(),
        "default": st.integers(),
        "description": st.text(max_size=5),
    },
)
schemas = st.recursive(
    leaf,
    lambda children: st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.just("object"),
                "properties": st.dictionaries(st.text(min_size=1, max_size=4), children, max_size=3),
            }
        ),
        st.fixed_dictionaries({"type": st.just("array"), "items": children}),
        st.fixed_dictionaries({"anyOf": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"oneOf": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"allOf": st.lists(children, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"additionalProperties": st.one_of(st.booleans(), children)}),
        st.fixed_dictionaries({"prefixItems": st.lists(children, max_size=2), "type": st.just("array")}),
    ),
    max_leaves=12,
)


@given(schemas)
def test_any_schema_reduces_into_the_subset(schema):
    assert subset_violations(conservative_schema({"type": "object", "properties": {"x": schema}})) == []
