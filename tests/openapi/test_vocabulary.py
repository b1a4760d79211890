"""Every class of problem the x-agent vocabulary, profiles, operations and editor groups can have
is reported with its rule, a JSON pointer to the offending key, and that key's line and column;
a load refuses the document with all of them listed."""

from __future__ import annotations

import copy
import json

import pytest

from deskcheck.engine.openapi.check.check import check_source, has_errors
from deskcheck.engine.openapi.document.problems import SpecLoadError
from deskcheck.engine.openapi.document.source import parse_text
from deskcheck.engine.openapi.tools.load import load_openapi

BASE = {
    "openapi": "3.1.0",
    "info": {"title": "Things", "version": "1"},
    "servers": [{"url": "https://things.test/api"}],
    "x-agent": {"namePrefix": "t_", "profiles": {"read": {"title": "Read"}, "write": {"includes": ["read"]}}},
    "tags": [{"name": "Things"}],
    "paths": {
        "/things": {
            "get": {
                "operationId": "listThings",
                "tags": ["Things"],
                "parameters": [
                    {"in": "query", "name": "q", "schema": {"type": "string"}},
                    {"in": "query", "name": "sort", "schema": {"type": "array", "items": {"type": "string"}}},
                ],
                "x-agent": {"profiles": ["read"], "name": "list_things"},
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "results": {"type": "array", "items": {"$ref": "#/components/schemas/thing"}}
                                    },
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "createThing",
                "x-agent": {"profiles": ["write"]},
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/thing"}}}},
                "responses": {"201": {"description": "created"}},
            },
        },
        "/things/{id}": {
            "parameters": [{"in": "path", "name": "id", "required": True, "schema": {"type": "string"}}],
            "get": {"operationId": "readThing", "responses": {"200": {"description": "ok"}}},
            "put": {
                "operationId": "updateThing",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/thing"}}}},
                "x-agent": {"profiles": ["write"], "name": "thing", "editor": {"readOperation": "readThing"}},
                "responses": {"200": {"description": "ok"}},
            },
        },
        "/other/{otherId}": {
            "get": {
                "operationId": "readOther",
                "parameters": [{"in": "path", "name": "otherId", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
    "components": {
        "schemas": {
            "thing": {
                "type": "object",
                "required": ["title"],
                "properties": {"id": {"type": "string"}, "title": {"type": "string"}},
            }
        }
    },
}


def _renamed_id(item, name):
    item["parameters"][0]["name"] = name
    return item


GET_X = {"operationId": "getX", "x-agent": {}, "responses": {"200": {"description": "ok"}}}


def document(change=None):
    doc = copy.deepcopy(BASE)
    if change:
        change(doc)
    return doc


def findings_for(doc, **options):
    text = json.dumps(doc, indent=2)
    return text, check_source(parse_text(text, location="doc.json"), structure=False, **options)


def line_of(text: str, needle: str, after: str | None = None) -> int:
    start = text.index(after) if after else 0
    return text[: text.index(needle, start)].count("\n") + 1


def only(findings, rule):
    matching = [f for f in findings if f.rule == rule]
    assert len(matching) == 1, findings
    return matching[0]


def test_the_base_document_is_clean():
    _, findings = findings_for(document())
    assert findings == []


def op(doc, path="/things", method="get"):
    return doc["paths"][path][method]


CASES = [
    # (name, change, rule, pointer, needle for the line, message fragment)
    (
        "unknown operation key",
        lambda d: op(d)["x-agent"].update(template="x"),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/template",
        '"template"',
        "x-agent invalid at /paths/~1things/get: / must NOT have additional properties (template)",
    ),
    (
        "root namePrefix type",
        lambda d: d["x-agent"].update(namePrefix=3),
        "x-agent-invalid",
        "/x-agent/namePrefix",
        '"namePrefix"',
        "x-agent invalid at /: /namePrefix must be string",
    ),
    (
        "skill name pattern",
        lambda d: d["x-agent"].update(skills=[{"name": "Workflow", "description": "d"}]),
        "x-agent-invalid",
        "/x-agent/skills/0/name",
        '"Workflow"',
        '/skills/0/name must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$"',
    ),
    (
        "skill without description",
        lambda d: d["x-agent"].update(skills=[{"name": "flow"}]),
        "x-agent-invalid",
        "/x-agent/skills/0",
        ('"flow"', -1),  # an array item is located at its opening brace
        "/skills/0 must have required property 'description'",
    ),
    (
        "skill with href and body",
        lambda d: d["x-agent"].update(skills=[{"name": "flow", "description": "d", "href": "a.md", "body": "b"}]),
        "x-agent-invalid",
        "/x-agent/skills/0",
        ('"flow"', -1),
        "must NOT have both href and body",
    ),
    (
        "multi-segment rows",
        lambda d: op(d)["x-agent"].update(response={"rows": "/a/b"}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/response/rows",
        '"rows"',
        '/response/rows must match pattern "^/[^/]+$"',
    ),
    (
        "parameter override key",
        lambda d: op(d)["x-agent"].update(params={"q": {"rename": "query"}}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/params/q/rename",
        '"rename"',
        "/params/q must NOT have additional properties (rename)",
    ),
    (
        "parameter-level override",
        lambda d: op(d)["parameters"][0].update({"x-agent": {"maximum": "ten"}}),
        "x-agent-invalid",
        "/paths/~1things/get/parameters/0/x-agent/maximum",
        '"maximum"',
        "x-agent invalid at /paths/~1things/get/parameters/0: /maximum must be number",
    ),
    (
        "schema property",
        lambda d: d["components"]["schemas"]["thing"]["properties"]["id"].update({"x-agent": {"exclude": "yes"}}),
        "x-agent-invalid",
        "/components/schemas/thing/properties/id/x-agent/exclude",
        '"exclude"',
        "/exclude must be boolean",
    ),
    (
        "tag profiles",
        lambda d: d["tags"][0].update({"x-agent": {"profiles": []}}),
        "x-agent-invalid",
        "/tags/0/x-agent/profiles",
        '"profiles": []',
        "x-agent invalid at /tags/0: /profiles must be true",
    ),
    (
        "editor form",
        lambda d: op(d, "/things/{id}", "put")["x-agent"].update(editor={"schemaOp": "x"}),
        "x-agent-invalid",
        "/paths/~1things~1{id}/put/x-agent/editor",
        '"editor"',
        "/editor must be true, or an object with schemaOperation",
    ),
    (
        "empty views",
        lambda d: op(d).update({"x-agent": []}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent",
        '"x-agent": []',
        "an array of views needs at least one view",
    ),
    (
        "view without a name",
        lambda d: op(d).update({"x-agent": [{"name": "a"}, {"profiles": ["read"]}]}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/1",
        ('"profiles": [\n', -1),
        "x-agent invalid at /paths/~1things/get/1: every view of an operation needs a name",
    ),
    (
        "duplicate view names",
        lambda d: op(d).update({"x-agent": [{"name": "a"}, {"name": "a"}]}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/1/name",
        ('"name": "a"', 3, '"x-agent": ['),  # the second view's name, three lines below the first
        'duplicate view name "a"',
    ),
    (
        "bad key inside a view",
        lambda d: op(d).update({"x-agent": [{"name": "a", "oops": 1}]}),
        "x-agent-invalid",
        "/paths/~1things/get/x-agent/0/oops",
        '"oops"',
        "x-agent invalid at /paths/~1things/get/0: / must NOT have additional properties (oops)",
    ),
    (
        "include of an undeclared profile",
        lambda d: d["x-agent"]["profiles"]["write"].update(includes=["read", "nope"]),
        "profile-include-undeclared",
        "/x-agent/profiles/write/includes/1",
        '"nope"',
        'profile "write" includes "nope", which is not declared',
    ),
    (
        "include cycle",
        lambda d: d["x-agent"]["profiles"]["read"].update(includes=["write"]),
        "profile-include-cycle",
        "/x-agent/profiles/write/includes/0",
        ('"read"', 0, '"write": {'),
        "profile includes form a cycle: read → write → read",
    ),
    (
        "operation without operationId",
        lambda d: op(d).pop("operationId"),
        "operation-id-missing",
        "/paths/~1things/get",
        '"get"',
        "operation GET /things has x-agent but no operationId",
    ),
    (
        "duplicate tool names",
        lambda d: op(d, "/things", "post")["x-agent"].update(name="list_things"),
        "tool-name-duplicate",
        "/paths/~1things/post/x-agent",
        ('"x-agent"', 0, '"post"'),
        'duplicate tool name "t_list_things"',
    ),
    (
        "external reference",
        lambda d: op(d, "/things", "post")["requestBody"]["content"]["application/json"].update(
            schema={"$ref": "other.json#/thing"}
        ),
        "ref-external",
        "/paths/~1things/post/requestBody/content/application~1json/schema/$ref",
        '"other.json#/thing"',
        "points outside this document",
    ),
    (
        "unresolvable reference",
        lambda d: op(d)["parameters"].append({"$ref": "#/components/parameters/missing"}),
        "ref-unresolvable",
        "/paths/~1things/get/parameters/2/$ref",
        '"#/components/parameters/missing"',
        "leads nowhere",
    ),
    (
        "bodyFields on a non-object body",
        lambda d: (
            op(d, "/things", "post")["requestBody"]["content"]["application/json"].update(schema={"type": "string"}),
            op(d, "/things", "post")["x-agent"].update(bodyFields=["title"]),
        ),
        "body-fields-invalid",
        "/paths/~1things/post/x-agent/bodyFields",
        '"bodyFields"',
        "t_create_thing: bodyFields needs an object request body with properties",
    ),
    (
        "bodyFields naming undeclared properties",
        lambda d: op(d, "/things", "post")["x-agent"].update(bodyFields=["title", "colour"]),
        "body-fields-invalid",
        "/paths/~1things/post/x-agent/bodyFields/1",
        '"colour"',
        "bodyFields names properties the request body does not declare: colour",
    ),
    (
        "selectParam that is no parameter",
        lambda d: op(d)["x-agent"].update(response={"selectParam": "select"}),
        "select-param-invalid",
        "/paths/~1things/get/x-agent/response/selectParam",
        '"selectParam"',
        'listThings: response.selectParam "select" is not a parameter',
    ),
    (
        "selectParam without response fields",
        lambda d: op(d)["x-agent"].update(response={"selectParam": "sort", "rows": "/nothing"}),
        "select-param-invalid",
        "/paths/~1things/get/x-agent/response/selectParam",
        '"selectParam"',
        'needs response fields, but the response schema declares no properties (at "/nothing")',
    ),
    (
        "editor naming a missing operation",
        lambda d: op(d, "/things/{id}", "put")["x-agent"]["editor"].update(readOperation="noSuchOp"),
        "editor-operation-missing",
        "/paths/~1things~1{id}/put/x-agent/editor/readOperation",
        '"readOperation"',
        'updateThing: editor.readOperation names "noSuchOp", which is not an operation in this document',
    ),
    (
        "editor operation needing another path parameter",
        lambda d: op(d, "/things/{id}", "put")["x-agent"]["editor"].update(schemaOperation="readOther"),
        "editor-path-parameter-missing",
        "/paths/~1things~1{id}/put/x-agent/editor/schemaOperation",
        '"schemaOperation"',
        'editor.schemaOperation "readOther" needs path parameter "otherId", which updateThing does not supply',
    ),
    (
        "editor without a JSON body",
        lambda d: op(d, "/things/{id}", "put")["requestBody"].update(
            content={"multipart/form-data": {"schema": {"type": "object"}}}
        ),
        "editor-json-body-missing",
        "/paths/~1things~1{id}/put/x-agent/editor",
        '"editor"',
        "updateThing: an editor needs a JSON request body",
    ),
    (
        "editor naming an ambiguous operation",
        lambda d: op(d, "/other/{otherId}").update(operationId="readThing"),
        "editor-operation-ambiguous",
        "/paths/~1things~1{id}/put/x-agent/editor/readOperation",
        '"readOperation"',
        "several operations use as operationId",
    ),
    (
        "editor path parameter named like a form argument",
        lambda d: d["paths"].update({"/things/{path}": _renamed_id(d["paths"].pop("/things/{id}"), "path")}),
        "editor-path-parameter-clash",
        "/paths/~1things~1{path}/put/x-agent/editor",
        '"editor"',
        'updateThing: the path parameter "path" has the name of an argument of the form tools',
    ),
    (
        "path placeholder without a parameter",
        lambda d: d["paths"].update({"/x/{missing}": {"get": GET_X}}),
        "path-parameter-undeclared",
        "/paths/~1x~1{missing}/get",
        '"get": {\n        "operationId": "getX"',
        "getX: the path /x/{missing} has {missing} but no path parameter",
    ),
    (
        "lint: quoted scalar for an array",
        lambda d: op(d)["x-agent"].update(params={"sort": {"description": 'Sort key, e.g. "-date".'}}),
        "scalar-example-for-array",
        "/paths/~1things/get/x-agent/params/sort/description",
        '"Sort key',
        "t_list_things.sort [scalar-example-for-array]",
    ),
    (
        "lint: comma-separated array",
        lambda d: op(d)["x-agent"].update(params={"sort": {"description": 'Comma-separated keys, e.g. ["a"]'}}),
        "comma-separated-array",
        "/paths/~1things/get/x-agent/params/sort/description",
        '"Comma-separated',
        'says "comma-separated" but the parameter is an array',
    ),
    (
        "lint: quoted value outside the enum",
        lambda d: (
            op(d)["parameters"][0]["schema"].update(enum=["a", "b"]),
            op(d)["x-agent"].update(params={"q": {"description": 'One of "a" or "c".'}}),
        ),
        "quoted-value-not-in-enum",
        "/paths/~1things/get/x-agent/params/q/description",
        '"One of',
        'quotes "c", which the enum does not allow (a, b)',
    ),
]


@pytest.mark.parametrize(
    ("change", "rule", "pointer", "needle", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_problem_class_is_reported_with_pointer_and_line(change, rule, pointer, needle, fragment):
    doc = document(change)
    text, findings = findings_for(doc)
    finding = only(findings, rule)
    assert finding.severity == "error"
    assert finding.pointer == pointer
    assert fragment in finding.message
    needle, delta, after = (*needle, None)[:3] if isinstance(needle, tuple) else (needle, 0, None)
    assert finding.line == line_of(text, needle, after) + delta, finding
    assert finding.column == text.splitlines()[finding.line - 1].index(text.splitlines()[finding.line - 1].lstrip()) + 1
    assert has_errors(findings)
    with pytest.raises(SpecLoadError) as raised:
        load_openapi(doc, profiles=["write"])
    assert any(p.rule == rule for p in raised.value.problems)
    assert fragment in raised.value.message or len(raised.value.problems) > 20


def test_all_problems_are_reported_at_once():
    chosen = [CASES[i] for i in (0, 1, 2, 5, 6, 7, 8, 9)]

    def many(d):
        for case in chosen:
            case[1](d)

    _, findings = findings_for(document(many))
    assert {f.pointer for f in findings if f.rule == "x-agent-invalid"} == {case[3] for case in chosen}


def test_a_long_skill_description_is_a_warning():
    doc = document(lambda d: d["x-agent"].update(skills=[{"name": "flow", "description": {"en": "x" * 1025}}]))
    _, findings = findings_for(doc)
    finding = only(findings, "skill-description-too-long")
    assert finding.severity == "warning" and finding.pointer == "/x-agent/skills/0/description/en"
    assert not has_errors(findings) and has_errors(findings, strict=True)
    assert load_openapi(doc).skills[0].description == "x" * 1025


def test_a_document_that_is_not_openapi_3():
    _, findings = findings_for({"swagger": "2.0", "info": {}})
    assert only(findings, "openapi-version").message.startswith("only OpenAPI 3.x documents are supported")


def test_check_can_focus_on_one_profile():
    # The duplicate only exists in the write selection.
    doc = document(lambda d: op(d, "/things", "post")["x-agent"].update(name="list_things"))
    assert findings_for(doc, profiles=["read"])[1] == []
    assert [f.rule for f in findings_for(doc, profiles=["write"])[1]] == ["tool-name-duplicate"]


def test_positions_in_yaml_documents():
    text = """openapi: 3.1.0
info: {title: T, version: '1'}
servers: [{url: 'https://t.test'}]
paths:
  /things:
    get:
      operationId: listThings
      x-agent:
        name: list_things
        template: nope
      responses:
        200: {description: ok}
"""
    findings = check_source(parse_text(text, location="doc.yaml", format="yaml"), structure=False)
    finding = only(findings, "x-agent-invalid")
    assert (finding.line, finding.column) == (10, 9)
    assert finding.pointer == "/paths/~1things/get/x-agent/template"
