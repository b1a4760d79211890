"""A whole review at the prompt on the project's own document with other reviewers' pending
changes and a client's comments (tests/docx/tracked_contract.py): find, queue a replacement and a
comment, apply them as one batch, leave and come back (the working copy is resumed), accept one
of the new changes, reply to and resolve a comment, save; then the saved file is checked with the
docx tools, against the OOXML schema and by LibreOffice. Also: nothing touches the file before
`save`, Ctrl-D asks before dropping a pending batch, skipped operations stay in the batch, a file
changed on disk is not overwritten without --force, revert."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from deskcheck.cli.context import ContextOptions
from deskcheck.engine.docx.model.document import DocxDocument
from tests.conftest import REPO
from tests.docx.edit_helpers import lo_texts, new_schema_errors
from tests.docx.tracked_contract import build_review_document
from tests.helpers import has_row, run_cli
from tests.libreoffice import read_paragraphs
from tests.repl.support import drive, lines, section

BLOCK = "4D9EF6F2"  # "Subject to clause 9.1, each party's total liability ... limited to the Charges paid ..."
ANCHORED_COMMENT = "1"  # the client's comment on "statutory rate" in clause 5.3 (09B3BCA4)
OTHER = REPO / "samples" / "contract.docx"  # another version of the file, saved meanwhile


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    return build_review_document(tmp_path_factory.mktemp("review") / "source.docx")


@pytest.fixture
def review(tmp_path, source):
    path = tmp_path / "agreement.docx"
    shutil.copy(source, path)
    return ContextOptions(docx=path, author="Reviewer"), path


def read(path, tool):
    return run_cli("docx", tool.replace("_", "-"), str(path)).json["result"]


@pytest.mark.slow
def test_a_full_review(review, source, needs_libreoffice):
    context, path = review
    original = path.read_bytes()
    first = drive(
        context,
        lines(
            "find total liability",
            f"replace {BLOCK} Charges => fees",
            f"comment {BLOCK} contract year => Calendar year instead?",
            "ops",
            "apply",
            "changes",
            "status",
        ),
    )
    out = first.output
    assert first.code == 0, out
    assert "Reviewing" in out and "100 blocks, 2 comment threads, 19 pending tracked changes" in out
    assert has_row(out, "#84", BLOCK, "36-51", "total liability") and "1 match of 'total liability'" in out
    assert f"1. replace in {BLOCK}: 'Charges' => 'fees'" in out
    assert f"2. comment {BLOCK} on 'contract year': 'Calendar year instead?'" in out
    assert has_row(out, "✓ op-", f"1. replace in {BLOCK}") and has_row(out, "✓ op-", f"2. comment {BLOCK}")
    assert "review agreement.docx · documentVersion" in out and "0 pending operations" in out
    assert "changes not saved" in out
    assert path.read_bytes() == original, "nothing reaches the file before save"
    assert "The working copy keeps changes not saved to" in out
    ours = re.findall(rf"(\d+)\s+(deletion|insertion)\s+{BLOCK}\s+\S+ \S+\s+(Charges|fees)", section(out, "Reviewer"))
    assert {(kind, text) for _, kind, text in ours} == {("deletion", "Charges"), ("insertion", "fees")}
    deletion = next(change_id for change_id, kind, _ in ours if kind == "deletion")
    insertion = next(change_id for change_id, kind, _ in ours if kind == "insertion")

    second = drive(
        context,
        lines(
            f"accept {deletion}",
            f"reply {ANCHORED_COMMENT} Agreed, it reads well.",
            f"resolve {ANCHORED_COMMENT}",
            "save",
            "status",
        ),
    )
    out = second.output
    assert second.code == 0, out
    assert "Resuming your earlier review" in out
    assert "Accepted 1 tracked change: 1 deletion" in out and has_row(out, deletion, "deletion", BLOCK, "Charges")
    assert "20 tracked changes still pending." in out
    assert f"Replied to comment {ANCHORED_COMMENT}" in out and f"Comment {ANCHORED_COMMENT} is resolved." in out
    assert f"Saved the review to {path}" in out and "nothing unsaved" in out

    # The saved file, read back with the docx tools.
    blocks = {b["blockId"]: b["text"] for b in read(path, "read_document")["blocks"]}
    assert "limited to the fees paid" in blocks[BLOCK] and "Charges" not in blocks[BLOCK]
    changes = read(path, "read_changes")["changes"]
    assert deletion not in {c["id"] for c in changes}
    assert any(c["id"] == insertion and c["text"] == "fees" and c["author"] == "Reviewer" for c in changes)
    threads = read(path, "read_comments")["comments"]
    ours = [t for t in threads if t["text"] == "Calendar year instead?"]
    assert (
        ours and ours[0]["blockId"] == BLOCK and ours[0]["quote"] == "contract year" and ours[0]["author"] == "Reviewer"
    )
    anchored = next(t for t in threads if t["id"] == ANCHORED_COMMENT)
    assert anchored["resolved"] is True and [r["text"] for r in anchored["replies"]] == ["Agreed, it reads well."]
    assert not new_schema_errors(source, path)

    # LibreOffice opens it and sees the edit: the pending insertion, and the deletion accepted.
    rows = read_paragraphs("accept", [path])
    row = rows[str(path)]
    assert row["ok"], row
    assert any("limited to the fees paid" in text for text in lo_texts(row))
    assert not any("limited to the Charges" in text for text in lo_texts(row))


def test_ctrl_d_asks_before_dropping_a_pending_batch(review):
    context, path = review
    original = path.read_bytes()
    run = drive(
        context,
        # Ctrl-D, "no" (stay), then Ctrl-D again, "yes" (leave): the answers are typed once asked.
        [f"delete {BLOCK}\n\x04", "n\n", "ops\n\x04", "y\n"],
    )
    assert run.code == 0
    out = run.output
    assert out.count("Drop the 1 pending operation") == 0, "the question goes to the prompt, not the output"
    assert "Staying: `apply` sends them, `drop all` removes them." in out
    assert f"1. delete {BLOCK}" in run.after("Staying")
    assert path.read_bytes() == original
    again = drive(context, lines("ops", "status"))
    assert "No pending operations." in again.output and "Resuming" not in again.output


def _edit_now(find: str, replace: str) -> str:
    """A `call` line that changes BLOCK at once, under the operations queued on it."""
    op = {"type": "replaceInBlock", "blockId": BLOCK, "find": find, "replace": replace}
    return "call suggest_changes " + json.dumps({"operations": [op]})


def test_skipped_operations_stay_in_the_batch_with_their_reason(review):
    context, _ = review
    run = drive(
        context,
        lines(
            f"replace {BLOCK} Charges => fees",
            _edit_now("total liability", "total responsibility"),  # the queued one is now stale
            f"replace {BLOCK} Subject => Under",
            "apply",
            "ops",
            "drop 1",
            "apply",
        ),
    )
    out = run.output
    assert has_row(out, "✓ op-", f"2. replace in {BLOCK}: 'Subject' => 'Under'")
    assert has_row(out, "✗ op-", f"1. replace in {BLOCK}: 'Charges' => 'fees'") and "[preconditionFailed]" in out
    assert "1 skipped operation stays in the batch" in out
    assert f"1. replace in {BLOCK}: 'Charges' => 'fees'" in run.after("stays in the batch")
    assert f"Dropped replace in {BLOCK}" in out and "Nothing to apply" in out
    assert "re-read it" in out and "read_document" not in out


def test_a_replace_or_comment_is_checked_when_queued(review):
    """Against the block as the queued replacements leave it: the batch would skip it otherwise."""
    context, path = review
    run = drive(
        context,
        lines(
            f"replace {BLOCK} no such words => x",
            f"replace {BLOCK} each => every",
            f"replace {BLOCK} total liability => total responsibility",
            f"replace {BLOCK} liability under => duty under",
            f"comment {BLOCK} liability => Gone once replaced.",
            f"comment {BLOCK} responsibility => Why this word?",
            f"comment {BLOCK} each party's total => Straddles.",
            f"comment {BLOCK} Subject to clause => Unchanged text.",
            "ops",
            "apply",
            "save",
        ),
    )
    out = run.output
    assert f"'no such words' is not in block {BLOCK}, which reads: \"Subject to clause 9.1" in out
    assert f"'each' occurs 2 times in block {BLOCK}; give more of the text around it." in out
    assert "'liability under' overlaps the text queued replace 1 changes: `drop 1`" in out
    assert f"'liability' will no longer be in block {BLOCK} once queued replace 1 applies" in out
    assert (
        "queued the comment with 1. replace in" in out and "covers its whole new text ('total responsibility')" in out
    )
    assert '"each party\'s total" runs across the text queued replace 1 changes' in out
    assert f"1. replace in {BLOCK}: 'total liability' => 'total responsibility'  + comment 'Why this word?'" in out
    assert f"2. comment {BLOCK} on 'Subject to clause': 'Unchanged text.'" in out
    assert "2 applied" in out and "✗" not in out
    comments = run_cli("docx", "read-comments", str(path)).json["result"]["comments"]
    quotes = {comment["text"]: comment["quote"] for comment in comments}
    assert quotes["Why this word?"] == "total responsibility" and quotes["Unchanged text."] == "Subject to clause"


def test_a_file_changed_on_disk_is_not_overwritten_without_force(review, tmp_path):
    context, path = review
    drive(context, lines(f"comment {BLOCK} Check this.", "apply"))
    shutil.copy(OTHER, path)  # someone saves another version meanwhile
    elsewhere = tmp_path / "review-copy.docx"
    run = drive(context, lines("status", "save", f"save {elsewhere}", "save --force"))
    out = run.output
    assert "changed on disk since that review started" in out
    assert "file changed on disk" in out, "the status says so"
    assert "error: " in out and "`save --force` overwrites it" in out
    assert f"Saved the review to {elsewhere}" in out and f"Saved the review to {path}" in out
    for saved in (elsewhere, path):
        comments = [c["text"] for c in read(saved, "read_comments")["comments"]]
        assert "Check this." in comments


def test_revert_starts_again_from_the_file(review):
    context, path = review
    original = path.read_bytes()
    run = drive(context, lines(f"delete {BLOCK}", "apply", f"insert after {BLOCK} More.", "revert", "status"))
    assert "dropped the working copy's changes and 1 pending operation." in run.output
    assert "0 pending operations · nothing unsaved" in run.output
    assert path.read_bytes() == original
    assert "Resuming" not in drive(context, lines("status")).output


def test_output_option_saves_elsewhere_and_reading_commands(review, source, tmp_path):
    context, path = review
    out_file = tmp_path / "out.docx"
    context = ContextOptions(docx=path, output=out_file)
    run = drive(
        context,
        lines("blocks 6 2", f"blocks {BLOCK} 1", "comments", "changes", "insert before 7 Intro.", "apply", "save"),
    )
    out = run.output
    assert has_row(out, "6", "19031502", "heading", "Background") and has_row(out, "7", "3CDF2B03", "list item")
    assert "93 more blocks: blocks 8" in out and has_row(out, "84", BLOCK)
    assert has_row(section(out, "Cleo Client"), ANCHORED_COMMENT, "open", "09B3BCA4", "“statutory rate”")
    assert has_row(section(out, "Ann Reviewer"), "201", "deletion", "2B165965", "thirty (30)")
    assert f"Saved the review to {out_file}" in out
    texts = [b["text"] for b in read(out_file, "read_document")["blocks"]]
    assert (
        texts[6] == "Intro."
        and read(path, "read_document")["documentVersion"] != read(out_file, "read_document")["documentVersion"]
    )
    assert DocxDocument.open(path).version == DocxDocument.open(source).version, "the file itself is untouched"


def test_one_review_per_file_at_a_time_and_saved_elsewhere_is_not_unsaved(review, isolated_state, tmp_path):
    from deskcheck.cli.errors import UsageError
    from deskcheck.cli.repl.working_copy import WorkingCopy

    _, path = review
    first = WorkingCopy(path, isolated_state)
    first.open()
    try:
        intruder = WorkingCopy(path, isolated_state)
        with pytest.raises(UsageError, match="another deskcheck repl is reviewing"):
            intruder.open()
        shutil.copy(OTHER, first.path)
        intruder.close()
        assert first.path.exists(), "a REPL that could not open the review leaves the other's copy alone"
        shutil.copy(path, first.path)
        first.path.write_bytes(first.path.read_bytes() + b"")  # unchanged content
        assert not first.unsaved
        shutil.copy(OTHER, first.path)  # the copy changes
        assert first.unsaved and not first.source_changed
        first.save(tmp_path / "elsewhere.docx")
        assert not first.unsaved, "saved elsewhere: nothing would be lost"
    finally:
        first.close()
    assert not first.folder.exists(), "nothing unsaved: the copy is removed on leaving"
    second = WorkingCopy(path, isolated_state)
    second.open()  # the lock went with the first
    second.close()
    path.unlink()
    gone = WorkingCopy(path, isolated_state)
    with pytest.raises(UsageError, match="no longer exists"):
        gone.open()
    gone.close()


def test_comments_can_be_filtered(review):
    context, _ = review
    run = drive(context, lines(f"resolve {ANCHORED_COMMENT}", "comments resolved", "comments open", "comments maybe"))
    listings = run.after(f"Comment {ANCHORED_COMMENT} is resolved.")
    resolved, open_listing = listings.split("comment thread (open)", 1)
    assert "1 comment thread (resolved)" in resolved and has_row(resolved, ANCHORED_COMMENT, "resolved")
    open_listing = open_listing.split("error:")[0]
    assert has_row(open_listing, "2", "open", "2B165965"), "the other thread is open"
    assert not re.search(rf"^\s+{ANCHORED_COMMENT}\s", open_listing, flags=re.M), "open threads only"
    assert "error: usage: comments [open|resolved]" in run.output
