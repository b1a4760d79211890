"""Schemas spread over files: references to the files next to a schema are followed, any legal
URI reference is accepted, and nothing is fetched from a host the user did not allow."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from deskcheck.engine.forms import FormState, compile_form, form_toolset
from deskcheck.engine.forms.sources.schema_files import bundle_schema_file, schema_version
from deskcheck.engine.forms.tools.session_tools import file_form_group
from tests.conftest import REPO

from .schemastore import read

STORE = REPO / "tests" / "fixtures" / "schemastore" / "schemas"


def opened(path: Path, data, **kwargs) -> FormState:
    schema = bundle_schema_file(read(path), path, **kwargs)
    return FormState(compile_form(schema), data, base=data)


def problems(state: FormState) -> list[str]:
    return state.form.schema_problems


def test_package_json_reads_the_schemas_beside_it():
    # package.json refers to ava.json, eslintrc.json (which refers to partial-eslint-plugins.json)
    # by relative names, and to prettierrc.json by https://www.schemastore.org/, its own $id.
    bad_ava = {"name": "x", "ava": {"failFast": "yes"}}
    state = opened(STORE / "package.json", bad_ava)
    assert problems(state) == []
    assert [(e.path, e.message) for e in state.errors] == [("/ava/failFast", "must be true or false")]
    assert not opened(STORE / "package.json", {"name": "x", "prettier": {"semi": "no"}}).valid
    assert not opened(STORE / "package.json", {"name": "x", "eslintConfig": {"root": 1}}).valid


def test_a_name_without_its_suffix_under_a_draft_4_id(tmp_path):
    # SchemaStore's tsoa.json (draft 4, `id`) refers to "tsconfig#/definitions/...": NAME for NAME.json.
    (tmp_path / "tsconfig.json").write_text(
        json.dumps({"id": "https://json.schemastore.org/tsconfig", "definitions": {"strict": {"type": "boolean"}}})
    )
    path = tmp_path / "tsoa.json"
    path.write_text(
        json.dumps(
            {
                "$schema": "http://json-schema.org/draft-04/schema#",
                "id": "https://json.schemastore.org/tsoa",
                "properties": {"strict": {"$ref": "tsconfig#/definitions/strict"}},
            }
        )
    )
    state = opened(path, {"strict": "yes"})
    assert problems(state) == [] and [e.path for e in state.errors] == ["/strict"]


def test_a_file_outside_the_schemas_folder_is_not_read(tmp_path):
    (tmp_path / "secret.json").write_text(json.dumps({"type": "string", "description": "private"}))
    folder = tmp_path / "schemas"
    folder.mkdir()
    schema_path = folder / "s.json"
    schema_path.write_text(json.dumps({"type": "object", "properties": {"a": {"$ref": "../secret.json"}}}))
    state = opened(schema_path, {"a": 1})
    assert state.valid, "a reference that is not followed checks nothing"
    assert problems(state) == [
        f"/properties/a: $ref '../secret.json' is not followed ({tmp_path / 'secret.json'} is not a file inside "
        f"the schema's folder {folder}), so what it names is not checked"
    ]


def test_pointers_a_uri_must_encode_are_accepted(tmp_path):
    # Vector's schema names definitions like "vector_common::id::Inputs<alloc::string::String>".
    schema = {
        "definitions": {"Inputs<String>": {"type": "array", "items": {"type": "string"}}, "a b": {"type": "integer"}},
        "properties": {
            "inputs": {"$ref": "#/definitions/Inputs<String>"},
            "n": {"$ref": "#/definitions/a%20b"},
        },
    }
    path = tmp_path / "vector-like.json"
    path.write_text(json.dumps(schema))
    state = opened(path, {"inputs": ["a", 1], "n": "x"})
    assert sorted(e.path for e in state.errors) == ["/inputs", "/n"]
    assert problems(state) == []
    form = FormState(compile_form(schema), {"inputs": ["a"], "n": 1})  # the same without a file
    assert form.valid


def test_references_by_the_schemas_own_id_and_by_anchor(tmp_path):
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.test/schemas/catalog.json",
        "definitions": {"name": {"$id": "#name", "type": "string", "minLength": 2}},
        "properties": {
            "a": {"$ref": "https://example.test/schemas/catalog.json#/definitions/name"},
            "b": {"$ref": "catalog.json#name"},
            "c": {"$ref": "#name"},
        },
    }
    state = FormState(compile_form(schema), {"a": "x", "b": "y", "c": "z"})
    assert sorted(e.path for e in state.errors) == ["/a", "/b", "/c"]
    assert problems(state) == []


def test_another_host_is_fetched_only_when_allowed(tmp_path):
    remote = {"type": "object", "properties": {"port": {"type": "integer"}}}
    requests: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            body = json.dumps(remote).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host = f"127.0.0.1:{server.server_port}"
        path = tmp_path / "app.json"
        path.write_text(json.dumps({"properties": {"server": {"$ref": f"http://{host}/server.json"}}}))
        refused = opened(path, {"server": {"port": "80"}})
        assert refused.valid and requests == []
        [problem] = problems(refused)
        assert f"pass --allow-host {host}" in problem and "is not followed" in problem
        allowed = opened(path, {"server": {"port": "80"}}, allow_hosts=(host,))
        assert requests == ["/server.json"]
        assert [(e.path, e.message) for e in allowed.errors] == [("/server/port", "must be an integer")]
    finally:
        server.shutdown()


def test_a_file_form_opens_a_schema_with_references_and_sees_their_changes(tmp_path):
    (tmp_path / "common.json").write_text(json.dumps({"definitions": {"id": {"type": "string"}}}))
    schema_path = tmp_path / "record.schema.json"
    schema_path.write_text(
        json.dumps({"type": "object", "properties": {"id": {"$ref": "common.json#/definitions/id"}}})
    )
    data = tmp_path / "record.json"
    data.write_text('{"id": 7}\n')
    first = schema_version(schema_path.read_bytes(), schema_path)
    tools = file_form_group(schema_path, data).toolset()
    assert "must be a string" in tools.call("form_describeState", {}).value
    (tmp_path / "common.json").write_text(json.dumps({"definitions": {"id": {"type": "integer"}}}))
    assert schema_version(schema_path.read_bytes(), schema_path) != first
    assert "valid: true" in tools.call("form_describeState", {}).value, "a changed referenced file is a new schema"


@pytest.mark.parametrize(
    "name",
    [
        "prisma",
        "pre-commit-config",
        "foundryvtt-module-manifest",
        "github-pages-jekyll",
        "azure-deviceupdate-import-manifest-4.0",
    ],
)
def test_schemastore_schemas_with_cross_file_references_open_completely(name):
    state = opened(STORE / f"{name}.json", {})
    assert problems(state) == []
    assert form_toolset(state).call("form_describeState", {}).ok


def test_files_that_refer_to_each_other_are_bundled_once(tmp_path):
    (tmp_path / "a.json").write_text(
        json.dumps({"type": "object", "properties": {"b": {"$ref": "b.json"}, "n": {"type": "integer"}}})
    )
    (tmp_path / "b.json").write_text(json.dumps({"type": "object", "properties": {"a": {"$ref": "a.json"}}}))
    state = opened(tmp_path / "a.json", {"b": {"a": {"b": {"a": {"n": "x"}}}}})
    assert problems(state) == []
    assert [e.path for e in state.errors] == ["/b/a/b/a/n"]
    bundled = state.form.schema
    assert list(bundled["$defs"]) == ["b.json"], "a.json is the root; b.json is copied once"


COMPOSE = REPO / "tests" / "fixtures" / "composition" / "compose-spec" / "compose-spec.json"


def test_a_relative_root_id_loads_as_docker_compose_publishes_it(tmp_path):
    # Compose's schema names itself "compose_spec.json": relative, with no base to resolve it.
    assert read(COMPOSE)["$id"] == "compose_spec.json"
    data_file = tmp_path / "compose.yaml"
    data_file.write_text("services:\n  web:\n    image: nginx\n    ports:\n      - '80:80'\n")
    group = file_form_group(COMPOSE, data_file)
    tools = group.toolset()
    described = tools.call("form_describeState", {})
    assert described.ok, described.error
    assert "valid: true" in described.value
    written = tools.call("form_setFieldValue", {"path": "/services/web/pull_policy", "value": "sometimes"})
    assert written.ok, written.error
    with group.session({}).peek() as state:
        assert [e.path for e in state.errors] == ["/services/web/pull_policy"]


@pytest.mark.parametrize("declared", ["s.json", "schemas/s.json#", "urn:example:s"])
def test_fragments_resolve_under_a_relative_or_non_hierarchical_id(declared):
    # Pattern keys and variants are checked by fragment validators registered under the $id.
    schema = {
        "$id": declared,
        "type": "object",
        "definitions": {"word": {"type": "string"}},
        "properties": {"name": {"$ref": "#/definitions/word"}},
        "patternProperties": {"^x-": {"type": "integer"}},
    }
    state = FormState(compile_form(schema), {"name": 1, "x-a": "no"}, base={})
    assert [e.path for e in state.errors] == ["/name", "/x-a"]


def test_a_reference_written_against_a_relative_id_finds_the_schema_itself(tmp_path):
    path = tmp_path / "compose-spec.json"
    path.write_text(
        json.dumps(
            {
                "$id": "compose_spec.json",
                "type": "object",
                "definitions": {"word": {"type": "string"}},
                "properties": {"name": {"$ref": "compose_spec.json#/definitions/word"}},
            }
        )
    )
    state = opened(path, {"name": 1})
    assert problems(state) == [] and [e.path for e in state.errors] == ["/name"]
