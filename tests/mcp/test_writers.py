"""One writer per .docx: a served document is protected from the REPL, a second server and the
CLI's writing verbs (each refused with a sentence naming the server), while reading it stays
free; a REPL's review keeps a server away; the lock goes with the server."""

from __future__ import annotations

import json
import signal
import subprocess

import anyio
import pytest

from deskcheck.cli.repl.working_copy import WorkingCopy
from tests.docx.builders import make_docx, p
from tests.helpers import deskcheck_executable, run_cli, run_process
from tests.mcp.support import stdio_client

pytestmark = pytest.mark.slow

COMMENT = json.dumps({"blockId": "0A000001", "text": "Which goods?"})


def document(path):
    return make_docx(path, p("The Supplier shall deliver the goods.", para_id="0A000001"))


def test_a_served_document_has_one_writer(tmp_path):
    docx = document(tmp_path / "contract.docx")

    async def scenario():
        async with stdio_client("--docx", str(docx)) as client:
            assert not (await client.call_tool("add_comment", {"blockId": "0A000001", "text": "Agent."})).is_error
            before = docx.read_bytes()

            repl = run_process("repl", "--docx", str(docx), stdin="quit\n", expect=2)
            assert "deskcheck mcp (process " in repl.stderr + repl.stdout
            assert "is serving" in repl.stderr + repl.stdout

            second = subprocess.run(
                [deskcheck_executable(), "mcp", "--docx", str(docx)],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert second.returncode == 2 and second.stdout == ""
            assert "is serving" in second.stderr and "stop that server first" in second.stderr

            for argv in (
                ["docx", "add-comment", str(docx), COMMENT],
                ["call", "--docx", str(docx), "add_comment", COMMENT],
                ["docx", "accept-all", str(docx)],
            ):
                refused = run_process(*argv, expect=2)
                assert "is serving" in refused.stdout + refused.stderr, argv
            assert docx.read_bytes() == before, "nothing was written by a refused writer"

            assert run_process("docx", "read-comments", str(docx)).json["result"]["comments"]
            copy = tmp_path / "copy.docx"
            run_process("docx", "add-comment", str(docx), COMMENT, "-o", str(copy))
            run_process("docx", "add-comment", str(docx), COMMENT, "--dry-run")
            assert copy.exists() and docx.read_bytes() == before

            # The agent goes on writing.
            assert not (await client.call_tool("add_comment", {"blockId": "0A000001", "text": "Again."})).is_error

    anyio.run(scenario)
    assert len(run_cli("docx", "read-comments", str(docx)).json["result"]["comments"]) == 2
    run_process("docx", "add-comment", str(docx), COMMENT)  # the server is gone: writing is free again


def test_a_repl_review_keeps_a_server_away(tmp_path, isolated_state):
    docx = document(tmp_path / "contract.docx")
    review = WorkingCopy(docx, isolated_state)
    review.open()
    try:
        refused = run_process("mcp", "--docx", str(docx), expect=2)
        assert "a deskcheck repl (process " in refused.stderr and "leave it first" in refused.stderr
        run_process("docx", "add-comment", str(docx), COMMENT)  # the REPL checks the file when it saves
    finally:
        review.close()


def test_a_dry_run_server_takes_no_lock(tmp_path):
    docx = document(tmp_path / "contract.docx")

    async def scenario():
        async with stdio_client("--docx", str(docx), "--dry-run") as client:
            previewed = await client.call_tool("add_comment", {"blockId": "0A000001", "text": "Preview."})
            assert not previewed.is_error and json.loads(previewed.content[0].text)["status"] == "previewed"
            run_process("docx", "add-comment", str(docx), COMMENT)

    anyio.run(scenario)


@pytest.mark.parametrize("transport", [[], ["--http", "127.0.0.1:0"]])
def test_a_server_stopped_with_sigterm_closes_its_log_and_gives_the_file_back(transport, tmp_path):
    docx, log = document(tmp_path / "contract.docx"), tmp_path / "calls.jsonl"
    process = subprocess.Popen(
        [deskcheck_executable(), "mcp", "--docx", str(docx), "--log", str(log), *transport],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "serving 15 tools" in process.stderr.readline()
        run_process("docx", "add-comment", str(docx), COMMENT, expect=2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert json.loads(log.read_text().splitlines()[-1])["event"] == "stop"
    run_process("docx", "add-comment", str(docx), COMMENT)
