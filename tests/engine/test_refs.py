"""JSON pointers and local $ref resolution, including recursive schemas."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine import jsonpointer
from deskcheck.engine.refs import ExternalRefError, RefError, RefResolver, iter_refs

TREE = {
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
        },
        "alias": {"$ref": "#/$defs/node", "description": "a node"},
        "loop_a": {"$ref": "#/$defs/loop_b"},
        "loop_b": {"$ref": "#/$defs/loop_a"},
        "named": {"$anchor": "item", "type": "integer"},
        "a/b": {"type": "string"},
    },
    "$ref": "#/$defs/node",
}


@given(st.lists(st.text(), max_size=5))
def test_pointer_tokens_round_trip(tokens):
    assert jsonpointer.split(jsonpointer.join(tokens)) == tokens


def test_pointer_resolution_and_errors():
    doc = {"a": [{"b~c/d": 1}]}
    assert jsonpointer.resolve(doc, "/a/0/b~0c~1d") == 1
    with pytest.raises(jsonpointer.PointerError, match="out of range"):
        jsonpointer.resolve(doc, "/a/3")
    with pytest.raises(jsonpointer.PointerError, match="/a/0/x does not exist"):
        jsonpointer.resolve(doc, "/a/0/x")
    with pytest.raises(jsonpointer.PointerError, match="leading zeros"):
        jsonpointer.resolve(doc, "/a/00")
    with pytest.raises(jsonpointer.PointerError, match="must be empty or start"):
        jsonpointer.split("a/b")
    assert jsonpointer.parent("/a/0") == ("/a", "0")


def test_deref_follows_chains_and_keeps_siblings():
    resolver = RefResolver(TREE)
    alias = resolver.deref(TREE["$defs"]["alias"])
    assert alias["type"] == "object" and alias["description"] == "a node"
    assert resolver.deref({"$ref": "#item"}) == {"$anchor": "item", "type": "integer"}
    assert resolver.deref({"$ref": "#/$defs/a~1b"}) == {"type": "string"}


def test_deref_reports_a_loop():
    with pytest.raises(RefError, match="refers to itself"):
        RefResolver(TREE).deref({"$ref": "#/$defs/loop_a"})


def test_inline_cuts_recursion_and_stays_finite():
    out = RefResolver(TREE).inline({"$ref": "#/$defs/node"})
    children = out["properties"]["children"]["items"]
    assert "recursive" in children["description"] and "$ref" not in str(out)


def test_external_and_dangling_refs_are_refused():
    resolver = RefResolver(TREE)
    with pytest.raises(ExternalRefError, match="outside this document"):
        resolver.deref({"$ref": "other.json#/x"})
    with pytest.raises(RefError, match="leads nowhere"):
        resolver.deref({"$ref": "#/$defs/missing"})
    with pytest.raises(RefError, match="no \\$anchor"):
        resolver.deref({"$ref": "#nothing"})


def test_iter_refs_lists_every_reference():
    refs = dict(iter_refs(TREE))
    assert refs[""] == "#/$defs/node"
    assert refs["/$defs/node/properties/children/items"] == "#/$defs/node"
