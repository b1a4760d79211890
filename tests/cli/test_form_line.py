"""cli.form_line reads a form tool verb's plain line without Typer: what it accepts, it must read
exactly as Typer does (same verb, NAME/ARGS, context and --allow-invalid), and everything else it
must leave to Typer."""

from __future__ import annotations

import errno
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.cli.commands import form_verbs
from deskcheck.cli.context import build_context
from deskcheck.cli.errors import UsageError
from deskcheck.cli.form_line import SPELLINGS, read_form_line
from tests.cli import plain_lines
from tests.helpers import run_cli
from tests.hypothesis_profiles import examples

VERBS = list(form_verbs.tool_verbs())


def typer_reading(argv: list[str], monkeypatch: pytest.MonkeyPatch):
    return plain_lines.typer_reading(
        argv,
        monkeypatch,
        form_verbs,
        "run_tool_verb",
        lambda tool_verb, positionals, context, allow_invalid: (
            tool_verb,
            list(positionals or []),
            context,
            allow_invalid,
        ),
    )


def fast_reading(argv: list[str]):
    line = read_form_line(argv)
    if line is None:
        return None
    try:
        context = build_context(**line.options)
    except UsageError as exc:
        return ("usage", exc.message)
    return ("call", line.tool_verb, line.positionals, context, line.allow_invalid)


VALUES = st.sampled_from(
    ["a.json", "dir/b.yaml", "x", "", "-", "-x", "--schema", "1", "0.05", "0.1", "2.5", " 3 ", "nan", "inf", "1e3",
     "Authorization: Bearer t", "bad header", "https://example.test", "=", "a=b"]
)  # fmt: skip
OPTION_ITEMS = st.tuples(st.sampled_from(sorted(SPELLINGS)), VALUES).map(lambda pair: list(pair))
EQUALS_ITEMS = st.tuples(st.sampled_from(sorted(s for s in SPELLINGS if s.startswith("--"))), VALUES).map(
    lambda pair: [f"{pair[0]}={pair[1]}"]
)
OTHER_ITEMS = st.sampled_from(
    [['{"path": "/name", "value": "Ada"}'], ["-"], ["group"], ["@args.json"], ["--allow-invalid"], ["--"],
     ["-h"], ["--help"], ["--bogus"], ["-Hx: y"], ["--allow-invalid=1"], ["--no-allow-invalid"], ["--schema"],
     ["-1"], [""], ["--fill-defaults"], ["--fill-defaults=1"]]
)  # fmt: skip
LINES = st.tuples(
    st.sampled_from([*VERBS, "sessions", "discard", "no-such-verb"]),
    st.lists(st.one_of(OPTION_ITEMS, EQUALS_ITEMS, OTHER_ITEMS), max_size=6),
).map(lambda parts: ["form", parts[0], *[token for item in parts[1] for token in item]])


@settings(max_examples=examples(300), deadline=None)
@given(LINES)
def test_an_accepted_line_reads_as_typer_reads_it(argv):
    fast = fast_reading(argv)
    if fast is None:
        return  # Typer reads it, as before
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert typer_reading(argv, monkeypatch) == fast, argv


COMMON = [
    ["form", "set-field-value", "--schema", "s.json", "--data", "d.json", '{"path": "/a", "value": 1}'],
    ["form", "describe-state", "--data=d.json", "--schema=s.json"],
    ["form", "get-data", '{"path": "/a"}', "--schema", "s.json", "--data", "d.json", "--identity", "ada"],
    ["form", "save-form", "--schema", "s.json", "--data", "d.json", "--allow-invalid"],
    ["form", "describe-state", "--schema", "s.json", "--data", "d.json", "--fill-defaults"],
    ["form", "set-data", "--schema", "s.json", "--data", "d.json", "-"],
    ["form", "describe-state", "--spec", "api.json", "line", '{"lineId": "1"}', "-H", "X-A: 1", "--header", "X-B: 2",
     "--profile", "p1", "--profile", "p2", "--base-url", "http://127.0.0.1:1", "--token", "t", "--allow-host",
     "h.test", "--timeout", "5"],
]  # fmt: skip


@pytest.mark.parametrize("argv", COMMON)
def test_the_common_lines_skip_typer_and_read_the_same(argv, monkeypatch):
    fast = fast_reading(argv)
    assert fast is not None and fast[0] == "call"
    assert typer_reading(argv, monkeypatch) == fast


@pytest.mark.parametrize(
    "argv",
    [
        ["form", "set-field-value"],  # no arguments: Typer prints the verb's help
        ["form", "set-field-value", "--help"],
        ["form", "set-field-value", "-h"],
        ["form", "sessions", "--drafts"],
        ["form", "describe-state", "--schema", "a", "--schema", "b", "{}"],  # repeated: Typer keeps the last
        ["form", "describe-state", "--schema"],  # no value
        ["form", "describe-state", "--identity", "-x"],
        ["form", "describe-state", "--timeout", "0.01"],
        ["form", "describe-state", "--timeout", "nan"],
        ["form", "describe-state", "--allow-invalid"],  # save-form's only
        ["form", "describe-state", "--", "{}"],
        ["form", "describe-state", "-Hx: 1"],
        ["form", "--help"],
    ],
)
def test_anything_else_is_left_to_typer(argv):
    assert read_form_line(argv) is None


def test_shell_completion_is_left_to_typer(monkeypatch):
    monkeypatch.setenv("_DESKCHECK_COMPLETE", "bash_complete")
    assert read_form_line(COMMON[0]) is None


def test_the_spellings_are_the_declared_options():
    """SPELLINGS lists exactly the options the Typer command of a form verb declares (besides
    its flags and help), with the same keyword and repeatability; paths and the timeout floor
    match the declared types; FLAGS lists the flags every verb declares."""
    import typer.main

    from deskcheck.cli import form_line
    from deskcheck.cli.commands.form import form_app

    group = typer.main.get_group(form_app)
    for name in VERBS:
        command = group.get_command(None, name)
        declared = {}
        for param in command.params:
            if param.param_type_name != "option" or param.name in ("help", "allow_invalid"):
                continue
            if param.name in form_line.FLAGS.values():
                assert param.is_flag and param.opts == [k for k, v in form_line.FLAGS.items() if v == param.name]
                continue
            assert not param.secondary_opts, param.name
            for spelling in param.opts:
                declared[spelling] = (param.name, param.multiple)
            is_path = "Path" in type(param.type).__name__  # Typer's path type for a Path annotation
            assert is_path == (param.name in form_line._PATHS), param.name
            if not is_path and param.name not in ("timeout", "document"):
                assert type(param.type).__name__ == "StringParamType", param.name  # taken as given
            if param.name == "timeout":
                assert param.type.min == form_line._MIN_TIMEOUT and not param.type.min_open
            if param.name == "document":  # read as a whole number from 1, the rest left to Typer
                assert type(param.type).__name__ == "IntRange" and param.type.min == 1 and param.type.max is None
        assert declared == SPELLINGS, name
        has_flag = any(p.name == "allow_invalid" for p in command.params)
        assert has_flag == (name == "save-form")


@pytest.mark.parametrize(
    ("raised", "code", "stderr"),
    [
        (KeyboardInterrupt(), 130, ""),
        (EOFError(), 1, "\nAborted!\n"),
        (OSError(errno.EPIPE, "Broken pipe"), 1, ""),
    ],
)
def test_interruptions_end_the_process_as_through_typer(raised, code, stderr, monkeypatch, tmp_path):
    def interrupted(*_args):
        raise raised

    monkeypatch.setattr(form_verbs, "run_tool_verb", interrupted)
    schema = ["--schema", str(tmp_path / "s.json")]
    fast = run_cli("form", "describe-state", *schema, expect=None)
    through_typer = run_cli("form", "describe-state", *schema, *schema, expect=None)  # repeated: Typer reads it
    assert (fast.exit_code, fast.stderr) == (through_typer.exit_code, through_typer.stderr) == (code, stderr)


def test_a_form_verb_prints_the_same_through_either_reader(tmp_path):
    """End to end: the same edit through the quick reader and through Typer prints the same."""
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string", "minLength": 2}}}))
    data.write_text('{"name": "Ada"}\n')
    files = ["--schema", str(schema), "--data", str(data)]
    fast = run_cli("form", "set-field-value", *files, '{"path": "/name", "value": "B"}')
    slow = run_cli("form", "set-field-value", *files, "--data", str(data), '{"path": "/name", "value": "B"}')
    assert fast.stdout == slow.stdout and json.loads(fast.stdout)["ok"]
    missing = run_cli("form", "describe-state", "--schema", str(tmp_path / "none.json"), "--data", str(data), expect=2)
    assert "does not exist" in missing.json["error"]


def _open_connections_under(folder) -> list[str]:
    import gc
    import sqlite3

    found = []
    for obj in gc.get_objects():
        if isinstance(obj, sqlite3.Connection):
            try:
                files = [row[2] for row in obj.execute("PRAGMA database_list")]
            except sqlite3.ProgrammingError:  # closed
                continue
            found += [f for f in files if f.startswith(str(folder))]
    return found


def test_a_form_verb_closes_its_store_and_leaves_the_collector_alone(tmp_path, isolated_state):
    """The verb closes its session store itself (the console script then lets the interpreter
    skip collecting at exit: nothing must be waiting for the collector), and an in-process
    caller's collector is left as it was."""
    import gc

    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data.write_text('{"name": "Ada"}\n')
    frozen = gc.get_freeze_count()
    run_cli("form", "set-field-value", "--schema", str(schema), "--data", str(data), '{"path": "/name", "value": "B"}')
    assert _open_connections_under(isolated_state) == []
    assert gc.get_freeze_count() == frozen and gc.isenabled()
