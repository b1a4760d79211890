"""Protocol edges and hostile input at ``deskcheck mcp``'s door: lines that are not JSON-RPC get
the JSON-RPC error, a bogus cursor is refused, numbers no JSON reader takes never reach a tool,
the HTTP server needs a token by default, a log that is a FIFO or a device is refused at once,
a percent-encoded token is redacted, and a tool that runs out of memory leaves the server
serving."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import urllib.request

import pytest

from deskcheck.engine.tools import ToolResult
from tests.docx.builders import make_docx, p
from tests.helpers import deskcheck_executable, run_process
from tests.mcp.support import http_server

pytestmark = pytest.mark.slow


def contract(tmp_path):
    return make_docx(tmp_path / "contract.docx", p("The Supplier shall deliver.", para_id="0A000001"))


def converse(args: list[str], lines: list[str], last_id: int) -> list[dict]:
    """Send raw lines to ``deskcheck mcp ARGS`` over stdio and read the answers up to the one to
    request ``last_id`` (the input stays open until then, as a client's does)."""
    handshake = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    text = "\n".join([json.dumps(handshake), '{"jsonrpc": "2.0", "method": "notifications/initialized"}', *lines])
    proc = subprocess.Popen(
        [deskcheck_executable(), "mcp", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    answers: list[dict] = []
    try:
        proc.stdin.write(text + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            answers.append(json.loads(line))
            if answers[-1].get("id") == last_id:
                break
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return answers


def test_unreadable_lines_and_bogus_cursors_get_json_rpc_errors(tmp_path):
    deep = '{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": ' + "[" * 300 + "]" * 300 + "}"
    arguments = '{"name": "read_document", "arguments": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    deeper = '{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": ' + arguments + "}"
    lines = [
        "this is not json",
        deep,
        deeper,
        '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "bogus"}}',
        '{"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}}',
    ]
    answers = converse(["--docx", str(contract(tmp_path))], lines, 4)
    errors = [a for a in answers if "error" in a]
    assert errors[0]["id"] is None and errors[0]["error"]["code"] == -32700
    assert [e["error"]["code"] for e in errors[1:3]] == [-32700, -32700], "nesting past what is read is a parse error"
    assert next(a for a in answers if a.get("id") == 3)["error"]["code"] == -32602
    assert "tools" in next(a for a in answers if a.get("id") == 4)["result"], "the server goes on serving"


def test_nan_infinity_and_huge_integers_never_reach_a_tool_and_the_log_stays_json_lines(tmp_path):
    schema, data, log = tmp_path / "s.json", tmp_path / "d.json", tmp_path / "calls.jsonl"
    schema.write_text(json.dumps({"type": "object", "properties": {"n": {"type": "number"}}}))
    data.write_text('{"n": 1}')
    calls = [
        f'{{"jsonrpc": "2.0", "id": {number}, "method": "tools/call", "params": {{"name": "form_setFieldValue", '
        f'"arguments": {{"path": "/n", "value": {value}}}}}}}'
        for number, value in ((1, "NaN"), (2, "Infinity"), (3, "1" * 400))
    ]
    save = '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "form_saveForm", "arguments": {}}}'
    answers = converse(["--schema", str(schema), "--data", str(data), "--log", str(log)], [*calls, save], 4)
    for number in (1, 2, 3):
        result = next(a for a in answers if a.get("id") == number)["result"]
        assert (result["isError"] and "not JSON" in result["content"][0]["text"]) or "digits" in result["content"][0][
            "text"
        ]
    assert json.loads(data.read_text()) == {"n": 1}
    for line in log.read_text().splitlines():
        json.loads(line, parse_constant=lambda name: pytest.fail(f"the log holds {name}"))


def test_a_log_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    docx = str(contract(tmp_path))
    for target, word in ((fifo, "FIFO"), ("/dev/full", "device")):
        refused = run_process("mcp", "--docx", docx, "--log", str(target), expect=2, timeout=20)
        assert word in refused.stderr and "Traceback" not in refused.stderr


def test_http_needs_a_token_by_default_and_the_log_redacts_it_percent_encoded(tmp_path):
    docx = contract(tmp_path)
    log = tmp_path / "calls.jsonl"
    with http_server("--docx", str(docx), "--log", str(log), tmp_path=tmp_path) as server:
        assert "?token=" in server.url
        bare = server.url.split("?", 1)[0]
        request = urllib.request.Request(bare, data=b"{}", headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401
    token = server.url.split("?token=", 1)[1]
    assert token not in log.read_text()
    refused = run_process("mcp", "--docx", str(docx), "--http", "0.0.0.0:0", "--http-no-auth", expect=2)
    assert "loopback" in refused.stderr


def test_a_token_written_percent_encoded_is_redacted():
    from deskcheck.cli.mcp.call_log import Redactor

    redact = Redactor(["s3cr3t/+token=", "pass phrase/1"])
    assert "s3cr3t" not in redact("GET https://api.example.org/x?key=s3cr3t%2F%2Btoken%3D failed")
    assert "phrase" not in redact("a form body: key=pass+phrase%2F1")


def test_a_tool_that_runs_out_of_memory_is_a_tool_error_and_the_server_goes_on():
    from deskcheck.cli.mcp.workers import ToolRunner

    class Catalogue:
        calls = 0

        def lane(self, name, identity=None):
            return None

        def call(self, name, args, identity=None):
            self.calls += 1
            if name == "compare_versions":
                raise MemoryError
            return ToolResult(ok=True, value={"fine": True})

    runner = ToolRunner(Catalogue(), None, readers=1)
    try:
        failed = asyncio.run(runner.call("compare_versions", {}))
        after = asyncio.run(runner.call("read_document", {}))
    finally:
        runner.close()
    assert not failed.ok and failed.code == "outOfMemory" and "server goes on" in failed.error
    assert after.ok and threading.active_count() >= 1
