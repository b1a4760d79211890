"""Every verb's result on a terminal: the real CLI, its stdout a simulated terminal of a fixed width
(rich's Console reads COLUMNS), prints a readable view with the essentials of the result and no
JSON. Piped output is the contract's JSON (tests/cli/test_contract.py)."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.helpers import has_row, run_cli

CONTRACT = REPO / "samples" / "contract.docx"
WIDTH = 100
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Blocks of the sample contract.
PAYMENT = "2B165965"  # 5.3 The Customer shall pay each undisputed invoice within thirty (30) days...
PRICE_RISE = "464D8DE6"  # 5.5, deleted by the review below
LIABILITY = "4D9EF6F2"
TERM_HEADING = "23C180F7"


class Screen:
    def __init__(self, raw: str, code: int) -> None:
        self.raw = raw
        self.text = ANSI.sub("", raw)
        self.code = code
        self.lines = self.text.splitlines()

    def has_row(self, *cells: str) -> bool:
        return has_row(self.text, *cells)

    def assert_readable(self) -> None:
        """No JSON (no braces or brackets opening an object or a list, no quoted keys); nothing
        wider than the terminal."""
        assert not re.search(r'[{\[]\s*$|^\s*[}\]]|\{"|"\s*:', self.text, re.M), self.text
        too_wide = [line for line in self.lines if len(line) > WIDTH]
        assert not too_wide, too_wide


@pytest.fixture
def tmp_path():
    """A short folder of the test's own: the paths these screens show must fit WIDTH, and
    pytest's folder grows with the test's name and, under pytest-xdist, the worker's."""
    folder = Path(tempfile.mkdtemp(prefix="dc-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def terminal(monkeypatch):
    """Run deskcheck with stdout on a simulated terminal WIDTH columns wide; no pager."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("LINES", "40")
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("DESKCHECK_PAGER", "")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args: str, expect: int = 0, stdin: str = "") -> Screen:
        result = run_cli(*args, expect=expect, stdin=stdin, terminal=True)
        return Screen(result.stdout, result.exit_code)

    return run


def json_result(*args: str):
    return run_cli(*args).json["result"]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> Path:
    """The sample contract after a review: a replacement with a comment, a deletion, a comment
    with a reply, all by Ann Reviewer."""
    path = tmp_path_factory.mktemp("review") / "contract.docx"
    shutil.copy(CONTRACT, path)
    operations = [
        {"id": "op-pay", "type": "replaceInBlock", "blockId": PAYMENT, "find": "thirty (30)",
         "replace": "forty-five (45)", "comment": "Our finance team pays on a 45-day cycle."},
        {"id": "op-rise", "type": "deleteBlock", "blockId": PRICE_RISE},
    ]  # fmt: skip
    run_cli("docx", "suggest-changes", str(path), "--author", "Ann Reviewer", json.dumps({"operations": operations}))
    run_cli(
        "docx", "add-comment", str(path), "--author", "Bob Counsel",
        json.dumps({"blockId": LIABILITY, "quote": "limited to the Charges paid", "text": "Too low a cap?"}),
    )  # fmt: skip
    thread = next(
        t for t in json_result("docx", "read-comments", str(path))["comments"] if t["author"] == "Bob Counsel"
    )
    run_cli("docx", "reply-comment", str(path), "--author", "Ann Reviewer",
            json.dumps({"commentId": thread["id"], "text": "Propose 150% of the annual Charges."}))  # fmt: skip
    return path


# -- reading -------------------------------------------------------------------------------------------


def test_read_document_is_a_table_of_blocks_cut_to_the_width(terminal):
    screen = terminal("docx", "read-document", str(CONTRACT))
    screen.assert_readable()
    assert screen.lines[0].startswith("98 blocks  documentVersion ")
    assert screen.has_row("id", "kind", "text")
    assert screen.has_row(TERM_HEADING, "heading 1", "3. Term")
    assert screen.has_row(PAYMENT, "list item", "5.3 The Customer shall pay each undisputed invoice")
    assert screen.has_row("7E227386", "paragraph · table 1 r1c1", "Milestone"), "a table cell says where it is"
    assert any(line.endswith("…") for line in screen.lines), "long texts are cut to the width"
    assert "blockTextHash" not in screen.text


def test_a_page_of_blocks_says_where_the_next_starts(terminal):
    screen = terminal("docx", "read-document", str(CONTRACT), '{"maxBlocks": 3}')
    screen.assert_readable()
    assert screen.lines[0].startswith("3 blocks of 98")
    assert "the next page starts after block 0B44A7FF (afterBlockId)" in screen.text


def test_blocks_show_fields_they_do_not_know_as_flags():
    """A field a later release adds to blocks (h19's joinsNext, placeholder) reads as a flag."""
    from deskcheck.cli.render.docx import blocks_table
    from deskcheck.cli.render.draw import Styler, draw

    blocks = [
        {"blockId": "1A", "kind": "paragraph", "text": "Name:", "blockTextHash": "h", "joinsNext": True,
         "placeholder": "Client name"},
        {"blockId": "2B", "kind": "paragraph", "text": "Old row", "table": {"index": 0, "row": 2, "column": 0},
         "pendingDeletion": True},
    ]  # fmt: skip
    text = "\n".join(draw([blocks_table(blocks)], WIDTH, Styler(None)))
    assert re.search(r"1A\s+paragraph · joins next, placeholder=Client name\s+Name:", text), text
    assert re.search(r"2B\s+paragraph · table 1 r3c1 · pending deletion\s+Old row", text), text


def test_outline_section_stories_and_story(terminal):
    outline = terminal("docx", "get-document-outline", str(CONTRACT))
    outline.assert_readable()
    assert outline.lines[0].startswith("11 headings") and outline.has_row(TERM_HEADING, "1", "3. Term")
    heading = next(
        s for s in json_result("docx", "get-document-outline", str(CONTRACT))["sections"]
        if s["headingBlockId"] == TERM_HEADING
    )  # fmt: skip
    section = terminal("docx", "read-section", str(CONTRACT), json.dumps({"handle": heading["handle"]}))
    section.assert_readable()
    assert section.lines[0].startswith("Section 3. Term: 3 blocks")
    assert section.has_row("list item", "3.1 This Agreement starts on the Effective Date")
    stories = terminal("docx", "list-stories", str(CONTRACT))
    stories.assert_readable()
    assert stories.has_row("main text", "98 blocks") and stories.has_row("footnote 1", "The statutory rate")
    assert stories.has_row("header rIdHeader1", "Software Services Agreement")
    story = terminal("docx", "read-story", str(CONTRACT), '{"handle": {"type": "footnote", "noteId": 1}}')
    story.assert_readable()
    assert story.lines[0].startswith("footnote 1") and "The statutory rate for late payment" in story.text


def test_find_text_lists_matches_with_the_query_highlighted(terminal):
    screen = terminal("docx", "find-text", str(CONTRACT), '{"query": "THIRTY (30) days"}')
    screen.assert_readable()
    assert screen.lines[0].startswith("3 matches of 'THIRTY (30) days'")
    assert screen.has_row(PAYMENT, "54-70", "thirty (30) days") and screen.has_row("28DB545E", "94-110")
    assert "\x1b[1;7mthirty (30) days\x1b[0m" in screen.raw, "each match stands out (bold, reversed), any case"


def test_comments_are_grouped_by_author_with_their_replies(terminal, reviewed):
    screen = terminal("docx", "read-comments", str(reviewed))
    screen.assert_readable()
    assert screen.lines[0].startswith("2 comment threads")
    assert "Ann Reviewer  1 thread, 1 open" in screen.text and "Bob Counsel  1 thread, 1 open" in screen.text
    assert screen.has_row("open", PAYMENT, "“forty-five (45", "Our finance team pays on a 45-day cycle.")
    assert screen.has_row("open", LIABILITY, "“limited to the Charges paid”", "Too low a cap?")
    assert screen.has_row("↳", "Ann Reviewer: Propose 150%"), "a reply under its thread"
    resolved = terminal("docx", "read-comments", str(reviewed), '{"filter": "resolved"}')
    assert resolved.lines[0].startswith("0 comment threads (resolved)") and "No comments." in resolved.text


def test_changes_are_grouped_by_author(terminal, reviewed):
    screen = terminal("docx", "read-changes", str(reviewed))
    screen.assert_readable()
    assert re.search(r"^\d+ pending tracked changes", screen.text)
    assert re.search(r"^Ann Reviewer  \d+ changes: .*deletion", screen.text, re.M)
    assert screen.has_row("deletion", PAYMENT, "thirty")
    assert screen.has_row("insertion", PAYMENT, "forty-five")
    assert screen.has_row("deletion", PRICE_RISE, "The Supplier may increase the hosting")
    assert "\x1b[9;31m" in screen.raw, "deleted text struck through in red"


# -- edits ---------------------------------------------------------------------------------------------


def test_suggest_changes_shows_applied_skipped_and_replayed(terminal, tmp_path):
    path = tmp_path / "c.docx"
    shutil.copy(CONTRACT, path)
    batch = {
        "operations": [
            {
                "id": "op-1",
                "type": "replaceInBlock",
                "blockId": PAYMENT,
                "find": "thirty (30)",
                "replace": "sixty (60)",
            },
            {"id": "op-2", "type": "replaceInBlock", "blockId": PAYMENT, "find": "no such words", "replace": "x"},
        ]
    }
    first = terminal(
        "docx", "suggest-changes", str(path), json.dumps(batch), expect=3
    )  # done in part: the contract's exit code on a terminal too
    first.assert_readable()
    assert first.lines[0] == "1 applied, 1 skipped"
    assert first.has_row("✓ op-1", f"replace in {PAYMENT}: 'thirty (30)' => 'sixty (60)'")
    assert first.has_row("✗ op-2", f"replace in {PAYMENT}: 'no such words' => 'x'")
    assert "[missingFind]" in first.text and f"written to {path}" in first.text
    again = terminal("docx", "suggest-changes", str(path), json.dumps({"operations": batch["operations"][:1]}))
    again.assert_readable()
    assert again.lines[0] == "1 replayed" and again.has_row("↺ op-1", "replace in")
    assert "already applied by an earlier call with the same id" in again.text
    dry = terminal("docx", "suggest-changes", str(path), "--dry-run",
                   json.dumps({"operations": [{"type": "deleteBlock", "blockId": LIABILITY}]}))  # fmt: skip
    assert "1 applied (dry run: nothing written)" in dry.text and f"delete {LIABILITY}" in dry.text


def test_a_queue_lists_its_batches_and_applies_them(terminal, tmp_path):
    path, queue = tmp_path / "c.docx", tmp_path / "review.jsonl"
    shutil.copy(CONTRACT, path)
    batch = {"operations": [{"id": "op-q", "type": "deleteBlock", "blockId": PRICE_RISE}]}
    parked = terminal("docx", "suggest-changes", str(path), "--queue", str(queue), json.dumps(batch))
    parked.assert_readable()
    assert "1 queued (parked in the queue, not applied)" in parked.text and parked.has_row("⋯ op-q", "delete")
    listing = terminal("docx", "queue", "list", str(queue))
    listing.assert_readable()
    assert listing.lines[0].startswith("1 batch in ") and listing.has_row("batch-", "queued", str(path))
    assert listing.has_row("op-q", "deleteBlock", "pending") and "apply refuses it" not in listing.text
    sealed = queue.read_text()
    queue.write_text(sealed.replace('"deleteBlock"', '"deleteBlock", "x": 1'))
    assert "changed since it was queued" in terminal("docx", "queue", "list", str(queue)).text
    queue.write_text(sealed)
    applied = terminal("docx", "queue", "apply", str(queue), str(path))
    applied.assert_readable()
    assert applied.lines[0] == "1 applied" and applied.has_row("✓ op-q", "deleteBlock")
    assert terminal("docx", "queue", "list", str(queue)).has_row("op-q", "deleteBlock", "applied")


def test_comment_edits_and_change_resolution(terminal, reviewed, tmp_path):
    path = tmp_path / "c.docx"
    shutil.copy(reviewed, path)
    added = terminal("docx", "add-comment", str(path), json.dumps({"blockId": TERM_HEADING, "text": "Check."}))
    added.assert_readable()
    assert added.lines[0] == "1 applied" and re.search(r"commentOnBlock 23C180F7\s+→ comment \d+", added.text)
    thread = json_result("docx", "read-comments", str(path))["comments"][0]["id"]
    replied = terminal("docx", "reply-comment", str(path), json.dumps({"commentId": thread, "text": "Done."}))
    assert re.search(rf"Replied to thread {thread}: the reply is comment \d+\.", replied.text)
    resolved = terminal("docx", "resolve-comment", str(path), json.dumps({"commentId": thread}))
    assert f"Comment {thread} is resolved." in resolved.text
    changes = json_result("docx", "read-changes", str(path))["changes"]
    deletion = next(c["id"] for c in changes if c["type"] == "deletion" and c["text"] == "thirty")
    accepted = terminal("docx", "accept-change", str(path), json.dumps({"changeIds": [deletion]}))
    accepted.assert_readable()
    assert accepted.lines[0] == "Accepted 1 tracked change: 1 deletion"
    assert accepted.has_row(deletion, "deletion", PAYMENT, "thirty") and "still pending." in accepted.text
    insertion = next(c["id"] for c in changes if c["type"] == "insertion" and c["text"] == "forty-five")
    rejected = terminal("docx", "reject-change", str(path), json.dumps({"changeIds": [insertion]}))
    assert rejected.lines[0] == "Rejected 1 tracked change: 1 insertion"
    everything = terminal("docx", "accept-all", str(path), "--dry-run")
    everything.assert_readable()
    assert re.match(r"Would have accepted \d+ tracked changes: ", everything.lines[0])
    assert "dry run: nothing was written" in everything.text
    rejected_all = terminal("docx", "reject-all", str(path))
    assert (
        re.match(r"Rejected \d+ tracked changes", rejected_all.lines[0]) and f"written to {path}" in rejected_all.text
    )


# -- compare, redline, tools -----------------------------------------------------------------------


def test_compare_shows_counts_and_word_diffs(terminal, reviewed, monkeypatch):
    # Names relative to the folder, so that the first line fits the width wherever the
    # repository and the temporary folder are (absolute paths were cut to it in a deep checkout).
    monkeypatch.chdir(reviewed.parent)
    shutil.copy(CONTRACT, "original.docx")
    screen = terminal("docx", "compare", "original.docx", reviewed.name)
    screen.assert_readable()
    assert screen.lines[0] == f"Compared original.docx with {reviewed.name}"
    counted = " ".join(line.strip() for line in screen.lines[1:4])
    assert counted.startswith(
        "Paragraphs of the main text, its tables, headers, footers and notes: 0 added, 1 deleted, "
    )
    assert screen.has_row(f"~ [{PAYMENT}] modified:", "within thirty (30)forty-five")
    assert "\x1b[9;31mthirty" in screen.raw and "\x1b[4;32mforty-five" in screen.raw, "a word diff in colour"
    assert screen.has_row(f"- [{PRICE_RISE}] deleted: The Supplier may increase")
    tool = terminal("docx", "compare-versions", str(reviewed), json.dumps({"previous": str(CONTRACT)}))
    tool.assert_readable()
    assert tool.has_row("0 added, 1 deleted, 1 modified") and tool.has_row(f"[{PAYMENT}] modified")
    same = terminal("docx", "compare", str(CONTRACT), str(reviewed))
    assert tool.lines == same.lines, "compare-versions is compare for a person: the same rendering"
    text = terminal("docx", "compare", str(CONTRACT), str(reviewed), "--format", "text")
    assert text.lines[0].startswith("Version diff: 0 added, 1 deleted"), "--format text: the plain text as asked"


def test_compare_without_colours_marks_the_words(terminal, reviewed, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    screen = terminal("docx", "compare", str(CONTRACT), str(reviewed))
    assert "\x1b[31m" not in screen.raw
    assert "[-thirty (30)-]{+forty-five (45)+}" in " ".join(line.strip() for line in screen.lines)


def test_redline_reports_what_it_wrote(terminal, reviewed, tmp_path):
    out = tmp_path / "redline.docx"
    screen = terminal("docx", "redline", str(CONTRACT), str(reviewed), "-o", str(out))
    screen.assert_readable()
    assert screen.lines[0] == f"✓ Redline written to {out}"
    assert "0 added, 1 deleted, 1 modified" in screen.text
    assert "Kept in the package" in screen.text and screen.has_row("creator", "docProps/core.xml", "deskcheck samples")
    scrubbed = terminal("docx", "redline", str(CONTRACT), str(reviewed), "-o", str(out), "--scrub-metadata")
    assert "Removed from the package" in scrubbed.text


def test_tool_listings_are_names_and_one_line(terminal):
    screen = terminal("docx", "tools")
    screen.assert_readable()
    assert screen.lines[0] == "15 tools" and screen.has_row("read_document", "read-only", "Read the main text")
    assert screen.has_row("suggest_changes", "suggest_changes proposes edits to the document.")
    assert len([line for line in screen.lines if line.startswith(("read_", "get_", "find_"))]) == 7
    exported = run_cli("docx", "tools", "--format", "anthropic", terminal=True)
    assert json.loads(exported.stdout)[0]["input_schema"]["type"] == "object", "an export asked for is JSON"


def test_call_shows_a_docx_tool_like_its_verb(terminal):
    called = terminal("call", "--docx", str(CONTRACT), "read_document", '{"maxBlocks": 3}')
    verb = terminal("docx", "read-document", str(CONTRACT), '{"maxBlocks": 3}')
    assert called.text == verb.text


def test_json_flag_keeps_the_envelope_on_a_terminal(terminal):
    run = run_cli("docx", "read-document", str(CONTRACT), '{"maxBlocks": 1}', "--json", terminal=True)
    assert json.loads(run.stdout)["result"]["blocks"][0]["blockId"] == "6605812C"


# -- forms and openapi --------------------------------------------------------------------------------


def test_form_tools_answer_text_and_sessions_are_a_table(terminal, tmp_path):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    properties = {"name": {"type": "string"}, "seats": {"type": "integer"}}
    schema.write_text(json.dumps({"type": "object", "title": "Event", "required": ["name"], "properties": properties}))
    data.write_text('{"name": "Kick-off"}\n')
    context = ["--schema", str(schema), "--data", str(data)]
    set_value = terminal("form", "set-field-value", *context, '{"path": "/seats", "value": 40}')
    assert "/seats (number) = 40" in set_value.text and '"ok"' not in set_value.text
    state = terminal("form", "describe-state", *context)
    assert "/seats" in state.text and "40" in state.text
    sessions = terminal("form", "sessions")
    sessions.assert_readable()
    assert sessions.lines[0] == "1 open session"
    assert sessions.has_row("group", "record", "status", "edits")
    assert sessions.has_row("form", "event.json", "ready", "unsaved edits", "valid"), "a long path keeps its end"
    drafts = terminal("form", "sessions", "--drafts")
    assert "No drafts" in drafts.text


def test_every_form_verb_reads_on_a_terminal(terminal, tmp_path):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    properties = {
        "name": {"type": "string"},
        "colour": {"type": "string", "enum": ["red", "green"]},
        "talks": {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}}}},
    }
    schema.write_text(json.dumps({"type": "object", "title": "Event", "properties": properties}))
    data.write_text('{"name": "Kick-off", "talks": [{"title": "a"}]}\n')
    context = ["--schema", str(schema), "--data", str(data)]
    answers = {
        "describe-state": ("/colour", "{}"),
        "get-data": ("name: Kick-off", "{}"),
        "set-data": ("", '{"data": {"name": "Launch", "talks": [{"title": "a"}]}}'),
        "get-field-suggestions": ("- [0] red", '{"path": "/colour"}'),
        "set-field-value": ('/colour (select) = "green"', '{"path": "/colour", "suggestionIndex": 1}'),
        "edit-array": ("added an item at index 1", '{"path": "/talks", "action": "add", "value": {"title": "b"}}'),
        "save-form": ("Saved", "{}"),
        "reload-form": ("Reloaded", "{}"),
    }
    for verb, (essential, args) in answers.items():
        screen = terminal("form", verb, *context, args)
        assert essential in screen.text, (verb, screen.text)
        assert '"ok"' not in screen.text and '"result"' not in screen.text, verb
    assert json.loads(data.read_text()) == {
        "name": "Launch",
        "talks": [{"title": "a"}, {"title": "b"}],
        "colour": "green",
    }
    get = terminal("form", "get-data", *context, '{"path": "/talks"}')
    get.assert_readable()
    assert get.lines == ["- title: a", "- title: b", "the record is valid"]
    discarded = terminal("form", "discard", *context)
    assert "Discarded the session of" in discarded.text


def test_openapi_findings_are_grouped_by_file_with_severities(terminal, tmp_path):
    from tests.openapi.test_check_cli import BROKEN

    broken, fine = tmp_path / "broken.json", tmp_path / "fine.json"
    broken.write_text(json.dumps(BROKEN, indent=2))
    fine.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "Fine", "version": "1"}, "paths": {}}))
    screen = terminal("openapi", "check", str(broken), str(fine), expect=1)
    assert re.match(rf"{re.escape(str(broken))}  \d+ errors?, \d+ warnings?", screen.lines[0])
    assert screen.has_row("error", "[") and "\x1b[1;31merror" in screen.raw, "errors in bold red"
    assert re.search(r"^\s+\d+:\d+\s+(error|warning)", screen.text, re.M), "line:column first"
    assert screen.has_row(str(fine), "no problems found")
    assert re.search(r"^\d+ errors?, \d+ warnings?\.$", screen.lines[-1])
    piped = run_cli("openapi", "check", str(broken), expect=1)
    assert ": error [" in piped.stdout, "a pipe gets the text format as it was"


def test_openapi_tools_lists_tools_groups_and_skills(terminal):
    spec = REPO / "samples" / "records_api" / "openapi.json"
    screen = terminal("openapi", "tools", str(spec), "--profile", "write")
    screen.assert_readable()
    assert screen.lines[0] == "Profiles: write"
    assert screen.has_row("sample_list_datasets", "read-only", "List the datasets")
    assert screen.has_row("sample_dataset_line", "edit", "id, lineId", "Edit a dataset record")
    assert "2 editor groups" in screen.text and "skills" in screen.text
    assert "sample_dataset_line_setFieldValue" not in screen.text, "form tools are counted under their group"
    exported = run_cli("openapi", "tools", str(spec), "--format", "json", terminal=True)
    assert json.loads(exported.stdout)["profiles"] == ["read"]


def test_control_characters_from_a_schema_never_reach_the_terminal(terminal, tmp_path):
    """A hostile schema's titles carry an escape sequence (retitling the terminal) and an 8-bit
    CSI: the CLI's and the REPL's output show them as symbols."""
    from tests.repl.support import drive, lines

    hostile = "Name\x1b]0;pwned\x07 \x9b2J"
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "title": hostile, "properties": {"name": {"title": hostile}}}))
    data.write_text(json.dumps({"name": hostile}))
    for verb in ("describe-state", "get-data"):
        screen = terminal("form", verb, "--schema", str(schema), "--data", str(data))
        assert "\x1b]" not in screen.raw and "\x9b" not in screen.raw and "\x07" not in screen.raw, verb
        assert "␛]0;pwned␇" in screen.text, verb
    from deskcheck.cli.context import ContextOptions

    for color in (False, True):
        out = drive(ContextOptions(schema=schema, data=data), lines("show", "get /name", "errors"), color=color).output
        assert "\x1b]" not in out and "\x9b" not in out and "\x07" not in out and "␛]0;pwned" in out
