"""cli.docx_line reads a docx tool verb's plain line without Typer: what it accepts, it must read
exactly as Typer does (same tool, FILE, ARGS and context), and everything else it must leave to
Typer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.cli.commands import call as call_commands
from deskcheck.cli.commands import docx as docx_commands
from deskcheck.cli.context import build_context
from deskcheck.cli.docx_line import FLAGS, SPELLINGS, read_docx_line
from deskcheck.cli.errors import UsageError
from deskcheck.cli.plain_line import Option
from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS
from tests.cli import plain_lines
from tests.conftest import REPO
from tests.helpers import probe_process, run_cli, top_level_modules
from tests.hypothesis_profiles import examples

VERBS = [spec.name.replace("_", "-") for spec in DOCX_TOOL_SPECS]
WRITE_VERBS = [spec.name.replace("_", "-") for spec in DOCX_TOOL_SPECS if not spec.read_only]


def typer_reading(argv: list[str], monkeypatch: pytest.MonkeyPatch):
    owner = call_commands if argv[:1] == ["call"] else docx_commands
    return plain_lines.typer_reading(
        argv, monkeypatch, owner, "call_tool", lambda tool, args, context: (tool, args, context)
    )


def fast_reading(argv: list[str]):
    line = read_docx_line(argv)
    if line is None:
        return None
    try:
        context = build_context(**line.options)
    except UsageError as exc:
        return ("usage", exc.message)
    return ("call", line.tool, line.args, context)


VALUES = st.sampled_from(
    ["out.docx", "dir/q.jsonl", "x", "", "-", "-x", "--mode", "direct", "tracked-changes", "bogus", "rows", "cells",
     "required",
     "optional", "replaceInBlock,deleteBlock", "0", "1", "50", "200", "201", " 5", "+5", "5_0", "007", "\u0665",
     "Ada Lovelace", "=", "a=b"]
)  # fmt: skip
OPTION_ITEMS = st.tuples(st.sampled_from(sorted(SPELLINGS)), VALUES).map(lambda pair: list(pair))
EQUALS_ITEMS = st.tuples(st.sampled_from(sorted(s for s in SPELLINGS if s.startswith("--"))), VALUES).map(
    lambda pair: [f"{pair[0]}={pair[1]}"]
)
OTHER_ITEMS = st.sampled_from(
    [["doc.docx"], ['{"operations": []}'], ["-"], ["@args.json"], ["--dry-run"], ["--require-document-version"],
     ["--no-dry-run"], ["--dry-run=1"], ["--"], ["-h"], ["--help"], ["--bogus"], ["-oout.docx"], ["--docx"],
     ["-1"], [""]]
)  # fmt: skip
CALL_ITEMS = st.sampled_from(
    [["--docx", "c.docx"], ["--docx=d.docx"], ["--docx", "-"], ["--spec", "api.json"], ["--schema", "s.json"]]
)
VERB_LINES = st.tuples(
    st.sampled_from([*WRITE_VERBS, *WRITE_VERBS, *VERBS, "accept-all", "compare", "no-such-verb"]),
    st.sampled_from([["c.docx"], ["c.docx", "{}"], []]),  # most lines name the file first
    st.lists(st.one_of(OPTION_ITEMS, OPTION_ITEMS, EQUALS_ITEMS, OTHER_ITEMS), max_size=5),
).map(lambda parts: ["docx", parts[0], *parts[1], *[token for item in parts[2] for token in item]])
CALL_LINES = st.tuples(
    st.sampled_from([["--docx", "c.docx"], [], ["--docx=c.docx"]]),
    st.sampled_from([["read_document"], ["suggest_changes", "{}"], ["no_such_tool"], []]),
    st.lists(st.one_of(OPTION_ITEMS, EQUALS_ITEMS, OTHER_ITEMS, CALL_ITEMS), max_size=4),
).map(lambda parts: ["call", *parts[0], *parts[1], *[token for item in parts[2] for token in item]])
LINES = st.one_of(VERB_LINES, CALL_LINES)


@settings(max_examples=examples(400), deadline=None)
@given(LINES)
def test_an_accepted_line_reads_as_typer_reads_it(argv):
    fast = fast_reading(argv)
    if fast is None:
        return  # Typer reads it, as before
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert typer_reading(argv, monkeypatch) == fast, argv


COMMON = [
    ["docx", "read-document", "c.docx"],
    ["docx", "read-document", "c.docx", '{"fromBlock": 2}'],
    ["docx", "find-text", "c.docx", "-"],
    ["docx", "suggest-changes", "c.docx", "@ops.json", "-o", "out.docx"],
    ["docx", "suggest-changes", "c.docx", "@ops.json", "--output=out.docx", "--mode", "direct", "--author",
     "Legal team", "--operation-types", "replaceInBlock,deleteBlock", "--review-meta", "required",
     "--max-operations", "200", "--require-document-version", "--dry-run"],
    ["docx", "suggest-changes", "--queue", "q.jsonl", "c.docx", "@ops.json"],
    ["docx", "add-comment", "c.docx", '{"blockId": "0A000001", "text": "Why?"}', "--author", "Ada"],
    ["call", "--docx", "c.docx", "read_document"],
    ["call", "read_changes", "--docx=c.docx", "{}"],
    ["call", "--docx", "c.docx", "suggest_changes", "@ops.json", "-o", "out.docx", "--mode", "direct",
     "--max-operations", "10", "--dry-run", "--table-revisions", "rows"],
    ["call", "--docx", "c.docx", "no_such_tool"],
]  # fmt: skip


@pytest.mark.parametrize("argv", COMMON)
def test_the_common_lines_skip_typer_and_read_the_same(argv, monkeypatch):
    fast = fast_reading(argv)
    assert fast is not None and fast[0] == "call"
    assert typer_reading(argv, monkeypatch) == fast


@pytest.mark.parametrize(
    "argv",
    [
        ["docx", "read-document"],  # no file: Typer prints the verb's help
        ["docx", "read-document", "--help"],
        ["docx", "read-document", "c.docx", "--mode", "direct"],  # read verbs take no review option
        ["docx", "read-document", "a.docx", "{}", "extra"],
        ["docx", "suggest-changes", "c.docx", "{}", "--author", "a", "--author", "b"],  # Typer keeps the last
        ["docx", "suggest-changes", "c.docx", "{}", "--dry-run", "--dry-run"],
        ["docx", "suggest-changes", "c.docx", "{}", "--no-dry-run"],
        ["docx", "suggest-changes", "c.docx", "{}", "--max-operations", "+5"],
        ["docx", "suggest-changes", "c.docx", "{}", "--max-operations", "0"],
        ["docx", "suggest-changes", "c.docx", "{}", "-oout.docx"],
        ["docx", "suggest-changes", "c.docx", "--", "{}"],
        ["docx", "suggest-changes", "c.docx", "{}", "--docx", "d.docx"],
        ["docx", "accept-all", "c.docx"],
        ["docx", "--help"],
        ["call", "read_document"],  # no --docx: another family's line, or a usage error
        ["call", "--docx", "c.docx", "--spec", "api.json", "read_document"],
        ["call", "--docx", "c.docx", "--docx", "d.docx", "read_document"],
        ["call", "--docx", "c.docx"],
        ["call", "--help"],
    ],
)
def test_anything_else_is_left_to_typer(argv):
    assert read_docx_line(argv) is None


def test_shell_completion_is_left_to_typer(monkeypatch):
    monkeypatch.setenv("_DESKCHECK_COMPLETE", "bash_complete")
    assert read_docx_line(COMMON[0]) is None


def test_the_spellings_are_the_declared_options():
    """SPELLINGS and FLAGS list exactly the options the Typer command of a docx verb that changes
    the document declares (a read verb declares none), with the same keywords and types."""
    import typer.main

    from deskcheck.cli import docx_line

    group = typer.main.get_group(docx_commands.docx_app)
    for name in VERBS:
        command = group.get_command(None, name)
        declared, flags = {}, {}
        for param in command.params:
            if param.param_type_name != "option" or param.name == "help":
                continue
            if param.is_flag:
                assert not param.secondary_opts, param.name
                flags.update((spelling, param.name) for spelling in param.opts)
                continue
            assert not param.multiple and not param.secondary_opts, param.name
            declared.update((spelling, (param.name, False)) for spelling in param.opts)
            is_path = "Path" in type(param.type).__name__
            assert is_path == (param.name in docx_line._PATHS), param.name
            if param.name == "max_operations":
                assert (param.type.min, param.type.max) == (1, 200) and not (param.type.min_open or param.type.max_open)
            elif not is_path:
                assert type(param.type).__name__ == "StringParamType", param.name  # taken as given
        if name in WRITE_VERBS:
            assert (declared, flags) == (SPELLINGS, FLAGS), name
        else:
            assert (declared, flags) == ({}, {}), name
    # call declares every family's context options; the reader takes --docx and the review ones.
    from deskcheck.cli.app import app

    call = typer.main.get_group(app).get_command(None, "call")
    params = {spelling: param for param in call.params for spelling in param.opts}
    for spelling, option in {**SPELLINGS, "--docx": Option("docx")}.items():
        assert (params[spelling].name, params[spelling].multiple) == option, spelling
        assert ("Path" in type(params[spelling].type).__name__) == (option.keyword in docx_line._PATHS), spelling
    for spelling, keyword in FLAGS.items():
        assert params[spelling].is_flag and params[spelling].name == keyword


def test_a_docx_verb_prints_the_same_through_either_reader(tmp_path):
    """End to end: the same edit through the quick reader and through Typer (a repeated option
    sends the line there) prints the same and writes the same text."""
    source = tmp_path / "contract.docx"
    shutil.copy(REPO / "samples" / "contract.docx", source)
    block = run_cli("docx", "read-document", str(source)).json["result"]["blocks"][0]
    ops = json.dumps({"operations": [{"id": "t1", "type": "replaceInBlock", "blockId": block["blockId"],
                                      "find": block["text"][:4], "replace": "ABCD"}]})  # fmt: skip
    outputs = [tmp_path / "fast.docx", tmp_path / "typer.docx"]
    fast = run_cli("docx", "suggest-changes", str(source), ops, "-o", str(outputs[0]), "--author", "Ada")
    slow = run_cli("docx", "suggest-changes", str(source), ops, "-o", str(outputs[1]), "--author", "Ada",
                   "--author", "Ada")  # fmt: skip
    assert read_docx_line(["docx", "suggest-changes", str(source), ops, "--author", "Ada"]) is not None

    def stable(result):
        return {k: v for k, v in result.json["result"].items() if k not in ("output", "documentVersion")}

    assert stable(fast) == stable(slow) and fast.json["result"]["applied"] == [{"id": "t1"}]
    texts = [[b["text"] for b in run_cli("docx", "read-document", str(o)).json["result"]["blocks"]] for o in outputs]
    assert texts[0] == texts[1]
    missing = run_cli("docx", "read-document", str(tmp_path / "none.docx"), expect=2)
    assert "does not exist" in missing.json["error"]


@pytest.mark.slow
@pytest.mark.parametrize("verb", [["docx", "read-document", "{file}"], ["call", "--docx", "{file}", "read_document"]])
def test_a_plain_docx_line_does_not_import_typer(verb):
    """The whole point: the process of a plain docx line never imports Typer (nor click)."""
    sample = str(REPO / "samples" / "contract.docx")
    report = probe_process("--json", *[part.format(file=sample) for part in verb])
    assert report["code"] == 0 and json.loads(report["out"])["ok"]
    assert {"typer", "click"} & top_level_modules(report) == set()
    assert "lxml" in top_level_modules(report)  # the probe did run the tool


@pytest.mark.slow
def test_the_console_script_exits_cleanly_after_a_plain_docx_line(tmp_path):
    """The console script freezes the collector before exiting: the written file is complete."""
    import subprocess
    import sys
    import zipfile

    source = tmp_path / "c.docx"
    shutil.copy(REPO / "samples" / "contract.docx", source)
    out = tmp_path / "out.docx"
    ops = json.dumps({"operations": [{"type": "replaceInBlock", "blockId": "2B165965", "find": "thirty",
                                      "replace": "sixty", "comment": "Longer notice."}]})  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", "from deskcheck.cli.main import main; main()", "docx", "suggest-changes", str(source),
         ops, "-o", str(out), "--mode", "direct"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert zipfile.ZipFile(out).testzip() is None
    assert Path(json.loads(proc.stdout)["result"]["output"]) == out
    blocks = run_cli("docx", "read-document", str(out)).json["result"]["blocks"]
    assert any("sixty" in block["text"] for block in blocks)
