"""compare_versions: two saved versions compared as accepted, paragraph by paragraph, on real
corpus versions and on built documents for the cases the corpus lacks."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.hashing import normalize_text
from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.errors import DeskcheckError, InputError
from tests import corpus
from tests.docx.builders import make_docx, p
from tests.docx.version_pairs import WC, accepted, corpus_pairs, pair_id
from tests.sweeps import sweep

STYLES = (
    '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
    '<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>'
)


def build(path: Path, *paragraphs: str, **parts: str) -> Path:
    return make_docx(path, "".join(p(text) if not text.startswith("<") else text for text in paragraphs), **parts)


def changes_of(diff: dict, kind: str) -> list[dict]:
    return [change for change in diff["changes"] if change["type"] == kind]


def block_ids(path: Path) -> set[str]:
    return {block.id for block in DocxDocument.open(path).blocks}


# -- no change ---------------------------------------------------------------------------------------


def _readable_corpus_files() -> list[Path]:
    # Only Word packages (zip files) can be compared; the corpus also holds an encrypted document,
    # an OLE container the reader refuses. Looking at the signature instead of opening every file
    # keeps collection cheap: it runs in every xdist worker.
    return [path for path in corpus.docx_files() if zipfile.is_zipfile(path)]


@pytest.mark.corpus
@pytest.mark.parametrize("path", sweep(corpus.params(_readable_corpus_files())), ids=corpus.docx_name)
def test_a_file_compared_with_itself_reports_no_change(path):
    diff = compare_versions(path, path)
    counts = diff["summaryCounts"]
    assert counts == {"added": 0, "deleted": 0, "modified": 0, "formatChanged": 0, "moved": 0,
                      "unchanged": counts["unchanged"]}  # fmt: skip
    assert diff["changes"] == [] and all(not story["changes"] for story in diff["stories"])
    # Every block of the accepted view counts (notes, headers and footers add theirs).
    assert counts["unchanged"] >= len(accepted(path).blocks)


# -- the corpus versions ------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("pair", sweep(corpus.params(corpus_pairs())), ids=pair_id)
def test_every_corpus_pair_accounts_for_every_block(pair):
    """Each block of the previous version is unchanged, changed, deleted or moved away, and each
    block of the current one unchanged, changed, added or moved here; ids are the files' own."""
    previous, current = pair
    diff = compare_versions(previous, current)
    main = diff["changes"]
    story_unchanged = sum(story["summaryCounts"]["unchanged"] for story in diff["stories"])
    unchanged = diff["summaryCounts"]["unchanged"] - story_unchanged
    count = {kind: sum(1 for c in main if c["type"] == kind) for kind in
             ("added", "deleted", "modified", "formatChanged", "movedFrom", "movedTo")}  # fmt: skip
    paired = unchanged + count["modified"] + count["formatChanged"]
    assert diff["previous"]["blocks"] == paired + count["deleted"] + count["movedFrom"]
    assert diff["current"]["blocks"] == paired + count["added"] + count["movedTo"]
    old_ids, new_ids = block_ids(previous), block_ids(current)
    for change in main:
        assert change.get("previousBlockId", next(iter(old_ids), None)) in old_ids | {None}
        assert change.get("currentBlockId", next(iter(new_ids), None)) in new_ids | {None}
        if change["type"] == "modified":
            old = "".join(s["text"] for s in change["segments"] if s["type"] != "ins")
            new = "".join(s["text"] for s in change["segments"] if s["type"] != "del")
            assert old != new


@pytest.mark.corpus
def test_modified_paragraphs_get_a_word_diff():
    diff = compare_versions(WC / "WC001-Digits.docx", WC / "WC001-Digits-Mod.docx")
    assert diff["summaryCounts"] == {"added": 0, "deleted": 0, "modified": 2, "formatChanged": 0, "moved": 0,
                                     "unchanged": 3}  # fmt: skip
    first, second = diff["changes"]
    assert first["segments"] == [{"type": "del", "text": "12,34"}, {"type": "ins", "text": "12,4"}]
    assert second["segments"] == [{"type": "del", "text": "Test."}, {"type": "ins", "text": "st."}]
    # The entry names the block on both sides; blockId is the current one.
    assert first["blockId"] == first["currentBlockId"] != first["previousBlockId"]


@pytest.mark.corpus
def test_a_deleted_table_row_is_reported_cell_by_cell():
    diff = compare_versions(WC / "WC006-Table.docx", WC / "WC006-Table-Delete-Row.docx")
    deleted = changes_of(diff, "deleted")
    assert [(c["text"], c["previousTable"]) for c in deleted] == [
        ("333", {"index": 0, "row": 1, "column": 0}),
        ("444", {"index": 0, "row": 1, "column": 1}),
    ]
    assert diff["summaryCounts"]["unchanged"] == 5


@pytest.mark.corpus
def test_a_changed_cell_is_located():
    diff = compare_versions(WC / "WC009-Table-Unmodified.docx", WC / "WC009-Table-Cell-1-1-Mod.docx")
    (change,) = diff["changes"]
    assert change["type"] == "modified"
    assert change["previousTable"] == change["currentTable"] == {"index": 0, "row": 0, "column": 0}


@pytest.mark.corpus
def test_a_paragraph_added_at_the_start_does_not_disturb_the_rest():
    diff = compare_versions(WC / "WC027-Twenty-Paras-Before.docx", WC / "WC027-Twenty-Paras-After-3.docx")
    assert [(c["type"], c["text"]) for c in diff["changes"]] == [("added", "A new first paragraph.")]
    assert diff["summaryCounts"]["unchanged"] == 20


@pytest.mark.corpus
def test_footnote_changes_are_reported_in_their_story():
    diff = compare_versions(WC / "WC034-Footnotes-Before.docx", WC / "WC034-Footnotes-After1.docx")
    assert diff["changes"] == []
    (story,) = diff["stories"]
    assert story["previousStory"] == story["currentStory"] == {"type": "footnote", "noteId": 1}
    (change,) = story["changes"]
    assert change["type"] == "modified" and change["paragraph"] == 1
    assert {"type": "ins", "text": "new "} in change["segments"]


# -- built documents ------------------------------------------------------------------------------------


def test_changes_come_in_the_current_order_with_deletions_where_they_were(tmp_path):
    previous = build(tmp_path / "a.docx", "Alpha stays put here.", "Beta goes away now.", "Gamma stays too.")
    current = build(tmp_path / "b.docx", "Alpha stays put here.", "Gamma stays too.", "Delta arrives at the end.")
    diff = compare_versions(previous, current)
    assert [(c["type"], c["text"]) for c in diff["changes"]] == [
        ("deleted", "Beta goes away now."),
        ("added", "Delta arrives at the end."),
    ]


def test_moved_paragraphs_share_a_move_group(tmp_path):
    moved = "Zeta paragraph moved somewhere else."
    previous = build(tmp_path / "a.docx", moved, "Alpha stays.", "Confidential", "Omega stays.")
    current = build(tmp_path / "b.docx", "Alpha stays.", "Omega stays.", moved, "Confidential")
    diff = compare_versions(previous, current)
    kinds = [(c["type"], c["text"], c.get("moveGroupId")) for c in diff["changes"]]
    assert ("movedFrom", moved, 1) in kinds and ("movedTo", moved, 1) in kinds
    # One word is too common to call a move: it stays a deletion and an addition.
    assert ("deleted", "Confidential", None) in kinds and ("added", "Confidential", None) in kinds
    assert diff["summaryCounts"]["moved"] == 1


def test_unrelated_rewrites_are_a_deletion_and_an_addition(tmp_path):
    previous = build(tmp_path / "a.docx", "Keep this one.", "Completely different original wording here.", "End.")
    current = build(tmp_path / "b.docx", "Keep this one.", "Nothing alike remains after rewrite.", "End.")
    assert [c["type"] for c in compare_versions(previous, current)["changes"]] == ["deleted", "added"]


def test_formatting_only_changes_name_what_changed(tmp_path):
    plain = "<w:p><w:r><w:t>Bold later</w:t></w:r></w:p>"
    bold = '<w:p><w:r><w:rPr><w:b/><w:color w:val="FF0000"/></w:rPr><w:t>Bold later</w:t></w:r></w:p>'
    heading = '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Title</w:t></w:r></w:p>'
    previous = build(tmp_path / "a.docx", plain, "Title", styles=STYLES)
    current = build(tmp_path / "b.docx", bold, heading, styles=STYLES)
    diff = compare_versions(previous, current)
    assert [(c["text"], c["changedProperties"]) for c in changes_of(diff, "formatChanged")] == [
        ("Bold later", ["bold", "color"]),
        ("Title", ["styleId"]),
    ]
    # Formatting can be left out of the comparison.
    assert compare_versions(previous, current, include=["text"])["changes"] == []


def test_pending_tracked_changes_count_as_applied(tmp_path):
    pending = (
        '<w:p w14:paraId="0B000001"><w:r><w:t xml:space="preserve">Agreed </w:t></w:r>'
        '<w:ins w:id="1" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:r><w:t>terms</w:t></w:r></w:ins>'
        '<w:del w:id="2" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:r><w:delText> draft</w:delText></w:r></w:del>'
        "</w:p>"
    )
    previous = build(tmp_path / "a.docx", pending, p("Second.", para_id="0B000002"))
    current = build(tmp_path / "b.docx", p("Agreed terms", para_id="0C000001"), p("Second!", para_id="0C000002"))
    diff = compare_versions(previous, current)
    (change,) = diff["changes"]
    assert change["previousBlockId"] == "0B000002" and change["currentBlockId"] == "0C000002"
    assert diff["previous"]["acceptedPendingChanges"] == 2
    assert diff["summaryCounts"]["unchanged"] == 1


def test_ids_of_a_file_with_pending_changes_are_those_read_document_gives(tmp_path):
    previous = build(
        tmp_path / "a.docx",
        '<w:p><w:ins w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t>Inserted words here</w:t></w:r>'
        "</w:ins></w:p>",
        "Unchanged paragraph.",
    )
    current = build(tmp_path / "b.docx", "Unchanged paragraph.")
    diff = compare_versions(previous, current)
    (deleted,) = diff["changes"]
    assert deleted["previousBlockId"] == DocxDocument.open(previous).blocks[0].id


@pytest.mark.corpus
def test_metadata_is_compared_on_request():
    previous, current = WC / "WC001-Digits.docx", WC / "WC004-Large.docx"
    diff = compare_versions(previous, current, include=["metadata"])
    assert diff["include"] == ["metadata"] and diff["changes"] == []
    names = [change["property"] for change in diff["metadataChanges"]]
    assert names and names == sorted(
        names,
        key=[
            "title",
            "subject",
            "creator",
            "keywords",
            "description",
            "lastModifiedBy",
            "revision",
            "created",
            "modified",
        ].index,
    )
    assert diff["summaryCounts"]["metadataChanged"] == len(names)


@pytest.mark.corpus
@pytest.mark.parametrize("include", [[], ["text", "pictures"], "text"])
def test_an_unknown_scope_is_refused(include):
    with pytest.raises(DeskcheckError, match="include"):
        compare_versions(WC / "WC001-Digits.docx", WC / "WC001-Digits.docx", include=include)


@pytest.mark.corpus
def test_unreadable_inputs_are_input_errors(tmp_path):
    not_docx = tmp_path / "notes.docx"
    not_docx.write_text("plain text")
    with pytest.raises(InputError, match="not a Word document"):
        compare_versions(not_docx, WC / "WC001-Digits.docx")
    with pytest.raises(InputError, match="does not exist"):
        compare_versions(WC / "WC001-Digits.docx", tmp_path / "missing.docx")


def test_long_documents_stay_linear(tmp_path):
    """Thousands of paragraphs with scattered edits: every edit found, nothing else."""
    words = [f"w{n}" for n in range(400)]
    texts = [" ".join(words[(i * 7 + k) % 400] for k in range(9)) + f" para {i}." for i in range(3000)]
    edited = list(texts)
    for i in range(0, 3000, 100):
        edited[i] = edited[i].replace("para", "paragraph")
    del edited[1550]
    edited.insert(10, "A brand new paragraph with words nobody used before.")
    previous = build(tmp_path / "a.docx", *texts)
    current = build(tmp_path / "b.docx", *edited)
    counts = compare_versions(previous, current)["summaryCounts"]
    assert (counts["modified"], counts["added"], counts["deleted"]) == (30, 1, 1)
    assert counts["unchanged"] == 3000 - 31
    assert normalize_text(texts[0]) == texts[0]
