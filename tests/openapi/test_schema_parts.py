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


def wrong_properties(names: list[str]) -> dict:
    """One schema whose properties all have a type that does not exist."""
    properties = {name: {"type": "text"} for name in names}
    schemas = {"S": {"type": "object", "properties": properties}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": schemas}}


def test_past_the_report_limit_the_schema_validation_stops_and_says_from_where(tmp_path, monkeypatch):
    from deskcheck.engine.openapi.check import check
    from deskcheck.engine.openapi.rules import schema_parts, structure

    monkeypatch.setattr(check, "MAX_FINDINGS", 20)
    monkeypatch.setattr(schema_parts, "SLICE", 5)
    monkeypatch.setattr(structure, "ERRORS_PER_FINDING", 1000)  # the stop counts findings here
    listed = findings(tmp_path, no_schema_parameters(60))
    # Five slices of five violations go past 20; the sixth slice and those after are not validated.
    [stopped] = [f for f in listed if f["rule"] == "structure-not-checked"]
    assert stopped["pointer"] == "/paths/~1a25~1{p}"
    assert "stopped after 25 findings" in stopped["message"]
    assert "from /paths/~1a25~1{p} on, the document was not validated" in stopped["message"]
    assert stopped["line"] is not None
    violations = [f for f in listed if f["rule"] == "openapi-schema"]
    assert len(violations) == 19  # the notice takes one of the 20 places
    assert {f["pointer"] for f in violations} <= {f"/paths/~1a{n}~1{{p}}/parameters/0" for n in range(25)}
    assert all("OpenAPI 3.0 schema:" in f["message"] for f in violations)
    [limit] = [f for f in listed if f["rule"] == "findings-limit"]
    assert limit["message"].startswith("6 more findings (6 errors) are not listed")


def test_past_so_many_errors_of_the_schema_the_validation_stops_too(tmp_path, monkeypatch):
    # One schema of many wrong properties is one finding per slice but an error per property:
    # what the validator gathers is bounded as well.
    from deskcheck.engine.openapi.check import check
    from deskcheck.engine.openapi.rules import schema_parts

    monkeypatch.setattr(check, "MAX_FINDINGS", 20)
    monkeypatch.setattr(schema_parts, "SLICE", 10)
    listed = findings(tmp_path, wrong_properties([f"p{n:03}" for n in range(300)]))
    [stopped] = [f for f in listed if f["rule"] == "structure-not-checked"]
    assert stopped["pointer"].startswith("/components/schemas/S/properties/p")
    assert "errors of the schema), more than a report lists" in stopped["message"]
    assert len([f for f in listed if f["rule"] == "openapi-schema"]) < 20


def test_under_the_limit_every_violation_is_listed_and_nothing_is_said_to_have_stopped(tmp_path, monkeypatch):
    from deskcheck.engine.openapi.rules import schema_parts

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
    # A list and a map inside an object: sliced where they are (the list's items keep their index).
    document["paths"]["/many"] = {
        "parameters": [{"name": f"q{n}", "in": "query"} for n in range(7)] + [{"name": "p", "in": "nowhere"}],
        "get": ok,
    }
    document["components"]["schemas"]["Wide"] = {
        "type": "object",
        "properties": {f"p{n}": {"type": "string"} for n in range(7)} | {"z": {"minLength": "x"}},
    }
    if version.startswith("3.1"):
        document["webhooks"] = {f"w{n}": {"post": ok if n % 2 else {"responses": 1}} for n in range(9)}
    return document


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_slices_find_what_the_whole_document_finds(tmp_path, monkeypatch, version):
    from deskcheck.engine.openapi.rules import schema_parts

    document = collections_with_violations(version)
    whole = findings(tmp_path, document)
    monkeypatch.setattr(schema_parts, "SLICE", 2)
    sliced = findings(tmp_path, document)
    assert sliced == whole
    rules = {f["rule"] for f in whole}
    assert "openapi-schema" in rules
    pointers = [f["pointer"] for f in whole]
    for place in (
        "/info",
        "/paths/~1p0/get/responses",
        "/components/schemas/S0/",
        "/components/parameters/P6",
        "/paths/~1many/parameters/7",
        "/paths/~1many/parameters/6",
        "/components/schemas/Wide/properties/z/minLength",
    ):
        assert any(pointer.startswith(place) for pointer in pointers), place
    if version == "3.1.0":
        assert any(pointer.startswith("/webhooks/w0/post/responses") for pointer in pointers)


def test_one_schema_of_many_wrong_properties_is_validated_in_slices(tmp_path, monkeypatch):
    # 200,000 such properties took 4 GB at once; in slices each validation holds a few.
    from deskcheck.engine.openapi.rules import schema_parts

    monkeypatch.setattr(schema_parts, "SLICE", 10)
    listed = findings(tmp_path, wrong_properties([f"p{n}" for n in range(45)]))
    pointers = [f["pointer"] for f in listed if f["rule"] == "openapi-schema"]
    # At least the first wrong property of each slice, each at its own place.
    assert {"/components/schemas/S/properties/p0/type", "/components/schemas/S/properties/p40/type"} <= set(pointers)
    assert all(pointer.startswith("/components/schemas/S/properties/p") for pointer in pointers)


def test_a_long_list_in_slices_keeps_each_items_index(tmp_path, monkeypatch):
    from deskcheck.engine.openapi.rules import schema_parts

    monkeypatch.setattr(schema_parts, "SLICE", 4)
    ok = {"responses": {"200": {"description": "ok"}}}
    parameters = [{"name": f"q{n}", "in": "query", "schema": {"type": "string"}} for n in range(11)]
    for n in (0, 5, 10):
        parameters[n] = {"name": f"q{n}", "in": "query"}  # no schema
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"parameters": parameters, "get": ok}},
    }
    listed = findings(tmp_path, document)
    assert sorted(f["pointer"] for f in listed if f["rule"] == "openapi-schema") == [
        "/paths/~1a/parameters/0",
        "/paths/~1a/parameters/10",
        "/paths/~1a/parameters/5",
    ]
