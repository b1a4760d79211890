"""The OpenAPI document: valid OpenAPI 3.1, x-agent annotations that resolve, and in step with
the server that serves it."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from openapi_spec_validator import validate

from deskcheck.cli.commands import sample_api as sample_api_command
from deskcheck.samples.records_api import (
    DEFAULT_PORT,
    DEFAULT_READ_TOKEN,
    DEFAULT_WRITE_TOKEN,
    openapi_document,
    openapi_path,
)
from tests.conftest import REPO

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def operations(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item, item[method]


def by_operation_id(document):
    return {
        operation["operationId"]: (path, method, item, operation)
        for path, method, item, operation in operations(document)
    }


def path_parameters(item, operation) -> set[str]:
    return {p["name"] for p in item.get("parameters", []) + operation.get("parameters", []) if p["in"] == "path"}


def test_shipped_document_is_valid_openapi_3_1():
    document = openapi_document()
    assert document["openapi"] == "3.1.0"
    validate(document)
    assert json.loads(openapi_path().read_text(encoding="utf-8")) == document


def test_served_document_is_valid_and_names_its_own_server(sample_api, client):
    response = client.get(sample_api.openapi_url)
    assert response.status_code == 200
    served = response.json()
    validate(served)
    assert served["servers"] == [{"url": sample_api.base_url, "description": "This running sample API."}]
    assert {key: value for key, value in served.items() if key != "servers"} == {
        key: value for key, value in openapi_document().items() if key != "servers"
    }
    cached = client.get(sample_api.openapi_url, headers={"If-None-Match": response.headers["etag"]})
    assert cached.status_code == 304


def test_shipped_servers_reach_a_default_sample_api():
    first, relative = openapi_document()["servers"]
    assert first["url"] == "http://127.0.0.1:{port}/api/v1"
    assert first["variables"]["port"]["default"] == str(DEFAULT_PORT)
    assert relative["url"] == "/api/v1"


def test_cli_defaults_match_the_sample_api():
    # The CLI keeps its own copies so that `sample-api --help` does not import the server.
    assert sample_api_command.DEFAULT_PORT == DEFAULT_PORT
    assert sample_api_command.DEFAULT_WRITE_TOKEN == DEFAULT_WRITE_TOKEN
    assert sample_api_command.DEFAULT_READ_TOKEN == DEFAULT_READ_TOKEN


def test_profiles_and_root_annotation():
    agent = openapi_document()["x-agent"]
    assert agent["namePrefix"] == "sample_"
    assert list(agent["profiles"]) == ["read", "write"]  # the first one is the default
    assert agent["profiles"]["write"]["includes"] == ["read"]
    for skill in agent["skills"]:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", skill["name"])


def test_editor_groups_resolve_as_the_seed_describes():
    document = openapi_document()
    operations_by_id = by_operation_id(document)
    editors = {
        op["operationId"]: (item, op)
        for _, _, item, op in operations(document)
        if isinstance(op.get("x-agent"), dict) and "editor" in op["x-agent"]
    }
    assert set(editors) == {"updateLine", "createLine"}
    _, update = editors["updateLine"]
    assert update["x-agent"]["name"] == "dataset_line"
    assert update["x-agent"]["editor"]["readOperation"] == "readLine"
    _, create = editors["createLine"]
    assert create["x-agent"]["name"] == "dataset_new_line"
    assert "readOperation" not in create["x-agent"]["editor"]  # a create: nothing to load

    for item, operation in editors.values():
        assert "application/json" in operation["requestBody"]["content"]
        editor = operation["x-agent"]["editor"]
        supplied = path_parameters(item, operation)
        for role in ("schemaOperation", "readOperation"):
            if role not in editor:
                continue
            _, method, named_item, named = operations_by_id[editor[role]]
            assert method == "get"
            assert path_parameters(named_item, named) <= supplied, (operation["operationId"], role)
        # schemaParams are parameters readSchema declares, with values its schemas accept.
        _, _, _, schema_op = operations_by_id[editor["schemaOperation"]]
        declared = {p["name"]: p["schema"] for p in schema_op["parameters"]}
        assert editor["schemaParams"] == {"mimeType": "application/schema+json", "extension": "true"}
        assert editor["schemaParams"]["mimeType"] in declared["mimeType"]["enum"]
        assert declared["extension"]["type"] == "boolean"


def concrete(path: str) -> str:
    return path.replace("{id}", "associations").replace("{lineId}", "asso-001")


def test_every_documented_operation_is_served(sample_api, client):
    document = openapi_document()
    for path, method, _, operation in operations(document):
        url = sample_api.base_url + concrete(path)
        if method == "get":
            response = client.get(url)
            assert response.status_code == 200, (operation["operationId"], response.text)
            documented = operation["responses"]["200"]["content"]
            assert response.headers["content-type"].split(";")[0] in documented
        else:
            # Without a token every write is refused before anything happens, but it is routed.
            response = client.request(method.upper(), url, json={})
            assert response.status_code == 401, (operation["operationId"], response.text)
        assert str(response.status_code) in operation["responses"]


def test_unannotated_operations_are_the_internal_ones():
    document = openapi_document()
    unannotated = {op["operationId"] for _, _, _, op in operations(document) if "x-agent" not in op}
    # readSchema and readLine's raw forms are reached through the editor groups; the
    # département search through the schema's x-fromUrl.
    assert unannotated == {"readSchema", "searchDepartements"}


def test_deskcheck_openapi_check_finds_nothing(sample_api):
    """The sample document passes deskcheck's own checker: no error, no warning."""
    from deskcheck.engine.openapi.check.check import check_source
    from deskcheck.engine.openapi.document.source import read_source

    for location in (str(openapi_path()), sample_api.openapi_url):
        findings = [finding.as_dict() for finding in check_source(read_source(location))]
        assert findings == [], location


def test_pyproject_ships_the_samples():
    """The wheel test lists engine/ and cli/ subpackages only; the samples are checked here."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["deskcheck.samples"] == "samples"
    expected = {
        ".".join(["deskcheck.samples", *init.parent.relative_to(REPO / "samples").parts])
        for init in (REPO / "samples").rglob("__init__.py")
    }
    assert expected <= set(config["packages"])
    data = config["package-data"]["deskcheck.samples.records_api"]
    assert {"*.json", "data/*.json"} <= set(data)


@pytest.mark.parametrize("name", ["openapi.json", "data/datasets.json", "data/departements.json"])
def test_data_files_are_json(name):
    assert json.loads((openapi_path().parent / name).read_text(encoding="utf-8"))
