"""The pager (which one, when, and what it gets) and progress on stderr (the engine's phases, drawn
only past a delay and only on a terminal)."""

from __future__ import annotations

import io
import json
import time

import pytest

from deskcheck.cli.output import pager
from deskcheck.cli.output.progress import TerminalProgress
from deskcheck.engine import progress
from tests.helpers import FakeTerminal, probe_process, run_cli, top_level_modules

LONG = [f"line {n}" for n in range(100)]


# -- which pager ----------------------------------------------------------------------------------------


def test_deskcheck_pager_comes_before_pager_then_less(monkeypatch):
    monkeypatch.setattr(pager.shutil, "which", lambda name: "/usr/bin/less")
    assert pager.pager_command({}) == "less -R"
    assert pager.pager_command({"PAGER": "more"}) == "more"
    assert pager.pager_command({"PAGER": "more", "DESKCHECK_PAGER": "most -s"}) == "most -s"
    assert pager.pager_command({"PAGER": "more", "DESKCHECK_PAGER": ""}) is None, "empty: no pager"
    assert pager.pager_command({"PAGER": "cat"}) is None
    monkeypatch.setattr(pager.shutil, "which", lambda name: None)
    assert pager.pager_command({}) is None, "no less installed: no pager"


# -- when and what ---------------------------------------------------------------------------------------


def test_long_output_goes_through_the_pager_with_less_settings(tmp_path, monkeypatch):
    paged, settings = tmp_path / "paged.txt", tmp_path / "less.txt"
    monkeypatch.setenv("DESKCHECK_PAGER", f'printf %s "$LESS" > {settings}; cat > {paged}')
    monkeypatch.delenv("LESS", raising=False)
    with (tmp_path / "terminal.txt").open("w") as stream:
        pager.show_lines(stream, LONG, page=True, height=40)
    assert paged.read_text() == "".join(f"{line}\n" for line in LONG)
    assert settings.read_text() == "FRX", "less keeps colours, quits when it fits, leaves the text on screen"
    assert (tmp_path / "terminal.txt").read_text() == "", "nothing written around the pager"


def test_short_output_or_paging_off_is_written_directly(tmp_path, monkeypatch):
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("DESKCHECK_PAGER", f"cat > {paged}")
    for lines, page in ((LONG[:10], True), (LONG, False)):
        stream = io.StringIO()
        pager.show_lines(stream, lines, page=page, height=40)
        assert stream.getvalue() == "".join(f"{line}\n" for line in lines)
    assert not paged.exists()


def test_a_pager_that_cannot_run_leaves_the_output_on_the_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("DESKCHECK_PAGER", "no-such-pager-anywhere")
    with (tmp_path / "terminal.txt").open("w") as stream:
        pager.show_lines(stream, LONG, page=True, height=40)
    assert (tmp_path / "terminal.txt").read_text().startswith("line 0\nline 1\n")


def test_no_pager_flag_json_and_pipes_never_page(tmp_path, monkeypatch):
    from deskcheck.cli import env as cli_env

    marker = tmp_path / "paged.txt"
    monkeypatch.setenv("DESKCHECK_PAGER", f"cat > {marker}")
    for flags, tty in (({"no_pager": True}, True), ({"json": True}, True), ({}, False)):
        cli_env.set_global_flags(cli_env.GlobalFlags(**flags))
        monkeypatch.setattr(cli_env.sys, "stdout", FakeTerminal() if tty else io.StringIO())
        assert cli_env.current_env().pager is False, flags
    cli_env.set_global_flags(cli_env.GlobalFlags())
    monkeypatch.setattr(cli_env.sys, "stdout", FakeTerminal())
    assert cli_env.current_env().pager is True


def test_no_pager_is_accepted_anywhere_on_the_line(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    run = run_cli("docx", "tools", "--no-pager", terminal=True)
    assert run.stdout.count("\n") > 15 and "read_document" in run.stdout


# -- progress --------------------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def begin(self, label, total):
        self.events.append(("begin", label, total))
        return label

    def advance(self, handle, amount):
        self.events.append(("advance", handle, amount))

    def end(self, handle):
        self.events.append(("end", handle))


def test_phases_reach_the_listener_and_cost_nothing_without_one():
    with progress.phase("alone") as step:
        step.advance()  # nobody listens: nothing happens
    recorder = Recorder()
    with progress.listening(recorder), progress.phase("outer", total=2) as outer:
        assert list(progress.each(["a", "b"], "items", lambda item: f"item {item}")) == ["a", "b"]
        outer.advance(2)
    assert recorder.events == [
        ("begin", "outer", 2),
        ("begin", "items", 2),
        ("begin", "item a", None),
        ("end", "item a"),
        ("advance", "items", 1),
        ("begin", "item b", None),
        ("end", "item b"),
        ("advance", "items", 1),
        ("end", "items"),
        ("advance", "outer", 2),
        ("end", "outer"),
    ]


def test_the_engine_names_its_phases_of_a_compare(tmp_path):
    from deskcheck.engine.docx.versions.compare import compare_versions
    from tests.docx.builders import long_document

    previous = long_document(tmp_path / "a.docx", 200)
    current = long_document(tmp_path / "b.docx", 200, edited=True)
    recorder = Recorder()
    with progress.listening(recorder):
        compare_versions(previous, current)
    labels = [event[1] for event in recorder.events if event[0] == "begin"]
    assert labels[:2] == ["reading a.docx", "reading the paragraphs of a.docx"]
    assert {"aligning paragraphs", "comparing paragraphs", "finding moved paragraphs"} <= set(labels)
    counted = [e for e in recorder.events if e[:2] == ("advance", "comparing paragraphs")]
    assert counted and recorder.events.count(("end", "comparing paragraphs")) == 1


def test_short_work_shows_nothing():
    stream = FakeTerminal()
    display = TerminalProgress(stream, delay=0.5)
    with progress.listening(display), progress.phase("quick", total=3) as step:
        step.advance(3)
    display.close()
    assert stream.getvalue() == ""


def test_long_work_is_drawn_then_erased():
    stream = FakeTerminal()
    display = TerminalProgress(stream, delay=0.05)
    with progress.listening(display), progress.phase("reading big.docx", total=10) as step:
        step.advance(3)
        deadline = time.monotonic() + 10
        while "reading big.docx" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
        drawn = stream.getvalue()
    assert "reading big.docx" in drawn and "3/10" in drawn
    assert display._display is None, "no phase runs: the display is gone"
    assert stream.getvalue()[len(drawn) - 1 :].rstrip("\r").endswith("\x1b[2K\x1b[?25h"), "line erased, cursor back"


def test_batch_counts_the_lines_of_a_file_not_of_a_pipe(tmp_path):
    from deskcheck.cli.commands.batch import _input

    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"id": 1, "tool": "t"}\n\n{"id": 2, "tool": "t"}\n')
    with calls.open() as stream:
        lines, total = _input(stream)
        assert total == 2 and len(list(lines)) == 3
    lines, total = _input(io.StringIO(calls.read_text()))
    assert total is None


@pytest.mark.slow
def test_piped_output_loads_no_rendering(tmp_path):
    """Scripts pay nothing for the terminal views: a piped docx verb imports neither rich nor
    cli.render, and draws no progress."""
    from tests.docx.builders import long_document

    document = long_document(tmp_path / "a.docx", 50)
    report = probe_process("docx", "read-document", str(document))
    assert report["code"] == 0 and json.loads(report["out"])["result"]["totalBlocks"] == 50
    assert "rich" not in top_level_modules(report)
    assert not [name for name in report["modules"] if name.startswith("deskcheck.cli.render")]


@pytest.mark.parametrize("argv", [["docx", "--help"], ["form", "--help"], ["openapi", "--help"]])
def test_group_help_starts_with_a_purpose_and_an_example(argv):
    out = run_cli(*argv).stdout
    paragraphs = out.split("\n\n")
    assert paragraphs[0].startswith(f"Usage: deskcheck {argv[0]} [OPTIONS] COMMAND [ARGS]...")
    assert len(paragraphs[1].strip().splitlines()) == 1, "one line of what it is for"
    assert paragraphs[2].strip().startswith("Example") and f"deskcheck {argv[0]} " in paragraphs[2]


# -- rows, not lines (issue 29, item 5) ------------------------------------------------------------------


def test_the_pager_counts_the_rows_long_lines_wrap_onto(tmp_path, monkeypatch):
    """39 lines that wrap to 52 rows on a 40-row terminal must page; colour codes take no cells."""
    lines = [("x" * 100 if n % 3 == 0 else "short") for n in range(39)]
    assert pager.rows(lines, 80) == 26 + 13 * 2 == 52
    assert pager.rows(["\x1b[1m" + "y" * 80 + "\x1b[0m"], 80) == 1
    assert pager.rows(["界" * 50], 80) == 2, "wide characters take two cells"
    assert pager.rows(lines, 80, stop=40) == 40
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("DESKCHECK_PAGER", f"cat > {paged}")
    with (tmp_path / "terminal.txt").open("w") as stream:
        pager.show_lines(stream, lines, page=True, height=40, width=80)
    assert paged.read_text() == "".join(f"{line}\n" for line in lines)
    with (tmp_path / "terminal.txt").open("w") as stream:
        pager.show_lines(stream, lines, page=True, height=40, width=200)
    assert (tmp_path / "terminal.txt").read_text().count("\n") == 39, "fits at 200 columns: written directly"


def _capture_pager(monkeypatch) -> list[str]:
    """What reaches the pager (an in-process run's stdout is no file a pager could write to)."""
    paged: list[str] = []
    monkeypatch.setenv("DESKCHECK_PAGER", "less")
    monkeypatch.setattr(pager, "run_pager", lambda command, text, stream: paged.append(text) or True)
    return paged


def test_a_form_description_that_wraps_past_the_screen_is_paged(tmp_path, monkeypatch):
    properties = {f"field_{n:02}": {"type": "string", "title": f"A rather long title for field number {n}"}
                  for n in range(30)}  # fmt: skip
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": properties}), encoding="utf-8")
    data.write_text("{}", encoding="utf-8")
    paged = _capture_pager(monkeypatch)
    monkeypatch.setenv("LINES", "40")
    argv = ("form", "describe-state", "--schema", str(schema), "--data", str(data), "--no-color")
    monkeypatch.setenv("COLUMNS", "200")
    wide = run_cli(*argv, terminal=True)
    assert wide.stdout.count("\n") < 40 and not paged, "it fits on a wide screen"
    monkeypatch.setenv("COLUMNS", "40")
    narrow = run_cli(*argv, terminal=True)
    assert narrow.stdout == "" and "field_29" in paged[0], "wrapped, it is taller than the screen"


@pytest.mark.slow
def test_the_demo_narration_goes_through_the_pager(tmp_path, monkeypatch):
    paged = _capture_pager(monkeypatch)
    monkeypatch.setenv("LINES", "40")
    monkeypatch.setenv("COLUMNS", "100")
    run = run_cli("demo", "--output-dir", str(tmp_path / "out"), "--no-color", terminal=True)
    assert run.stdout == "" and len(paged) == 1
    text = paged[0]
    assert "deskcheck demo: the whole main job on the shipped samples" in text.split("\n", 1)[0]
    assert "2. A docx review" in text and "steps worked" in text
