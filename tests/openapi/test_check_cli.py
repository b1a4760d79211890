"""`deskcheck openapi check` and `deskcheck openapi tools`: output formats, exit codes, profiles,
determinism."""

from __future__ import annotations

import json

import pytest

from deskcheck.samples.records_api import openapi_path
from tests.helpers import run_cli

from .conftest import DATA_FAIR, DATA_FAIR_ANNOTATED, PETSTORE

SAMPLE_SPEC = str(openapi_path())

BROKEN = {
    "openapi": "3.1.0",
    "info": {"title": "Broken", "version": "1"},
    "x-agent": {"namePrefix": "Bad-Prefix"},
    "paths": {
        "/a": {
            "get": {
                "x-agent": {"name": "a"},
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/b": {"get": {"operationId": "getB", "x-agent": {}, "responses": {"200": {"description": "ok"}}}},
    },
}


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(BROKEN, indent=2), encoding="utf-8")
    return path


def test_a_clean_document_exits_zero():
    run = run_cli("openapi", "check", SAMPLE_SPEC)
    assert run.stdout.strip().endswith("no problems found.")


def test_errors_exit_one_with_every_finding(broken):
    run = run_cli("openapi", "check", str(broken), "--format", "json", expect=1)
    envelope = json.loads(run.stdout)
    assert envelope["ok"] is False and envelope["error"] == "2 errors, 1 warning in 1 document."
    findings = envelope["result"]["findings"]
    assert envelope["result"]["summary"] == {"documents": 1, "unreadable": 0, "errors": 2, "warnings": 1}
    by_rule = {f["rule"]: f for f in findings}
    assert by_rule["x-agent-invalid"]["pointer"] == "/x-agent/namePrefix"
    assert (by_rule["x-agent-invalid"]["line"], by_rule["x-agent-invalid"]["column"]) == (8, 5)
    assert by_rule["operation-id-missing"]["pointer"] == "/paths/~1a/get"
    assert by_rule["base-url-missing"]["severity"] == "warning"
    assert set(findings[0]) == {
        "file",
        "severity",
        "rule",
        "message",
        "pointer",
        "line",
        "column",
        "endLine",
        "endColumn",
    }
    # The namePrefix key, "namePrefix" with its quotes, is underlined.
    assert (by_rule["x-agent-invalid"]["endLine"], by_rule["x-agent-invalid"]["endColumn"]) == (8, 16)
    assert {f["file"].rsplit("/", 1)[-1] for f in findings} == {"broken.json"}


def test_text_and_github_formats(broken):
    text = run_cli("openapi", "check", str(broken), expect=1).stdout
    assert "broken.json:8:5: error [x-agent-invalid]" in text
    assert text.strip().splitlines()[-1] == "2 errors, 1 warning in 1 document."
    github = run_cli("openapi", "check", str(broken), "--format", "github", expect=1).stdout.splitlines()
    assert any(
        line.startswith("::error file=")
        and ",line=8,endLine=8,col=5,endColumn=16,title=deskcheck x-agent-invalid::" in line
        for line in github
    )
    assert all(line.startswith(("::error ", "::warning ")) for line in github)


def test_the_json_flag_asks_for_the_json_envelope(broken):
    envelope = json.loads(run_cli("openapi", "check", str(broken), "--json", expect=1).stdout)
    assert envelope["ok"] is False and len(envelope["result"]["findings"]) == 3
    clean = json.loads(run_cli("--json", "openapi", "check", SAMPLE_SPEC).stdout)
    assert clean == {
        "ok": True,
        "result": {
            "findings": [],
            "configuration": None,
            "summary": {"documents": 1, "unreadable": 0, "errors": 0, "warnings": 0},
        },
    }
    # An explicit --format wins: SARIF is JSON too.
    assert (
        json.loads(run_cli("openapi", "check", str(broken), "--json", "--format", "sarif", expect=1).stdout)["version"]
        == "2.1.0"
    )


@pytest.mark.corpus("openapi")
def test_the_real_root_document_has_three_specification_errors():
    """data-fair's root document repeats an operationId and leaves two path template names
    undeclared (openapi-spec-validator reports the same three); its defaults that their schema
    rejects are warnings. A project that accepts those errors for now says so in its
    configuration, and the check passes."""
    run = run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), "--format", "json", expect=1)
    findings = run_json_findings(run)
    errors = sorted((f["rule"], f["pointer"]) for f in findings if f["severity"] == "error")
    assert errors == [
        ("operation-id-duplicate", "/paths/~1datasets~1{id}~1own~1{owner}~1revisions/get/operationId"),
        ("path-parameter-undeclared", "/paths/~1datasets~1{id}~1master-data~1bulk-searchs~1{bulkSearchId}/post"),
        ("path-parameter-undeclared", "/paths/~1datasets~1{id}~1master-data~1single-searchs~1{singleSearchId}/get"),
    ]
    default = [f for f in findings if f["pointer"] == "/paths/~1datasets~1{id}~1lines/get/parameters/4/schema/default"]
    assert default and default[0]["rule"] == "default-invalid" and default[0]["severity"] == "warning"
    assert 'default "all" does not match its schema: must be array' in default[0]["message"]
    assert default[0]["line"] == 13773
    # The same report on every run.
    assert run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), "--format", "json", expect=1).stdout == run.stdout
    accepted = ("--severity", "operation-id-duplicate=warning", "--severity", "path-parameter-undeclared=warning")
    run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), *accepted)
    run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), *accepted, "--strict", expect=1)


def run_json_findings(run) -> list[dict]:
    return json.loads(run.stdout)["result"]["findings"]


def test_profiles_and_unreadable_input(tmp_path):
    run_cli("openapi", "check", SAMPLE_SPEC, "--profile", "write")
    bad_profile = run_cli("openapi", "check", SAMPLE_SPEC, "--profile", "nope", "--format", "json", expect=2)
    envelope = json.loads(bad_profile.stdout)
    assert envelope["ok"] is False and envelope["error"].startswith('unknown profile "nope" (declared: read, write)')
    missing = run_cli("openapi", "check", str(tmp_path / "nope.json"), expect=2)
    assert "does not exist" in missing.stdout
    garbled = tmp_path / "garbled.json"
    garbled.write_text('{"openapi": ', encoding="utf-8")
    text = run_cli("openapi", "check", str(garbled), expect=2).stdout
    assert "garbled.json:1:13: error [document-unreadable]" in text and "is not valid JSON" in text
    run_cli("openapi", "check", SAMPLE_SPEC, "--format", "xml", expect=2)


@pytest.mark.corpus("openapi")
def test_tools_json_is_deterministic_and_complete():
    first = run_cli("openapi", "tools", str(DATA_FAIR_ANNOTATED), "--profile", "write")
    second = run_cli("openapi", "tools", str(DATA_FAIR_ANNOTATED), "--profile", "write")
    assert first.stdout == second.stdout
    value = json.loads(first.stdout)
    assert value["profiles"] == ["write"]
    assert value["instructions"].startswith("## workflow")
    # Each editor group adds a skill on using its form tools.
    assert [s["name"] for s in value["skills"]] == ["workflow", "datafair-dataset-new-line", "datafair-dataset-line"]
    assert len(value["tools"]) == 6 + 2 * 8
    groups = value["editorGroups"]
    assert [g["name"] for g in groups] == ["datafair_dataset_new_line", "datafair_dataset_line"]
    assert groups[1]["read"]["operationId"] == "readLine" and groups[0]["mode"] == "create"
    assert set(groups[1]["tools"]) <= {tool["name"] for tool in value["tools"]}


@pytest.mark.corpus("openapi")
@pytest.mark.parametrize("shape", ["anthropic", "openai", "mcp"])
def test_tools_provider_shapes_include_the_editor_tools(shape):
    run = run_cli("openapi", "tools", str(DATA_FAIR_ANNOTATED), "--profile", "write", "--format", shape)
    value = json.loads(run.stdout)
    assert len(value) == 6 + 2 * 8
    assert run.stderr == ""


@pytest.mark.corpus("openapi")
def test_tools_examples_localisation_and_refusals(tmp_path):
    value = json.loads(run_cli("openapi", "tools", str(PETSTORE), "--locale", "fr").stdout)
    assert value["tools"][0]["description"] == "Lister les animaux."
    assert value["tools"][0]["examples"] == [{"query": "rex", "size": 5}]
    assert value["editorGroups"] == []
    assert json.loads(run_cli("openapi", "tools", str(DATA_FAIR)).stdout)["tools"] == []
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(BROKEN), encoding="utf-8")
    refused = run_cli("openapi", "tools", str(broken), expect=2)
    # An exporter's stdout holds tool definitions or nothing: the reason goes to stderr.
    assert refused.stdout == "" and "cannot be loaded as tools" in refused.stderr


def test_several_documents_in_one_run(broken):
    run = run_cli("openapi", "check", SAMPLE_SPEC, str(broken), "--format", "json", expect=1)
    envelope = json.loads(run.stdout)
    assert {f["file"].rsplit("/", 1)[-1] for f in envelope["result"]["findings"]} == {"broken.json"}
    assert envelope["result"]["summary"]["documents"] == 2
    github = run_cli("openapi", "check", SAMPLE_SPEC, str(broken), "--format", "github", expect=1).stdout
    assert "broken.json,line=8,endLine=8,col=5,endColumn=16" in github
    # A document that cannot be read is a finding of its own; the others are still checked.
    missing = run_cli("openapi", "check", SAMPLE_SPEC, str(broken.parent / "missing.json"), str(broken), expect=2)
    assert "missing.json: error [document-unreadable] the OpenAPI document" in missing.stdout
    assert "broken.json:8:5: error [x-agent-invalid]" in missing.stdout
    assert missing.stdout.strip().endswith("1 document could not be read; 3 errors, 1 warning in 3 documents.")


def test_the_pre_commit_hook_runs_the_check():
    import yaml

    from tests.conftest import REPO

    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"] == "deskcheck openapi check" and hook["language"] == "python"
    import re

    assert re.search(hook["files"], "api/openapi.yaml") and not re.search(hook["files"], "package.json")
