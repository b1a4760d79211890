"""Several processes on one session: writes serialise (none is lost), and a process killed in
the middle of its writes leaves a store that opens, checks clean and goes on; on SQLite and on
PostgreSQL (``store_url``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from deskcheck.engine.forms.sessions.store_url import open_store
from tests.helpers import deskcheck_executable, run_cli

LIST_SCHEMA = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"type": "object", "properties": {"label": {"type": "string"}}}}
    },
}
WRITES_PER_PROCESS = 100


def batch_of_adds(label: str) -> str:
    lines = [
        json.dumps(
            {
                "id": n,
                "tool": "form_editArray",
                "args": {"path": "/items", "action": "add", "value": {"label": f"{label}-{n}"}},
            }
        )
        for n in range(WRITES_PER_PROCESS)
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_two_processes_writing_one_session_lose_nothing(tmp_path, store_url, monkeypatch):
    monkeypatch.setenv("DESKCHECK_STORE", store_url)
    schema, data = tmp_path / "schema.json", tmp_path / "list.json"
    schema.write_text(json.dumps(LIST_SCHEMA))
    data.write_text('{"items": []}\n')
    command = [deskcheck_executable(), "batch", "--schema", str(schema), "--data", str(data)]
    workers = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in ("A", "B")
    ]
    for label, worker in zip(("A", "B"), workers, strict=True):
        worker.stdin.write(batch_of_adds(label))
        worker.stdin.close()
    for worker in workers:
        out = worker.stdout.read()
        assert worker.wait(120) == 0, worker.stderr.read()
        envelopes = [json.loads(line) for line in out.splitlines()]
        assert len(envelopes) == WRITES_PER_PROCESS and all(e["ok"] for e in envelopes)
    items = json.loads(run_cli("call", "--schema", str(schema), "--data", str(data), "form_getData").json["result"])
    items = [item["label"] for item in items["data"]["items"]]
    expected = {f"{label}-{n}" for label in "AB" for n in range(WRITES_PER_PROCESS)}
    assert len(items) == 2 * WRITES_PER_PROCESS and set(items) == expected
    for label in "AB":
        own = [int(item.split("-")[1]) for item in items if item.startswith(label)]
        assert own == sorted(own), "each process's writes land in its own order"


WRITER = """
import json, sys
from deskcheck.engine.forms.tools.session_tools import file_form_group
tools = file_form_group(sys.argv[1], sys.argv[2]).toolset()
n = 0
while True:
    result = tools.call("form_setFieldValue", {"path": "/items", "value": [{"label": str(i)} for i in range(n % 50)]})
    assert result.ok, result.error
    n += 1
"""


@pytest.mark.slow
def test_a_process_killed_while_writing_leaves_the_store_readable(tmp_path, store_url, monkeypatch):
    monkeypatch.setenv("DESKCHECK_STORE", store_url)
    schema, data = tmp_path / "schema.json", tmp_path / "list.json"
    schema.write_text(json.dumps(LIST_SCHEMA))
    data.write_text('{"items": []}\n')
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(schema), str(data)], env=os.environ.copy(), stderr=subprocess.PIPE
    )
    store = open_store(store_url)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            sessions = store.sessions()
            if sessions and sessions[0].revision > 30:
                break
            assert writer.poll() is None, writer.stderr.read()
            time.sleep(0.05)
        else:
            pytest.fail("the writer made no progress")
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    store.close()
    reopened = open_store(store_url)
    if store_url.startswith("sqlite"):
        assert reopened.integrity() == "ok"
    [record] = reopened.sessions()
    assert isinstance(record.snapshot["data"]["items"], list)
    # The session goes on from what was last committed.
    run = run_cli(
        "call",
        "--schema",
        str(schema),
        "--data",
        str(data),
        "form_editArray",
        '{"path": "/items", "action": "add", "value": {"label": "after"}}',
    )
    assert run.json["ok"]
    assert reopened.sessions()[0].revision == record.revision + 1
