"""``deskcheck openapi check --live`` against the sample API: each editor group's schema is
requested and its form built, and what would fail for an agent is a finding with its rule,
pointer and line."""

from __future__ import annotations

import json

import pytest

from deskcheck.samples.records_api import openapi_path
from tests.helpers import run_cli

SPEC = str(openapi_path())
NEW_LINE_EDITOR = "/paths/~1datasets~1{id}~1lines/post/x-agent/editor"
LINE_EDITOR = "/paths/~1datasets~1{id}~1lines~1{lineId}/put/x-agent/editor"


def live(api, *params: str, expect: int | None = 0, fmt: str = "json", extra: tuple[str, ...] = ()):
    args = ["openapi", "check", SPEC, "--live", "--base-url", api.base_url, "--format", fmt, *extra]
    for param in params:
        args += ["--param", param]
    run = run_cli(*args, expect=expect)
    return json.loads(run.stdout)["result"]["findings"] if fmt == "json" else run.stdout


def by_rule(findings, rule):
    return [f for f in findings if f["rule"] == rule]


def test_the_sample_api_passes_the_live_check(sample_api):
    assert live(sample_api, "id=associations", "lineId=asso-001") == []
    assert "no problems found" in live(sample_api, "id=bibliotheques", fmt="text")


def test_a_missing_parameter_is_an_error_naming_the_flag(sample_api):
    findings = live(sample_api, expect=1)
    assert [f["rule"] for f in findings] == ["editor-live-parameter-missing"] * 2
    assert {f["pointer"] for f in findings} == {NEW_LINE_EDITOR, LINE_EDITOR}
    assert "--param id=VALUE" in findings[0]["message"] and findings[0]["line"] > 1


def test_a_schema_request_that_fails_is_an_error_with_the_servers_message(sample_api):
    sample_api.inject_fault("GET", path="*/schema", status=500, message="The schema store is down.", times=2)
    findings = live(sample_api, "id=associations", expect=1)
    assert [f["rule"] for f in findings] == ["editor-live-request-failed"] * 2
    assert findings[0]["pointer"] == NEW_LINE_EDITOR + "/schemaOperation"
    assert "answered 500: The schema store is down." in findings[0]["message"]
    unknown = live(sample_api, "id=nope", expect=1)
    assert 'answered 404: There is no dataset "nope"' in unknown[0]["message"]


def test_a_reference_that_leads_nowhere_is_a_warning(fresh_sample_api):
    api = fresh_sample_api
    schema = api.dataset_schema("associations")
    schema["properties"]["bureau"]["items"] = {"$ref": "#/definitions/member"}
    api.set_schema("associations", schema)
    findings = live(api, "id=associations", expect=1, extra=("--strict",))
    assert [(f["rule"], f["severity"]) for f in findings] == [("editor-live-schema-unchecked", "warning")] * 2
    assert "the form opens, but this part of its schema is not checked" in findings[0]["message"]
    assert "#/definitions/member" in findings[0]["message"]


def test_a_schema_the_form_engine_refuses_is_an_error(fresh_sample_api):
    api = fresh_sample_api
    schema = api.dataset_schema("associations")
    schema["definitions"] = {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}
    schema["properties"]["bureau"]["items"] = {"$ref": "#/definitions/a"}
    api.set_schema("associations", schema)
    findings = live(api, "id=associations", expect=1)
    assert [f["rule"] for f in findings] == ["editor-live-schema-unusable"] * 2
    assert "every form tool would fail" in findings[0]["message"] and "loop" in findings[0]["message"]


def test_a_required_hidden_column_blocks_creation_and_warns_for_edits(fresh_sample_api):
    api = fresh_sample_api
    schema = api.dataset_schema("associations")
    schema["required"].append("statuts")
    api.set_schema("associations", schema)
    findings = live(api, "id=associations", expect=1)
    [created] = [f for f in findings if f["pointer"] == NEW_LINE_EDITOR]
    assert created["rule"] == "editor-live-field-unfixable" and created["severity"] == "error"
    assert "a new record can never be saved by an agent: /statuts: required, without a value" in created["message"]
    [edited] = [f for f in findings if f["pointer"] == LINE_EDITOR]
    assert edited["rule"] == "editor-live-field-required-hidden" and edited["severity"] == "warning"
    assert "the required column(s) statuts are hidden" in edited["message"]
    # With the record named, the check reads it: asso-001 has its statutes, so only creation fails.
    with_record = live(api, "id=associations", "lineId=asso-001", expect=1)
    assert [f["pointer"] for f in with_record] == [NEW_LINE_EDITOR]


def test_a_record_that_fails_its_own_schema_is_a_warning(fresh_sample_api):
    api = fresh_sample_api
    schema = api.dataset_schema("associations")
    schema["properties"]["nom"]["maxLength"] = 10
    api.set_schema("associations", schema)
    findings = live(api, "id=associations", "lineId=asso-001")
    [finding] = by_rule(findings, "editor-live-record-invalid")
    assert finding["severity"] == "warning" and finding["pointer"] == LINE_EDITOR + "/readOperation"
    assert "/nom:" in finding["message"] and "correct it before any save" in finding["message"]
    assert run_cli(*_strict_args(api, "id=associations", "lineId=asso-001"), expect=1)


def _strict_args(api, *params):
    args = ["openapi", "check", SPEC, "--live", "--base-url", api.base_url, "--strict"]
    for param in params:
        args += ["--param", param]
    return args


def test_options_from_another_host_are_a_warning(fresh_sample_api):
    api = fresh_sample_api
    schema = api.dataset_schema("associations")
    schema["properties"]["departement"]["x-fromUrl"] = "https://geo.example/departements?q={q}"
    api.set_schema("associations", schema)
    findings = live(api, "id=associations")
    assert [f["rule"] for f in findings] == ["editor-live-options-host"] * 2
    assert "the field at /properties/departement come from https://geo.example" in findings[0]["message"]
    assert "--allow-host" in findings[0]["message"]
    sarif = json.loads(live(api, "id=associations", fmt="sarif"))
    [rule] = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "editor-live-options-host" and "another host than the API" in rule["shortDescription"]["text"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--live"], "--live calls the API: give its address with --base-url URL."),
        (["--param", "id=x"], "--param only matter(s) with --live"),
        (["--base-url", "http://127.0.0.1:9", "--token", "t"], "--base-url, --token only matter(s) with --live"),
        (["--live", "--base-url", "ftp://x"], "--base-url must be an http(s) URL"),
        (["--live", "--base-url", "http://127.0.0.1:9", "--param", "id"], "--param must look like name=value"),
    ],
)
def test_flags_that_make_no_sense_are_usage_errors(argv, message):
    run = run_cli("openapi", "check", SPEC, *argv, expect=2)
    assert message in run.stdout + run.stderr


def test_without_live_nothing_is_requested():
    # The document names a server on port 8642 that nothing listens on: a request would fail.
    assert "no problems found" in run_cli("openapi", "check", SPEC).stdout
