"""The file-backed form session from the command line: `deskcheck call`, `batch` and `form <verb>`
sharing one persistent session across processes; `form sessions`, `discard`, `restore`; the
--spec form of the command; usage errors."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.forms.sessions.store import SessionStore
from tests.conftest import REPO
from tests.helpers import expire_the_only_session, run_cli, run_process

SCHEMA = {
    "type": "object",
    "title": "Contact",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 2},
        "age": {"type": "integer", "minimum": 0},
        "city": {
            "type": "object",
            "x-fromUrl": "/api/v1/referentials/departements?q={q}",
            "x-itemsProp": "results",
            "x-itemTitle": "nom",
            "x-itemKey": "code",
        },
    },
}
SAMPLE_SPEC = REPO / "samples" / "records_api" / "openapi.json"


@pytest.fixture
def files(tmp_path):
    schema, data = tmp_path / "contact.schema.json", tmp_path / "contact.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{\n  "name": "Ada"\n}\n')
    return ["--schema", str(schema), "--data", str(data)], data


def result_of(run) -> str:
    envelope = run.json
    assert envelope["ok"], envelope
    return envelope["result"]


@pytest.mark.slow
def test_call_batch_and_form_verbs_share_one_session_across_processes(files):
    context, data = files
    set_run = run_process("form", "set-field-value", *context, '{"path": "/age", "value": 36}')
    assert "/age (number) = 36" in result_of(set_run)
    described = run_process("call", *context, "form_describeState", '{"path": "/age"}')
    assert "value=36" in result_of(described) and "modified" in result_of(described)
    assert data.read_text() == '{\n  "name": "Ada"\n}\n', "nothing is written before saveForm"
    lines = [
        {"id": "a", "tool": "form_setFieldValue", "args": {"path": "/name", "value": "Ada Lovelace"}},
        {"id": "b", "tool": "form_saveForm", "args": {}},
        {"id": "c", "tool": "form_getData", "args": {"path": "/name"}},
    ]
    batch = run_process("batch", *context, stdin="\n".join(json.dumps(line) for line in lines) + "\n")
    envelopes = batch.json_lines
    assert [e["id"] for e in envelopes] == ["a", "b", "c"] and all(e["ok"] for e in envelopes)
    assert envelopes[1]["result"].startswith('Saved "contact.json" (version sha256:')
    assert json.loads(data.read_text()) == {"name": "Ada Lovelace", "age": 36}
    assert data.read_text().startswith('{\n  "name"'), "the file keeps its two-space indentation"
    listed = run_process("form", "sessions").json["result"]
    [session] = listed
    assert session["status"] == "ready" and session["modified"] is False and session["valid"] is True
    assert session["key"]["params"]["data"] == str(data.resolve())


def test_save_form_refuses_an_invalid_document_unless_allowed(files):
    context, data = files
    run_cli("form", "set-field-value", *context, '{"path": "/age", "value": -1}')
    refused = run_cli("form", "save-form", *context, expect=1).json
    assert not refused["ok"] and "/age" in refused["error"] and "--allow-invalid" in refused["error"]
    assert json.loads(data.read_text()) == {"name": "Ada"}
    assert run_cli("form", "save-form", *context, "--allow-invalid").json["ok"]
    assert json.loads(data.read_text()) == {"name": "Ada", "age": -1}


def test_sessions_lists_status_age_modified_and_validity(files):
    context, _ = files
    assert run_cli("form", "sessions").json == {"ok": True, "result": []}
    run_cli("form", "set-field-value", *context, '{"path": "/name", "value": "A"}')
    [entry] = run_cli("form", "sessions").json["result"]
    assert entry["status"] == "ready" and entry["modified"] is True and entry["valid"] is False
    assert entry["errors"] == 1 and entry["ageSeconds"] >= 0 and 0 < entry["expiresInSeconds"] <= 1800
    assert entry["title"] == "contact.json"
    assert run_cli("form", "sessions", "--identity", "someone-else").json["result"] == []


def test_discard_drops_the_session_and_its_edits(files):
    context, _ = files
    run_cli("form", "set-field-value", *context, '{"path": "/age", "value": 3}')
    dropped = result_of(run_cli("form", "discard", *context))
    assert "Discarded" in dropped and "/age" in dropped
    assert run_cli("form", "sessions").json["result"] == []
    assert "no open session" in result_of(run_cli("form", "discard", *context))
    assert json.loads(result_of(run_cli("form", "get-data", *context)))["data"] == {"name": "Ada"}


def test_an_expired_session_leaves_a_draft_that_restore_brings_back(files, isolated_state):
    context, data = files
    run_cli("form", "set-field-value", *context, '{"path": "/age", "value": 37}')
    store = SessionStore(isolated_state / "sessions.sqlite3")
    [record] = store.sessions()
    with store.transaction():
        record.expires_at = 0
        store.put(record)
    data.write_text('{"name": "Ada B."}\n')  # the file moved on meanwhile
    answer = result_of(run_cli("form", "get-data", *context))
    assert '"name": "Ada B."' in answer and "expired with unsaved edits" in answer and "draft 1" in answer
    [draft] = run_cli("form", "sessions", "--drafts").json["result"]
    assert draft["draft"] == 1 and draft["changed"] == ["/age"] and draft["title"] == "contact.json"
    restored = result_of(run_cli("form", "restore", "--draft", "1"))
    assert "Restored draft 1" in restored and "/age" in restored and "not saved yet" in restored
    assert json.loads(result_of(run_cli("form", "get-data", *context)))["data"] == {"name": "Ada B.", "age": 37}
    assert run_cli("form", "sessions", "--drafts").json["result"] == []
    missing = run_cli("form", "restore", *context, expect=1).json
    assert "no draft" in missing["error"]


def test_a_draft_can_be_discarded(files, isolated_state):
    context, _ = files
    run_cli("form", "set-field-value", *context, '{"path": "/age", "value": 1}')
    expire_the_only_session(isolated_state)
    assert "Discarded draft 1" in result_of(run_cli("form", "discard", "--draft", "1"))
    assert "no draft 1" in run_cli("form", "discard", "--draft", "1", expect=2).json["error"]


def test_options_behind_a_url_use_the_base_url_and_token(files, sample_api):
    context, _ = files
    base = ["--base-url", sample_api.base_url, "--token", sample_api.read_token]
    listed = run_cli("form", "get-field-suggestions", *context, *base, '{"path": "/city", "query": "gironde"}')
    assert "- [0] Gironde (33)" in result_of(listed)
    run_cli("form", "set-field-value", *context, *base, '{"path": "/city", "suggestionIndex": 0}')
    city = json.loads(result_of(run_cli("call", *context, "form_getData", '{"path": "/city"}')))["data"]
    assert city["code"] == "33" and city["nom"] == "Gironde"
    refused = run_cli("form", "get-field-suggestions", *context, '{"path": "/city"}', expect=1).json
    assert "--base-url" in refused["error"]


def test_the_spec_form_names_the_editor_group(sample_api):
    spec = ["--spec", str(SAMPLE_SPEC), "--profile", "write", "--base-url", sample_api.base_url]
    args = '{"id": "associations", "lineId": "asso-001"}'
    described = run_cli("form", "describe-state", *spec, "sample_dataset_line", args).json
    assert described["ok"] and 'value="Les Voiles de l\'Iroise"' in described["result"]
    unknown = run_cli("form", "describe-state", *spec, "nope", args, expect=2).json
    assert "no editor group named 'nope'" in unknown["error"] and "sample_dataset_line" in unknown["error"]
    unnamed = run_cli("form", "describe-state", *spec, expect=2).json
    assert "name the editor group" in unnamed["error"] and "sample_dataset_new_line" in unnamed["error"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["form", "describe-state", "{}", "extra"], "unexpected argument 'extra'"),
        (["form", "get-data", "--data", "x.json"], "--schema"),
        (["form", "set-field-value", "{broken"], "not valid JSON"),
    ],
)
def test_usage_errors_exit_2(files, argv, message):
    context, _ = files
    if "--data" not in argv:
        argv = [*argv[:2], *context, *argv[2:]]
    run = run_cli(*argv, expect=2)
    assert message in run.json["error"]


def test_an_unknown_form_tool_is_a_usage_error(files):
    context, _ = files
    run = run_cli("call", *context, "form_nope", expect=2)
    assert "form_nope" in run.json["error"] and "form_setFieldValue" in run.json["error"]


def test_a_missing_schema_file_is_a_usage_error(tmp_path):
    run = run_cli(
        "form", "get-data", "--schema", str(tmp_path / "none.json"), "--data", str(tmp_path / "d.json"), expect=2
    )
    assert "does not exist" in run.json["error"]


DEFAULTS = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "level": {"type": "integer", "default": 3},
        "kind": {"const": "contact"},
        "extra": {"type": "object", "properties": {"on": {"type": "boolean", "default": True}}},
    },
    "additionalProperties": False,
}


def test_defaults_are_written_only_for_a_new_file_or_when_asked(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(DEFAULTS))
    existing = tmp_path / "existing.json"
    existing.write_text('{"name": "Ada", "nickname": "A"}\n')
    context = ["--schema", str(schema), "--data", str(existing)]
    described = result_of(run_cli("form", "describe-state", *context))
    assert '- /level (number, step=1, precision=0) label="level" value=unset default=3' in described
    assert "- /nickname: a key this form does not accept" in described
    run_cli("form", "save-form", "--allow-invalid", *context)
    assert json.loads(existing.read_text()) == {"name": "Ada", "nickname": "A"}, "the unknown key stays"
    run_cli("form", "discard", *context)
    asked = ["--schema", str(schema), "--data", str(existing), "--fill-defaults"]
    assert "- /level (number, modified, step=1, precision=0)" in result_of(run_cli("form", "describe-state", *asked))
    run_cli("form", "save-form", "--allow-invalid", *asked)
    assert json.loads(existing.read_text()) == {"name": "Ada", "nickname": "A", "level": 3, "kind": "contact"}
    new = tmp_path / "new.json"
    run_cli("form", "describe-state", "--schema", str(schema), "--data", str(new))
    run_cli("form", "save-form", "--schema", str(schema), "--data", str(new))
    assert json.loads(new.read_text()) == {"level": 3, "kind": "contact"}, "a file that did not exist is new"
