"""Editor groups over the real sample API on 127.0.0.1, entirely through the command line:
``deskcheck call --spec`` and ``deskcheck form <verb> --spec SPEC NAME``, as separate processes
(sessions persist in the store between them) and in-process runs. Describe, suggestions from
the schema's x-fromUrl lookup, set, save with a token, a conflict and its recovery, create mode,
refused and failed saves, columns that are not offered, and `openapi tools` output."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.openapi.tools.editors import FORM_VERBS
from deskcheck.engine.providers import subset_violations
from deskcheck.samples.records_api import openapi_path
from tests.helpers import expire_the_only_session, run_cli, run_process

SPEC = str(openapi_path())
LINE = {"id": "associations", "lineId": "asso-001"}
DATASET = {"id": "associations"}


def context(api, token: str | None = None) -> list[str]:
    return ["--spec", SPEC, "--profile", "write", "--base-url", api.base_url, *(["--token", token] if token else [])]


def call(api, tool: str, args: dict, *, token: str | None = None, expect: int | None = 0, process: bool = False):
    """``deskcheck call --spec ... TOOL ARGS``; its envelope."""
    run = run_process if process else run_cli
    return run("call", *context(api, token), tool, json.dumps(args), expect=expect).json


def form(api, verb: str, group: str, args: dict, *, token: str | None = None, expect: int | None = 0, process=False):
    """``deskcheck form VERB --spec SPEC GROUP ARGS``; its envelope."""
    run = run_process if process else run_cli
    return run("form", verb, *context(api, token), group, json.dumps(args), expect=expect).json


def data_of(api, args: dict = LINE, group: str = "sample_dataset_line") -> dict:
    return json.loads(call(api, f"{group}_getData", args)["result"])["data"]


@pytest.mark.slow
def test_describe_suggest_set_and_save_from_separate_processes(fresh_sample_api):
    api = fresh_sample_api
    described = call(api, "sample_dataset_line_describeState", LINE, process=True)["result"]
    assert 'label="Nom" value="Les Voiles de l\'Iroise"' in described
    assert "/departement (autocomplete, required, suggestions)" in described
    # Attachment (x-refersTo DigitalDocument) and computed (x-extension) columns are not offered.
    assert "/statuts" not in described and "/region" not in described

    listed = call(
        api,
        "sample_dataset_line_getFieldSuggestions",
        {**LINE, "path": "/departement", "query": "gironde"},
        process=True,
    )["result"]
    assert "- [0] Gironde (33)" in listed
    picked = form(api, "set-field-value", "sample_dataset_line", {**LINE, "path": "/departement", "suggestionIndex": 0})
    assert '/departement (autocomplete) = {"code": "33", "nom": "Gironde"}' in picked["result"]
    renamed = form(
        api,
        "set-field-value",
        "sample_dataset_line",
        {**LINE, "path": "/nom", "value": "Voiles de Gironde"},
        process=True,
    )
    assert "the form is valid" in renamed["result"]
    hidden = call(api, "sample_dataset_line_setFieldValue", {**LINE, "path": "/statuts", "value": "x.pdf"}, expect=1)
    assert "drawn as nothing by the schema" in hidden["error"]

    saved = form(api, "save-form", "sample_dataset_line", LINE, token=api.write_token, process=True)
    assert saved["result"].startswith('Saved "Edit a dataset record" (version ')
    record = api.get_line("associations", "asso-001")
    assert record["nom"] == "Voiles de Gironde" and record["departement"] == {"code": "33", "nom": "Gironde"}
    # The hidden columns went back as they were (the computed one is the API's business).
    assert record["statuts"] == "statuts-voiles-iroise-2019.pdf"
    assert "Voiles de Gironde" in call(api, "sample_dataset_line_describeState", {**LINE, "path": "/nom"})["result"]


@pytest.mark.slow
def test_a_concurrent_change_makes_the_save_stale_then_reload_and_reapply_succeeds(fresh_sample_api):
    api = fresh_sample_api
    token = api.write_token
    edit = {**LINE, "path": "/description", "value": "Sailing lessons on the Iroise sea."}
    assert call(api, "sample_dataset_line_setFieldValue", edit)["ok"]
    api.update_line("associations", "asso-001", {"statut": "en sommeil"})

    stale = call(api, "sample_dataset_line_saveForm", LINE, token=token, expect=1, process=True)
    assert "changed at its source since it was loaded" in stale["error"] and "412" in stale["error"]
    assert "sample_dataset_line_reloadForm" in stale["error"] and "(/description)" in stale["error"]
    [session] = [s for s in run_cli("form", "sessions").json["result"] if s["key"]["group"] == "sample_dataset_line"]
    assert session["status"] == "stale" and session["key"]["params"]["lineId"] == "asso-001"
    assert data_of(api)["description"] == edit["value"], "the edits are still in the session"

    reloaded = call(api, "sample_dataset_line_reloadForm", LINE)["result"]
    assert "local changes were discarded (/description)" in reloaded
    assert data_of(api)["statut"] == "en sommeil"
    assert call(api, "sample_dataset_line_setFieldValue", edit)["ok"]
    assert call(api, "sample_dataset_line_saveForm", LINE, token=token)["ok"]
    record = api.get_line("associations", "asso-001")
    assert record["statut"] == "en sommeil" and record["description"] == edit["value"]


NEW_RECORD = {
    "statut": "active",
    "date_creation": "2024-09-01",
    "departement": {"code": "29", "nom": "Finistère"},
    "bureau": [{"nom": "Anne Guivarc'h", "fonction": "présidence"}],
}


@pytest.mark.slow
def test_create_mode_posts_a_new_record_and_a_second_add_resumes_the_first_draft(fresh_sample_api):
    api = fresh_sample_api
    first = call(api, "sample_dataset_new_line_setData", {**DATASET, "data": {"nom": "Club de Plouzané"}}, process=True)
    assert "stored 1 key(s): nom" in first["result"]
    # Another process adding a record to the same dataset finds the draft.
    resumed = form(api, "describe-state", "sample_dataset_new_line", DATASET, process=True)["result"]
    assert 'value="Club de Plouzané"' in resumed and "valid: false" in resumed
    assert call(api, "sample_dataset_new_line_setData", {**DATASET, "data": NEW_RECORD})["ok"]

    created = call(api, "sample_dataset_new_line_saveForm", DATASET, token=api.write_token, process=True)["result"]
    assert created.startswith('Saved "Add a dataset record": the new record was created at ')
    location = created.split(" at ", 1)[1].split(". The form", 1)[0]
    line_id = location.rstrip("/").rsplit("/", 1)[1]
    record = api.get_line("associations", line_id)
    assert record["nom"] == "Club de Plouzané" and record["bureau"][0]["nom"] == "Anne Guivarc'h"
    assert record["region"] == "Bretagne", "computed by the API from the département"
    # The form starts again, empty (only the schema's defaults), for the next record.
    assert data_of(api, DATASET, "sample_dataset_new_line") == {"statut": "active", "bureau": []}


@pytest.mark.parametrize(
    ("access", "status", "message"),
    [
        (None, "401", "Writing needs a token"),
        ("read", "403", "This token may only read"),
        ("fault", "500", "The disk is full."),
    ],
)
def test_refused_and_failed_saves_are_results_with_the_servers_message_and_keep_the_edits(
    fresh_sample_api, access, status, message
):
    api = fresh_sample_api
    assert call(api, "sample_dataset_line_setFieldValue", {**LINE, "path": "/nom", "value": "Voiles du Conquet"})["ok"]
    token = api.read_token if access == "read" else api.write_token if access == "fault" else None
    if access == "fault":
        api.fail_next("PUT", status=500, message="The disk is full.")
    failed = call(api, "sample_dataset_line_saveForm", LINE, token=token, expect=1)
    assert failed["ok"] is False
    assert f"answered {status}: {message}" in failed["error"]
    assert "Your edits are still in the session" in failed["error"]
    assert data_of(api)["nom"] == "Voiles du Conquet"
    assert api.get_line("associations", "asso-001")["nom"] == "Les Voiles de l'Iroise"
    # Credentials are not part of the session: the write token saves the same edits.
    assert call(api, "sample_dataset_line_saveForm", LINE, token=api.write_token)["ok"]
    assert api.get_line("associations", "asso-001")["nom"] == "Voiles du Conquet"


def test_batch_drives_an_editor_group_and_discard_drops_its_session(fresh_sample_api):
    api = fresh_sample_api
    lines = [
        {"id": 1, "tool": "sample_dataset_line_setFieldValue", "args": {**LINE, "path": "/email", "value": "a@b.fr"}},
        {"id": 2, "tool": "sample_dataset_line_getData", "args": {**LINE, "path": "/email"}},
        {"id": 3, "tool": "sample_dataset_line_editArray", "args": {**LINE, "path": "/bureau", "action": "remove"}},
    ]
    stdin = "\n".join(json.dumps(line) for line in lines) + "\n"
    out = run_cli("batch", *context(api), stdin=stdin).json_lines
    assert [envelope["id"] for envelope in out] == [1, 2, 3] and all(envelope["ok"] for envelope in out)
    assert json.loads(out[1]["result"])["data"] == "a@b.fr"
    assert "removed the item at index 1; 1 item(s) left" in out[2]["result"]
    dropped = form(api, "discard", "sample_dataset_line", LINE)["result"]
    assert dropped.startswith("Discarded the session of sample_dataset_line id=associations lineId=asso-001")
    assert f"api={api.base_url} and its unsaved edits (/email, /bureau)." in dropped
    assert data_of(api)["email"] == "contact@voiles-iroise.fr"


@pytest.mark.slow
def test_openapi_tools_exports_the_editor_tools_deterministically():
    first = run_cli("openapi", "tools", SPEC, "--profile", "write").stdout
    assert run_process("openapi", "tools", SPEC, "--profile", "write").stdout == first
    value = json.loads(first)
    names = [tool["name"] for tool in value["tools"]]
    for group, path in (("sample_dataset_line", ["id", "lineId"]), ("sample_dataset_new_line", ["id"])):
        assert [n for n in names if n.startswith(group + "_") and n.split(group + "_")[1] in FORM_VERBS] == [
            f"{group}_{verb}" for verb in FORM_VERBS
        ]
        for tool in value["tools"]:
            if tool["name"].startswith(group + "_"):
                assert tool["inputSchema"]["required"][: len(path)] == path
    assert "status" not in value["editorGroups"][0]
    anthropic = json.loads(run_cli("openapi", "tools", SPEC, "--profile", "write", "--format", "anthropic").stdout)
    assert len(anthropic) == len(names)
    assert all(subset_violations(tool["input_schema"]) == [] for tool in anthropic)


def test_the_form_verbs_name_the_group_and_refuse_unknown_ones(sample_api):
    unknown = run_cli("form", "describe-state", *context(sample_api), "nope", json.dumps(LINE), expect=2).json
    assert "no editor group named 'nope'" in unknown["error"]
    outside = run_cli(
        "form", "describe-state", "--spec", SPEC, "--base-url", sample_api.base_url, "sample_dataset_line", expect=2
    ).json
    assert "in the loaded profile(s) read. It is in the profile write: add `--profile write`." in outside["error"]
    missing = form(sample_api, "describe-state", "sample_dataset_line", DATASET, expect=1)
    assert missing["error"] == 'Missing required parameter "lineId".'


def test_an_expired_editor_session_leaves_a_draft_that_restore_reapplies(fresh_sample_api, isolated_state):
    api = fresh_sample_api
    assert call(api, "sample_dataset_line_setFieldValue", {**LINE, "path": "/email", "value": "voile@iroise.bzh"})["ok"]
    expire_the_only_session(isolated_state)
    [draft] = run_cli("form", "sessions", "--drafts").json["result"]
    assert draft["changed"] == ["/email"] and draft["key"]["group"] == "sample_dataset_line"
    # Without the document, restore says what to give: the spec, the API and the parameters.
    hint = run_cli("form", "restore", "--draft", str(draft["draft"]), expect=2).json["error"]
    assert f"--spec SPEC --base-url {api.base_url} sample_dataset_line" in hint
    api.update_line("associations", "asso-001", {"statut": "dissoute"})  # the record moved on meanwhile
    restored = form(api, "restore", "sample_dataset_line", LINE)["result"]
    assert restored.startswith(f"Restored draft {draft['draft']}") and "(/email)" in restored
    data = data_of(api)
    assert data["email"] == "voile@iroise.bzh" and data["statut"] == "dissoute"
    assert call(api, "sample_dataset_line_saveForm", LINE, token=api.write_token)["ok"]
    assert api.get_line("associations", "asso-001")["email"] == "voile@iroise.bzh"


def test_a_save_to_a_server_that_hangs_times_out_with_a_clear_message(fresh_sample_api):
    api = fresh_sample_api
    assert call(api, "sample_dataset_line_setFieldValue", {**LINE, "path": "/statut", "value": "en sommeil"})["ok"]
    api.hang_next("PUT", seconds=10)
    args = [
        "call",
        *context(api, api.write_token),
        "--timeout",
        "0.5",
        "sample_dataset_line_saveForm",
        json.dumps(LINE),
    ]
    failed = run_cli(*args, expect=1).json
    assert "PUT" in failed["error"] and "timed out after 0.5 s" in failed["error"]
    assert "Your edits are still in the session" in failed["error"]
    assert data_of(api)["statut"] == "en sommeil"
