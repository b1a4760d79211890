"""A path parameter never changes which path is called (issue 15, item 1).

HTTP clients remove ``.`` and ``..`` segments before sending, and servers and proxies that decode
``%2E`` / ``%2F`` first remove them too: a ``lineId`` of ``..`` turned ``DELETE
/datasets/associations/lines/..`` into ``DELETE /datasets/associations`` with the write token.
Every place a URL is built from a template refuses such a value: plain tools, editor groups
(load, save, schema) and option URLs (``x-fromUrl`` / ``getItems.url``). The tests run against the
real sample API; a fault that matches every request is the tripwire that proves nothing was sent.
"""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine.urls import PATH_SAFE, UnsafeUrlValue, dot_segment, path_separator, template_url
from tests.helpers import run_cli

from ..conftest import REPO

SAMPLE_SPEC = str(REPO / "samples" / "records_api" / "openapi.json")
SEPARATORS = [
    "42/owner-secrets",
    "42%2Fowner-secrets",
    "42%2fowner-secrets",
    "42%252Fowner-secrets",
    "42\\owner-secrets",
    "42%5Cowner-secrets",
    "42\uff0fowner-secrets",  # full-width solidus: NFKC makes it "/"
    "42\uff3cowner-secrets",  # full-width reverse solidus
    "42\u2215owner-secrets",  # division slash: Windows best-fit maps it to "/"
    "42\u2044owner-secrets",  # fraction slash
    "42\u2216owner-secrets",  # set minus, read as "\"
    "42%C0%AFowner-secrets",  # overlong UTF-8 "/"
    "42%u2215owner-secrets",  # IIS %u escape
    "c\u2105o",  # care-of sign, NFKC "c/o"
]
DOT_VALUES = ["..", ".", "../..", "a/../b", "x/.", "%2e%2E", "%2E", "..%2F..", "..;jsessionid=1", "..\\admin", "./"]


def tripwire(api) -> None:
    """A fault on every request: still pending afterwards means no request arrived."""
    api.inject_fault(path="*", status=418, message="tripwire", times=1)


def untouched(api) -> bool:
    return [f.message for f in api.pending_faults()] == ["tripwire"]


@pytest.fixture(scope="module")
def http():
    # One client for the module's checks: each new httpx client loads the CA certificates again.
    with httpx.Client() as client:
        yield client


@pytest.mark.parametrize("value", DOT_VALUES + SEPARATORS)
def test_a_plain_tool_refuses_a_dot_segment_or_a_separator_in_a_path_parameter(sample_api, http, value):
    tripwire(sample_api)
    spec = ["--spec", SAMPLE_SPEC, "--profile", "write", "--base-url", sample_api.base_url]
    args = json.dumps({"datasetId": "associations", "lineId": value})
    refused = run_cli("call", *spec, "--token", sample_api.write_token, "sample_delete_record", args, expect=1).json
    assert 'the path parameter "lineId"' in refused["error"] and "change which path is called" in refused["error"]
    assert untouched(sample_api), "nothing was sent"
    sample_api.clear_faults()
    assert http.get(f"{sample_api.base_url}/datasets/associations").status_code == 200


@pytest.mark.parametrize("value", ["...", "v1.2", ".hidden", "a..b", "a;b"])
def test_dots_that_are_not_a_segment_reach_the_path_they_name(sample_api, value):
    spec = ["--spec", SAMPLE_SPEC, "--base-url", sample_api.base_url]
    args = json.dumps({"datasetId": "associations", "lineId": value})
    answer = run_cli("call", *spec, "sample_get_record", args, expect=1).json
    # The record does not exist: the API looked it up under its own path (a 404 naming it).
    assert answer["error"].startswith("HTTP 404") and "has no record" in answer["error"]


def test_a_list_value_is_checked_as_the_text_it_becomes(sample_api):
    tripwire(sample_api)
    spec = ["--spec", SAMPLE_SPEC, "--base-url", sample_api.base_url]
    answer = run_cli("call", *spec, "sample_describe_dataset", '{"datasetId": ["..", "x"]}', expect=None).json
    assert not answer["ok"]
    assert untouched(sample_api) or "path parameter" in answer["error"]


@pytest.mark.parametrize("group", ["sample_dataset_line", "sample_dataset_new_line"])
@pytest.mark.parametrize("value", ["..", "associations/..", "%2E%2E"])
def test_an_editor_group_refuses_a_dot_segment_before_any_request(sample_api, group, value):
    tripwire(sample_api)
    spec = ["--spec", SAMPLE_SPEC, "--profile", "write", "--base-url", sample_api.base_url]
    params = {"id": value, "lineId": "asso-001"} if group == "sample_dataset_line" else {"id": value}
    answer = run_cli("form", "describe-state", *spec, group, json.dumps(params), expect=None)
    assert not answer.json["ok"] and "change which path is called" in answer.json["error"], answer.stdout
    assert untouched(sample_api)
    line = {"id": "associations", "lineId": value}
    answer = run_cli("form", "describe-state", *spec, "sample_dataset_line", json.dumps(line), expect=None).json
    assert not answer["ok"] and 'the path parameter "lineId"' in answer["error"]
    assert untouched(sample_api)
    assert run_cli("form", "sessions").json["result"] == [], "no session was opened"


# -- option URLs: x-fromUrl / getItems.url --------------------------------------------------------


FROM_URL = {"x-fromUrl": "/api/v1/datasets/{ds}/lines?q={q}&size=3", "x-itemsProp": "results", "x-itemTitle": "nom"}
TEMPLATE = {
    "layout": {
        "getItems": {
            "url": "/api/v1/datasets/${rootData.ds}/lines?q={q}&size=3",
            "itemsResults": "data.results",
            "itemTitle": "data.nom",
        }
    }
}
EXPRESSION = {
    "layout": {
        "getItems": {
            "url": {"type": "js-eval", "expr": "'/api/v1/datasets/' + rootData.ds + '/lines?size=3'"},
            "itemsResults": "data.results",
            "itemTitle": "data.nom",
        }
    }
}


@pytest.mark.parametrize("items", [FROM_URL, TEMPLATE, EXPRESSION], ids=["x-fromUrl", "template", "expression"])
def test_option_urls_list_the_dataset_the_data_names(sample_api, lookup_form, items):
    context = lookup_form(items, "associations")
    listed = run_cli("form", "get-field-suggestions", *context, "--base-url", sample_api.base_url, '{"path": "/line"}')
    assert "Les Voiles de l'Iroise" in listed.json["result"]


@pytest.mark.parametrize("items", [FROM_URL, TEMPLATE, EXPRESSION], ids=["x-fromUrl", "template", "expression"])
@pytest.mark.parametrize("ds", ["..", "associations/lines/..", "%2e%2e", "associations/.."])
def test_an_option_url_never_takes_a_dot_segment_from_the_data(sample_api, lookup_form, items, ds):
    tripwire(sample_api)
    context = lookup_form(items, ds)
    base = ["--base-url", sample_api.base_url]
    answer = run_cli("form", "get-field-suggestions", *context, *base, '{"path": "/line"}', expect=1).json
    assert '"." or ".."' in answer["error"], answer
    assert untouched(sample_api)


@pytest.mark.parametrize("items", [FROM_URL, TEMPLATE], ids=["x-fromUrl", "template"])
def test_a_template_value_stays_one_path_segment_and_cannot_add_query_parameters(sample_api, lookup_form, items):
    # "?size=100&x=" would be query parameters of its own if it were not encoded.
    context = lookup_form(items, "associations?size=100&x=")
    base = ["--base-url", sample_api.base_url]
    answer = run_cli("form", "get-field-suggestions", *context, *base, '{"path": "/line"}', expect=1).json
    assert "answered 404" in answer["error"]
    assert "datasets/associations%3Fsize%3D100%26x%3D/lines" in answer["error"]


# -- the URL builder itself ---------------------------------------------------------------------------


def test_template_values_are_encoded_for_where_they_stand():
    pieces = ["", "/datasets/", "/lines?q=", "&owner=", "#", ""]
    url = template_url(pieces, ["https://h/api", "a;b c", "x&y=z", "o:1", "f/g"])
    assert url == "https://h/api/datasets/a%3Bb%20c/lines?q=x%26y%3Dz&owner=o%3A1#f%2Fg"
    assert template_url(["https://", ".example/", ""], ["api", "v1"]) == "https://api.example/v1"
    with pytest.raises(UnsafeUrlValue):
        template_url(["", "/lines"], ["https://h/api/.."])
    assert template_url(["/lines?q=", ""], [".."]) == "/lines?q=.."  # in the query a value is only text


@given(st.text(max_size=12))
def test_a_template_value_never_changes_the_path_it_stands_in(value):
    try:
        built = template_url(["http://h/a/", "/b"], [value])
    except UnsafeUrlValue:
        assert dot_segment(value) or path_separator(value)
        return
    sent = httpx.URL(built)  # what httpx would request, dot segments resolved
    segments = sent.raw_path.split(b"?")[0].split(b"/")
    assert segments[:2] == [b"", b"a"] and segments[-1] == b"b" and len(segments) == 4


@given(st.text(alphabet="./%2eE\\;a", max_size=8))
def test_a_refused_value_is_exactly_one_that_could_become_a_dot_segment(value):
    from urllib.parse import unquote

    pieces = {p.split(";")[0] for v in (value, unquote(value)) for p in v.replace("\\", "/").split("/")}
    assert dot_segment(value) == bool(pieces & {".", ".."})
    assert PATH_SAFE == "!*'()"
