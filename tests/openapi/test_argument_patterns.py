"""A tool's arguments are checked against the document's patterns within bounds (issue 15, item 2).

A parameter with ``pattern: "^(a+)+$"`` and the value ``'a' * 28 + '!'`` took 34 s in Python's
``re`` (through jsonschema), and every further ``a`` doubles it. Arguments are written by a
model and patterns by whoever wrote the document: validation uses the forms' bounded validator
(linear time without back-references or look-around, at most ``BACKTRACK_LIMIT`` steps with
them), for parameters, bodies and property names alike. ``openapi check`` warns about the
patterns that need backtracking."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.openapi.tools.load import load_openapi
from tests.helpers import run_cli, run_process

CATASTROPHIC = "a" * 40 + "!"  # ~2**40 steps for a backtracking engine on ^(a+)+$
LONG = "a" * 20_000 + "c"

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "patterns", "version": "1"},
    "paths": {
        "/codes/{code}": {
            "put": {
                "operationId": "putCode",
                "x-agent": {},
                "parameters": [
                    {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "nested", "in": "query", "schema": {"type": "string", "pattern": "^(a+)+$"}},
                    {"name": "twice", "in": "query", "schema": {"type": "string", "pattern": "^(a+)\\1*b$"}},
                    {"name": "ahead", "in": "query", "schema": {"type": "string", "pattern": "^(?=(a*)*\\1$)"}},
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "patternProperties": {"^(a+)+$": {"type": "integer"}},
                                "additionalProperties": False,
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "patterns.json"
    path.write_text(json.dumps(DOCUMENT))
    return str(path)


@pytest.mark.slow
def test_the_reproduction_is_decided_at_once_in_a_separate_process(spec):
    # In its own process with a timeout, so that a regression fails instead of hanging the suite.
    args = json.dumps({"code": "x", "nested": CATASTROPHIC})
    context = ["--spec", spec, "--base-url", "http://127.0.0.1:9/api"]
    run = run_process("call", *context, "put_code", args, expect=1, timeout=60)
    assert 'Invalid parameters: /nested must match pattern "^(a+)+$"' in run.json["error"]


def test_patterns_are_decided_or_reported_as_not_checked_and_nothing_is_sent(scripted_server, spec):
    tools = load_openapi(spec, base_url=scripted_server.url).toolset
    checks = {
        "nested": ('must match pattern "^(a+)+$"', CATASTROPHIC),
        "twice": ('could not be checked against pattern "^(a+)\\1*b$"', LONG),
        "ahead": ('could not be checked against pattern "^(?=(a*)*\\1$)"', LONG),
    }
    for name, (message, value) in checks.items():
        result = tools.call("put_code", {"code": "x", name: value})
        assert not result.ok and f"/{name} {message}" in result.error, result.error
    both = tools.call("put_code", {"code": "x", "twice": LONG, "ahead": LONG})
    assert "/twice could not be checked" in both.error and "/ahead could not be checked" in both.error
    assert scripted_server.received == []


def test_property_names_from_the_model_are_matched_within_bounds(scripted_server, spec):
    tools = load_openapi(spec, base_url=scripted_server.url).toolset
    refused = tools.call("put_code", {"code": "x", "body": {CATASTROPHIC: 1}})
    assert not refused.ok and "must NOT have additional properties" in refused.error
    assert scripted_server.received == []


def test_values_that_match_are_sent(scripted_server, spec):
    scripted_server.answer(200, {"ok": True})
    tools = load_openapi(spec, base_url=scripted_server.url).toolset
    result = tools.call("put_code", {"code": "x", "nested": "aaa", "twice": "aaab", "body": {"aa": 1}})
    assert result.ok, result.error
    [request] = scripted_server.received
    assert request.path == "/api/codes/x?nested=aaa&twice=aaab"


def test_openapi_check_warns_about_patterns_that_need_backtracking(spec):
    findings = json.loads(run_cli("openapi", "check", spec, "--format", "json").stdout)["result"]["findings"]
    slow = {f["pointer"]: f for f in findings if f["rule"] == "pattern-backtracking"}
    assert set(slow) == {
        "/paths/~1codes~1{code}/put/parameters/2/schema/pattern",
        "/paths/~1codes~1{code}/put/parameters/3/schema/pattern",
    }
    assert all(f["severity"] == "warning" and "100,000 steps" in f["message"] for f in slow.values())
    sarif = json.loads(run_cli("openapi", "check", spec, "--format", "sarif").stdout)
    assert "pattern-backtracking" in {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
