"""The rules `openapi check` adds beyond the official JSON Schemas: identical path templates, path
parameters of a path item without operations, a 3.0 default of another type, keywords beside a
$ref that are ignored, and examples their schema refuses. Each on a small document, in YAML so
that lines are checked too, and the real cases from GitHub's REST description that led to them
(tests/fixtures/openapi-real, SOURCES.md there)."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.openapi.check.check import check_source
from deskcheck.engine.openapi.document.source import parse_text, read_source
from tests.conftest import REPO

REAL = REPO / "tests" / "fixtures" / "openapi-real"


def found(text: str, rule: str | None = None) -> list[tuple[str, str, int, str]]:
    """(rule, pointer, line, severity) of each finding of ``rule`` (every rule when None)."""
    return [
        (f.rule, f.pointer, f.line, f.severity)
        for f in check_source(parse_text(text, location="doc.yaml", format="yaml"))
        if rule is None or f.rule == rule
    ]


def messages(text: str, rule: str) -> list[str]:
    return [f.message for f in check_source(parse_text(text, location="doc.yaml", format="yaml")) if f.rule == rule]


def document(version: str, paths: str, components: str = "") -> str:
    head = f'openapi: {version}\ninfo: {{title: t, version: "1"}}\nservers: [{{url: "https://t.example"}}]\n'
    return head + "paths:\n" + paths + (("components:\n" + components) if components else "")


OK = '      responses: {"200": {description: ok}}\n'


def operation(name: str, parameter: str) -> str:
    return f"    get:\n      operationId: {name}\n      parameters: [{parameter}]\n{OK}"


# -- identical path templates ---------------------------------------------------------------------


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_path_templates_that_differ_only_in_their_names_are_an_error(version):
    paths = (
        "  /users/{id}:\n"
        + operation("byId", "{name: id, in: path, required: true, schema: {type: string}}")
        # line 10: the second spelling is the one reported
        + "  /users/{name}:\n"
        + operation("byName", "{name: name, in: path, required: true, schema: {type: string}}")
        + "  /users/me:\n"
        + operation("me", "{name: q, in: query, schema: {type: string}}")
        + "  /files/{a}.json:\n"
        + operation("a", "{name: a, in: path, required: true, schema: {type: string}}")
        + "  /files/{b}.json:\n"
        + operation("b", "{name: b, in: path, required: true, schema: {type: string}}")
    )
    text = document(version, paths)
    assert found(text) == [
        ("path-template-duplicate", "/paths/~1users~1{name}", 10, "error"),
        ("path-template-duplicate", "/paths/~1files~1{b}.json", 25, "error"),
    ]
    assert "/users/{name} matches the same requests as /users/{id}" in messages(text, "path-template-duplicate")[0]


# -- path parameters of a path item without operations ---------------------------------------------


def test_a_path_parameter_of_a_path_item_without_operations_must_be_in_its_template():
    # The case of the OAI 3.1 suite's parameter-object-examples.yaml.
    shared = "    parameters:\n      - {name: usernames, in: path, required: true, schema: {type: string}}\n"
    alone = document("3.1.0", "  /user/{username}:\n" + shared)
    assert found(alone) == [("path-parameter-not-in-path", "/paths/~1user~1{username}/parameters/0", 7, "error")]
    # With operations the same parameter is reported once, not once per operation.
    both = document(
        "3.1.0",
        "  /user/{username}:\n"
        + shared
        + operation("one", "{name: username, in: path, required: true, schema: {type: string}}")
        + "    delete:\n      operationId: two\n      parameters: [{name: username, in: path, required: true}]\n"
        + OK,
    )
    assert found(both, "path-parameter-not-in-path") == [
        ("path-parameter-not-in-path", "/paths/~1user~1{username}/parameters/0", 7, "error")
    ]


# -- keywords beside a $ref --------------------------------------------------------------------------

SCHEMAS = "  schemas:\n    Pet: {type: object}\n"
PARAMETERS = "  parameters:\n    Limit: {name: limit, in: query, schema: {type: integer}}\n"


def siblings(version: str) -> str:
    body = (
        "  /pets:\n    get:\n      operationId: pets\n"
        "      parameters:\n"
        "        - {$ref: '#/components/parameters/Limit', description: how many}\n"  # line 9
        "        - {$ref: '#/components/parameters/Limit', required: true}\n"  # line 10: also a duplicate
        "      responses:\n"
        '        "200":\n'
        "          description: ok\n"
        "          content:\n"
        "            application/json:\n"
        "              schema: {$ref: '#/components/schemas/Pet', nullable: true, x-tool: kept}\n"  # line 16
    )
    return document(version, body, SCHEMAS + PARAMETERS)


def test_every_member_beside_a_30_ref_is_reported_as_ignored():
    text = siblings("3.0.3")
    where = "/paths/~1pets/get"
    assert found(text, "ref-siblings-ignored") == [
        ("ref-siblings-ignored", f"{where}/parameters/0/description", 9, "warning"),
        ("ref-siblings-ignored", f"{where}/parameters/1/required", 10, "warning"),
        ("ref-siblings-ignored", f"{where}/responses/200/content/application~1json/schema/nullable", 16, "warning"),
    ]
    nullable = messages(text, "ref-siblings-ignored")[2]
    assert nullable.startswith("OpenAPI 3.0: nullable is ignored: OpenAPI 3.0 ignores every member beside a $ref")


def test_from_31_a_reference_keeps_its_summary_and_description_and_a_schema_its_siblings():
    assert found(siblings("3.1.0"), "ref-siblings-ignored") == [
        ("ref-siblings-ignored", "/paths/~1pets/get/parameters/1/required", 10, "warning")
    ]


# -- examples against their schemas -----------------------------------------------------------------

EXAMPLES = """\
  /pets/{id}:
    get:
      operationId: pet
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: integer}
          example: seven
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
              examples:
                good: {value: {name: Rex, tag: null}}
                shared: {$ref: '#/components/examples/NoName'}
                elsewhere: {externalValue: 'https://t.example/pet.json'}
            application/xml:
              schema: {$ref: '#/components/schemas/Pet'}
              example: '<pet><name>Rex</name></pet>'
"""
COMPONENTS = """\
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, example: 7}
        tag: {type: string, nullable: true, example: null}
        ages: {type: array, items: {type: integer, minimum: 0}, example: [1, -1, -2, -3, -4]}
  examples:
    NoName: {value: {tag: x}}
"""


def test_examples_their_schema_refuses_are_warnings_where_the_example_is():
    text = document("3.0.3", EXAMPLES, COMPONENTS)
    pet = "/components/schemas/Pet/properties"
    assert sorted(found(text, "example-invalid")) == [
        ("example-invalid", "/components/examples/NoName/value", 37, "warning"),
        ("example-invalid", f"{pet}/ages/example/1", 35, "warning"),
        ("example-invalid", f"{pet}/name/example", 33, "warning"),
        ("example-invalid", "/paths/~1pets~1{id}/get/parameters/0/example", 13, "warning"),
    ]
    said = {
        f.pointer: f.message
        for f in check_source(parse_text(text, location="doc.yaml", format="yaml"))
        if f.rule == "example-invalid"
    }
    # A value that fails in many places shows the first three and counts the rest.
    assert said[f"{pet}/ages/example/1"].endswith("/1 must be >= 0; /2 must be >= 0; /3 must be >= 0 (and 1 more).")
    # A shared example names the schema it was checked against.
    assert "application~1json/schema): must have required property 'name'" in said["/components/examples/NoName/value"]


def test_31_schema_examples_are_checked_and_a_valid_document_has_no_finding():
    text = document(
        "3.1.0",
        "  /a:\n" + operation("a", "{name: q, in: query, schema: {type: string, examples: [x, 3]}}"),
    )
    assert found(text, "example-invalid") == [
        ("example-invalid", "/paths/~1a/get/parameters/0/schema/examples/1", 8, "warning")
    ]
    clean = document("3.1.0", "  /a:\n" + operation("a", "{name: q, in: query, schema: {type: string}, example: x}"))
    assert found(clean) == []


# -- the real cases ----------------------------------------------------------------------------------


def test_githubs_description_identical_attestation_paths():
    findings = check_source(read_source(str(REAL / "github-attestations.json")))
    assert [(f.rule, f.pointer, f.severity) for f in findings] == [
        ("path-template-duplicate", "/paths/~1orgs~1{org}~1attestations~1{subject_digest}", "error")
    ]


def test_githubs_description_examples_and_defaults():
    findings = check_source(read_source(str(REAL / "github-examples.json")))
    by_rule = sorted((f.rule, f.pointer) for f in findings)
    assert by_rule == [
        ("default-invalid", "/components/schemas/deployment-status/properties/log_url/default"),
        (
            "example-invalid",
            "/paths/~1gists~1{gist_id}/patch/requestBody/content/application~1json/examples/deleteFile/value/files/hello.py",
        ),
        ("example-invalid", "/paths/~1markdown~1raw/post/requestBody/content/text~1plain/examples/default/value"),
    ]
    assert all(f.severity == "warning" for f in findings)


def test_the_real_fixtures_are_listed_with_their_source():
    listed = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    for path in REAL.glob("*.json"):
        assert f"`{path.name}`" in listed, path.name
        json.loads(path.read_text(encoding="utf-8"))


def test_nullable_is_honoured_and_the_document_is_left_as_it_was():
    # 3.0 schemas are compiled with nullable: true as type [T, "null"]; the document itself is
    # put back (tools are built from the same data after a check).
    import copy

    text = document("3.0.3", EXAMPLES, COMPONENTS)
    source = parse_text(text, location="doc.yaml", format="yaml")
    before = copy.deepcopy(source.data)
    pointers = {f.pointer for f in check_source(source)}
    assert source.data == before
    assert "/components/schemas/Pet/properties/tag/example" not in pointers  # null, and nullable
