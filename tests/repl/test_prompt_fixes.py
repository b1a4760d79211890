"""The prompt as a person uses it, through prompt_toolkit's pipe input: Enter takes a completion
chosen in the menu, F1 shows help and keeps the line, `diff` names the paths changed inside lists,
`suggest` numbers each answer from 0, and a script's stdout holds only what its commands print."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deskcheck.cli.context import ContextOptions
from tests.helpers import run_cli
from tests.repl.support import drive, lines
from tests.repl.test_form_repl import SCHEMA

ENTER, TAB, F1, CTRL_D, DOWN = "\n", "\t", "\x1bOP", "\x04", "\x1b[B"


@pytest.fixture
def form(tmp_path) -> tuple[ContextOptions, Path]:
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps(SCHEMA))
    record = {"name": "Kick-off", "speakers": [{"name": "Ada", "minutes": 10}, {"name": "Grace", "minutes": 5}]}
    data.write_text(json.dumps(record))
    return ContextOptions(schema=schema, data=data), data


def test_enter_takes_the_completion_chosen_in_the_menu(form):
    context, _ = form
    # "set /sea", Tab chooses /seats in the menu; Enter takes it instead of running "set /seats";
    # the value is typed after it and the next Enter runs the whole line.
    run = drive(context, ["set /sea", TAB, ENTER, " 12", ENTER, "get /seats" + ENTER + CTRL_D])
    assert "usage: set PATH VALUE" not in run.output, "the half-typed line did not run"
    assert "/seats (number) = 12" in run.output


def test_enter_with_the_menu_open_but_nothing_chosen_runs_the_line(form):
    context, _ = form
    # The menu opens while typing ("status" also matches "st..."), but nothing is chosen in it.
    run = drive(context, ["status", ENTER, CTRL_D])
    assert 'form "event.json" · ready · valid · no unsaved edits' in run.output


def test_enter_takes_a_completion_chosen_with_the_arrows(form):
    context, _ = form
    run = drive(context, ["get /speakers/1/na", DOWN, ENTER, ENTER, CTRL_D])
    assert '"Grace"' in run.output


def test_f1_shows_help_above_the_prompt_and_keeps_the_line(form):
    context, _ = form
    run = drive(context, ["set /seats", F1, " 7", ENTER, "get /seats" + ENTER + CTRL_D])
    out = run.output
    assert "set PATH VALUE\nWrite one field." in out, "help for the command being typed"
    assert "/seats (number) = 7" in out, "the line typed before F1 ran once finished"
    assert out.index("Write one field.") < out.index("/seats (number) = 7")
    empty = drive(context, [F1, CTRL_D])
    assert "help [COMMAND]" in empty.output and "`help COMMAND` explains one." in empty.output


def test_diff_names_the_paths_changed_inside_lists(form):
    context, _ = form
    run = drive(
        context,
        lines("set /speakers/1/minutes 15", 'add /speakers {"name": "Linus"}', "remove /speakers 0", "diff"),
    )
    out = "\n".join(line for line in run.output.splitlines() if " -> " in line)
    # Ada removed (named where she was), Grace's minutes changed (Grace is item 0 now), Linus
    # added: three changes, not every field of a shifted list, and no whole list folded.
    assert '/speakers/0: {"name": "Ada", "minutes": 10} -> unset' in out
    assert "/speakers/0/minutes: 5 -> 15" in out
    assert '/speakers/1: unset -> {"name": "Linus"}' in out
    assert "/speakers/0/name" not in out and "Grace" not in out
    assert "chars)" not in out, "nothing folded"


def test_suggest_numbers_each_answer_from_0_and_pick_follows(form):
    context, data = form
    run = drive(context, lines("suggest /colour", "suggest /colour", "pick 2", "save"))
    out = run.output
    assert out.count("- [0] red") == 2 and "- [3]" not in out, "the same answer twice, numbered the same"
    assert out.count("`pick N` writes option N:") == 2, "at the prompt, pick applies an option"
    assert json.loads(data.read_text())["colour"] == "blue", "pick 2 of the second answer"
    picked = drive(context, lines("suggest /colour", "pick 3"))
    assert "there is no option 3: the last `suggest` listed 0 to 2." in picked.output


def test_a_script_prints_only_its_commands_output(form, tmp_path):
    context, _ = form
    args = ["--schema", str(context.schema), "--data", str(context.data)]
    run = run_cli("repl", *args, stdin="status\nset /seats 3\n")
    assert run.stdout.startswith('form "event.json" · ready'), "no greeting before the first answer"
    assert "Type `help`" not in run.stdout and "Form " not in run.stdout
    again = run_cli("repl", *args, stdin="status\n")
    assert again.stdout.startswith('form "event.json"') and "Resuming 1 unsaved edit kept" in again.stderr
