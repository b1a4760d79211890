"""Form sessions over a record of the sample API on 127.0.0.1: load, edit across processes, save
with a precondition, conflicts, refused and failed saves, timeouts, conditional schema requests,
create mode, identities."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest

from deskcheck.engine.errors import DeskcheckError
from deskcheck.engine.forms.schema.compile import clear_compile_cache, compile_stats
from tests.conftest import REPO
from tests.forms.http_sessions import RecordingClient, record_group

LINE = {"id": "associations", "lineId": "asso-001"}


def call(group, verb: str, **args):
    return group.toolset().call(f"{group.name}_{verb}", {**LINE, **args} if group.name == "line" else args)


def data_of(group, **params) -> dict:
    result = group.toolset().call(f"{group.name}_getData", {**(params or LINE)})
    assert result.ok, result.error
    return json.loads(result.value)["data"]


def run_in_process(api, tool: str, args: dict, token: str | None = None) -> dict:
    """One tool call in a separate Python process (same state directory)."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.forms.http_sessions", api.base_url, token or "", tool, json.dumps(args)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=os.environ.copy(),
        timeout=60,
    )
    assert proc.stdout.strip(), proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_record_is_edited_across_processes_and_saved_with_its_etag(fresh_sample_api):
    api = fresh_sample_api
    token = api.write_token
    first = run_in_process(api, "line_setFieldValue", {**LINE, "path": "/nom", "value": "Les Voiles de Brest"}, token)
    assert first["ok"], first
    second = run_in_process(api, "line_setFieldValue", {**LINE, "path": "/statut", "value": "en sommeil"}, token)
    assert second["ok"] and "the form is valid" in second["result"]
    described = run_in_process(api, "line_describeState", {**LINE, "path": "/nom"}, token)
    assert '"Les Voiles de Brest"' in described["result"] and "modified" in described["result"]
    etag_before = api.line_etag("associations", "asso-001")
    saved = run_in_process(api, "line_saveForm", LINE, token)
    assert saved["ok"], saved
    record = api.get_line("associations", "asso-001")
    assert record["nom"] == "Les Voiles de Brest" and record["statut"] == "en sommeil"
    new_etag = api.line_etag("associations", "asso-001")
    assert new_etag != etag_before and f"(version {new_etag})" in saved["result"]
    # The session adopted the new version: a further edit saves without a conflict.
    assert run_in_process(api, "line_setFieldValue", {**LINE, "path": "/description", "value": "Voile."}, token)["ok"]
    assert run_in_process(api, "line_saveForm", LINE, token)["ok"]
    assert api.get_line("associations", "asso-001")["description"] == "Voile."


def test_a_change_on_the_server_makes_the_save_stale_then_reload_and_reapply_succeeds(fresh_sample_api):
    api = fresh_sample_api
    client = RecordingClient()
    group = record_group(api.base_url, token=api.write_token, client=client)
    assert call(group, "setFieldValue", path="/nom", value="Voiles d'Iroise").ok
    api.update_line("associations", "asso-001", {"statut": "dissoute"})
    result = call(group, "saveForm")
    assert not result.ok and result.code == "conflict"
    assert "412" in result.error and "changed at its source" in result.error
    assert "line_reloadForm" in result.error and "(/nom)" in result.error
    put, status = client.requests("PUT")[-1]
    assert status == 412 and put.headers["if-match"].startswith('"')
    session = group.session(LINE)
    assert session.status == "stale"
    assert data_of(group)["nom"] == "Voiles d'Iroise", "the edits are still in the session"

    reloaded = call(group, "reloadForm")
    assert reloaded.ok and "/nom" in reloaded.value and "discarded" in reloaded.value
    assert session.status == "ready"
    data = data_of(group)
    assert data["statut"] == "dissoute" and data["nom"] == "Les Voiles de l'Iroise"
    assert call(group, "setFieldValue", path="/nom", value="Voiles d'Iroise").ok
    assert call(group, "saveForm").ok
    record = api.get_line("associations", "asso-001")
    assert record["nom"] == "Voiles d'Iroise" and record["statut"] == "dissoute"


def test_a_forbidden_and_a_failing_save_come_back_as_errors_and_keep_the_edits(fresh_sample_api):
    api = fresh_sample_api
    reader = record_group(api.base_url, token=api.read_token)
    assert call(reader, "setFieldValue", path="/nom", value="Nouveau nom").ok
    forbidden = call(reader, "saveForm")
    assert not forbidden.ok
    assert "403" in forbidden.error and "may only read" in forbidden.error
    assert "edits are still in the session" in forbidden.error
    assert reader.session(LINE).status == "error"
    assert data_of(reader)["nom"] == "Nouveau nom"

    # Credentials are not part of a session: the write token picks up the same edits.
    writer = record_group(api.base_url, token=api.write_token)
    api.fail_next("PUT", status=500, message="The disk is full.")
    failed = call(writer, "saveForm")
    assert not failed.ok and "500" in failed.error and "The disk is full." in failed.error
    assert data_of(writer)["nom"] == "Nouveau nom"
    assert api.get_line("associations", "asso-001")["nom"] == "Les Voiles de l'Iroise"

    assert call(writer, "saveForm").ok
    assert writer.session(LINE).status == "ready"
    assert api.get_line("associations", "asso-001")["nom"] == "Nouveau nom"


def test_a_server_that_hangs_times_out_with_a_clear_message(fresh_sample_api):
    api = fresh_sample_api
    group = record_group(api.base_url, token=api.write_token, timeout=0.5)
    assert call(group, "setFieldValue", path="/statut", value="en sommeil").ok
    api.hang_next("PUT", seconds=10)
    result = call(group, "saveForm")
    assert not result.ok
    assert "timed out after 0.5 s" in result.error and "PUT" in result.error
    assert "edits are still in the session" in result.error
    assert data_of(group)["statut"] == "en sommeil"
    assert group.session(LINE).status == "error"


def test_without_etags_the_save_sends_if_unmodified_since(sample_api_factory):
    api = sample_api_factory(etags=False)
    client = RecordingClient()
    group = record_group(api.base_url, token=api.write_token, client=client)
    assert call(group, "setFieldValue", path="/email", value="bureau@voiles-iroise.fr").ok
    get, _ = client.requests("GET")[-1]
    assert get.url.endswith("/lines/asso-001")
    assert call(group, "saveForm").ok
    put, status = client.requests("PUT")[-1]
    assert status == 200 and "if-match" not in put.headers
    assert put.headers["if-unmodified-since"].endswith("GMT")


def test_a_save_sends_the_whole_document(fresh_sample_api):
    api = fresh_sample_api
    client = RecordingClient()
    group = record_group(api.base_url, token=api.write_token, client=client)
    assert call(group, "setFieldValue", path="/adresse/commune", value="Le Conquet").ok
    assert call(group, "saveForm").ok
    put, _ = client.requests("PUT")[-1]
    assert put.json_body["adresse"]["commune"] == "Le Conquet"
    assert put.json_body["bureau"] == api.get_line("associations", "asso-001")["bureau"]
    assert put.headers["content-type"] == "application/json"


def test_the_schema_is_requested_conditionally_and_prepared_once_per_version(fresh_sample_api):
    api = fresh_sample_api
    clear_compile_cache()
    client = RecordingClient()
    group = record_group(api.base_url, client=client)
    assert call(group, "describeState").ok
    other = {"id": "associations", "lineId": "asso-002"}
    assert group.toolset().call("line_describeState", other).ok
    schema_requests = [(r, s) for r, s in client.requests("GET") if "/schema" in r.url]
    assert [s for _, s in schema_requests] == [200, 304]
    assert "if-none-match" not in schema_requests[0][0].headers
    assert schema_requests[1][0].headers["if-none-match"].startswith('"')
    counters = group.store.counters()
    assert counters["schemaPrepared"] == 1 and counters["schemaNotModified"] == 1
    assert compile_stats()["compiles"] == 0 and compile_stats()["restored"] == 1

    # A changed schema comes back with a new version (a new ETag): prepared again on reload.
    schema = api.dataset_schema("associations")
    schema["properties"]["nom"]["maxLength"] = 60
    api.set_schema("associations", schema)
    assert call(group, "reloadForm").ok
    assert group.store.counters()["schemaPrepared"] == 2
    assert "maxLength=60" in call(group, "describeState", path="/nom").value
    # The other session keeps the version it opened with until it reloads.
    assert "maxLength=120" in group.toolset().call("line_describeState", {**other, "path": "/nom"}).value


def test_create_mode_posts_a_new_record_and_a_second_add_resumes_the_draft(fresh_sample_api):
    api = fresh_sample_api
    client = RecordingClient()
    group = record_group(api.base_url, token=api.write_token, create=True, client=client)
    tools = group.toolset()
    dataset = {"id": "associations"}
    assert tools.call("new_line_setFieldValue", {**dataset, "path": "/nom", "value": "Club de Plouzané"}).ok
    assert not client.requests("GET")[1:], "create mode loads nothing (only the schema is requested)"
    # Another group object (as in another process) resumes the same draft: the key is the dataset.
    again = record_group(api.base_url, token=api.write_token, create=True)
    values = {
        "statut": "active",
        "date_creation": "2024-09-01",
        "departement": {"code": "29", "nom": "Finistère"},
        "bureau": [{"nom": "Anne Guivarc'h", "fonction": "présidence"}],
    }
    written = again.toolset().call("new_line_setData", {**dataset, "data": values})
    assert written.ok and "the form is valid" in written.value
    assert data_of(again, **dataset)["nom"] == "Club de Plouzané"
    saved = again.toolset().call("new_line_saveForm", dataset)
    assert saved.ok and "created at http://127.0.0.1" in saved.value and "starts again" in saved.value
    location = saved.value.split(" at ", 1)[1].split(". ", 1)[0]
    created = httpx.get(location).json()
    assert created["nom"] == "Club de Plouzané" and created["region"] == "Bretagne"
    assert "nom" not in data_of(again, **dataset), "the next add starts from an empty record"


def test_two_identities_never_share_a_session(sample_api):
    alice = record_group(sample_api.base_url, identity="alice")
    bob = record_group(sample_api.base_url, identity="bob")
    assert call(alice, "setFieldValue", path="/nom", value="Alice's name").ok
    assert data_of(bob)["nom"] == "Les Voiles de l'Iroise"
    assert data_of(alice)["nom"] == "Alice's name"


def test_a_missing_record_cannot_be_opened_and_says_why(sample_api):
    group = record_group(sample_api.base_url)
    result = group.toolset().call("line_describeState", {"id": "associations", "lineId": "nope"})
    assert not result.ok and "404" in result.error and "/lines/nope" in result.error
    session = group.session({"id": "associations", "lineId": "nope"})
    with pytest.raises(DeskcheckError, match="404"):
        session.open()
    assert session.status == "error", "the handle that tried knows the opening failed"
    assert session.record() is None, "nothing is stored for a record that could not be loaded"
    missing = group.toolset().call("line_describeState", {"id": "associations"})
    assert not missing.ok and 'Missing required parameter "lineId"' in missing.error


def test_credentials_are_never_stored(fresh_sample_api, isolated_state):
    api = fresh_sample_api
    group = record_group(api.base_url, token=api.write_token)
    assert call(group, "setFieldValue", path="/nom", value="Secret-free").ok
    assert call(group, "saveForm").ok
    group.store.close()
    for path in isolated_state.rglob("*"):
        if path.is_file():
            assert api.write_token.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("query, expected", [("fin", "Finistère"), ("ille", "Ille-et-Vilaine")])
def test_suggestions_come_from_the_api_with_the_query_and_objects_are_kept_whole(sample_api, query, expected):
    client = RecordingClient()
    group = record_group(sample_api.base_url, client=client, identity=f"suggest-{query}")
    listed = call(group, "getFieldSuggestions", path="/departement", query=query)
    assert listed.ok and f"- [0] {expected}" in listed.value and "apply with suggestionIndex=0" in listed.value
    fetched = [r for r, _ in client.requests("GET") if "/referentials/" in r.url]
    assert len(fetched) == 1 and f"q={query}" in fetched[0].url, "fetched once, then from the cache"
    assert call(group, "setFieldValue", path="/departement", suggestionIndex=0).ok
    chosen = data_of(group)["departement"]
    assert chosen["nom"] == expected and set(chosen) >= {"code", "nom"}


def test_a_declared_schema_with_references_and_an_adjustment(fresh_sample_api):
    """An editor over the write operation's declared body schema (``editor: true``): the schema
    refers into the API document, its version names it, no schema request is made, and the
    group's adjustment (hiding computed columns) applies to the prepared schema."""
    from deskcheck.engine.forms.sources.http_source import HttpRecordSource
    from deskcheck.engine.forms.tools.session_tools import SessionGroup
    from deskcheck.engine.http.client import ApiCaller, Credentials, HttpRequest

    api = fresh_sample_api
    document = {"components": {"schemas": {"Name": {"type": "string", "title": "Nom", "minLength": 2}}}}
    body_schema = {
        "type": "object",
        "properties": {"nom": {"$ref": "#/components/schemas/Name"}, "region": {"type": "string"}},
    }

    def hide_region(prepared: dict) -> dict:
        prepared["properties"]["region"]["layout"] = {"comp": "none"}
        return prepared

    client = RecordingClient()
    caller = ApiCaller(api.base_url, client=client, credentials=Credentials.from_options((), api.write_token))
    line = f"{api.base_url}/datasets/associations/lines/asso-002"
    source = HttpRecordSource(
        caller,
        "declared record",
        write=HttpRequest("PUT", line),
        read=HttpRequest("GET", line),
        declared_schema=body_schema,
        schema_document=document,
        declared_version="updateLine",
        adjust=hide_region,
    )
    group = SessionGroup(name="declared", title="declared record", source_for=lambda _params: source)
    tools = group.toolset()
    described = tools.call("declared_describeState", {}).value
    assert 'label="Nom"' in described and "minLength=2" in described and "/region" not in described
    assert all("/schema" not in request.url for request, _ in client.sent)
    assert group.store.schema_tag(source.schema_key) == ("updateLine", None)
    assert tools.call("declared_setFieldValue", {"path": "/nom", "value": "Déclarée"}).ok
    assert tools.call("declared_saveForm", {}).ok
    assert api.get_line("associations", "asso-002")["nom"] == "Déclarée"


def test_create_mode_fills_the_schemas_defaults_and_editing_a_record_does_not(fresh_sample_api):
    api = fresh_sample_api
    created = record_group(api.base_url, token=api.write_token, create=True)
    assert data_of(created, id="associations")["statut"] == "active", "a new record starts from the defaults"
    edited = record_group(api.base_url)
    record = {"id": "associations", "lineId": "asso-004"}
    before = httpx.get(f"{api.base_url}/datasets/associations/lines/asso-004").json()
    assert call(edited, "setFieldValue", **record, path="/statut", value=None).ok
    assert "statut" not in data_of(edited, **record), "a default does not come back into an existing record"
    assert 'default="active"' in call(edited, "describeState", **record, path="/statut").value
    assert data_of(edited, **record) == {k: v for k, v in before.items() if k != "statut"}, "nothing else changed"
