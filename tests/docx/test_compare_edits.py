"""Comparing a document with the result of our own suggest_changes followed by accept-all reports
exactly the blocks the edits touched, with the block ids the edits used; and the redline of the
same two versions gives the edited document back on accept."""

from __future__ import annotations

import shutil

from deskcheck.engine.docx.review.revisions import resolve_file
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.docx.versions.redline import redline_files
from tests.docx.edit_helpers import applied, build_document
from tests.docx.version_pairs import accepted, resolved, texts


def _range(path, query: str) -> dict:
    return docx_toolset(path).call("find_text", {"query": query, "matchCase": True}).value["matches"][0]["range"]


def test_compare_reports_exactly_the_blocks_suggest_changes_edited(tmp_path):
    original = build_document(tmp_path / "original.docx")
    edited = shutil.copy(original, tmp_path / "edited.docx")
    operations = [
        {"type": "replaceInBlock", "blockId": "0A000002", "find": "thirty", "replace": "ten"},
        {"type": "deleteBlock", "blockId": "0A000004"},
        {"type": "insertAfterBlock", "blockId": "0A000007", "text": "A paragraph the reviewer added."},
        {"type": "replaceBlock", "blockId": "0A000012", "text": "B1 rewritten"},
        {"type": "formatRange", "range": _range(edited, "Last"), "formatting": {"bold": True}},
    ]
    applied(edited, operations)
    resolve_file(edited, "accept")

    diff = compare_versions(original, edited)
    by_block = {(c["type"], c.get("previousBlockId"), c.get("currentBlockId")): c for c in diff["changes"]}
    added = [c for c in diff["changes"] if c["type"] == "added"]
    assert len(added) == 1 and added[0]["text"] == "A paragraph the reviewer added."
    assert set(by_block) == {
        ("modified", "0A000002", "0A000002"),
        ("deleted", "0A000004", None),
        ("added", None, added[0]["currentBlockId"]),
        ("modified", "0A000012", "0A000012"),
        ("formatChanged", "0A000009", "0A000009"),
    }
    assert by_block[("modified", "0A000002", "0A000002")]["segments"] == [
        {"type": "equal", "text": "The Supplier shall deliver the goods within "},
        {"type": "del", "text": "thirty"},
        {"type": "ins", "text": "ten"},
        {"type": "equal", "text": " days."},
    ]
    assert by_block[("modified", "0A000012", "0A000012")]["currentTable"] == {"index": 0, "row": 0, "column": 1}
    assert by_block[("formatChanged", "0A000009", "0A000009")]["changedProperties"] == ["bold"]
    counts = diff["summaryCounts"]
    assert (counts["modified"], counts["deleted"], counts["added"], counts["formatChanged"]) == (2, 1, 1, 1)
    assert counts["unchanged"] == len(accepted(original).blocks) - 4

    # The redline of the same pair turns one into the other again.
    out = tmp_path / "redline.docx"
    redline_files(original, edited, out)
    assert texts(resolved(out, "accept")) == texts(accepted(edited))
    assert texts(resolved(out, "reject")) == texts(accepted(original))
