"""`deskcheck openapi check` and `deskcheck openapi tools`: output formats, exit codes, profiles,
determinism."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

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

# The parts of SARIF 2.1.0 that code-scanning upload requires (from the OASIS schema).
SARIF_SHAPE = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {"shortDescription": {"required": ["text"]}},
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message", "ruleId", "level", "locations"],
                            "properties": {
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {"type": "object", "required": ["text"]},
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "region": {
                                                        "type": "object",
                                                        "properties": {
                                                            "startLine": {"type": "integer", "minimum": 1},
                                                            "startColumn": {"type": "integer", "minimum": 1},
                                                        },
                                                    }
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
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
    findings = json.loads(run.stdout)["findings"]
    by_rule = {f["rule"]: f for f in findings}
    assert by_rule["x-agent-invalid"]["pointer"] == "/x-agent/namePrefix"
    assert (by_rule["x-agent-invalid"]["line"], by_rule["x-agent-invalid"]["column"]) == (8, 5)
    assert by_rule["operation-id-missing"]["pointer"] == "/paths/~1a/get"
    assert by_rule["base-url-missing"]["severity"] == "warning"
    assert set(findings[0]) == {"severity", "rule", "message", "pointer", "line", "column"}


def test_text_and_github_formats(broken):
    text = run_cli("openapi", "check", str(broken), expect=1).stdout
    assert "broken.json:8:5: error [x-agent-invalid]" in text
    assert text.strip().splitlines()[-1] == "2 errors, 1 warning."
    github = run_cli("openapi", "check", str(broken), "--format", "github", expect=1).stdout.splitlines()
    assert any(
        line.startswith("::error file=") and ",line=8,col=5,title=deskcheck x-agent-invalid::" in line
        for line in github
    )
    assert all(line.startswith(("::error ", "::warning ")) for line in github)


def test_sarif_has_the_shape_code_scanning_expects(broken):
    run = run_cli("openapi", "check", str(broken), "--format", "sarif", expect=1)
    report = json.loads(run.stdout)
    assert list(Draft202012Validator(SARIF_SHAPE).iter_errors(report)) == []
    run_ = report["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    for result in run_["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
    levels = {r["ruleId"]: r["level"] for r in run_["results"]}
    assert levels == {"x-agent-invalid": "error", "operation-id-missing": "error", "base-url-missing": "warning"}


@pytest.mark.corpus("openapi")
def test_the_real_root_document_has_only_warnings_and_strict_fails_on_them():
    run = run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), "--format", "json")
    findings = json.loads(run.stdout)["findings"]
    assert findings and all(f["severity"] == "warning" for f in findings)
    default = [f for f in findings if f["pointer"] == "/paths/~1datasets~1{id}~1lines/get/parameters/4/schema/default"]
    assert default and default[0]["rule"] == "openapi-schema"
    assert 'default "all" does not match its schema: must be array' in default[0]["message"]
    assert default[0]["line"] == 13773
    # The same report on every run.
    assert run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), "--format", "json").stdout == run.stdout
    run_cli("openapi", "check", str(DATA_FAIR_ANNOTATED), "--strict", expect=1)


def test_profiles_and_unreadable_input(tmp_path):
    run_cli("openapi", "check", SAMPLE_SPEC, "--profile", "write")
    bad_profile = run_cli("openapi", "check", SAMPLE_SPEC, "--profile", "nope", expect=2)
    assert json.loads(bad_profile.stdout)["error"].startswith('unknown profile "nope" (declared: read, write)')
    missing = run_cli("openapi", "check", str(tmp_path / "nope.json"), expect=2)
    assert "does not exist" in missing.stdout
    garbled = tmp_path / "garbled.json"
    garbled.write_text('{"openapi": ', encoding="utf-8")
    assert "is not valid JSON" in run_cli("openapi", "check", str(garbled), expect=2).stdout
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
    assert "cannot be loaded as tools" in run_cli("openapi", "tools", str(broken), expect=2).stdout


def test_several_documents_in_one_run(broken):
    run = run_cli("openapi", "check", SAMPLE_SPEC, str(broken), "--format", "json", expect=1)
    findings = json.loads(run.stdout)["findings"]
    assert {f["file"].rsplit("/", 1)[-1] for f in findings} == {"broken.json"}
    github = run_cli("openapi", "check", SAMPLE_SPEC, str(broken), "--format", "github", expect=1).stdout
    assert "broken.json,line=8,col=5" in github
    missing = run_cli("openapi", "check", SAMPLE_SPEC, str(broken.parent / "missing.json"), expect=2)
    assert "does not exist" in missing.stderr


def test_the_pre_commit_hook_runs_the_check():
    import yaml

    from tests.conftest import REPO

    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"] == "deskcheck openapi check" and hook["language"] == "python"
    import re

    assert re.search(hook["files"], "api/openapi.yaml") and not re.search(hook["files"], "package.json")
