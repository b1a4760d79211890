"""A whole form session at the prompt, over a file-backed form: show, an invalid then a valid
value, suggest and pick, an added list item, a variant, undo, save, a conflict with a change made
on disk, reload; and leaving then coming back resumes unsaved edits from the same session the
CLI uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deskcheck.cli.context import ContextOptions
from tests.helpers import run_cli
from tests.repl.support import drive, lines

SCHEMA = {
    "type": "object",
    "title": "Event",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2},
        "seats": {"type": "integer", "title": "Seats", "minimum": 1},
        "colour": {"type": "string", "title": "Colour", "enum": ["red", "green", "blue"]},
        "speakers": {
            "type": "array",
            "title": "Speakers",
            "items": {"type": "object", "properties": {"name": {"type": "string"}, "minutes": {"type": "integer"}}},
        },
        "venue": {
            "type": "object",
            "title": "Venue",
            "oneOf": [
                {"title": "Online", "properties": {"kind": {"const": "online"}, "url": {"type": "string"}}},
                {"title": "Hall", "properties": {"kind": {"const": "hall"}, "room": {"type": "string"}}},
            ],
        },
        "notes": {"type": "string", "title": "Notes"},
    },
}


@pytest.fixture
def form(tmp_path) -> tuple[ContextOptions, Path]:
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{\n  "name": "Kick-off",\n  "notes": "' + "long text " * 30 + '"\n}\n')
    return ContextOptions(schema=schema, data=data), data


def test_a_full_form_session(form):
    context, data = form
    run = drive(
        context,
        lines(
            "show",
            "set /seats 0",
            "errors",
            "set /seats 40",
            "suggest /colour",
            "pick 2",
            'add /speakers {"name": "Ada"}',
            "set /speakers/0/minutes 20",
            "variant /venue 1",
            "show /venue",
            "set /venue/$oneOf/1/room Blue room",
            "show /speakers",
            "status",
            "diff",
            "save",
            "status",
        ),
    )
    assert run.code == 0, run.output
    out = run.output
    assert 'Form "event.json": session ready, valid.' in out
    # The tree: label, path, type, value; a long value folded to one line.
    assert '     Name  /name  text, required  = "Kick-off"' in out
    assert 'Notes  /notes  text  = "long text long text' in out and "(302 chars)" in out
    assert "Colour  /colour  select, suggestions  = unset" in out
    assert "Venue  /venue  section  = unset" in out, "an object the record does not have yet"
    assert "● variant 1: Hall (active)" in run.after("/venue/$oneOf (variant-selector) = 1")
    # An invalid value is written, marked, and listed by errors.
    assert "/seats: must be 1 or more" in run.after("/seats (number) = 0")
    assert " !   Seats  /seats" not in out.split("/seats (number) = 0")[0], "no error before the write"
    assert "/seats (number) = 40\nno errors here" in out
    assert "- [2] blue" in out and '/colour (select) = "blue"' in out
    assert "added an item at index 0; the list has 1 item(s) now" in out
    assert '/venue/$oneOf/1/room (text) = "Blue room"' in out
    # show on the list: the item, its fields, the modified marks.
    assert " * Speakers  /speakers  array, 1 item" in out
    assert "    [0] Ada  /speakers/0  section" in out and "      minutes  /speakers/0/minutes  number  = 20" in out
    assert 'form "event.json" · ready · valid · unsaved edits' in out
    assert '/colour: unset -> "blue"' in out and "/seats: unset -> 40" in out
    assert 'Saved "event.json" (version sha256:' in out
    assert 'form "event.json" · ready · valid · no unsaved edits' in out
    saved = json.loads(data.read_text())
    assert saved["seats"] == 40 and saved["colour"] == "blue"
    assert saved["speakers"] == [{"name": "Ada", "minutes": 20}]
    assert saved["venue"] == {"kind": "hall", "room": "Blue room"}
    assert data.read_text().startswith('{\n  "name"'), "the file keeps its layout"


def test_an_invalid_record_is_not_saved_unless_allowed(form):
    context, data = form
    before = data.read_text()
    run = drive(context, lines("set /name X", "save", "save --allow-invalid"))
    assert "error: " in run.output and "is not valid (1 error(s): /name:" in run.output
    # In the REPL's words: its commands, not the tools an agent calls.
    assert "Fix the reported errors (`errors` lists them) and `save` again, or `save --allow-invalid`." in run.output
    assert "describeState" not in run.output and "(--allow-invalid)" not in run.output
    assert json.loads(data.read_text())["name"] == "X", "save --allow-invalid sent it"
    assert before != data.read_text()


def test_a_conflict_keeps_the_edits_and_reload_gets_the_file(form):
    context, data = form
    first = drive(context, lines("set /seats 12"))
    assert first.code == 0
    # Someone changes the file meanwhile.
    data.write_text(json.dumps({"name": "Renamed elsewhere"}, indent=2) + "\n")
    run = drive(context, lines("save", "status", "diff", "reload", "get /name", "status"))
    out = run.output
    assert "Resuming 1 unsaved edit kept in the session (/seats)" in out
    assert "changed at its source since it was loaded" in out and "Your edits are still in the session (/seats)" in out
    assert 'form "event.json" · stale · valid · unsaved edits' in out
    assert "/seats: unset -> 12" in out
    assert 'Reloaded "event.json" from its source; local changes were discarded (/seats).' in out
    assert '"Renamed elsewhere"' in run.after("Reloaded")
    assert 'form "event.json" · ready · valid · no unsaved edits' in out
    assert json.loads(data.read_text()) == {"name": "Renamed elsewhere"}, "the conflicting save wrote nothing"


def test_leaving_and_coming_back_resumes_the_same_session_as_the_cli(form):
    context, data = form
    drive(context, lines("set /seats 7", "set /colour red"))
    # The CLI sees the REPL's edits in the same session...
    described = run_cli(
        "form", "describe-state", "--schema", str(context.schema), "--data", str(data), '{"path": "/seats"}'
    ).json["result"]
    assert "value=7" in described and "modified" in described
    # ...and the REPL sees the CLI's.
    run_cli(
        "form",
        "set-field-value",
        "--schema",
        str(context.schema),
        "--data",
        str(data),
        '{"path": "/seats", "value": 8}',
    )
    run = drive(context, lines("get /seats", "diff"))
    assert "Resuming 2 unsaved edits kept in the session (/seats, /colour)" in run.output
    assert "\n8\n" in run.output and "/seats: unset -> 8" in run.output
    assert json.loads(data.read_text())["name"] == "Kick-off" and "seats" not in json.loads(data.read_text())


def test_undo_takes_back_the_last_writes_and_refuses_over_other_changes(form):
    context, _ = form
    run = drive(
        context,
        lines("set /seats 3", "set /seats 4", "undo", "get /seats", "undo", "get /seats", "undo"),
    )
    out = run.output
    assert out.count("Undone: the record is back as it was before your last write.") == 2
    assert "\n3\n" in run.after("Undone") and "unset (no value)" in out
    assert "error: nothing to undo" in out
    # A change that was not a REPL write (here a raw tool call; another process is the same):
    # undo refuses rather than overwrite it.
    other = drive(
        context, lines("set /seats 5", 'call form_setFieldValue {"path": "/seats", "value": 6}', "undo", "get /seats")
    )
    assert '{"ok": true, "result": "/seats (number) = 6' in other.output, "call prints the CLI's envelope"
    assert "error: the record changed since your last write" in other.output
    assert other.output.rstrip().endswith("6") or "\n6\n" in other.output


def test_usage_errors_are_explained_and_the_session_goes_on(form):
    context, _ = form
    run = drive(
        context,
        lines(
            "frobnicate",
            "set",
            "set /nowhere 1",
            'set /name {"unclosed": ',
            "pick 1",
            "variant /name 1",
            "remove /speakers",
            "show /name",
        ),
    )
    out = run.output
    assert "error: unknown command 'frobnicate'" in out
    assert "error: usage: set PATH VALUE" in out
    assert "/nowhere" in out and "error: " in out
    assert "the value is not valid JSON" in out
    assert "nothing to pick from: list a field's options with `suggest PATH` first." in out
    assert "/name has no variants" in out
    assert '  Name  /name  text, required  = "Kick-off"' in out, "the session went on"


def test_history_persists_privately_and_suggests_like_fish_and_ctrl_c_cancels(form, isolated_state):
    context, _ = form
    drive(context, lines("set /colour green"))
    history = isolated_state / "repl-history-form"
    assert "set /colour green" in history.read_text()
    assert history.stat().st_mode & 0o777 == 0o600, "values typed into forms stay private"
    # A second REPL: the start of an earlier line shows the rest greyed; the right arrow takes it.
    # Ctrl-C drops the line being typed.
    run = drive(context, ["set /co", "\x1b[C", "\n", "set /seats 99\x03", "get /seats\n\x04"])
    assert '/colour (select) = "green"' in run.output
    assert "unset (no value)" in run.output and "99" not in run.output


def test_on_a_terminal_json_and_marks_are_coloured(form):
    context, _ = form
    run = drive(context, lines("set /seats 0", "get", "show /seats", "call form_getData {}"), color=True)
    out = run.output
    assert re.search(r'\x1b\[[0-9;]*m"seats"\x1b\[0m: \x1b\[[0-9;]*m0\x1b\[0m', out), "JSON keys and values coloured"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert '"seats": 0' in plain and "!* Seats  /seats  number  = 0  — must be 1 or more" in plain
    assert '"ok": true' in plain and '"result": "{\\"data\\"' in plain, "call's envelope, indented"


def test_f1_explains_the_command_being_typed_and_keeps_the_line(form):
    context, _ = form
    # F1 on "suggest /co" prints the help above the prompt; the line is still there to finish.
    run = drive(context, ["suggest /co", "\x1bOP", "lour\n", "\x04"])
    assert "suggest PATH [QUERY]\nList the options of a field" in run.output
    assert "- [0] red" in run.output, "the line typed before F1 ran once finished"
    assert run.output.index("List the options of a field") < run.output.index("- [0] red")
