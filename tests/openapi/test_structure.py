"""`openapi check` against the OpenAPI specification itself: the official 3.0/3.1/3.2 JSON Schemas
(jsonschema-rs) and the rules they cannot express. Typical mistakes in real documents, each found
with its rule, pointer and line; openapi-spec-validator, the reference validator, agrees they are
mistakes."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine import jsonpointer
from deskcheck.engine.openapi.check.check import check_source
from deskcheck.engine.openapi.document.documents import DocumentSet
from deskcheck.engine.openapi.document.source import Source, parse_text
from deskcheck.engine.openapi.rules.rules import RULES
from deskcheck.engine.openapi.rules.structure import structural_problems
from tests.hypothesis_profiles import examples

from .conftest import DATA_FAIR_ANNOTATED
from .test_source import pointers

# A small valid document; each case below edits a line or two of it. The expected line numbers
# count `openapi: 3.1.0` as line 1 (`note:` is line 47).
BASE = """\
openapi: 3.1.0
info:
  title: Things
  version: "1.0"
servers:
  - url: https://things.example/api
tags:
  - name: things
paths:
  /things/{thingId}:
    parameters:
      - name: thingId
        in: path
        required: true
        schema: {type: string}
    get:
      operationId: getThing
      parameters:
        - name: fields
          in: query
          schema:
            type: array
            items: {type: string}
            default: [id]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
    put:
      operationId: putThing
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Thing"}
      responses:
        "204": {description: saved}
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: {type: string, pattern: "^[a-z]+$"}
        size: {type: integer, minimum: 0, default: 1}
        note: {type: string}
"""
PATH = "/paths/~1things~1{thingId}"
THING = "/components/schemas/Thing"


def edited(version: str, old: str = "", new: str = "") -> str:
    text = BASE.replace("openapi: 3.1.0", f"openapi: {version}")
    if old:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def findings(text: str) -> list[tuple[str, str, int | None, str]]:
    found = check_source(parse_text(text, location="doc.yaml", format="yaml"))
    return [(f.rule, f.pointer, f.line, f.message) for f in found]


def test_the_base_document_is_valid_in_each_version():
    for version in ("3.0.3", "3.1.0", "3.2.0"):
        assert findings(edited(version)) == []


# (case, edit, expected pointer, line, words of the message), for OpenAPI 3.0 and 3.1 alike: what
# the OpenAPI schema catches, then what only the rules beyond it catch.
SCHEMA_CASES = [
    ("missing info.version", ('  version: "1.0"\n', ""), "/info", 2, "must have required property 'version'"),
    (
        "an unknown method key in a path item",
        ("    put:\n", "    fetch: {responses: {}}\n    put:\n"),
        f"{PATH}/fetch",
        31,
        "properties (fetch)",
    ),
    (
        "a $ref that is not a string",
        ("        note: {type: string}", "        note: {$ref: 42}"),
        f"{THING}/properties/note/$ref",
        47,
        "must be string",
    ),
    (
        "a parameter without 'in'",
        ("          in: query\n", ""),
        f"{PATH}/get/parameters/0",
        19,
        "must have required property 'in'",
    ),
    (
        "a response without a description",
        ('        "204": {description: saved}', '        "204": {}'),
        f"{PATH}/put/responses/204",
        38,
        "must have required property 'description'",
    ),
    (
        "a type name that does not exist",
        ("size: {type: integer,", "size: {type: int,"),
        f"{THING}/properties/size/type",
        46,
        "must be equal to one of the allowed values",
    ),
    (
        "required given as a string",
        ("      required: [id]", "      required: id"),
        f"{THING}/required",
        43,
        "must be array",
    ),
]


def test_openapi_30_nullable_misuse_is_caught():
    # 3.1's way of allowing null is not 3.0's: `type` is one name, null comes from `nullable`.
    text = edited("3.0.3", "note: {type: string}", "note: {type: [string, 'null']}")
    assert findings(text) == [
        (
            "openapi-schema",
            f"{THING}/properties/note/type",
            47,
            'OpenAPI 3.0 schema: must be equal to one of the allowed values ("array", "boolean", "integer", '
            '"number", "object", "string").',
        )
    ]
    not_a_boolean = edited("3.0.3", "note: {type: string}", "note: {type: string, nullable: 'yes'}")
    assert [(where, at) for _, where, at, _ in findings(not_a_boolean)] == [(f"{THING}/properties/note/nullable", 47)]
    # The same spelling is right in 3.1, and nullable means nothing there.
    assert findings(edited("3.1.0", "note: {type: string}", "note: {type: [string, 'null']}")) == []


def test_openapi_31_schema_objects_are_checked_against_the_dialect():
    discriminator = edited("3.1.0", "note: {type: string}", "note: {type: string, discriminator: {}}")
    assert [(where, at, message.rstrip(".")) for _, where, at, message in findings(discriminator)] == [
        (f"{THING}/properties/note/discriminator", 47, "OpenAPI 3.1 schema: must have required property 'propertyName'")
    ]
    tuple_items = edited("3.1.0", "note: {type: string}", "note: {items: [{type: string}]}")
    assert [where for _, where, _, _ in findings(tuple_items)] == [f"{THING}/properties/note/items"]
    # A document may declare another dialect: draft-07 allows tuple items.
    draft7 = tuple_items.replace("servers:", "jsonSchemaDialect: http://json-schema.org/draft-07/schema#\nservers:")
    assert findings(draft7) == []
    unknown = tuple_items.replace("servers:", "jsonSchemaDialect: urn:example:my-dialect\nservers:")
    assert [(rule, where) for rule, where, _, _ in findings(unknown)] == [
        ("structure-not-checked", "/jsonSchemaDialect")
    ]


RULE_CASES = [
    (
        "a repeated operationId",
        ("      operationId: putThing", "      operationId: getThing"),
        f"{PATH}/put/operationId",
        32,
        "operationId 'getThing' is also the id of GET /things/{thingId}",
    ),
    (
        "a path template name without a path parameter",
        ("  /things/{thingId}:", "  /things/{thingId}/{part}:"),
        "/paths/~1things~1{thingId}~1{part}/get",
        16,
        "declares no path parameter 'part'",
    ),
    (
        "a path parameter missing from the template",
        ("  /things/{thingId}:", "  /things:"),
        "/paths/~1things/parameters/0",
        12,
        "the path parameter 'thingId' does not appear in the path /things",
    ),
    (
        "a parameter listed twice",
        (
            "      parameters:\n        - name: fields",
            "      parameters:\n        - {name: fields, in: query, schema: {type: string}}\n        - name: fields",
        ),
        f"{PATH}/get/parameters/1",
        20,
        "the query parameter 'fields' is listed twice here",
    ),
    (
        "a tag declared twice",
        ("  - name: things\n", "  - name: things\n  - name: things\n"),
        "/tags/1/name",
        9,
        "the tag 'things' is declared twice",
    ),
    (
        "a default its schema's minimum rejects",
        ("minimum: 0, default: 1}", "minimum: 0, default: -1}"),
        f"{THING}/properties/size/default",
        46,
        "default -1 does not match its schema: must be >= 0",
    ),
    (
        "an array default with a wrong item",
        ("            default: [id]", "            default: [id, 7]"),
        f"{PATH}/get/parameters/0/schema/default/1",
        24,
        "/1 must be string",
    ),
    (
        "a pattern that is not a regular expression",
        ('pattern: "^[a-z]+$"', 'pattern: "^[a-z+$"'),
        f"{THING}/properties/id/pattern",
        45,
        "is not a valid regular expression",
    ),
    (
        "a $ref that leads nowhere",
        ("        note: {type: string}", "        note: {$ref: '#/components/schemas/Note'}"),
        f"{THING}/properties/note/$ref",
        47,
        "$ref '#/components/schemas/Note' leads nowhere",
    ),
    (
        "a parameter $ref that leads to a schema",
        ("        - name: fields\n", "        - {$ref: '#/components/schemas/Thing'}\n        - name: fields\n"),
        f"{PATH}/get/parameters/0/$ref",
        19,
        "$ref leads to /components/schemas/Thing, which is not a Parameter Object: / must have required property",
    ),
]


# The rule of each case beyond the schema (the schema's own findings are openapi-schema).
RULE_IDS = {
    "a repeated operationId": "operation-id-duplicate",
    "a path template name without a path parameter": "path-parameter-undeclared",
    "a path parameter missing from the template": "path-parameter-not-in-path",
    "a parameter listed twice": "parameter-duplicate",
    "a tag declared twice": "tag-duplicate",
    "a default its schema's minimum rejects": "default-invalid",
    "an array default with a wrong item": "default-invalid",
    "a pattern that is not a regular expression": "pattern-invalid",
    "a $ref that leads nowhere": "ref-unresolvable",
    "a parameter $ref that leads to a schema": "ref-wrong-kind",
}
# What is only questionable is a warning; everything else here breaks the specification.
WARNINGS = {"default-invalid"}


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
@pytest.mark.parametrize(
    ("case", "edit", "pointer", "line", "words"),
    SCHEMA_CASES + RULE_CASES,
    ids=[c[0] for c in SCHEMA_CASES + RULE_CASES],
)
def test_typical_mistakes_are_found_with_pointer_and_line(version, case, edit, pointer, line, words):
    found = check_source(parse_text(edited(version, *edit), location="doc.yaml", format="yaml"))
    matching = [f for f in found if f.pointer == pointer and words in f.message]
    assert len(matching) == 1, found
    finding = matching[0]
    rule = RULE_IDS.get(case, "openapi-schema")
    assert (finding.rule, finding.line) == (rule, line)
    assert finding.severity == ("warning" if rule in WARNINGS else "error")
    message = finding.message
    # Schema findings name the schema; the rules beyond it name only the version.
    label = " schema: " if case in {c[0] for c in SCHEMA_CASES} else ": "
    assert message.startswith(f"OpenAPI {version[:3]}{label}")


def test_a_broken_reference_the_tools_need_is_reported_once():
    annotated = edited(
        "3.1.0", "      operationId: getThing\n", "      operationId: getThing\n      x-agent: {name: get}\n"
    )
    broken = annotated.replace(
        '{$ref: "#/components/schemas/Thing"}\n    put', '{$ref: "#/components/schemas/Thng"}\n    put'
    )
    assert [(rule, where, at) for rule, where, at, _ in findings(broken)] == [
        ("ref-unresolvable", f"{PATH}/get/responses/200/content/application~1json/schema/$ref", 31)
    ]
    # The same reference outside annotated operations breaks the specification all the same.
    plain = edited("3.1.0").replace(
        '{$ref: "#/components/schemas/Thing"}\n    put', '{$ref: "#/components/schemas/Thng"}\n    put'
    )
    assert [(rule, where, at) for rule, where, at, _ in findings(plain)] == [
        ("ref-unresolvable", f"{PATH}/get/responses/200/content/application~1json/schema/$ref", 30)
    ]


def test_openapi_30_defaults_follow_nullable():
    allowed = edited("3.0.3", "note: {type: string}", "note: {type: string, nullable: true, default: null}")
    assert findings(allowed) == []
    nested = edited(
        "3.0.3",
        "        note: {type: string}",
        "        note: {type: string, nullable: true}\n      default: {id: a, note: null}",
    )
    assert findings(nested) == []
    refused = edited("3.0.3", "note: {type: string}", "note: {type: string, default: null}")
    assert [(rule, where) for rule, where, _, _ in findings(refused)] == [
        ("default-type-mismatch", f"{THING}/properties/note/default")
    ]


def test_a_default_of_another_type_is_an_error_in_30_and_a_warning_later():
    # OpenAPI 3.0 requires a default of its schema's type; from 3.1 the default is a JSON Schema
    # annotation, which its schema should (not must) accept.
    for version, rule, words in (
        ("3.0.3", "default-type-mismatch", 'default "many" is a string, but its schema\'s type is integer'),
        ("3.1.0", "default-invalid", 'default "many" does not match its schema: must be integer'),
    ):
        document = edited(version, "minimum: 0, default: 1}", "minimum: 0, default: many}")
        found = [f for f in check_source(parse_text(document, location="doc.yaml", format="yaml"))]
        assert [(f.rule, f.pointer, f.line, f.severity) for f in found] == [
            (rule, f"{THING}/properties/size/default", 46, "error" if version == "3.0.3" else "warning")
        ]
        assert words in found[0].message


@pytest.mark.corpus("openapi")
def test_the_real_root_document_keeps_its_findings():
    found = check_source(parse_text(DATA_FAIR_ANNOTATED.read_text(encoding="utf-8"), location="data-fair.json"))
    located = {(f.rule, f.pointer, f.line) for f in found}
    assert located == {
        ("default-invalid", "/paths/~1datasets~1{id}~1lines/get/parameters/4/schema/default", 13773),
        ("default-invalid", "/paths/~1datasets~1{id}~1values_agg/get/parameters/9/schema/default", 15004),
        (
            "path-parameter-undeclared",
            "/paths/~1datasets~1{id}~1master-data~1single-searchs~1{singleSearchId}/get",
            16692,
        ),
        (
            "path-parameter-undeclared",
            "/paths/~1datasets~1{id}~1master-data~1bulk-searchs~1{bulkSearchId}/post",
            16763,
        ),
        ("default-invalid", "/paths/~1datasets~1{id}~1geo_agg/get/parameters/3/schema/default", 17110),
        ("default-invalid", "/paths/~1datasets~1{id}~1own~1{owner}~1lines/get/parameters/4/schema/default", 18668),
        ("operation-id-duplicate", "/paths/~1datasets~1{id}~1own~1{owner}~1revisions/get/operationId", 19774),
        ("skill-description-too-long", "/x-agent/skills/0/description", 20570),
    }


# The reference validator stops with an exception (PointerToNowhere, KeyError) on these instead of
# reporting them; deskcheck reports them.
CRASH_THE_REFERENCE = {"a $ref that leads nowhere", "a parameter $ref that leads to a schema"}


def test_the_reference_validator_agrees_these_are_mistakes():
    """openapi-spec-validator (a test dependency) rejects each edited document and accepts the base."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    def rejected(text: str) -> bool:
        try:
            validate(parse_text(text, location="doc.yaml", format="yaml").data)
        except OpenAPIValidationError:
            return True
        return False

    for version in ("3.0.3", "3.1.0"):
        assert not rejected(edited(version))
        for case, edit, *_ in SCHEMA_CASES + RULE_CASES:
            if case not in CRASH_THE_REFERENCE:
                assert rejected(edited(version, *edit)), (version, case)


def test_a_reference_to_another_host_is_never_fetched(scripted_server):
    text = edited(
        "3.1.0", "note: {type: string}", f"note: {{$ref: '{scripted_server.url}/note.json', default: 3}}"
    ).replace("https://things.example/api", scripted_server.url)
    findings(text)
    assert scripted_server.received == []


def test_documents_of_a_version_without_a_schema_say_so():
    assert [(rule, where) for rule, where, _, _ in findings(edited("3.3.0"))] == [("structure-not-checked", "/openapi")]


def test_missing_schema_files_are_reported_not_fatal(monkeypatch):
    from deskcheck.engine.openapi.rules import oas_schemas

    def nowhere(package):
        raise oas_schemas.SchemasUnavailable(f"{package} is not installed.")

    for compiled in (oas_schemas._plain_validator, oas_schemas._composed_validator):
        compiled.cache_clear()
    monkeypatch.setattr(oas_schemas, "_package_dir", nowhere)
    try:
        found = findings(edited("3.1.0", '  version: "1.0"\n', ""))
    finally:
        for compiled in (oas_schemas._plain_validator, oas_schemas._composed_validator):
            compiled.cache_clear()
    assert [(rule, message) for rule, _, _, message in found] == [
        (
            "structure-not-checked",
            "the document was not validated against the OpenAPI schema: openapi_spec_validator is not installed.",
        )
    ]


@pytest.mark.slow
@pytest.mark.corpus("openapi")
def test_check_never_imports_the_reference_validator():
    # It only provides the schema files; importing it costs ~0.45 s.
    code = (
        "import sys\n"
        "from deskcheck.cli.main import run\n"
        f"run(['openapi', 'check', {str(DATA_FAIR_ANNOTATED)!r}, '--format', 'json'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('openapi_spec_validator', 'openapi_schema_validator', 'jsonschema', 'pydantic')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


# -- any document: no crash, every finding names a place that exists -----------------------------

# Keys and values that matter to the OpenAPI rules, mixed with arbitrary ones.
KEYS = (
    st.sampled_from(["$ref", "default", "allOf", "required", "properties", "parameters", "in", "name", "pattern"])
    | st.sampled_from(["nullable", "type", "items", "content", "schema", "operationId", "responses", "get", "tags"])
    | st.text(max_size=5)
)
REFS = st.sampled_from(["#/components/schemas/Thing", "#/paths", "#/nope", "#", "other.json#/x", "#/tags/0"])
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=6), REFS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)


BASE_31 = parse_text(BASE, location="doc.yaml", format="yaml").data
BASE_30 = {**copy.deepcopy(BASE_31), "openapi": "3.0.3"}
PLACES = sorted(pointers(BASE_31))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([BASE_30, BASE_31]),
    st.lists(st.tuples(st.sampled_from(PLACES), KEYS, json_values), min_size=1, max_size=4),
)
def test_any_edit_gives_findings_at_places_that_exist(base, edits):
    """Replacing values, or adding members, anywhere: the check never fails, and each finding
    points at something in the document."""
    document = copy.deepcopy(base)
    for pointer, key, value in edits:
        if not jsonpointer.exists(document, pointer):
            continue
        target = jsonpointer.resolve(document, pointer)
        if isinstance(target, dict):
            target[key] = value
        elif pointer:
            parent_pointer, last = jsonpointer.parent(pointer)
            parent = jsonpointer.resolve(document, parent_pointer)
            parent[int(last) if isinstance(parent, list) else last] = value
    source = Source(location="<document>", data=document, text="", format="json")
    for problem in structural_problems(DocumentSet(source)):
        assert problem.severity == RULES[problem.rule].severity
        assert problem.pointer == "" or jsonpointer.exists(document, problem.pointer), (problem, json.dumps(document))
