"""Options behind URLs in a session: fetched from the API's origin (relative URLs resolved
against the base URL, with the caller's credentials), with and without {q}, a list waiting for
another field, refused foreign hosts, and hosts the user allowed (without the credentials)."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.forms.sessions.session import SessionOptions
from deskcheck.engine.forms.sources.remote_items import ItemsFetchError, RemoteItems, parse_allowed_host
from deskcheck.engine.forms.state.suggestions import ItemsRequest
from deskcheck.engine.forms.tools.session_tools import file_form_group
from deskcheck.engine.http.client import ApiCaller, Credentials
from tests.forms.http_sessions import RecordingClient

DEPARTEMENTS = "/api/v1/referentials/departements"


def lookup_schema(**urls: str) -> dict:
    """A record whose fields take their options from ``urls`` (field name -> x-fromUrl)."""
    properties = {
        "region": {"type": "object", "properties": {"code": {"type": "string"}}},
        "contact": {"type": "string"},
    }
    for name, url in urls.items():
        properties[name] = {
            "type": "object",
            "x-fromUrl": url,
            "x-itemsProp": "results",
            "x-itemTitle": "nom",
            "x-itemKey": "code",
            "properties": {"code": {"type": "string"}, "nom": {"type": "string"}},
        }
    return {"type": "object", "properties": properties}


@pytest.fixture
def make_form(tmp_path):
    """``make_form(schema, base_url, allow_hosts=(), token=None)`` -> (tools, recording client)."""

    def make(schema: dict, base_url: str | None, *, allow_hosts=(), token=None):
        schema_path = tmp_path / "schema.json"
        schema_path.write_text(json.dumps(schema))
        client = RecordingClient()
        caller = ApiCaller(base_url, client=client, credentials=Credentials.from_options((), token))
        options = SessionOptions(fetcher=RemoteItems(caller, allow_hosts=allow_hosts))
        group = file_form_group(schema_path, tmp_path / "record.json", options=options)
        return group.toolset(), client

    return make


def test_a_relative_url_without_q_is_fetched_from_the_api_and_filtered_locally(sample_api, make_form):
    tools, client = make_form(lookup_schema(dep=f"{DEPARTEMENTS}?size=4"), sample_api.base_url, token="t0ken")
    listed = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert listed.ok and listed.value.startswith("4 option(s)")
    request, status = client.sent[-1]
    assert status == 200 and request.url == f"{sample_api.origin}{DEPARTEMENTS}?size=4"
    assert request.headers["Authorization"] == "Bearer t0ken", "the API's own origin gets the credentials"
    first_title = listed.value.splitlines()[1].split("] ", 1)[1].split(" (", 1)[0]
    narrowed = tools.call("form_getFieldSuggestions", {"path": "/dep", "query": first_title[:4]})
    assert narrowed.ok and first_title in narrowed.value
    assert len(client.sent) == 1, "no {q}: the same URL, answered from the cache and filtered here"


def test_q_is_sent_to_the_server_and_left_out_without_a_query(sample_api, make_form):
    tools, client = make_form(lookup_schema(dep=f"{DEPARTEMENTS}?q={{q}}&size=20"), sample_api.base_url)
    found = tools.call("form_getFieldSuggestions", {"path": "/dep", "query": "finis"})
    assert found.ok and "- [0] Finistère (29)" in found.value
    assert client.sent[-1][0].url.endswith(f"{DEPARTEMENTS}?q=finis&size=20")
    everything = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert everything.ok and "option(s)" in everything.value
    assert client.sent[-1][0].url.endswith(f"{DEPARTEMENTS}?size=20")
    # Indices continue across listings of one field; the whole object is written.
    assert "- [1] " in everything.value
    assert tools.call("form_setFieldValue", {"path": "/dep", "suggestionIndex": 0}).ok
    data = json.loads(tools.call("form_getData", {"path": "/dep"}).value)["data"]
    assert data == {"code": "29", "nom": "Finistère"}


def test_a_list_waiting_for_another_field_names_it(sample_api, make_form):
    tools, client = make_form(lookup_schema(dep=f"{DEPARTEMENTS}?q={{region.code}}"), sample_api.base_url)
    blocked = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert blocked.ok and blocked.value.startswith("No options yet")
    assert "(/region/code)" in blocked.value
    assert client.sent == [], "nothing is requested for a list that cannot be built"
    assert tools.call("form_setFieldValue", {"path": "/region/code", "value": "finis"}).ok
    listed = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert listed.ok and "Finistère" in listed.value


def test_a_foreign_host_is_refused_unless_allowed(sample_api, make_form):
    tools, client = make_form(lookup_schema(dep="https://lists.example.invalid/departements"), sample_api.base_url)
    refused = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert not refused.ok
    assert "https://lists.example.invalid" in refused.error and "not this API's origin" in refused.error
    assert "--allow-host lists.example.invalid:443 " in refused.error, "the exact host and port"
    assert client.sent == []


def test_an_allowed_host_is_called_without_the_credentials(sample_api, sample_api_factory, make_form):
    other = sample_api_factory()
    schema = lookup_schema(dep=f"{other.origin}{DEPARTEMENTS}?q={{q}}")
    tools, client = make_form(
        schema, sample_api.base_url, allow_hosts=(f"127.0.0.1:{other.port}",), token=sample_api.write_token
    )
    found = tools.call("form_getFieldSuggestions", {"path": "/dep", "query": "gironde"})
    assert found.ok and "Gironde" in found.value
    request, _ = client.sent[-1]
    assert request.url.startswith(other.origin)
    assert not any(name.lower() == "authorization" for name in request.headers)


def test_a_relative_url_needs_a_base_url(make_form):
    tools, _ = make_form(lookup_schema(dep=f"{DEPARTEMENTS}?q={{q}}"), None)
    result = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert not result.ok and "--base-url" in result.error


def test_an_api_error_on_the_options_url_is_reported(sample_api, make_form):
    tools, _ = make_form(lookup_schema(dep="/api/v1/referentials/nope"), sample_api.base_url)
    result = tools.call("form_getFieldSuggestions", {"path": "/dep"})
    assert not result.ok and "404" in result.error and "setFieldValue" in result.error


@pytest.mark.parametrize(
    "entry, url, allowed",
    [
        ("api.test", "https://api.test/x", True),
        ("api.test", "http://api.test/x", True),
        ("api.test", "http://api.test:80/x", True),
        ("api.test", "http://api.test:8080/x", False),  # a host alone is its default port only
        ("api.test", "https://api.test:8443/x", False),
        ("[::1]:8080", "http://[::1]:8080/x", True),
        ("[::1]:8080", "http://[::1]:8081/x", False),
        ("api.test:8080", "http://api.test:8080/x", True),
        ("api.test:8080", "http://api.test/x", False),
        ("https://api.test", "http://api.test/x", False),
        ("https://api.test", "https://api.test/x", True),
        ("API.test", "https://api.test/x", True),
        ("api.test", "https://evil.test/x?host=api.test", False),
        ("api.test", "https://api.test.evil.test/x", False),
        ("api.test", "ftp://api.test/x", False),
    ],
)
def test_allowed_host_entries(entry, url, allowed):
    fetcher = RemoteItems(ApiCaller("http://127.0.0.1:9/api"), allow_hosts=[entry])
    try:
        fetcher.check_allowed(url, "/f")
        result = True
    except ItemsFetchError as exc:
        assert "deskcheck" in exc.message
        result = False
    assert result is allowed
    assert parse_allowed_host(entry)[1] == entry.split("://")[-1].rsplit(":", 1)[0].strip("[]").lower()


def test_the_fetcher_resolves_relative_urls_against_the_base_url():
    fetcher = RemoteItems(ApiCaller("http://127.0.0.1:9/api/v1"))
    assert fetcher.resolve("/other/list", "/f") == "http://127.0.0.1:9/other/list"
    assert fetcher.resolve("lists/a?q=1", "/f") == "http://127.0.0.1:9/api/v1/lists/a?q=1"
    assert fetcher.resolve("https://x.test/l", "/f") == "https://x.test/l"
    assert ItemsRequest("u").headers == {}
