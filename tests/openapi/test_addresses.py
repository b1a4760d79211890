"""The addresses a user gives (issue 15, "Also"): a password in --base-url is never shown or
stored, --allow-host HOST means the default port only and refusals name the exact host:port, and
a port that is not digits is bad usage (exit 2), not an internal error."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli
from tests.trickling import TricklingServer

from ..conftest import REPO

SAMPLE_SPEC = str(REPO / "samples" / "records_api" / "openapi.json")
LINE = '{"id": "associations", "lineId": "asso-001"}'
PASSWORD = "s3cr3t-pw"


def with_password(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://ann:{PASSWORD}@{rest}"


def test_a_password_in_the_base_url_is_never_shown_nor_stored(sample_api, isolated_state):
    # httpx sends user:password as Basic credentials; the sample API wants a bearer token, so a
    # proxy drops them (the API then sees an anonymous read and a refused write).
    with TricklingServer(sample_api.origin, methods=(), strip=("authorization",)) as proxy:
        base = with_password(proxy.origin + "/api/v1")
        spec = ["--spec", SAMPLE_SPEC, "--profile", "write", "--base-url", base]
        edit = json.dumps({**json.loads(LINE), "path": "/statut", "value": "en sommeil"})
        opened = [
            run_cli("form", "describe-state", *spec, "sample_dataset_line", LINE),
            run_cli("form", "set-field-value", *spec, "sample_dataset_line", edit),
            run_cli("form", "sessions"),
            run_cli("form", "save-form", *spec, "sample_dataset_line", LINE, expect=1),
            run_cli("form", "describe-state", *spec, "sample_dataset_line", LINE),
        ]
    [listed] = opened[2].json["result"]
    assert listed["key"]["params"]["api"].startswith("http://ann:***@127.0.0.1:"), "the session names its API"
    assert "401" in opened[3].json["error"] and "ann:***@" in opened[3].json["error"]
    refused = with_password("http://127.0.0.1:9/api/v1")
    runs = [
        *opened,
        run_cli(
            "call",
            "--spec",
            SAMPLE_SPEC,
            "--base-url",
            refused,
            "sample_describe_dataset",
            '{"datasetId": "x"}',
            expect=None,
        ),
        run_cli("call", "--spec", with_password(sample_api.origin) + "/nowhere.json", "x", "{}", expect=None),
        run_cli("openapi", "check", with_password(sample_api.openapi_url), expect=None),
        run_cli(
            "openapi",
            "check",
            SAMPLE_SPEC,
            "--live",
            "--base-url",
            refused,
            "--param",
            "id=associations",
            "--param",
            "lineId=asso-001",
            expect=None,
        ),
        run_cli("call", "--spec", SAMPLE_SPEC, "--base-url", with_password("http://h:+1/api"), "x", "{}", expect=None),
    ]
    shown = "\n".join(run.stdout + run.stderr for run in runs)
    assert PASSWORD not in shown
    assert "ann:***@" in shown, "the URL is still recognisable"
    stored = b"".join(path.read_bytes() for path in isolated_state.rglob("*") if path.is_file())
    assert stored and PASSWORD.encode() not in stored


@pytest.mark.parametrize("port", ["+9911", "99999", "0", "80a", " 80", "-1"])
def test_a_port_that_is_not_digits_is_bad_usage(port):
    url = f"http://127.0.0.1:{port}/api/v1"
    for argv in (
        ["call", "--spec", SAMPLE_SPEC, "--base-url", url, "sample_describe_dataset", '{"datasetId": "x"}'],
        [
            "form",
            "describe-state",
            "--spec",
            SAMPLE_SPEC,
            "--profile",
            "write",
            "--base-url",
            url,
            "sample_dataset_line",
            LINE,
        ],
        ["openapi", "check", SAMPLE_SPEC, "--live", "--base-url", url, "--format", "json"],
        ["call", "--spec", f"http://127.0.0.1:{port}/openapi.json", "x", "{}"],
    ):
        run = run_cli(*argv, expect=2)
        if "--base-url" in argv and argv[0] != "openapi":  # a bad option value: the usage, nothing on stdout
            assert run.stdout == "" and run.stderr.startswith("Usage: deskcheck")
            error = run.stderr
        else:
            error = run.json["error"]
        assert f"the port {port!r}" in error and "digits only" in error, error
    allow = ["--spec", SAMPLE_SPEC, "--profile", "write", "--allow-host", f"lists.test:{port}"]
    run = run_cli("form", "describe-state", *allow, "sample_dataset_line", LINE, expect=2)
    assert run.stdout == "" and "'--allow-host'" in run.stderr and f"{port!r}" in run.stderr


def test_a_document_whose_server_has_a_bad_port_is_refused_plainly(tmp_path):
    document = json.loads((REPO / "samples" / "records_api" / "openapi.json").read_text())
    document["servers"] = [{"url": "http://127.0.0.1:+9911/api/v1"}]
    path = tmp_path / "bad-port.json"
    path.write_text(json.dumps(document))
    error = run_cli("call", "--spec", str(path), "sample_describe_dataset", '{"datasetId": "x"}', expect=2).json
    assert "the server URL the document gives" in error["error"] and "'+9911'" in error["error"]


def test_an_option_url_with_a_bad_port_is_refused_not_a_crash(sample_api, tmp_path):
    schema = {"type": "object", "properties": {"dep": {"type": "string", "x-fromUrl": "http://127.0.0.1:+1/x?q={q}"}}}
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    context = ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]
    answer = run_cli(
        "form", "get-field-suggestions", *context, "--base-url", sample_api.base_url, '{"path": "/dep"}', expect=1
    )
    assert "valid port" in answer.json["error"] and "bug" not in answer.json["error"]


def test_allow_host_without_a_port_is_the_default_port_only(sample_api, sample_api_factory, tmp_path):
    other = sample_api_factory()
    schema = {
        "type": "object",
        "properties": {
            "dep": {
                "type": "object",
                "x-fromUrl": f"{other.base_url}/referentials/departements?q={{q}}",
                "x-itemsProp": "results",
                "x-itemTitle": "nom",
            }
        },
    }
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    context = ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]
    context += ["--base-url", sample_api.base_url]
    ask = '{"path": "/dep", "query": "gironde"}'
    refused = run_cli("form", "get-field-suggestions", *context, "--allow-host", "127.0.0.1", ask, expect=1).json
    assert f"--allow-host 127.0.0.1:{other.port} " in refused["error"]
    allowed = run_cli("form", "get-field-suggestions", *context, "--allow-host", f"127.0.0.1:{other.port}", ask)
    assert "Gironde" in allowed.json["result"]
