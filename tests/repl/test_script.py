"""`deskcheck repl ... --script FILE` (or commands on stdin when it is not a terminal): the commands
run in order, results on stdout, errors on stderr, and the exit code is the first failing
command's (1 when a tool failed, 2 for a bad command), so a REPL transcript doubles as a test.
Bad contexts are refused before anything runs."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import REPO
from tests.docx.tracked_contract import build_review_document
from tests.helpers import run_cli, run_process
from tests.repl.test_form_repl import SCHEMA

SAMPLE_SPEC = REPO / "samples" / "records_api" / "openapi.json"


@pytest.fixture
def form_args(tmp_path):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{"name": "Kick-off"}\n')
    return ["--schema", str(schema), "--data", str(data)], data


def test_a_script_runs_to_the_end_and_exits_0(form_args, tmp_path):
    context, data = form_args
    script = tmp_path / "fill.repl"
    script.write_text("# fill the event in\nset /seats 12\n\nset /colour green\nsave\nget\n")
    run = run_cli("repl", *context, "--script", str(script))
    assert "/seats (number) = 12" in run.stdout and 'Saved "event.json"' in run.stdout
    assert json.loads(run.stdout[run.stdout.index("{\n") :]) == {"name": "Kick-off", "seats": 12, "colour": "green"}
    assert run.stderr == ""
    assert json.loads(data.read_text()) == {"name": "Kick-off", "seats": 12, "colour": "green"}


def test_stdin_that_is_not_a_terminal_is_a_script(form_args):
    context, _ = form_args
    run = run_cli("repl", *context, stdin="set /seats 3\nstatus\n")
    assert 'form "event.json" · ready · valid · unsaved edits' in run.stdout


def test_the_first_failing_command_stops_the_script_with_its_code(form_args, tmp_path):
    context, data = form_args
    refused = run_cli("repl", *context, stdin="set /seats 0\nsave\nset /seats 5\n", expect=1)
    assert "is not valid (1 error(s): /seats: must be 1 or more)" in refused.stderr
    assert "error: line 2 failed: save" in refused.stderr
    assert "/seats (number) = 5" not in refused.stdout, "nothing ran after the failing line"
    assert json.loads(data.read_text()) == {"name": "Kick-off"}
    unknown = run_cli("repl", *context, stdin="status\nfrobnicate\nstatus\n", expect=2)
    assert "unknown command 'frobnicate'" in unknown.stderr and "line 2 failed" in unknown.stderr
    assert unknown.stdout.count("form ") == 1
    bad_json = run_cli("repl", *context, stdin='call form_getData {"path": \n', expect=2)
    assert "the tool's arguments is not valid JSON" in bad_json.stderr
    tool_error = run_cli("repl", *context, stdin='call form_getData {"path": "/nowhere"}\n', expect=1)
    assert json.loads(tool_error.stdout.splitlines()[-1])["ok"] is False, "call prints the envelope"


def test_a_review_script_fails_on_skips_and_on_a_batch_left_pending(tmp_path):
    path = build_review_document(tmp_path / "agreement.docx")
    original = path.read_bytes()
    now = {"operations": [{"type": "replaceInBlock", "blockId": "4D9EF6F2", "find": "Subject", "replace": "Under"}]}
    script = f"replace 4D9EF6F2 Charges => fees\ncall suggest_changes {json.dumps(now)}\napply\nsave\n"
    skipped = run_cli("repl", "--docx", str(path), stdin=script, expect=1)
    assert "[preconditionFailed]" in skipped.stdout and "line 3 failed: apply" in skipped.stderr
    refused = run_cli("repl", "--docx", str(path), stdin="revert\nreplace 4D9EF6F2 no such text => x\n", expect=2)
    assert "'no such text' is not in block 4D9EF6F2" in refused.stderr and "line 2 failed" in refused.stderr
    pending = run_cli("repl", "--docx", str(path), stdin="drop all\ndelete 4D9EF6F2\n", expect=1)
    assert "the script ended with 1 operation not applied" in pending.stderr
    assert path.read_bytes() == original
    done = run_cli("repl", "--docx", str(path), stdin="revert\ndelete 4D9EF6F2\napply\nsave\n")
    assert f"Saved the review to {path}" in done.stdout
    blocks = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    assert any(c["type"] == "paragraphMarkDeleted" and c["author"] == "deskcheck" for c in blocks)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "no context"),
        (["--docx", "missing.docx"], "does not exist"),
        (["--docx", "{docx}", "extra"], "--docx takes no other argument"),
        (["--schema", "{schema}", "--data", "{data}", "extra"], "--schema/--data take no other argument"),
        (["--spec", str(SAMPLE_SPEC), "--profile", "write"], "name the editor group"),
        (["--spec", str(SAMPLE_SPEC), "--profile", "write", "nope"], "has no editor group named 'nope'"),
        (["--spec", str(SAMPLE_SPEC), "--profile", "write", "sample_dataset_line", "id=a"], "needs lineId=VALUE"),
        (["--spec", str(SAMPLE_SPEC), "--profile", "write", "sample_dataset_line", "x=1"], "has no parameter 'x'"),
        (["--docx", "{docx}", "--script", "missing.repl"], "the script missing.repl does not exist"),
        (["--docx", "{not_docx}"], "notes.docx is not a Word document: it is not a zip package"),
        (["--docx", "{docx}", "--operation-types", "replaceInBlock,bogus"], "'bogus' is not a suggest_changes"),
    ],
)
def test_bad_usage_exits_2_before_anything_runs(tmp_path, isolated_state, args, message):
    docx = tmp_path / "doc.docx"
    shutil.copy(REPO / "samples" / "contract.docx", docx)
    not_docx = tmp_path / "notes.docx"
    not_docx.write_text("plain text, not a zip")
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(SCHEMA))
    names = {"docx": docx, "not_docx": not_docx, "schema": schema, "data": tmp_path / "d.json"}
    run = run_cli("repl", *[a.format(**names) for a in args], stdin="status\n", expect=2)
    assert message in run.stdout + run.stderr
    assert "Reviewing" not in run.stdout and "session ready" not in run.stdout, "the REPL did not start"
    assert not (isolated_state / "reviews").exists() or not any((isolated_state / "reviews").iterdir())


@pytest.mark.slow
def test_a_transcript_runs_in_a_separate_process(form_args, tmp_path):
    context, data = form_args
    script = tmp_path / "t.repl"
    script.write_text("set /speakers []\nadd /speakers\nset /speakers/0/name Ada\nsave\n")
    run = run_process("repl", *context, "--script", str(script))
    assert "added an item at index 0" in run.stdout
    assert json.loads(data.read_text())["speakers"] == [{"name": "Ada"}]
    failing = run_process("repl", *context, "--script", "-", stdin="set /seats 0\nsave\n", expect=1)
    assert "line 2 failed: save" in failing.stderr
