"""Every non-table suggest_changes operation, in tracked and direct mode, on a document the test
builds: the tracked output reads as the direct output once accepted and as the input once
rejected (our accept-all / reject-all; LibreOffice checks the same in test_suggest_libreoffice),
the markup is the OOXML a reviewer's word processor expects, and no schema error appears that
the input did not have."""

from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.hashing import block_text_hash
from deskcheck.engine.docx.review.changes import read_changes
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.wml.ns import NS, qn
from tests.docx.edit_helpers import (
    ORIGINAL_TEXTS,
    applied,
    block_texts,
    build_document,
    new_schema_errors,
    resolved_texts,
    suggest,
)

W = NS["w"]


@pytest.fixture
def rich(tmp_path):
    return build_document(tmp_path / "rich.docx")


def find_range(path, query: str, occurrence: int = 0) -> dict:
    matches = docx_toolset(path).call("find_text", {"query": query, "matchCase": True}).value["matches"]
    return matches[occurrence]["range"]


def document_xml(path) -> etree._Element:
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read("word/document.xml"))


def paragraph(path, para_id: str):
    root = document_xml(path)
    return root.find(f".//{{{W}}}p[@{{{NS['w14']}}}paraId='{para_id}']")


def run_both(tmp_path, source, ops, expected_texts=None):
    """Apply the batch in both modes; check accept == direct, reject == input, schema. Returns
    (tracked path, direct path, tracked result)."""
    import shutil

    tracked, direct = tmp_path / "tracked.docx", tmp_path / "direct.docx"
    shutil.copy(source, tracked)
    shutil.copy(source, direct)
    result = applied(tracked, ops, mode="tracked-changes")
    applied(direct, ops, mode="direct")
    direct_texts = block_texts(direct)
    if expected_texts is not None:
        assert direct_texts == expected_texts
    assert resolved_texts(tracked, "accept") == resolved_texts(direct, "accept")
    assert resolved_texts(tracked, "reject") == resolved_texts(source, "reject")
    assert new_schema_errors(source, tracked) == set()
    assert new_schema_errors(source, direct) == set()
    return tracked, direct, result


def replaced(index: int, text: str) -> list[str]:
    texts = list(ORIGINAL_TEXTS)
    texts[index] = text
    return texts


# -- text operations ---------------------------------------------------------------------------


def test_replace_in_block_redlines_only_the_changed_word_and_keeps_its_formatting(tmp_path, rich):
    ops = [{"type": "replaceInBlock", "blockId": "0A000002", "find": "thirty", "replace": "sixty",
                      "comment": "Shorter deadline."}]  # fmt: skip
    tracked, _, result = run_both(
        tmp_path, rich, ops, replaced(1, "The Supplier shall deliver the goods within sixty days.")
    )
    receipt = result["receipts"][0]
    assert receipt["affected"][0] == {"type": "block", "story": "main", "blockId": "0A000002", "effect": "updated"}
    assert receipt["affected"][1]["type"] == "comment"
    p = paragraph(tracked, "0A000002")
    deleted = p.find(f"{{{W}}}del")
    inserted = p.find(f"{{{W}}}ins")
    assert deleted.find(f".//{{{W}}}delText").text == "thirty"
    assert inserted.find(f".//{{{W}}}t").text == "sixty"
    # The inserted run carries the formatting of the text it replaces.
    assert inserted.find(f".//{{{W}}}rPr/{{{W}}}i") is not None
    assert deleted.get(qn("w:author")) == "deskcheck" and deleted.get(qn("w:id")) != inserted.get(qn("w:id"))
    # Comment anchors sit outside the revisions, around them, followed by the reference run.
    tags = [etree.QName(child).localname for child in p]
    start = tags.index("commentRangeStart")
    assert tags[start + 1 : start + 5] == ["del", "ins", "commentRangeEnd", "r"]


def test_replace_in_block_word_diff(tmp_path, rich):
    ops = [{"type": "replaceInBlock", "blockId": "0A000002", "find": "shall deliver the goods",
                      "replace": "must deliver all goods"}]  # fmt: skip
    tracked, _, _ = run_both(
        tmp_path, rich, ops, replaced(1, "The Supplier must deliver all goods within thirty days.")
    )
    changes = [(c["type"], c["text"]) for c in read_changes(DocxDocument.open(tracked)) if c["author"] == "deskcheck"]
    assert changes == [("deletion", "shall"), ("insertion", "must"), ("deletion", "the"), ("insertion", "all")]


def test_replace_range_across_a_hyperlink_boundary(tmp_path, rich):
    ops = [{"type": "replaceRange", "range": find_range(rich, "a link"), "replace": "one link"}]
    _tracked, direct, _ = run_both(tmp_path, rich, ops, replaced(4, "Text with one link here and more."))
    assert paragraph(direct, "0A000005").find(f"{{{W}}}hyperlink") is not None


def test_replacing_someones_pending_insertion_nests_the_deletion(tmp_path, rich):
    ops = [{"type": "replaceInBlock", "blockId": "0A000006", "find": "inserted words and",
                      "replace": "added text and"}]  # fmt: skip
    tracked, _, _ = run_both(tmp_path, rich, ops, replaced(5, "Pending added text and  end."))
    p = paragraph(tracked, "0A000006")
    nested = p.findall(f"{{{W}}}ins/{{{W}}}del")
    assert nested and all(d.get(qn("w:author")) == "deskcheck" for d in nested)
    # Our insertion never lands inside the other author's insertion.
    assert all(
        ins.get(qn("w:author")) == "Other" for ins in p.findall(f"{{{W}}}ins") if ins.find(f"{{{W}}}del") is not None
    )


def test_deleting_text_with_an_empty_replace(tmp_path, rich):
    ops = [{"type": "replaceInBlock", "blockId": "0A000002", "find": " within thirty days", "replace": ""}]
    run_both(tmp_path, rich, ops, replaced(1, "The Supplier shall deliver the goods."))


def test_comment_on_range_over_an_emoji(tmp_path, rich):
    ops = [{"type": "commentOnRange", "range": find_range(rich, "\U0001f600 and"), "comment": "Emoji?"}]
    tracked, _, result = run_both(tmp_path, rich, ops, ORIGINAL_TEXTS)
    assert result["receipts"][0]["affected"][0]["effect"] == "commented"
    comments = docx_toolset(tracked).call("read_comments", {}).value["comments"]
    assert [(c["text"], c["quote"], c["blockId"]) for c in comments] == [("Emoji?", "\U0001f600 and", "0A000007")]


def test_format_range_records_the_previous_formatting(tmp_path, rich):
    formatting = {"bold": True, "underline": True}
    ops = [{"type": "formatRange", "range": find_range(rich, "deliver"), "formatting": formatting}]
    tracked, direct, _result = run_both(tmp_path, rich, ops, ORIGINAL_TEXTS)
    change = paragraph(tracked, "0A000002").find(f".//{{{W}}}rPrChange")
    run = change.getparent().getparent()
    assert run.find(f"{{{W}}}t").text == "deliver"
    assert change.find(f"{{{W}}}rPr") is not None and len(change.find(f"{{{W}}}rPr")) == 0
    assert (
        run.find(f"{{{W}}}rPr/{{{W}}}b") is not None and run.find(f"{{{W}}}rPr/{{{W}}}u").get(qn("w:val")) == "single"
    )
    assert paragraph(direct, "0A000002").find(f".//{{{W}}}rPrChange") is None
    kinds = {c["type"] for c in read_changes(DocxDocument.open(tracked))}
    assert "formatting" in kinds
    # Rejecting removes the bold again.
    doc = DocxDocument.open(tracked)
    from deskcheck.engine.docx.review.revisions import resolve_all

    resolve_all(doc, "reject")
    runs = [r for r in doc.blocks[1].element.iter(qn("w:r")) if "deliver" in "".join(r.itertext())]
    assert all(r.find(f"{qn('w:rPr')}/{qn('w:u')}") is None for r in runs)


# -- block operations --------------------------------------------------------------------------


def test_insert_after_and_before(tmp_path, rich):
    ops = [
        {"type": "insertAfterBlock", "blockId": "0A000004", "text": "Third item"},
        {"type": "insertBeforeBlock", "blockId": "0A000001", "text": "Preface", "styleId": "Normal"},
        {"type": "insertAfterBlock", "blockId": "0A000011", "text": "A1, second line"},
        {"type": "insertAfterBlock", "blockId": "0A000009", "text": ""},
        {"type": "insertAfterBlock", "blockId": "0A000004", "text": "Fourth item", "comment": "Two new items."},
    ]
    expected = ["Preface", *ORIGINAL_TEXTS[:4], "Third item", "Fourth item", *ORIGINAL_TEXTS[4:7],
                "A1, second line", *ORIGINAL_TEXTS[7:], ""]  # fmt: skip
    tracked, direct, result = run_both(tmp_path, rich, ops, expected)
    blocks = DocxDocument.open(direct).blocks
    third = next(b for b in blocks if b.text == "Third item")
    assert third.kind == "listItem" and third.display_label == "3."  # joined the list
    assert next(b for b in blocks if b.text == "Preface").style_id == "Normal"
    assert next(b for b in blocks if b.text == "A1, second line").cell == (0, 0, 0)
    new_ids = [r["affected"][0]["blockId"] for r in result["receipts"]]
    assert len(set(new_ids)) == 5 and all(len(i) == 8 and int(i, 16) < 0x80000000 for i in new_ids)
    tracked_blocks = {b.id: b for b in DocxDocument.open(tracked).blocks}
    # As Word records Enter, the paragraph before a new one has the inserted mark and the new one
    # carries the original mark; "Preface" starts the body, so its own mark is the inserted one.
    # (Two insertions after one block: the first new paragraph's mark is inserted too.)
    assert [bool(tracked_blocks[i].mark) for i in new_ids] == [True, True, False, False, False]
    assert all(tracked_blocks[i].mark for i in ("0A000004", "0A000011", "0A000009"))
    # Existing blocks keep their ids.
    assert {"0A000001", "0A000004", "0A000009"} <= set(tracked_blocks)


def test_replace_block_fills_a_blank_block_and_rewrites_another(tmp_path, rich):
    ops = [
        {"type": "replaceBlock", "blockId": "0A000008", "text": "Now filled."},
        {"type": "replaceBlock", "blockId": "0A000009", "text": "Final paragraph here."},
    ]
    expected = [*ORIGINAL_TEXTS[:11], "Now filled.", "Final paragraph here."]
    tracked, _, _ = run_both(tmp_path, rich, ops, expected)
    changes = [(c["type"], c["text"]) for c in read_changes(DocxDocument.open(tracked)) if c["author"] == "deskcheck"]
    assert changes == [
        ("insertion", "Now filled."),
        ("deletion", "Last"),
        ("insertion", "Final"),
        ("insertion", " here"),
    ]


def test_delete_block(tmp_path, rich):
    ops = [
        {"type": "deleteBlock", "blockId": "0A000005", "comment": "Not needed."},
        {"type": "deleteBlock", "blockId": "0A000009"},  # the last paragraph: only its text goes
        {"type": "deleteBlock", "blockId": "0A000022"},  # a cell's only paragraph: likewise
        {"type": "deleteBlock", "blockId": "0A000006"},  # someone's pending changes, right before a table
        {"type": "deleteBlock", "blockId": "0A000003"},
    ]
    expected = [
        ORIGINAL_TEXTS[0],
        ORIGINAL_TEXTS[1],
        ORIGINAL_TEXTS[3],
        "",
        *ORIGINAL_TEXTS[6:9],
        "",
        ORIGINAL_TEXTS[10],
        "",
        "",
    ]
    tracked, direct, result = run_both(tmp_path, rich, ops, expected)
    effects = [r["affected"][0] for r in result["receipts"]]
    assert [e.get("keptBlankParagraph", False) for e in effects] == [False, True, True, True, False]
    p = paragraph(tracked, "0A000005")
    assert p.find(f"{{{W}}}pPr/{{{W}}}rPr/{{{W}}}del") is not None
    assert p.find(f".//{{{W}}}hyperlink/{{{W}}}del") is not None  # the link's text is deleted inside the link
    assert paragraph(direct, "0A000005") is None
    comments = docx_toolset(direct).call("read_comments", {}).value["comments"]
    assert comments and comments[0]["text"] == "Not needed."


def test_split_block(tmp_path, rich):
    ops = [
        {"type": "splitBlock", "blockId": "0A000002", "offset": 13},
        {"type": "splitBlock", "blockId": "0A000005", "offset": 14},  # inside the hyperlink
        {"type": "splitBlock", "blockId": "0A000009", "offset": 0},
    ]
    expected = [
        *ORIGINAL_TEXTS[:1], "The Supplier ", "shall deliver the goods within thirty days.", *ORIGINAL_TEXTS[2:4],
        "Text with a li", "nk here and more.", *ORIGINAL_TEXTS[5:12], "", "Last paragraph.",
    ]  # fmt: skip
    tracked, direct, result = run_both(tmp_path, rich, ops, expected)
    first, second = result["receipts"][0]["affected"]
    assert second["blockId"] == "0A000002" and second["part"] == "second" and first["part"] == "first"
    head = paragraph(tracked, first["blockId"])
    assert head.find(f"{{{W}}}pPr/{{{W}}}rPr/{{{W}}}ins") is not None
    assert len(paragraph(direct, "0A000005").findall(f"{{{W}}}hyperlink")) == 1


def test_merge_block_with_next(tmp_path, rich):
    ops = [{"type": "mergeBlockWithNext", "blockId": "0A000003"}]
    expected = [*ORIGINAL_TEXTS[:2], "First itemSecond item", *ORIGINAL_TEXTS[4:]]
    tracked, direct, result = run_both(tmp_path, rich, ops, expected)
    assert result["receipts"][0]["affected"][0]["mergedInto"] == "0A000004"
    assert paragraph(tracked, "0A000003").find(f"{{{W}}}pPr/{{{W}}}rPr/{{{W}}}del") is not None
    assert paragraph(direct, "0A000003") is None


def test_paragraph_properties_with_a_property_change_record(tmp_path, rich):
    ops = [
        {"type": "setBlockParagraphProperties", "blockId": "0A000002", "styleId": "Heading1", "alignment": "center",
         "indentation": {"left": 36, "hanging": 18}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000003", "numbering": {"kind": "none"}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000004", "numbering": {"kind": "levelOnly", "ilvl": 1}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000009", "numbering": {"kind": "reference", "numId": 1}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000007",
         "numbering": {"kind": "newList", "format": "bullet"}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000001", "styleId": None},
    ]  # fmt: skip
    tracked, direct, result = run_both(tmp_path, rich, ops, ORIGINAL_TEXTS)
    blocks = {b.id: b for b in DocxDocument.open(direct).blocks}
    assert blocks["0A000002"].style_id == "Heading1" and blocks["0A000002"].heading_level == 1
    assert blocks["0A000003"].kind == "paragraph"
    assert blocks["0A000004"].display_label == "(a)"
    assert blocks["0A000009"].kind == "listItem"
    assert blocks["0A000007"].display_label == "•"
    assert blocks["0A000001"].style_id is None
    ppr = paragraph(tracked, "0A000002").find(f"{{{W}}}pPr")
    assert [etree.QName(c).localname for c in ppr] == ["pStyle", "ind", "jc", "pPrChange"]
    ind = ppr.find(f"{{{W}}}ind")
    assert (ind.get(qn("w:left")), ind.get(qn("w:hanging"))) == ("720", "360")
    assert len(ppr.find(f"{{{W}}}pPrChange/{{{W}}}pPr")) == 0  # it had no properties before
    new_list = [a for a in result["receipts"][4]["affected"] if "numId" in a]
    assert new_list and new_list[0]["numId"] == 2
    # Rejecting restores the old properties.
    doc = DocxDocument.open(tracked)
    from deskcheck.engine.docx.review.revisions import resolve_all

    resolve_all(doc, "reject")
    original = {b.id: b for b in DocxDocument.open(rich).blocks}
    assert [(b.style_id, b.kind, b.display_label) for b in doc.blocks] == [
        (b.style_id, b.kind, b.display_label) for b in original.values()
    ]


def test_comment_on_block_with_a_quote_and_on_a_blank_block(tmp_path, rich):
    ops = [
        {"type": "commentOnBlock", "blockId": "0A000002", "quote": "Supplier", "comment": "Define it."},
        {"type": "commentOnBlock", "blockId": "0A000008", "comment": "Why blank?"},
    ]
    import shutil

    for mode in ("tracked-changes", "direct"):
        target = tmp_path / f"{mode}.docx"
        shutil.copy(rich, target)
        result = suggest(target, ops, mode=mode, operation_types=("commentOnBlock",))
        assert result.ok and len(result.value["applied"]) == 2
        comments = docx_toolset(target).call("read_comments", {}).value["comments"]
        assert sorted((c["quote"], c["blockId"]) for c in comments) == [("", "0A000008"), ("Supplier", "0A000002")]
        assert block_texts(target) == ORIGINAL_TEXTS
        assert new_schema_errors(rich, target) == set()


def test_many_operations_on_one_block_apply_from_the_end(tmp_path, rich):
    ops = [
        {"type": "replaceInBlock", "blockId": "0A000002", "find": "The", "replace": "A"},
        {"type": "replaceInBlock", "blockId": "0A000002", "find": "thirty", "replace": "30"},
        {"type": "commentOnRange", "range": find_range(rich, "goods"), "comment": "Which goods?"},
        {"type": "formatRange", "range": find_range(rich, "Supplier"), "formatting": {"italic": True}},
        {"type": "setBlockParagraphProperties", "blockId": "0A000002", "alignment": "justify"},
        {"type": "insertAfterBlock", "blockId": "0A000002", "text": "After."},
        {"type": "insertBeforeBlock", "blockId": "0A000002", "text": "Before."},
    ]
    expected = [*ORIGINAL_TEXTS[:1], "Before.", "A Supplier shall deliver the goods within 30 days.", "After."]
    run_both(tmp_path, rich, ops, expected + ORIGINAL_TEXTS[2:])


def test_revision_ids_are_unique_and_within_32_bits(tmp_path, rich):
    ops = [
        {"type": "replaceInBlock", "blockId": "0A000002", "find": "shall deliver the goods", "replace": "must ship"},
        {"type": "deleteBlock", "blockId": "0A000005"},
        {"type": "insertAfterBlock", "blockId": "0A000009", "text": "More."},
        {"type": "setBlockParagraphProperties", "blockId": "0A000001", "alignment": "right"},
    ]
    applied(rich, ops)
    tags = [qn(f"w:{t}") for t in ("ins", "del", "rPrChange", "pPrChange")]
    ids = [int(e.get(qn("w:id"))) for e in document_xml(rich).iter(*tags)]
    assert len(ids) == len(set(ids)) and all(0 <= i <= 0x7FFFFFFF for i in ids)
    assert 901 in ids and 902 in ids  # the other author's revisions keep their ids


def test_existing_block_ids_survive_insertions_in_a_document_without_paragraph_ids(tmp_path):
    from tests.docx.builders import make_docx, p

    path = make_docx(tmp_path / "plain.docx", p("One.") + p("Two.") + p("Three."))
    before = [b.id for b in DocxDocument.open(path).blocks]
    applied(path, [{"type": "insertBeforeBlock", "blockId": before[0], "text": "Zero."}])
    after = DocxDocument.open(path).blocks
    assert [b.id for b in after[1:]] == before
    assert after[0].hash == block_text_hash("Zero.")


def test_the_schema_check_catches_broken_markup(tmp_path):
    """The validator behind ``new_schema_errors`` is a real check: text directly inside w:ins,
    and a revision without an author, are errors; Markup Compatibility content is not."""
    from tests.docx.builders import make_docx, p
    from tests.docx.edit_helpers import schema_errors

    good = make_docx(
        tmp_path / "good.docx",
        p(runs='<w:ins w:id="1" w:author="a"><w:r><w:t>x</w:t></w:r></w:ins>', para_id="01000000")
        + '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:t>a</w:t></mc:Choice>'
        "<mc:Fallback><w:t>a</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>",
    )
    assert schema_errors(good) == set()
    bad = make_docx(tmp_path / "bad.docx", p(runs='<w:ins w:id="1" w:author="a"><w:t>x</w:t></w:ins>'))
    assert any("main}t': This element is not expected" in message for _, message in schema_errors(bad))
    unauthored = make_docx(
        tmp_path / "unauthored.docx", p(runs='<w:del w:id="1"><w:r><w:delText>x</w:delText></w:r></w:del>')
    )
    assert any("author" in message for _, message in schema_errors(unauthored))


@pytest.mark.parametrize("mode", ["tracked-changes", "direct"])
def test_a_numbering_reference_uses_the_instance_a_list_block_carries(tmp_path, mode):
    """The seed's path: read_document shows a list block's numId and ilvl, and
    {kind: reference, numId, ilvl} with them puts another paragraph in that list (through the CLI,
    so the exported schema accepts the integers read_document gives)."""
    import json
    import shutil

    from tests.conftest import REPO
    from tests.helpers import run_cli

    path = tmp_path / "contract.docx"
    shutil.copy(REPO / "samples" / "contract.docx", path)
    blocks = run_cli("call", "--docx", str(path), "read_document").json["result"]["blocks"]
    clause_item = next(b for b in blocks if b.get("displayLabel") == "(b)")
    assert isinstance(clause_item["numId"], int) and isinstance(clause_item["ilvl"], int)
    assert all(("numId" in b) == (b["kind"] == "listItem" or "displayLabel" in b) for b in blocks)
    plain = next(b for b in blocks if b["text"] == "The parties agree as follows:")
    assert "numId" not in plain and "ilvl" not in plain
    reference = {"kind": "reference", "numId": clause_item["numId"], "ilvl": clause_item["ilvl"]}
    op = {"type": "setBlockParagraphProperties", "blockId": plain["blockId"], "numbering": reference}
    result = run_cli("call", "--docx", str(path), "--mode", mode, "suggest_changes", json.dumps({"operations": [op]}))
    assert result.json["ok"] and len(result.json["result"]["applied"]) == 1, result.stdout
    if mode == "tracked-changes":
        run_cli("docx", "accept-all", str(path))
    after = {b["blockId"]: b for b in run_cli("call", "--docx", str(path), "read_document").json["result"]["blocks"]}
    joined = after[plain["blockId"]]
    assert (joined["kind"], joined["numId"], joined["ilvl"]) == ("listItem", clause_item["numId"], clause_item["ilvl"])
    assert joined["displayLabel"] == "(a)"  # the clause items' level, restarted after the heading before it
