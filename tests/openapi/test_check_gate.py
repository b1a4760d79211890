"""`openapi check` as a CI gate: severities and their configuration, $refs to other files, tools
that would disappear, every finding reported, and every --format valid in every outcome."""

from __future__ import annotations

import json

import pytest

from deskcheck.samples.records_api import openapi_path
from tests.conftest import REPO
from tests.docs import page
from tests.helpers import run_cli

SARIF_SCHEMA = REPO / "tests" / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"

DOC = {
    "openapi": "3.1.0",
    "info": {"title": "Gate", "version": "1"},
    "servers": [{"url": "https://gate.example/api"}],
    "paths": {
        "/items/{id}": {
            "get": {
                "operationId": "getItem",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "default": 3}}
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/other/{id}": {
            "get": {
                "operationId": "getItem",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}


def write(path, document) -> str:
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return str(path)


def check_json(*args: str, expect: int | None) -> dict:
    return json.loads(run_cli("openapi", "check", *args, "--format", "json", expect=expect).stdout)


def rules_by_severity(envelope: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {"error": set(), "warning": set()}
    for finding in envelope["result"]["findings"]:
        out[finding["severity"]].add(finding["rule"])
    return out


# -- severities ------------------------------------------------------------------------------------


def test_a_specification_violation_is_an_error_a_questionable_default_a_warning(tmp_path):
    envelope = check_json(write(tmp_path / "api.json", DOC), expect=1)
    assert rules_by_severity(envelope) == {"error": {"operation-id-duplicate"}, "warning": {"default-invalid"}}


def test_severity_options_and_configuration_files(tmp_path, monkeypatch):
    doc = write(tmp_path / "api.json", DOC)
    run_cli("openapi", "check", doc, "--severity", "operation-id-duplicate=warning")
    off = check_json(doc, "--severity", "operation-id-duplicate=off", "--severity", "default-invalid=error", expect=1)
    assert rules_by_severity(off) == {"error": {"default-invalid"}, "warning": set()}
    # The configuration file nearest the working directory applies; --severity wins over it.
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / ".git").mkdir()  # the search stops at the repository root
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.deskcheck.openapi.check]\nstrict = true\n'
        '[tool.deskcheck.openapi.check.severity]\noperation-id-duplicate = "off"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(project / "sub")
    strict = check_json(doc, expect=1)  # the default-invalid warning fails under strict
    assert rules_by_severity(strict) == {"error": set(), "warning": {"default-invalid"}}
    run_cli("openapi", "check", doc, "--severity", "default-invalid=off")
    (project / "sub" / ".deskcheck.toml").write_text(
        '[openapi.check.severity]\ndefault-invalid = "off"\n', encoding="utf-8"
    )  # nearer, so it replaces pyproject's
    assert rules_by_severity(check_json(doc, expect=1))["error"] == {"operation-id-duplicate"}
    run_cli("openapi", "check", doc, "--config", str(project / "pyproject.toml"), "--severity", "default-invalid=off")
    run_cli("openapi", "check", doc, "--config", "none", "--severity", "operation-id-duplicate=off")


@pytest.mark.parametrize(
    ("config", "option", "words"),
    [
        (
            None,
            "operation-id-duplicat=off",
            "unknown rule 'operation-id-duplicat' (did you mean operation-id-duplicate?)",
        ),
        (None, "default-invalid=fatal", "default-invalid must be one of error, warning, off, not 'fatal'"),
        (None, "default-invalid", "--severity takes RULE=LEVEL"),
        ("[openapi.check]\nseverty = {}\n", None, "unknown key(s) severty"),
        ("[openapi.check\n", None, "is not valid TOML"),
        ('[openapi.check.severity]\nnope = "off"\n', None, "unknown rule 'nope'"),
    ],
)
def test_a_wrong_setting_stops_the_check_naming_it(tmp_path, monkeypatch, config, option, words):
    doc = write(tmp_path / "api.json", DOC)
    monkeypatch.chdir(tmp_path)
    if config is not None:
        (tmp_path / ".deskcheck.toml").write_text(config, encoding="utf-8")
    args = ["--severity", option] if option else []
    envelope = check_json(doc, *args, expect=2)
    assert envelope["ok"] is False and words in envelope["error"] and envelope["result"]["findings"] == []
    text = run_cli("openapi", "check", doc, *args, expect=2).stdout
    assert text.startswith("error: ") and words in text


# -- references to other files ---------------------------------------------------------------------


def test_references_to_other_files_are_read_and_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files are named as seen from here, as a CI job names them
    (tmp_path / "schemas").mkdir()
    write(tmp_path / "schemas" / "item.json", {"Item": {"type": "object", "properties": {"n": {"$ref": "#/Nope"}}}})
    write(tmp_path / "params.json", {"Limit": {"name": "limit", "schema": {"type": "integer"}}})
    (tmp_path / "broken.yaml").write_text("a: [\n", encoding="utf-8")
    doc = {
        **DOC,
        "paths": {
            "/items": {
                "get": {
                    "operationId": "listItems",
                    "parameters": [{"$ref": "params.json#/Limit"}, {"$ref": "missing.json#/P"}],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "schemas/item.json#/Item"}}},
                        },
                        "400": {"$ref": "broken.yaml#/R"},
                        "404": {"$ref": "https://elsewhere.example/common.json#/NotFound"},
                    },
                }
            }
        },
    }
    write(tmp_path / "api.json", doc)
    envelope = check_json("api.json", expect=1)
    found = {(f["file"], f["rule"], f["pointer"]): f for f in envelope["result"]["findings"]}
    here = "/paths/~1items/get"
    # A parameter without "in", in the file it is in.
    assert ("params.json", "openapi-schema", "/Limit") in found
    assert "must have required property 'in'" in found["params.json", "openapi-schema", "/Limit"]["message"]
    missing = found["api.json", "ref-unresolvable", f"{here}/parameters/1/$ref"]
    assert "missing.json does not exist" in missing["message"] and missing["line"] is not None
    assert ("schemas/item.json", "ref-unresolvable", "/Item/properties/n/$ref") in found
    unreadable = found["api.json", "ref-unresolvable", f"{here}/responses/400/$ref"]
    assert "broken.yaml is not valid YAML" in unreadable["message"]
    url = found["api.json", "ref-not-followed", f"{here}/responses/404/$ref"]
    assert url["severity"] == "warning" and "--allow-host elsewhere.example" in url["message"]


def test_a_url_reference_is_fetched_only_from_an_allowed_host(tmp_path, scripted_server):
    doc = {
        **DOC,
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {"200": {"$ref": f"{scripted_server.url}/common.json#/Ok"}},
                }
            }
        },
    }
    path = write(tmp_path / "api.json", doc)
    check_json(path, expect=0)
    assert scripted_server.received == []
    scripted_server.answer(body={"Ok": {"content": {}}})  # a response without a description
    host = scripted_server.url.split("//", 1)[1].split("/", 1)[0]
    envelope = check_json(path, "--allow-host", host, expect=1)
    [finding] = envelope["result"]["findings"]
    assert finding["rule"] == "openapi-schema" and finding["file"].startswith("http://127.0.0.1")
    assert [r.path for r in scripted_server.received] == ["/api/common.json"]


# -- tools that would disappear --------------------------------------------------------------------


def test_an_undeclared_profile_and_a_self_referring_parameter_are_errors(tmp_path):
    doc = {
        **DOC,
        "x-agent": {"profiles": {"read": {}}},
        "components": {"parameters": {"P": {"$ref": "#/components/parameters/P"}}},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "getA",
                    "x-agent": {"profiles": ["read"]},
                    "parameters": [{"$ref": "#/components/parameters/P"}],
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/b": {
                "get": {
                    "operationId": "getB",
                    "x-agent": {"profiles": ["nosuchprofile"]},
                    "responses": {"200": {"description": "ok"}},
                }
            },
        },
    }
    findings = check_json(write(tmp_path / "api.json", doc), expect=1)["result"]["findings"]
    by_pointer = {f["pointer"]: f for f in findings}
    profile = by_pointer["/paths/~1b/get/x-agent/profiles/0"]
    assert profile["rule"] == "profile-undeclared" and "no load offers its tool" in profile["message"]
    tool = by_pointer["/paths/~1a/get"]
    assert tool["rule"] == "ref-unresolvable" and "No tool can be built from GET /a" in tool["message"]
    assert by_pointer["/components/parameters/P/$ref"]["rule"] == "ref-unresolvable"


# -- every finding ---------------------------------------------------------------------------------


def test_every_finding_is_reported_however_many(tmp_path):
    paths = {
        f"/p{n}/{{id}}": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}}
        for n in range(700)
    }
    envelope = check_json(write(tmp_path / "api.json", {**DOC, "paths": paths}), expect=1)
    summary = envelope["result"]["summary"]
    assert len(envelope["result"]["findings"]) == summary["errors"] + summary["warnings"] == 700 + 699
    github = run_cli("openapi", "check", str(tmp_path / "api.json"), "--format", "github", expect=1).stdout
    assert github.splitlines()[-1].startswith("::notice title=deskcheck openapi check::1399 errors")


# -- every format, every outcome -------------------------------------------------------------------


def outcomes(tmp_path):
    garbled = tmp_path / "garbled.yaml"
    garbled.write_text("openapi: 3.1.0\ninfo: [\n", encoding="utf-8")
    spaced = tmp_path / "a folder" / "api.json"
    spaced.parent.mkdir()
    return {
        "clean": ([str(openapi_path())], 0),
        "findings": ([write(spaced, DOC)], 1),
        "unreadable": ([str(garbled)], 2),
        "missing": ([str(tmp_path / "missing.yaml"), str(openapi_path())], 2),
        "bad option": ([str(openapi_path()), "--severity", "nope=off"], 2),
        "unknown profile": ([str(openapi_path()), "--profile", "nope"], 2),
    }


def test_sarif_is_valid_sarif_2_1_0_in_every_outcome(tmp_path):
    import jsonschema_rs

    validator = jsonschema_rs.Draft4Validator(
        json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")), validate_formats=True
    )
    for outcome, (args, code) in outcomes(tmp_path).items():
        report = json.loads(run_cli("openapi", "check", *args, "--format", "sarif", expect=code).stdout)
        assert [e.message for e in validator.iter_errors(report)] == [], outcome
        run_ = report["runs"][0]
        rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
        assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run_["results"])
        assert run_["invocations"][0]["executionSuccessful"] is (outcome not in ("bad option", "unknown profile"))
    unreadable = json.loads(
        run_cli("openapi", "check", str(tmp_path / "garbled.yaml"), "--format", "sarif", expect=2).stdout
    )
    [result] = unreadable["runs"][0]["results"]
    # SARIF's end column is the one after the region: here, the character where reading stopped.
    assert result["ruleId"] == "document-unreadable" and result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3,
        "startColumn": 1,
        "endLine": 3,
        "endColumn": 2,
    }


def test_github_json_and_text_say_what_happened_in_every_outcome(tmp_path):
    for outcome, (args, code) in outcomes(tmp_path).items():
        github = run_cli("openapi", "check", *args, "--format", "github", expect=code).stdout.splitlines()
        assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in github), outcome
        assert (code == 0) == (github == []), outcome
        envelope = check_json(*args, expect=code)
        assert set(envelope) == ({"ok", "result"} if code == 0 else {"ok", "error", "result"}), outcome
        assert envelope["ok"] is (code == 0)
        assert all("file" in finding for finding in envelope["result"]["findings"])
        text = run_cli("openapi", "check", *args, expect=code).stdout
        assert text.strip(), outcome


# -- the documentation ------------------------------------------------------------------------------


def test_the_readme_lists_every_rule_with_its_default_severity():
    from deskcheck.engine.openapi.rules.rules import RULES

    table = page("openapi-check.md")
    for rule in RULES.values():
        assert f"| `{rule.id}` | {rule.severity} |" in table, rule.id


def test_the_readme_annotation_example_is_clean_and_gives_its_tools(tmp_path):
    example = page("openapi.md").split("<!-- x-agent-example -->\n```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "library.yaml"
    path.write_text(example, encoding="utf-8")
    assert "no problems found" in run_cli("openapi", "check", str(path)).stdout
    tools = json.loads(run_cli("openapi", "tools", str(path), "--profile", "write").stdout)["tools"]
    assert [tool["name"] for tool in tools][:3] == [
        "lib_search_books",
        "lib_update_book_getData",
        "lib_update_book_setData",
    ]
