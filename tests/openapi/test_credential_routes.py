"""Credentials go only where the user pointed them (issue 26, item 6).

- A path parameter holding ``/`` or ``\\`` (in any spelling a server may decode or normalise into
  one) is refused before anything is sent: servers that decode ``%2F`` before routing would call
  another endpoint with the token (plain tools: ``test_path_segments``, with the dot segments). A
  schema whose ``pattern`` names the character allows it.
- An object spread into the query cannot replace or repeat a parameter the operation declares or
  fixes; deepObject and ``explode: false`` objects keep their keys inside their own name.
- A header argument cannot set a header the credentials, deskcheck or the connection own.
- A document fetched from one origin is not used with a server on another unless the user names
  it (``--base-url`` or ``--allow-host``); a redirect is never followed with the credentials.

End to end against the sample API (a fault on every request is the tripwire proving nothing was
sent), and against the scripted server where the exact request matters.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine.http.client import ApiCaller, Credentials, HttpRequest
from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.engine.openapi.tools.request import RequestBuildError, path_segment
from deskcheck.engine.urls import path_separator
from tests.helpers import run_cli

from .test_path_segments import SAMPLE_SPEC, tripwire, untouched


def _sample_document() -> dict:
    return json.loads(open(SAMPLE_SPEC, encoding="utf-8").read())


# -- path parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["42/owner-secrets", "42%2Fx", "42\uff0fx"])
def test_an_editor_group_and_an_option_url_refuse_a_separator(sample_api, lookup_form, value):
    tripwire(sample_api)
    spec = ["--spec", SAMPLE_SPEC, "--profile", "write", "--base-url", sample_api.base_url]
    line = {"id": "associations", "lineId": value}
    answer = run_cli("form", "describe-state", *spec, "sample_dataset_line", json.dumps(line), expect=None).json
    assert not answer["ok"] and 'the path parameter "lineId"' in answer["error"]
    items = {"x-fromUrl": "/api/v1/datasets/{ds}/lines?q={q}", "x-itemsProp": "results", "x-itemTitle": "nom"}
    context = lookup_form(items, value)
    base = ["--base-url", sample_api.base_url]
    answer = run_cli("form", "get-field-suggestions", *context, *base, '{"path": "/line"}', expect=1).json
    assert "cannot hold" in answer["error"] and "change which path is called" in answer["error"]
    assert untouched(sample_api)


@pytest.mark.parametrize("value", ["owner\u30ce", "v1.2", "a;b", "100%", "a%zz", "\u00e9t\u00e9"])
def test_values_without_a_separator_reach_the_path_they_name(sample_api, value):
    spec = ["--spec", SAMPLE_SPEC, "--base-url", sample_api.base_url]
    args = json.dumps({"datasetId": "associations", "lineId": value})
    answer = run_cli("call", *spec, "sample_get_record", args, expect=1).json
    assert answer["error"].startswith("HTTP 404") and "has no record" in answer["error"]


REPOS = {
    "openapi": "3.1.0",
    "info": {"title": "Repos", "version": "1"},
    "paths": {
        "/projects/{project}": {
            "get": {
                "operationId": "getProject",
                "parameters": [
                    {
                        "in": "path",
                        "name": "project",
                        "required": True,
                        "schema": {"type": "string", "pattern": "^[a-z]+(/[a-z]+)*$"},
                    }
                ],
                "x-agent": {"name": "get_project"},
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/files/{name}": {
            "get": {
                "operationId": "getFile",
                "parameters": [
                    {"in": "path", "name": "name", "required": True, "schema": {"type": "string", "pattern": ".+"}}
                ],
                "x-agent": {"name": "get_file"},
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}


def test_a_pattern_that_names_the_slash_allows_it_encoded(scripted_server):
    tools = load_openapi(copy.deepcopy(REPOS), base_url=scripted_server.url).toolset
    scripted_server.answer(200, {"id": 1})
    assert tools.call("get_project", {"project": "team/repo"}).ok
    assert scripted_server.received[0].path == "/api/projects/team%2Frepo"
    # The pattern decides: a value it does not match is refused before any request.
    refused = tools.call("get_project", {"project": "team//repo"})
    assert not refused.ok and len(scripted_server.received) == 1
    # A pattern that admits "/" without naming it does not allow it.
    refused = tools.call("get_file", {"name": "a/b"})
    assert not refused.ok and 'holds "/"' in refused.error and len(scripted_server.received) == 1
    assert 'its schema must say so with a pattern that contains "/"' in refused.error


def test_path_segment_checks_the_pattern_itself():
    # Editor groups do not validate host parameters against their schema first: the check is here.
    schema = {"type": "string", "pattern": "^[a-z]+/[a-z]+$"}
    assert path_segment("a/b", "p", schema) == "a%2Fb"
    with pytest.raises(RequestBuildError, match='holds "/"'):
        path_segment("a/b/c", "p", schema)
    with pytest.raises(RequestBuildError, match='holds "\\\\"'):
        path_segment("a\\b", "p", schema)
    assert path_segment("a\\b", "p", {"pattern": "^a\\\\b$"}) == "a%5Cb"


@given(st.text(alphabet="/\\%25fFcC0aAu\u2215\uff0fxy", max_size=10))
def test_an_accepted_value_never_decodes_to_a_separator(value):
    from unicodedata import normalize
    from urllib.parse import unquote

    if path_separator(value) is not None:
        return
    seen = value
    for _ in range(4):
        assert "/" not in normalize("NFKC", seen) and "\\" not in normalize("NFKC", seen)
        seen = unquote(seen)


# -- query parameters ----------------------------------------------------------------------------


@pytest.fixture
def open_filters(tmp_path):
    """The sample document with search_records' filters open to any key, and `size` fixed at 1:
    the operation always asks for one row."""
    document = _sample_document()
    operation = document["paths"]["/datasets/{id}/lines"]["get"]
    filters = next(p for p in operation["parameters"] if p["name"] == "filters")
    filters["schema"] = {"type": "object", "additionalProperties": {"type": "string"}}
    operation["x-agent"]["fixed"] = {"hint": "true", "size": "1"}
    path = tmp_path / "open-filters.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("key", "clash"),
    [
        ("size", "always sets itself (fixed)"),
        ("Size", "always sets itself (fixed)"),
        ("size[]", "always sets itself (fixed)"),
        ("q", "declares"),
        ("page", "declares"),
        ("filters", "declares"),
    ],
)
def test_an_object_query_parameter_cannot_replace_a_fixed_or_declared_one(sample_api, open_filters, key, clash):
    tripwire(sample_api)
    spec = ["--spec", open_filters, "--base-url", sample_api.base_url]
    args = json.dumps({"datasetId": "associations", "filters": {"statut_eq": "active", key: "50"}})
    refused = run_cli("call", *spec, "sample_search_records", args, expect=1).json
    assert f'"filters" holds the key "{key}"' in refused["error"] and clash in refused["error"]
    assert untouched(sample_api)


def test_keys_that_collide_with_nothing_are_still_spread(sample_api, open_filters):
    spec = ["--spec", open_filters, "--base-url", sample_api.base_url]
    args = json.dumps({"datasetId": "associations", "filters": {"statut_eq": "active"}})
    answer = run_cli("call", *spec, "sample_search_records", args).json
    assert answer["ok"] and answer["result"].count("| asso-") == 1, "the fixed size of one row held"


STYLES = {
    "openapi": "3.1.0",
    "info": {"title": "Styles", "version": "1"},
    "paths": {
        "/items": {
            "get": {
                "operationId": "listItems",
                "parameters": [
                    {"in": "query", "name": "owner", "schema": {"type": "string"}},
                    {"in": "query", "name": "filter", "style": "deepObject", "schema": {"type": "object"}},
                    {"in": "query", "name": "point", "explode": False, "schema": {"type": "object"}},
                    {"in": "query", "name": "extra", "schema": {"type": "object"}},
                    {"in": "query", "name": "more", "schema": {"type": "object"}},
                    {
                        "in": "query",
                        "name": "ids",
                        "style": "pipeDelimited",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {"in": "header", "name": "X-Api-Key", "schema": {"type": "string"}},
                    {"in": "header", "name": "Host", "schema": {"type": "string"}},
                    {"in": "header", "name": "authorization", "schema": {"type": "string"}},
                    {"in": "header", "name": "X-Note", "schema": {"type": "string"}},
                    {"in": "header", "name": "X-N\u00f6te", "schema": {"type": "string"}},
                ],
                "x-agent": {"name": "list_items", "fixed": {"scope": "mine"}},
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}


def styles(server, **options):
    return load_openapi(copy.deepcopy(STYLES), base_url=server.url, **options).toolset


def test_deep_objects_and_unexploded_objects_keep_their_keys_inside_their_name(scripted_server):
    scripted_server.answer(200, {})
    args = {"owner": "me", "filter": {"owner": "x", "scope": "all"}, "point": {"x": "1", "y": "2"}, "ids": ["a", "b"]}
    assert styles(scripted_server).call("list_items", args).ok
    assert scripted_server.received[0].path == (
        "/api/items?owner=me&filter%5Bowner%5D=x&filter%5Bscope%5D=all&point=x%2C1%2Cy%2C2&ids=a%7Cb&scope=mine"
    )


def test_two_spread_objects_cannot_send_the_same_key(scripted_server):
    refused = styles(scripted_server).call("list_items", {"extra": {"tag": "a"}, "more": {"TAG": "b"}})
    assert not refused.ok and '"more" holds the key "TAG", which is a key that "extra" already sends' in refused.error
    refused = styles(scripted_server).call("list_items", {"extra": {"scope": "all"}})
    assert not refused.ok and 'the query parameter "scope" that this operation always sets itself' in refused.error
    assert scripted_server.received == []


def test_header_arguments_cannot_set_credential_or_framing_headers(scripted_server):
    tools = styles(scripted_server, credentials=Credentials.from_options(["X-Api-Key: secret"], "tok"))
    for name, value in (("X-Api-Key", "mine"), ("Host", "internal.example"), ("authorization", "Bearer x")):
        refused = tools.call("list_items", {name: value})
        assert not refused.ok and f"would set the {name} header" in refused.error, refused
    refused = tools.call("list_items", {"X-Note": "caf\u00e9"})
    assert not refused.ok and "ASCII text only" in refused.error and "bug" not in refused.error
    refused = tools.call("list_items", {"X-Note": "a\r\nX-Api-Key: stolen"})
    assert not refused.ok and "line break" in refused.error
    refused = tools.call("list_items", {"X-N\u00f6te": "a"})
    assert not refused.ok and "is not a header name" in refused.error
    assert scripted_server.received == []
    scripted_server.answer(200, {})
    assert tools.call("list_items", {"X-Note": "ok"}).ok
    sent = scripted_server.received[0].headers
    assert sent["x-api-key"] == "secret" and sent["authorization"] == "Bearer tok" and sent["x-note"] == "ok"


def test_a_request_header_never_goes_out_beside_a_credential_of_another_case(scripted_server):
    caller = ApiCaller(scripted_server.url, credentials=Credentials.from_options([], "tok"))
    scripted_server.answer(200, {})
    caller.send(HttpRequest("GET", scripted_server.url + "/x", {"authorization": "Bearer agent"}))
    sent = [value for name, value in scripted_server.received[0].header_lines if name.lower() == "authorization"]
    assert sent == ["Bearer tok"]


def test_credential_options_that_cannot_be_sent_are_bad_usage(sample_api):
    spec = ["--spec", SAMPLE_SPEC, "--base-url", sample_api.base_url]
    args = '{"datasetId": "associations"}'
    for option in (["--header", "X-Key: caf\u00e9"], ["--token", "t\u00f6ken"]):
        answer = run_cli("call", *spec, *option, "sample_describe_dataset", args, expect=2)
        assert "ASCII text only" in answer.json["error"] and "caf\u00e9" not in answer.json["error"]


# -- the document's own server ------------------------------------------------------------------


@pytest.mark.parametrize("form", ["absolute", "scheme-relative", "variable"])
def test_a_fetched_document_cannot_send_the_token_to_another_origin(scripted_server, sample_api, form):
    document = _sample_document()
    elsewhere = sample_api.base_url  # another port on 127.0.0.1: another origin than the document's
    port = elsewhere.split(":")[2].split("/")[0]
    document["servers"] = {
        "absolute": [{"url": elsewhere}],
        "scheme-relative": [{"url": "//" + elsewhere.split("//", 1)[1]}],
        "variable": [{"url": "http://{host}/api/v1", "variables": {"host": {"default": f"127.0.0.1:{port}"}}}],
    }[form]
    tripwire(sample_api)
    url = scripted_server.url + "/openapi.json"
    args = '{"datasetId": "associations"}'
    scripted_server.answer(200, document)
    refused = run_cli("call", "--spec", url, "--token", "s3cret", "sample_describe_dataset", args, expect=1).json
    assert "another origin" in refused["error"] and f"--allow-host 127.0.0.1:{port}" in refused["error"]
    assert untouched(sample_api), "nothing reached the other origin"
    sample_api.clear_faults()
    scripted_server.answer(200, document)
    allowed = ["--allow-host", f"127.0.0.1:{port}"]
    answer = run_cli("call", "--spec", url, *allowed, "--token", "s3cret", "sample_describe_dataset", args).json
    assert answer["ok"] and "associations" in answer["result"]


def test_a_fetched_document_whose_server_is_its_own_origin_is_used(scripted_server):
    document = copy.deepcopy(STYLES)
    document["servers"] = [{"url": "/api/v1"}]
    scripted_server.answer(200, document)
    scripted_server.answer(200, {"items": []})
    answer = run_cli("call", "--spec", scripted_server.url + "/openapi.json", "--token", "t", "list_items", "{}").json
    assert answer["ok"]
    assert scripted_server.received[1].path == "/api/v1/items?scope=mine"
    assert scripted_server.received[1].headers["authorization"] == "Bearer t"


def test_a_redirect_is_not_followed_and_says_so(scripted_server, sample_api):
    tripwire(sample_api)
    scripted_server.answer(302, "", headers={"location": sample_api.base_url + "/datasets"})
    result = styles(scripted_server, credentials=Credentials.from_options([], "tok")).call("list_items", {})
    assert not result.ok and "does not follow redirects" in result.error
    assert sample_api.base_url.split("/api")[0] in result.error
    assert untouched(sample_api)
