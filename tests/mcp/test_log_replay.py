"""``deskcheck mcp --log FILE`` records every call (arguments, outcome, timings) and never a
credential; ``deskcheck mcp replay LOG`` runs the calls again against a context and says, per
call, whether the outcome is the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest

from deskcheck.samples.records_api import openapi_path
from tests.docx.builders import make_docx, p
from tests.helpers import run_process
from tests.mcp.support import http_client, http_server, stdio_client

pytestmark = pytest.mark.slow

SPEC = str(openapi_path())
LINE = {"id": "associations", "lineId": "asso-001"}


def events(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_the_log_records_each_call_and_no_credential(tmp_path, fresh_sample_api):
    api = fresh_sample_api
    log = tmp_path / "calls.jsonl"
    header = "X-Trace: trace-secret-4711"
    args = ["--spec", SPEC, "--profile", "write", "--base-url", api.base_url, "--token", api.write_token]
    args += ["--header", header, "--log", str(log)]

    async def scenario():
        async with stdio_client(*args) as client:
            await client.call_tool("sample_list_datasets", {})
            await client.call_tool("sample_dataset_line_setFieldValue", {**LINE, "path": "/nom", "value": "Voiles"})
            await client.call_tool("sample_dataset_line_saveForm", LINE)
            await client.call_tool("sample_dataset_line_setFieldValue", {**LINE, "path": "/nope", "value": 1})

    anyio.run(scenario)
    text = log.read_text()
    assert api.write_token not in text and "trace-secret-4711" not in text
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    start, *calls, stop = events(log)
    assert start["event"] == "start" and start["transport"] == "stdio"
    assert start["contexts"] == [
        {
            "family": "openapi",
            "spec": SPEC,
            "profiles": ["write"],
            "baseUrl": api.base_url,
            "allowHosts": [],
            "identity": None,
            "timeout": 30.0,
            "headers": ["X-Trace"],
            "tokenGiven": True,
        }
    ]
    assert "sample_dataset_line_saveForm" in start["tools"]
    assert [(c["seq"], c["tool"], c["ok"]) for c in calls] == [
        (1, "sample_list_datasets", True),
        (2, "sample_dataset_line_setFieldValue", True),
        (3, "sample_dataset_line_saveForm", True),
        (4, "sample_dataset_line_setFieldValue", False),
    ]
    assert calls[1]["arguments"] == {**LINE, "path": "/nom", "value": "Voiles"}
    assert calls[2]["result"].startswith('Saved "Edit a dataset record"')
    assert calls[3]["error"] and "result" not in calls[3]
    assert all(c["ms"] >= 0 and c["waitedMs"] >= 0 and c["at"].endswith("Z") for c in calls)
    assert stop == {"event": "stop", "at": stop["at"], "calls": 4}


def test_a_password_in_a_url_is_not_logged(tmp_path, fresh_sample_api):
    log = tmp_path / "calls.jsonl"
    base_url = fresh_sample_api.base_url.replace("://", "://reader:pw-secret-5150@", 1)

    async def scenario():
        async with stdio_client("--spec", SPEC, "--base-url", base_url, "--log", str(log)) as client:
            await client.call_tool("sample_list_datasets", {})

    anyio.run(scenario)
    text = log.read_text()
    assert "pw-secret-5150" not in text and "reader:***@" in text


def test_an_http_servers_token_and_credential_fields_are_redacted(tmp_path):
    schema, data = tmp_path / "login.schema.json", tmp_path / "login.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"password": {"type": "string"}}}))
    data.write_text("{}\n")
    log = tmp_path / "calls.jsonl"
    files = ["--schema", str(schema), "--data", str(data)]
    with http_server(*files, "--http-token", "server-token-99", "--log", str(log), tmp_path=tmp_path) as server:

        async def scenario():
            async with http_client(server.url, token="server-token-99") as client:
                await client.call_tool("form_setData", {"data": {"password": "hunter2-secret"}})

        anyio.run(scenario)
    text = log.read_text()
    assert "server-token-99" not in text and "hunter2-secret" not in text
    start, call, *_ = events(log)
    assert start["transport"] == "http"
    assert call["arguments"] == {"data": {"password": "[redacted]"}} and call["client"].startswith("mcp ")


def docx_session(tmp_path: Path) -> tuple[Path, Path, bytes]:
    docx = make_docx(
        tmp_path / "contract.docx",
        p("The Supplier shall deliver the goods.", para_id="0A000001")
        + p("Payment is due in 30 days.", para_id="0A000002"),
    )
    original = docx.read_bytes()
    log = tmp_path / "calls.jsonl"

    async def scenario():
        async with stdio_client("--docx", str(docx), "--log", str(log)) as client:
            await client.call_tool("read_document", {})
            edit = {"type": "replaceInBlock", "blockId": "0A000002", "find": "30 days", "replace": "45 days"}
            await client.call_tool("suggest_changes", {"operations": [edit]})
            await client.call_tool("read_document", {"maxBlocks": 0})

    anyio.run(scenario)
    return docx, log, original


def test_replay_against_a_fresh_copy_reproduces_the_session(tmp_path):
    _, log, original = docx_session(tmp_path)
    fresh = tmp_path / "fresh.docx"
    fresh.write_bytes(original)
    replay = run_process("mcp", "replay", str(log), "--docx", str(fresh))
    *lines, summary = replay.json_lines
    assert [(line["id"], line["tool"], line["match"]) for line in lines] == [
        (1, "read_document", "same"),
        (2, "suggest_changes", "changed"),  # new operation ids, dates and document version
        (3, "read_document", "same"),
    ]
    assert lines[1]["ok"] and lines[1]["recorded"]["ok"] and "/result/documentVersion" in lines[1]["differences"]
    assert summary == {"id": "summary", "ok": True, "result": {"replayed": 3, "same": 2, "changed": 1, "diverged": 0}}
    changes = run_process("docx", "read-changes", str(fresh)).json["result"]["changes"]
    assert [c["text"] for c in changes] == ["30", "45"]
    assert (
        run_process("mcp", "replay", str(log), "--docx", str(fresh), "--strict", expect=1).json_lines[-1]["ok"] is False
    )


def test_replay_uses_the_logged_context_when_confirmed_and_reports_divergence(tmp_path):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"seats": {"type": "integer"}}}))
    data.write_text('{"seats": 1}\n')
    log = tmp_path / "calls.jsonl"

    async def scenario():
        async with stdio_client("--schema", str(schema), "--data", str(data), "--log", str(log)) as client:
            await client.call_tool("form_setFieldValue", {"path": "/seats", "value": 40})
            await client.call_tool("form_saveForm", {})

    anyio.run(scenario)
    data.write_text('{"seats": 1}\n')
    refused = run_process("mcp", "replay", str(log), expect=2)
    assert "--use-logged-contexts" in refused.stdout and str(data) in refused.stdout
    assert json.loads(data.read_text()) == {"seats": 1}, "nothing runs on a context the user did not give"
    same = run_process("mcp", "replay", str(log), "--use-logged-contexts").json_lines
    assert same[-1] == {"id": "summary", "ok": True, "result": {"replayed": 2, "same": 2, "changed": 0, "diverged": 0}}
    assert json.loads(data.read_text()) == {"seats": 40}

    stricter = tmp_path / "stricter.schema.json"
    stricter.write_text(json.dumps({"type": "object", "properties": {"seats": {"type": "integer", "maximum": 10}}}))
    other = tmp_path / "other.json"
    shutil.copy(data, other)
    other.write_text('{"seats": 1}\n')
    diverged = run_process("mcp", "replay", str(log), "--schema", str(stricter), "--data", str(other), expect=1)
    *lines, summary = diverged.json_lines
    assert [line["match"] for line in lines] == ["changed", "diverged"]
    assert not lines[1]["ok"] and lines[1]["recorded"]["ok"] and "invalid" in lines[1]["error"]
    assert summary["ok"] is False and summary["result"]["diverged"] == 1


def test_a_log_cut_short_is_replayed_and_a_damaged_one_refused(tmp_path):
    docx, log, original = docx_session(tmp_path)
    docx.write_bytes(original)
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # the server stopped mid-line
    assert run_process("mcp", "replay", str(log), "--use-logged-contexts").json_lines[-1]["result"]["replayed"] == 1
    log.write_text("\n".join([lines[0], "not json", *lines[1:]]) + "\n")
    refused = run_process("mcp", "replay", str(log), "--use-logged-contexts", expect=2)
    assert "line 2 of" in refused.stdout + refused.stderr


def test_replay_never_acts_on_a_document_or_api_only_the_log_names(tmp_path):
    """A log is a file anyone may have written: one naming another .docx in direct mode, or
    another API, is refused unless the user confirms; credentials go only to a --base-url given."""
    victim = make_docx(tmp_path / "victim.docx", p("Keep this clause.", para_id="0A000001"))
    before = victim.read_bytes()
    start = {
        "event": "start",
        "contexts": [{"family": "docx", "docx": str(victim), "mode": "direct"}],
        "tools": ["suggest_changes"],
    }
    call = {
        "event": "call",
        "seq": 1,
        "tool": "suggest_changes",
        "arguments": {"operations": [{"type": "deleteBlock", "blockId": "0A000001"}]},
        "ok": True,
        "result": {},
    }
    log = tmp_path / "forged.jsonl"
    log.write_text(json.dumps(start) + "\n" + json.dumps(call) + "\n")
    refused = run_process("mcp", "replay", str(log), expect=2)
    assert f"--docx {victim} (mode direct)" in refused.stdout
    assert victim.read_bytes() == before

    api_log = tmp_path / "api.jsonl"
    api_start = {
        "event": "start",
        "contexts": [{"family": "openapi", "spec": str(SPEC), "baseUrl": "http://203.0.113.9"}],
    }
    api_log.write_text(json.dumps(api_start) + "\n")
    for extra in ([], ["--use-logged-contexts"]):
        refused = run_process("mcp", "replay", str(api_log), *extra, env={"DESKCHECK_TOKEN": "s3cret-token"}, expect=2)
        assert "203.0.113.9" in refused.stdout
    assert "give --base-url" in refused.stdout
