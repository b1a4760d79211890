"""Plain tools executing real HTTP requests: the exact request a call builds, the rendered answer,
and every failure as ok: false, against a scripted server and the sample records API, in-process
and through `deskcheck call --spec`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deskcheck.engine.http.client import Credentials
from deskcheck.engine.openapi.tools.load import load_openapi
from tests.conftest import REPO
from tests.helpers import run_cli

# Annotated documents written for these tests: a library's catalogue (renamed, fixed, capped and
# excluded parameters, rendered rows, a markdown answer, a profile-gated create) and a notice
# board whose one PATCH operation is two views.
SHELF = REPO / "tests" / "fixtures" / "openapi" / "shelf.json"
NOTICES = REPO / "tests" / "fixtures" / "openapi" / "notices.json"
BOOK_LIST = {
    "count": 2,
    "items": [
        {"id": "b1", "title": "Dune", "topics": ["sf", "desert"], "borrower": {"name": "Ann", "phone": "555"},
         "shelfMark": "SF-1"},
        {"id": "b2", "title": "Red | Black", "borrower": {"name": "Bob", "phone": "556"}, "shelfMark": "NV-2"},
    ],
    "next": "https://library.test/api/books?after=2",
    "meta": {"hints": ["search with whole words"]},
}  # fmt: skip


def shelf(server, **options):
    return load_openapi(str(SHELF), base_url=server.url, **options).toolset


def test_list_request_and_rendering(scripted_server):
    scripted_server.answer(200, BOOK_LIST)
    result = shelf(scripted_server).call("shelf_list_books", {"search": "dune"})
    assert result.ok, result.error
    # Concise columns, the pipe escaped, excluded fields gone, the field hint and the API's hint.
    assert result.value == (
        "- **count**: 2\n- **next**: https://library.test/api/books?after=2\n\n"
        "| id | title |\n| --- | --- |\n| b1 | Dune |\n| b2 | Red \\| Black |\n"
        "> id: catalogue number, not for readers\n\n> Hint: search with whole words"
    )
    [request] = scripted_server.received
    assert request.method == "GET"
    assert request.path == "/api/books?q=dune&limit=10&select=id%2Ctitle"
    assert request.headers["accept"] == "application/json"


def test_fields_replace_the_fixed_selection_and_filters_spread(scripted_server):
    scripted_server.answer(200, BOOK_LIST)
    args = {"search": "", "filters": {"title_eq": "Dune", "year_gte": "9"}, "fields": ["title", "topics"]}
    result = shelf(scripted_server).call("shelf_list_books", args)
    assert result.ok
    assert scripted_server.received[0].path == "/api/books?q=&limit=10&title_eq=Dune&year_gte=9&select=title%2Ctopics"
    assert "| title | topics |" in result.value and "| id |" not in result.value


def test_path_values_are_encoded_and_markdown_passes_through(scripted_server):
    scripted_server.answer(200, "# Dune\n\nA desert planet.", content_type="text/markdown")
    result = shelf(scripted_server).call("shelf_get_book", {"id": "a;b c"})
    assert result.ok and result.value == "# Dune\n\nA desert planet."
    assert scripted_server.received[0].path == "/api/books/a%3Bb%20c"
    assert scripted_server.received[0].headers["accept"] == "text/markdown"


def test_invalid_arguments_send_no_request(scripted_server):
    tools = shelf(scripted_server)
    too_big = tools.call("shelf_list_books", {"limit": 500})
    assert not too_big.ok and too_big.error.startswith("Invalid parameters: /limit must be <= 50")
    unknown = tools.call("shelf_list_books", {"colour": "red"})
    assert not unknown.ok and "params must NOT have additional properties (colour)" in unknown.error
    excluded = tools.call("shelf_list_books", {"trace": True})
    assert not excluded.ok and "(trace)" in excluded.error, "an excluded parameter cannot be sent"
    missing = tools.call("shelf_get_book", {})
    assert not missing.ok and "must have required property 'id'" in missing.error
    assert scripted_server.received == []


@pytest.mark.parametrize(
    ("status", "body", "content_type", "ok", "text"),
    [
        (
            400,
            '{"error": "limit must be a number"}',
            "application/json",
            False,
            'HTTP 400: {"error": "limit must be a number"}',
        ),
        (404, "", "text/plain", False, "HTTP 404 (no message)."),
        (204, "", "application/json", True, "OK"),
        (200, "  ", "application/json", True, "OK"),
        (200, "{not json", "application/json", False, "Invalid JSON response: the answer of GET"),
    ],
)
def test_statuses_and_bodies(scripted_server, status, body, content_type, ok, text):
    scripted_server.answer(status, body, content_type)
    result = shelf(scripted_server).call("shelf_get_book", {"id": "b1"})
    assert result.ok is ok
    assert (result.value if ok else result.error).startswith(text)


RECORD = {"datasetId": "d1", "lineId": "r1"}


def test_long_error_bodies_are_cut(scripted_server):
    scripted_server.answer(400, "x" * 50, "text/plain")
    result = load_openapi(sample_spec(), base_url=scripted_server.url, max_error_length=10).toolset.call(
        "sample_get_record", RECORD
    )
    assert result.error == "HTTP 400: xxxxxxxxxx…"


def test_an_unreachable_api_is_a_failed_request():
    tools = load_openapi(sample_spec(), base_url="http://127.0.0.1:9/api", timeout=2).toolset
    result = tools.call("sample_get_record", RECORD)
    assert not result.ok and result.error.startswith("Request failed: GET http://127.0.0.1:9/api/datasets/d1/lines/r1")


def test_a_json_body_with_credentials_only_for_the_api(scripted_server):
    scripted_server.answer(201, {"id": "b3", "title": "Emma"})
    credentials = Credentials.from_options(["X-Api-Key: secret-key"], "tok-123")
    assert "secret" not in repr(credentials) and "tok-123" not in repr(credentials)
    tools = shelf(scripted_server, profiles=["lend"], credentials=credentials)
    result = tools.call("shelf_add_book", {"title": "Emma", "topics": ["novel"]})
    assert result.ok and result.value == "- **id**: b3 _(catalogue number, not for readers)_\n- **title**: Emma"
    [request] = scripted_server.received
    assert request.method == "POST" and request.path == "/api/books"
    assert json.loads(request.body) == {"title": "Emma", "topics": ["novel"]}
    assert request.headers["content-type"] == "application/json"
    assert request.headers["x-api-key"] == "secret-key"
    assert request.headers["authorization"] == "Bearer tok-123"


def test_views_refuse_fields_outside_their_body_fields(scripted_server):
    tools = load_openapi(str(NOTICES), profiles=["publisher"], base_url=scripted_server.url).toolset
    refused = tools.call("nb_schedule_notice", {"id": "n1", "heading": "x"})
    assert not refused.ok and refused.error.startswith("Invalid parameters")
    assert scripted_server.received == []
    scripted_server.answer(200, {"id": "n1"})
    done = tools.call("nb_schedule_notice", {"id": "n1", "boards": ["hall"]})
    assert done.ok and done.value == "- **id**: n1"
    [request] = scripted_server.received
    assert (request.method, request.path) == ("PATCH", "/api/notices/n1")
    assert json.loads(request.body) == {"boards": ["hall"]}


def test_compact_bodies_are_checked_against_the_real_schema(scripted_server):
    doc = json.loads(NOTICES.read_text(encoding="utf-8"))
    doc["paths"]["/notices/{id}"]["patch"]["x-agent"][0]["body"] = "compact"
    tools = load_openapi(doc, profiles=["editor"], base_url=scripted_server.url).toolset
    tool = tools.get("nb_edit_notice")
    assert list(tool.input_schema["properties"]) == ["id", "body"]
    assert "heading: string" in tool.input_schema["properties"]["body"]["description"]
    refused = tools.call("nb_edit_notice", {"id": "n1", "body": {"heading": 3}})
    assert refused.error.startswith("Invalid body: /heading must be string")
    extra = tools.call("nb_edit_notice", {"id": "n1", "body": {"heading": "a", "boards": []}})
    assert extra.error.startswith("Invalid body: body must NOT have additional properties (boards)")
    assert scripted_server.received == []


def test_no_base_url_is_explained():
    doc = json.loads(Path(sample_spec()).read_text(encoding="utf-8"))
    del doc["servers"]
    result = load_openapi(doc).toolset.call("sample_get_record", RECORD)
    assert not result.ok and "declares no server; pass --base-url" in result.error


# -- the sample records API -------------------------------------------------------------------


def sample_spec():
    from deskcheck.samples.records_api import openapi_path

    return str(openapi_path())


def test_sample_api_search_through_the_cli(sample_api):
    run = run_cli("call", "--spec", sample_spec(), "--base-url", sample_api.base_url, "sample_list_datasets", "{}")
    assert run.json["ok"] is True
    assert "| associations |" in run.json["result"]


def test_sample_api_document_from_its_url(sample_api):
    loaded = load_openapi(sample_api.openapi_url)
    assert loaded.base_url == sample_api.base_url
    result = loaded.toolset.call("sample_describe_dataset", {"datasetId": "associations"})
    assert result.ok, result.error


def test_sample_api_errors_come_back_with_the_status(sample_api):
    run = run_cli(
        "call",
        "--spec",
        sample_spec(),
        "--base-url",
        sample_api.base_url,
        "sample_describe_dataset",
        '{"datasetId": "no-such-dataset"}',
        expect=1,
    )
    assert run.json["ok"] is False and run.json["error"].startswith("HTTP 404")


def test_sample_api_token_from_the_environment_is_used_and_never_printed(sample_api, monkeypatch, tmp_path):
    command = (
        "call",
        "--spec",
        sample_spec(),
        "--profile",
        "write",
        "--base-url",
        sample_api.base_url,
        "sample_delete_record",
        '{"datasetId": "associations", "lineId": "nope"}',
    )
    denied = run_cli(*command, expect=1)
    assert denied.json["error"].startswith("HTTP 401")
    monkeypatch.setenv("DESKCHECK_TOKEN", sample_api.write_token)
    with_token = run_cli(*command, expect=1)
    assert with_token.json["error"].startswith("HTTP 404")
    assert sample_api.write_token not in with_token.stdout + with_token.stderr


def test_an_editor_tool_runs_and_reports_a_missing_record(sample_api):
    run = run_cli(
        "call",
        "--spec",
        sample_spec(),
        "--profile",
        "write",
        "--base-url",
        sample_api.base_url,
        "sample_dataset_line_describeState",
        '{"id": "associations", "lineId": "x"}',
        expect=1,
    )
    assert "/datasets/associations/lines/x answered 404" in run.json["error"]


def test_a_document_that_cannot_load_is_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    doc = json.loads(Path(sample_spec()).read_text(encoding="utf-8"))
    doc["paths"]["/datasets"]["get"]["x-agent"]["template"] = "x"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    run = run_cli("call", "--spec", str(bad), "sample_list_datasets", "{}", expect=2)
    assert "x-agent invalid at /paths/~1datasets/get" in run.json["error"]
    assert "deskcheck openapi check" in run.json["error"]
