"""Real schemas: the data platform's dataset-line schema and every JSON request body of its
OpenAPI document compile, and describing them stays readable: bounded size, every property of
the top level listed exactly once, and an empty document that needs nothing stays valid."""

from __future__ import annotations

import json
import re

import pytest

from deskcheck.engine.forms import FormState, compile_form, form_toolset
from tests import corpus
from tests.conftest import OPENAPI_FIXTURES

pytestmark = pytest.mark.corpus("openapi")


def _load(name: str) -> dict:
    path = OPENAPI_FIXTURES / name
    return json.loads(path.read_text()) if path.exists() else {}


ROOT = _load("data-fair-root.json")
LINE_SCHEMA = _load("dataset-line-schema.json")

# A describe of a form over an empty document should fit comfortably in an agent's context.
MAX_DESCRIBE_CHARS = 20_000


def request_bodies() -> list[tuple[str, dict]]:
    out = []
    for path, operations in ROOT.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            for media, content in operation["requestBody"].get("content", {}).items():
                if "schema" in content and media in ("application/json", "multipart/form-data"):
                    out.append(pytest.param(content["schema"], id=f"{method.upper()} {path} {media}"))
    return out


BODIES = corpus.params(request_bodies(), "openapi")


def test_the_document_has_the_bodies_we_expect():
    assert len(BODIES) >= 15


def _top_properties(schema: dict) -> dict:
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        schema = ROOT["components"]["schemas"][name]
    return schema.get("properties", {})


def _describe(schema: dict) -> tuple[FormState, str]:
    state = FormState(compile_form(schema, document=ROOT), None)
    result = form_toolset(state, title="dataset").call("form_describeState", {})
    assert result.ok, result.error
    return state, result.value


@pytest.mark.parametrize("schema", BODIES)
def test_request_bodies_compile_and_describe_readably(request, schema):
    name = request.node.callspec.id
    state, text = _describe(schema)
    assert len(text) < MAX_DESCRIBE_CHARS
    lines = text.splitlines()
    for prop, sub in _top_properties(schema).items():
        hidden = isinstance(sub, dict) and (sub.get("layout") == "none" or "const" in sub)
        pattern = re.compile(rf"^  - /{re.escape(prop)} \(")
        count = sum(1 for line in lines if pattern.match(line))
        assert count == (0 if hidden else 1), f"{prop} is listed {count} times in {name}"
    if not (schema.get("required") or _requires(schema)):
        assert state.valid, f"an empty {name} should be valid: {[(e.path, e.message) for e in state.errors]}"


def _requires(schema: dict) -> bool:
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return bool(ROOT["components"]["schemas"][name].get("required"))
    return bool(schema.get("required")) or (
        schema.get("type") == "array" and bool(schema.get("items", {}).get("required"))
    )


def test_editing_a_request_body_through_the_tools():
    patch = ROOT["paths"]["/datasets/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    state = FormState(compile_form(patch, document=ROOT), {})
    tools = form_toolset(state, title="dataset")
    assert tools.call("form_setFieldValue", {"path": "/title", "value": "Communes"}).ok
    bad = tools.call("form_setFieldValue", {"path": "/slug", "value": "Not A Slug"})
    assert bad.ok and "must match the pattern" in bad.value
    assert tools.call("form_setFieldValue", {"path": "/slug", "value": None}).ok
    # attachmentsAsImage has a schema default: shown, not written into an existing document.
    assert state.document == {"title": "Communes", "slug": None}
    assert state.valid, "slug is nullable"
    answer = tools.call("form_getFieldSuggestions", {"path": "/frequency"})
    assert answer.ok and "annual" in answer.value


def test_the_dataset_line_schema_describes_every_column_once():
    state = FormState(compile_form(LINE_SCHEMA), None)
    text = form_toolset(state).call("form_describeState", {}).value
    for column in LINE_SCHEMA["properties"]:
        assert len(re.findall(rf"^  - /{column} \(", text, flags=re.M)) == 1
    assert state.valid
