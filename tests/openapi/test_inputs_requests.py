"""Input schemas and requests built from operations, without a server: parameter overrides,
array routing, body merging, query serialisation, path encoding, headers."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.engine.openapi.tools.request import RequestBuildError, build_request, query_pairs
from deskcheck.engine.providers import SHAPES, export_tools, subset_violations

DOC = {
    "openapi": "3.0.3",
    "info": {"title": "T", "version": "1"},
    "servers": [{"url": "https://{host}/v1", "variables": {"host": {"default": "api.test"}}}],
    "paths": {
        "/items/{itemId}": {
            "put": {
                "operationId": "putItem",
                "summary": "Replace an item",
                "parameters": [
                    {"in": "path", "name": "itemId", "required": True, "schema": {"type": "string", "title": "Id"}},
                    {"in": "header", "name": "X-Trace", "schema": {"type": "string"}},
                    {
                        "in": "query",
                        "name": "tags",
                        "schema": {"type": "array", "items": {"type": "string"}, "default": ["a"], "maximum": 3},
                    },
                    {"in": "query", "name": "name", "schema": {"type": "string"}},
                    {"in": "cookie", "name": "session", "schema": {"type": "string"}},
                ],
                "x-agent": {
                    "params": {
                        "tags": {"enum": ["a", "b"], "default": ["b"]},
                        "itemId": {"required": False},
                        "name": {"required": True},
                    }
                },
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


@pytest.fixture
def put_item():
    loaded = load_openapi(json.loads(json.dumps(DOC)))
    [plain] = loaded.analysis.plain
    return loaded, plain.operation, plain.tool_input


def test_overrides_routing_and_body_collisions(put_item):
    loaded, _, tool_input = put_item
    schema = tool_input.schema
    assert list(schema["properties"]) == ["itemId", "X-Trace", "tags", "name", "name__body", "size"]
    assert schema["properties"]["itemId"] == {"type": "string"}  # the inherited title is dropped
    # Array keywords move to the items; the override wins.
    assert schema["properties"]["tags"] == {
        "type": "array",
        "items": {"type": "string", "default": ["b"], "maximum": 3, "enum": ["a", "b"]},
    }
    # required: false un-requires the path parameter; required: true requires the query one.
    assert schema["required"] == ["name", "name__body"]
    assert loaded.tools[0].description == "Replace an item"
    assert loaded.base_url == "https://api.test/v1"


def test_the_request(put_item):
    _, operation, tool_input = put_item
    args = {"itemId": "a b~c", "X-Trace": 7, "tags": ["a", "b"], "name": "q", "name__body": "N", "size": None}
    request = build_request(operation, tool_input.bindings, args, "https://api.test/v1/")
    assert request.method == "PUT"
    assert request.url == "https://api.test/v1/items/a%20b~c?tags=a&tags=b&name=q"
    assert request.headers == {"accept": "application/json", "X-Trace": "7", "content-type": "application/json"}
    assert request.json_body == {"name": "N", "size": None}
    with pytest.raises(RequestBuildError, match='missing path parameter "itemId"'):
        build_request(operation, tool_input.bindings, {"name": "q"}, "https://api.test/v1")


def test_query_serialisation():
    assert query_pairs("s", ["a", "b"], False) == [("s", "a,b")]
    assert query_pairs("s", ["a", "b"], None) == [("s", "a"), ("s", "b")]
    assert query_pairs("f", {"x_eq": "1", "y_in": ["a", "b"], "z": None}, None) == [("x_eq", "1"), ("y_in", "a,b")]
    assert query_pairs("b", True, None) == [("b", "true")]
    assert query_pairs("n", 2.0, None) == [("n", "2")]


def test_sample_api_tools_stay_in_the_conservative_subset():
    from deskcheck.samples.records_api import openapi_path

    for profile in ("read", "write"):
        loaded = load_openapi(str(openapi_path()), profiles=[profile])
        assert loaded.tools
        for shape in SHAPES:
            for definition in export_tools(loaded.tools, shape):
                schema = definition.get("inputSchema") or definition.get("input_schema")
                schema = schema or definition["function"]["parameters"]
                assert subset_violations(schema) == []
