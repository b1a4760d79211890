"""A trickling server cannot hold a request past --timeout, nor outlast the save lease (issue 15,
item 6).

A PUT answered with ``Content-Length: 100000`` and one byte every half second kept
``save-form --timeout 3`` for 151 s (httpx's timeouts are per read), and a second save was
accepted at 126 s while the first was still in flight (the lease was a fixed 120 s). Now
``--timeout`` is the whole request, however slowly the headers or the body come, and the lease
is always longer than the longest request it covers. The servers here are real sockets on
127.0.0.1 (tests/trickling.py) in front of the sample API; commands that could hang on a
regression run as separate processes with a timeout."""

from __future__ import annotations

import json
import threading
import time

import pytest

from deskcheck.engine.forms.sessions.session import FormSession, SessionError, SessionKey, SessionOptions
from deskcheck.engine.forms.sessions.store import SessionStore
from deskcheck.engine.forms.sources.http_source import HttpRecordSource
from deskcheck.engine.http.client import ApiCaller, Credentials, HttpRequest, HttpxClient
from tests.forms.http_sessions import SCHEMA_QUERY
from tests.helpers import run_process
from tests.trickling import TricklingServer

from ..conftest import REPO

SAMPLE_SPEC = str(REPO / "samples" / "records_api" / "openapi.json")
LINE = {"id": "associations", "lineId": "asso-001"}


@pytest.mark.parametrize("mode", ["body", "headers"])
@pytest.mark.slow
def test_save_form_gives_up_at_its_timeout_however_slowly_the_server_answers(fresh_sample_api, tmp_path, mode):
    api = fresh_sample_api
    env = {"DESKCHECK_STATE_DIR": str(tmp_path)}
    with TricklingServer(api.origin, methods=("PUT",), mode=mode) as server:
        context = ["--spec", SAMPLE_SPEC, "--profile", "write", "--base-url", server.origin + "/api/v1"]
        context += ["--token", api.write_token, "--timeout", "2"]
        edit = json.dumps({**LINE, "path": "/statut", "value": "en sommeil"})
        run_process("form", "set-field-value", *context, "sample_dataset_line", edit, env=env)
        saved = run_process(
            "form", "save-form", *context, "sample_dataset_line", json.dumps(LINE), env=env, expect=1, timeout=60
        )
        assert server.trickled == ["PUT /api/v1/datasets/associations/lines/asso-001"]
    error = saved.json["error"]
    assert "timed out after 2 s" in error and "edits are still in the session" in error


@pytest.mark.slow
def test_a_plain_tool_and_the_document_fetch_keep_their_timeout_too(fresh_sample_api):
    api = fresh_sample_api
    with TricklingServer(api.origin, methods=("GET",), mode="body", interval=0.3) as server:
        spec = ["--spec", SAMPLE_SPEC, "--base-url", server.origin + "/api/v1", "--timeout", "1.5"]
        dataset = '{"datasetId": "associations"}'
        called = run_process("call", *spec, "sample_describe_dataset", dataset, expect=1, timeout=60)
        assert "timed out after 1.5 s" in called.json["error"]
        fetched = run_process(
            "call",
            "--spec",
            server.origin + "/openapi.json",
            "--timeout",
            "1.5",
            "sample_list_datasets",
            "{}",
            expect=2,
            timeout=60,
        )
        assert "timed out after 1.5 s" in fetched.json["error"]


@pytest.mark.slow
def test_a_second_save_waits_while_the_first_request_can_still_arrive(fresh_sample_api, tmp_path):
    """The lease given in the options (half a second here) is shorter than the request may take:
    the lease that counts is the request's deadline plus a margin."""
    api = fresh_sample_api
    with TricklingServer(api.origin, methods=("PUT",)) as server:
        caller = ApiCaller(
            server.origin,
            client=HttpxClient(timeout=3),
            credentials=Credentials.from_options((), api.write_token),
        )
        line = f"{server.origin}/api/v1/datasets/associations/lines/asso-001"
        schema = f"{server.origin}/api/v1/datasets/associations/schema?{SCHEMA_QUERY}"

        def session() -> FormSession:
            # A store connection per thread, as two processes would have.
            source = HttpRecordSource(
                caller,
                "dataset record",
                write=HttpRequest("PUT", line),
                read=HttpRequest("GET", line),
                schema_request=HttpRequest("GET", schema),
            )
            store = SessionStore(tmp_path / "sessions.sqlite3")
            return FormSession(source, store, SessionKey.of("line", LINE), SessionOptions(save_lease=0.5))

        first = session()
        with first.edit() as state:
            state.set_field_value("/statut", "en sommeil")
        outcome: list[object] = []
        saving = threading.Thread(target=lambda: outcome.append(_capture(session().save)))
        saving.start()
        while first.status != "saving" and saving.is_alive():
            time.sleep(0.05)
        time.sleep(1.0)  # past the half-second lease of the options
        # In a thread too: a second save that was let through would trickle as long as the first.
        second: list[object] = []
        again = threading.Thread(target=lambda: second.append(_capture(session().save)))
        again.start()
        again.join(20)
        saving.join(30)
    again.join(30)
    assert isinstance(second[0], SessionError) and second[0].code == "saving", second
    assert not saving.is_alive()
    [error] = outcome
    assert isinstance(error, SessionError) and "timed out after 3 s" in error.message
    assert first.status == "error" and "en sommeil" in json.dumps(first.record().snapshot)


def _capture(call):
    try:
        return call()
    except BaseException as exc:
        return exc


def test_every_transport_keeps_the_deadline_with_proxies_from_the_environment(monkeypatch):
    from deskcheck.engine.http.deadline import deadline_client

    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "localhost,127.0.0.1")
    client = deadline_client(2)
    transports = [client._transport, *(t for t in client._mounts.values() if t is not None)]
    assert len(transports) >= 2, "the proxy's transport is there"
    assert all(type(t._pool._network_backend).__name__ == "_Backend" for t in transports)
    client.close()
