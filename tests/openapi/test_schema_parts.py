"""The validation against the OpenAPI schema in parts: a document's big collections a slice at a
time (jsonschema-rs gathers every error of one validation at once, about 20 KB each), the same
findings as in one piece, and a stop past what a report lists, said in the report."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli


def write(path, document) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def findings(tmp_path, document) -> list[dict]:
    out = run_cli("openapi", "check", write(tmp_path / "api.json", document), "--format", "json", expect=None)
    return json.loads(out.stdout)["result"]["findings"]


def no_schema_parameters(count: int) -> dict:
    """``count`` path items, each with a path parameter that has neither schema nor content."""
    ok = {"responses": {"200": {"description": "ok"}}}
    paths = {
        f"/a{n}/{{p}}": {"parameters": [{"name": "p", "in": "path", "required": True}], "get": ok} for n in range(count)
    }
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}


def test_past_the_report_limit_the_schema_validation_stops_and_says_from_where(tmp_path, monkeypatch):
    from deskcheck.engine.openapi import check, schema_parts

    monkeypatch.setattr(check, "MAX_FINDINGS", 20)
    monkeypatch.setattr(schema_parts, "SLICE", 5)
    listed = findings(tmp_path, no_schema_parameters(60))
    # Five slices of five violations go past 20; the sixth slice and those after are not validated.
    [stopped] = [f for f in listed if f["rule"] == "structure-not-checked"]
    assert stopped["pointer"] == "/paths/~1a25~1{p}"
    assert "stopped after 25 violations" in stopped["message"]
    assert "from /paths/~1a25~1{p} on, the document was not validated" in stopped["message"]
    assert stopped["line"] is not None
    violations = [f for f in listed if f["rule"] == "openapi-schema"]
    assert len(violations) == 19  # the notice takes one of the 20 places
    assert {f["pointer"] for f in violations} <= {f"/paths/~1a{n}~1{{p}}/parameters/0" for n in range(25)}
    assert all("OpenAPI 3.0 schema:" in f["message"] for f in violations)
    [limit] = [f for f in listed if f["rule"] == "findings-limit"]
    assert limit["message"].startswith("6 more findings (6 errors) are not listed")


def test_under_the_limit_every_violation_is_listed_and_nothing_is_said_to_have_stopped(tmp_path, monkeypatch):
    from deskcheck.engine.openapi import schema_parts

    monkeypatch.setattr(schema_parts, "SLICE", 5)
    listed = findings(tmp_path, no_schema_parameters(60))
    assert sorted(f["pointer"] for f in listed if f["rule"] == "openapi-schema") == sorted(
        f"/paths/~1a{n}~1{{p}}/parameters/0" for n in range(60)
    )
    assert not [f for f in listed if f["rule"] in ("structure-not-checked", "findings-limit")]


def collections_with_violations(version: str) -> dict:
    """Violations in every collection that is validated in slices, and beside them."""
    ok = {"responses": {"200": {"description": "ok"}}}
    bad_schema = {"type": "object", "properties": {"a": {"type": 7}}}
    document: dict = {
        "openapi": version,
        "info": {"title": "t"},  # no version: a violation outside the collections
        "paths": {f"/p{n}": {"get": ok if n % 3 else {"responses": {"200": {}}}} for n in range(12)},
        "components": {
            "schemas": {f"S{n}": bad_schema if n % 4 == 0 else {"type": "string"} for n in range(12)},
            "parameters": {f"P{n}": {"name": "p", "in": "nowhere", "schema": {}} for n in range(7)},
            "responses": {"R": {"description": 3}},
        },
    }
    if version.startswith("3.1"):
        document["webhooks"] = {f"w{n}": {"post": ok if n % 2 else {"responses": 1}} for n in range(9)}
    return document


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_slices_find_what_the_whole_document_finds(tmp_path, monkeypatch, version):
    from deskcheck.engine.openapi import schema_parts

    document = collections_with_violations(version)
    whole = findings(tmp_path, document)
    monkeypatch.setattr(schema_parts, "SLICE", 2)
    sliced = findings(tmp_path, document)
    assert sliced == whole
    rules = {f["rule"] for f in whole}
    assert "openapi-schema" in rules
    pointers = [f["pointer"] for f in whole]
    for place in ("/info", "/paths/~1p0/get/responses", "/components/schemas/S0/", "/components/parameters/P6"):
        assert any(pointer.startswith(place) for pointer in pointers), place
    if version == "3.1.0":
        assert any(pointer.startswith("/webhooks/w0/post/responses") for pointer in pointers)
