"""The CLI contract of design.md: envelopes, exit codes, argument forms, call and batch."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli, run_process


@pytest.mark.slow
def test_version_prints_the_package_version():
    from deskcheck.engine import __version__

    assert run_process("--version").stdout.strip() == f"deskcheck {__version__}"


def test_call_with_a_missing_docx_exits_2_naming_the_file(tmp_path):
    missing = tmp_path / "missing.docx"
    run = run_cli("call", "--docx", str(missing), "read_document", expect=2)
    assert run.json["ok"] is False
    assert str(missing) in run.json["error"]


def test_call_without_a_context_is_a_usage_error():
    run = run_cli("call", "read_document", expect=2)
    assert "--docx" in run.json["error"] and "--spec" in run.json["error"]


def test_call_with_two_contexts_is_a_usage_error(tmp_path):
    doc = tmp_path / "a.docx"
    doc.write_bytes(b"x")
    run = run_cli("call", "--docx", str(doc), "--spec", "api.json", "read_document", expect=2)
    assert "only one context" in run.json["error"]


def test_form_context_needs_both_schema_and_data(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text("{}")
    run = run_cli("call", "--schema", str(schema), "form_getData", expect=2)
    assert "--data" in run.json["error"]


@pytest.mark.parametrize(
    "args, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("@/nonexistent/args.json", "does not exist"),
    ],
)
def test_bad_args_exit_2_with_a_message(tmp_path, args, message):
    doc = tmp_path / "a.docx"
    doc.write_bytes(b"x")
    run = run_cli("call", "--docx", str(doc), "read_document", args, expect=2)
    assert message in run.json["error"]


def test_args_from_a_file_and_from_stdin_are_read(tmp_path):
    import io

    from deskcheck.cli.args import read_args

    path = tmp_path / "args.json"
    path.write_text('{"blockId": "0001"}')
    assert read_args(f"@{path}", io.StringIO()) == {"blockId": "0001"}
    assert read_args("-", io.StringIO('{"a": [1]}')) == {"a": [1]}
    assert read_args(None, io.StringIO()) == {}


@pytest.mark.slow
def test_batch_answers_each_line_with_its_id_and_goes_on():
    stdin = '{"id":1,"tool":"nope","args":{}}\nnot json\n'
    run = run_process("batch", "--docx", "x.docx", stdin=stdin, expect=1)
    lines = run.json_lines
    assert [line["id"] for line in lines] == [1, None]
    assert all(line["ok"] is False for line in lines)
    assert "nope" in lines[0]["error"]
    assert "not valid JSON" in lines[1]["error"]


def test_batch_reports_malformed_entries_with_their_id():
    stdin = "\n".join(
        [
            json.dumps({"id": "a", "args": {}}),
            json.dumps({"id": "b", "tool": "x", "extra": 1}),
            json.dumps([1, 2]),
            "",
        ]
    )
    run = run_cli("batch", "--docx", "x.docx", stdin=stdin, expect=1)
    lines = run.json_lines
    assert [line["id"] for line in lines] == ["a", "b", None]
    assert "tool" in lines[0]["error"]
    assert "extra" in lines[1]["error"]


def test_batch_of_nothing_succeeds():
    run = run_cli("batch", "--docx", "x.docx", stdin="\n\n", expect=0)
    assert run.stdout == ""


def test_json_flag_is_accepted_anywhere(tmp_path):
    run = run_cli("call", "--docx", str(tmp_path / "m.docx"), "read_document", "--json", expect=2)
    assert run.json["ok"] is False
    run = run_cli("--json", "call", "--docx", str(tmp_path / "m.docx"), "read_document", expect=2)
    assert run.json["ok"] is False


def test_unknown_option_is_a_usage_error():
    run = run_cli("call", "--no-such-option", "x", expect=2)
    assert "no-such-option" in run.stderr


def test_errors_go_to_stderr_on_a_terminal(monkeypatch, tmp_path):
    """Outside JSON mode the error text goes to stderr, without colour under NO_COLOR."""
    from deskcheck.cli import env as cli_env

    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(cli_env, "_isatty", lambda stream: True)
    run = run_cli("call", "--docx", str(tmp_path / "m.docx"), "read_document", expect=2)
    assert run.stdout == ""
    assert "does not exist" in run.stderr
    assert "\x1b[" not in run.stderr


def test_quiet_prints_nothing_on_success():
    import io

    from deskcheck.cli.env import Env, GlobalFlags
    from deskcheck.cli.output.emit import emit_result
    from deskcheck.engine.tools import ok

    out = io.StringIO()
    env = Env(io.StringIO(), out, io.StringIO(), json_output=True, quiet=True, color=False, stdin_is_tty=False)
    assert emit_result(env, ok({"a": 1})) == 0
    assert out.getvalue() == ""
    assert GlobalFlags().quiet is False


def test_pretty_output_renders_text_and_structures(monkeypatch):
    import io

    from deskcheck.cli.env import Env
    from deskcheck.cli.output.emit import emit_result
    from deskcheck.engine.tools import fail, ok

    out, err = io.StringIO(), io.StringIO()
    env = Env(io.StringIO(), out, err, json_output=False, quiet=False, color=False, stdin_is_tty=True)
    assert emit_result(env, ok("plain [text] kept")) == 0
    assert emit_result(env, ok({"blocks": [1]})) == 0
    assert emit_result(env, fail("it broke", input_error=True)) == 2
    assert "plain [text] kept" in out.getvalue()
    # A structure no view knows reads as indented keys and items, not as JSON.
    assert "blocks: (1 items)\n  - 1" in out.getvalue() and "{" not in out.getvalue()
    assert "it broke" in err.getvalue()


def test_a_dry_run_says_what_would_happen(tmp_path):
    import shutil

    from tests.conftest import REPO

    docx = tmp_path / "contract.docx"
    shutil.copy(REPO / "samples" / "contract.docx", docx)
    before = docx.read_bytes()
    ops = {
        "operations": [{"type": "deleteBlock", "blockId": "464D8DE6"}, {"type": "deleteBlock", "blockId": "DEADBEEF"}]
    }
    run = run_cli("docx", "suggest-changes", str(docx), "--dry-run", json.dumps(ops), expect=3)
    error = run.json["error"]
    assert "1 of 2 operations would be skipped" in error and "the other would be applied" in error
    assert "Nothing was written (--dry-run)" in error and "were applied" not in error
    assert docx.read_bytes() == before
    nothing = {"operations": [{"type": "deleteBlock", "blockId": "DEADBEEF"}]}
    run = run_cli("docx", "suggest-changes", str(docx), "--dry-run", json.dumps(nothing), expect=1)
    assert run.json["error"].startswith("nothing would be applied: every operation would be skipped")


@pytest.mark.slow
def test_errors_reach_stderr_when_stdout_is_a_pipe_and_the_envelope_stays(tmp_path):
    missing = tmp_path / "m.docx"
    run = run_process("docx", "read-document", str(missing), expect=2)
    assert run.json["ok"] is False
    assert run.stderr == f"error: {run.json['error']}\n"
    batch = run_process("batch", "--docx", str(missing), stdin='{"id": 7, "tool": "nope"}\n', expect=1)
    assert batch.json_lines[0]["id"] == 7 and batch.stderr.startswith("error: id 7: unknown tool 'nope'")
