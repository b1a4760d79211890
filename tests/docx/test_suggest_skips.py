"""Every skip code suggest_changes produces for the non-table operations, with a reason the
caller can act on; a skipped operation changes nothing and the others still apply."""

from __future__ import annotations

import shutil

import pytest

from deskcheck.engine.docx.edit import registry
from deskcheck.engine.docx.edit.context import block_json_target
from deskcheck.engine.docx.edit.explain import SKIP_CODES, explain
from deskcheck.engine.docx.edit.fields import block_id_field
from deskcheck.engine.docx.edit.spec import Applied, Claim, OperationSpec, Plan
from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.docx.edit_helpers import ORIGINAL_TEXTS, applied, block_texts, build_document, suggest
from tests.docx.test_suggest_operations import find_range

GOOD = {"type": "insertAfterBlock", "blockId": "0A000001", "text": "Extra."}


@pytest.fixture
def rich(tmp_path):
    return build_document(tmp_path / "rich.docx")


def skipped_one(path, op: dict, **options) -> dict:
    """Send ``op`` with a good operation after it: ``op`` is skipped, the good one applies."""
    result = suggest(path, [op, GOOD], **options)
    assert result.ok, result.error
    value = result.value
    assert [a for a in value["applied"]] == [{"id": value["receipts"][0]["operationId"]}]
    assert len(value["skipped"]) == 1
    return value["skipped"][0]


CASES = [
    ("missingBlock", {"type": "deleteBlock", "blockId": "DEADBEEF"}, "re-read"),
    ("preconditionFailed", {"type": "deleteBlock", "blockId": "0A000002", "precondition": {"blockTextHash": "h1"}},
     "blockTextHash"),
    ("ambiguousFind", {"type": "replaceInBlock", "blockId": "0A000002", "find": "e", "replace": "E"}, "times"),
    ("missingFind", {"type": "replaceInBlock", "blockId": "0A000002", "find": "Buyer", "replace": "X"},
     "does not occur"),
    ("noopOperation", {"type": "replaceInBlock", "blockId": "0A000002", "find": "the", "replace": "the"}, "same"),
    ("noopOperation", {"type": "replaceBlock", "blockId": "0A000001", "text": "Heading One"}, "already"),
    ("noopOperation", {"type": "setBlockParagraphProperties", "blockId": "0A000001", "styleId": "Heading1"},
     "already"),
    ("noopOperation", {"type": "formatRange", "range": "thirty", "formatting": {"italic": True}}, "already"),
    ("missingStyle", {"type": "setBlockParagraphProperties", "blockId": "0A000002", "styleId": "Strong"},
     "Heading1 (heading 1)"),
    ("missingStyle", {"type": "insertAfterBlock", "blockId": "0A000002", "text": "x", "styleId": "Nope"},
     "ListParagraph"),
    ("missingNumbering", {"type": "setBlockParagraphProperties", "blockId": "0A000002",
                          "numbering": {"kind": "reference", "numId": 7}}, "has: 1"),
    ("missingNumbering", {"type": "setBlockParagraphProperties", "blockId": "0A000002",
                          "numbering": {"kind": "levelOnly", "ilvl": 1}}, "no list"),
    ("missingNumbering", {"type": "setBlockParagraphProperties", "blockId": "0A000002",
                          "numbering": {"kind": "reference", "fromBlockId": "0A000001"}}, "not in a list"),
    ("splitsCharacter", {"type": "splitBlock", "blockId": "0A000007", "offset": 7}, "use offset 6 or 8"),
    ("splitsCharacter", {"type": "splitBlock", "blockId": "0A000007", "offset": 17}, "use offset 16 or 18"),
    ("staleRange", {"type": "splitBlock", "blockId": "0A000007", "offset": 500}, "find_text"),
    ("invalidResult", {"type": "replaceInBlock", "blockId": "0A000002", "find": "The", "replace": "A\x01"},
     "U+0001"),
    ("unsupportedBlock", {"type": "mergeBlockWithNext", "blockId": "0A000009"}, "nothing to join"),
    ("unsupportedBlock", {"type": "mergeBlockWithNext", "blockId": "0A000006"}, "table comes next"),
    ("documentVersionMismatch", None, "documentVersion"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "op", "hint"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_skip_codes(rich, code, op, hint):
    before = rich.read_bytes()
    if op is not None and isinstance(op.get("range"), str):
        op = dict(op, range=find_range(rich, op["range"]))
    if op is None:  # a stale documentVersion skips the whole call
        result = suggest(rich, {"operations": [GOOD], "documentVersion": "0" * 16})
        assert result.ok and result.value["applied"] == []
        skip = result.value["skipped"][0]
        assert rich.read_bytes() == before
    else:
        skip = skipped_one(rich, op)
        assert "Extra." in block_texts(rich)  # the other operation applied
    assert skip["code"] == code
    if hint:
        assert hint in skip["reason"], skip["reason"]


def test_stale_ranges_and_characters_inside_ranges(rich):
    good = find_range(rich, "deliver")
    tampered = dict(good, selectedTextHash="h123")
    assert skipped_one(rich, {"type": "replaceRange", "range": tampered, "replace": "x"})["code"] == "staleRange"
    shifted = dict(good, startOffset=good["startOffset"] + 1, endOffset=good["endOffset"] + 1)
    assert skipped_one(rich, {"type": "commentOnRange", "range": shifted, "comment": "c"})["code"] == "staleRange"
    beyond = dict(good, startOffset=200, endOffset=210)
    assert skipped_one(rich, {"type": "formatRange", "range": beyond, "formatting": {"bold": True}})["code"] == (
        "staleRange"
    )
    emoji = find_range(rich, "\U0001f600")
    half = dict(emoji, endOffset=emoji["endOffset"] - 1)
    skip = skipped_one(rich, {"type": "replaceRange", "range": half, "replace": "x"})
    assert skip["code"] == "splitsCharacter" and "offset 7" in skip["reason"]


def test_a_comment_may_end_between_a_letter_and_its_accent_but_an_edit_may_not(rich):
    accent = find_range(rich, "cafe")  # stops before the combining accent
    assert skipped_one(rich, {"type": "replaceRange", "range": accent, "replace": "tea"})["code"] == "splitsCharacter"
    result = suggest(rich, [{"type": "commentOnRange", "range": accent, "comment": "c"}])
    assert result.ok and result.value["skipped"] == []


def test_overlapping_operations(rich):
    ops = [
        {"id": "a", "type": "replaceInBlock", "blockId": "0A000002", "find": "shall deliver", "replace": "delivers"},
        {"id": "b", "type": "replaceInBlock", "blockId": "0A000002", "find": "deliver the", "replace": "ship the"},
        {"id": "c", "type": "deleteBlock", "blockId": "0A000002"},
        {"id": "d", "type": "formatRange", "range": find_range(rich, "shall"), "formatting": {"bold": True}},
        {"id": "e", "type": "commentOnRange", "range": find_range(rich, "goods"), "comment": "fine, text is shared"},
        {"id": "f", "type": "mergeBlockWithNext", "blockId": "0A000003"},
        {"id": "g", "type": "insertAfterBlock", "blockId": "0A000003", "text": "between merged blocks"},
        {"id": "h", "type": "setBlockParagraphProperties", "blockId": "0A000004", "alignment": "center"},
        {"id": "i", "type": "splitBlock", "blockId": "0A000009", "offset": 4},
        {"id": "j", "type": "replaceBlock", "blockId": "0A000009", "text": "Other"},
    ]
    value = suggest(rich, ops).value
    assert [a["id"] for a in value["applied"]] == ["a", "e", "f", "i"]
    skipped = {s["id"]: s for s in value["skipped"]}
    assert set(skipped) == {"b", "c", "d", "g", "h", "j"}
    assert all(s["code"] == "overlappingOperation" for s in skipped.values())
    assert "operation a " in skipped["b"]["reason"] and "operation f " in skipped["g"]["reason"]


def test_pending_deletion(rich):
    applied(rich, [{"type": "deleteBlock", "blockId": "0A000005"}])
    for op in (
        {"type": "replaceBlock", "blockId": "0A000005", "text": "New"},
        {"type": "splitBlock", "blockId": "0A000005", "offset": 0},
        {"type": "setBlockParagraphProperties", "blockId": "0A000005", "alignment": "center"},
        {"type": "mergeBlockWithNext", "blockId": "0A000004"},
    ):
        skip = skipped_one(rich, op)
        assert skip["code"] == "pendingDeletion" and "reject that deletion" in skip["reason"]
    assert skipped_one(rich, {"type": "deleteBlock", "blockId": "0A000005"})["code"] == "noopOperation"
    # Inserting next to it is fine.
    assert suggest(rich, [{"type": "insertAfterBlock", "blockId": "0A000005", "text": "New"}]).value["skipped"] == []


def test_unsupported_blocks(tmp_path):
    from tests.docx.builders import make_docx, p

    path = make_docx(
        tmp_path / "sections.docx",
        p("Section one.", ppr='<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>', para_id="0B000001")
        + p("Section two.", para_id="0B000002"),
    )
    for op in ({"type": "deleteBlock", "blockId": "0B000001"}, {"type": "mergeBlockWithNext", "blockId": "0B000001"}):
        result = suggest(path, [op])
        assert result.value["skipped"][0]["code"] == "unsupportedBlock"
        assert "section" in result.value["skipped"][0]["reason"]
    assert applied(path, [{"type": "replaceBlock", "blockId": "0B000001", "text": ""}])


def test_direct_only_types_are_skipped_in_tracked_mode(rich, monkeypatch):
    """The framework's mode rule, with a direct-only type registered for the test (the contract's
    direct-only insertSignatureTable is a table operation)."""

    def resolve(ctx, op, block):
        return Plan(op, (block.index, 0, 0), [Claim(("para", block.element))], block=block, touches=[])

    def apply(ctx, plan):
        return Applied([block_json_target(plan.data["block"], "checked")])

    spec = OperationSpec("directOnly", "A test type.", (block_id_field(),), resolve, apply, modes=("direct",))
    monkeypatch.setattr(registry, "OPERATION_MODULES", (*registry.OPERATION_MODULES, ("directOnly", "test")))
    monkeypatch.setattr(registry, "CONTRACT_TYPES", (*registry.CONTRACT_TYPES, "directOnly"))
    monkeypatch.setitem(registry._MODULES, "directOnly", "test")
    monkeypatch.setitem(registry._CACHE, "directOnly", spec)
    op = {"type": "directOnly", "blockId": "0A000001"}
    types = ("directOnly", "insertAfterBlock")
    skip = skipped_one(rich, op, operation_types=types)
    assert skip["code"] == "unsupportedMode" and "tracked-changes mode" in skip["reason"]
    result = suggest(rich, [op], operation_types=types, mode="direct")
    assert result.ok, result.error
    assert result.value["receipts"][0]["affected"][0]["effect"] == "checked"


def test_a_skip_while_applying_rolls_the_operation_back(rich, monkeypatch):
    """An operation whose result does not check out (invalidResult) leaves no trace, comment included."""
    from deskcheck.engine.docx.edit import textmap

    original_replace = textmap.ParagraphText.replace

    def sabotage(self, start, end, text, edit):
        return original_replace(self, start, end, text + "!", edit)  # writes something else

    monkeypatch.setattr(textmap.ParagraphText, "replace", sabotage)
    before = DocxDocument.open(rich)
    xml_before = before.package.read_bytes("word/document.xml")
    result = suggest(rich, [{"type": "replaceInBlock", "blockId": "0A000002", "find": "thirty", "replace": "sixty",
                             "comment": "gone with it"}])  # fmt: skip
    skip = result.value["skipped"][0]
    assert skip["code"] == "invalidResult" and "nothing of it was applied" in skip["reason"]
    assert result.value["output"] is None
    assert DocxDocument.open(rich).package.read_bytes("word/document.xml") == xml_before


def test_every_skip_code_has_a_reason_that_fills_in():
    for code in SKIP_CODES:
        assert "{" not in explain(code, {}) and explain(code, {})
    assert explain("somethingNew") == "somethingNew"


def test_skipped_operations_leave_the_file_untouched(rich):
    before = rich.read_bytes()
    result = suggest(rich, [{"type": "deleteBlock", "blockId": "DEADBEEF"}])
    assert result.ok and result.value["output"] is None and rich.read_bytes() == before


def test_read_document_sees_the_original_texts(rich):
    assert block_texts(rich) == ORIGINAL_TEXTS
    assert docx_toolset(rich).call("read_document", {}).ok


def test_copies_apply_independently(tmp_path, rich):
    other = tmp_path / "other.docx"
    shutil.copy(rich, other)
    applied(other, [GOOD])
    assert block_texts(rich) == ORIGINAL_TEXTS


def test_edits_never_cut_a_field_in_two(tmp_path):
    from tests.docx.builders import make_docx, p

    def field(kind: str) -> str:
        return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'

    inside = (
        '<w:r><w:t xml:space="preserve">See clause </w:t></w:r>' + field("begin")
        + '<w:r><w:instrText xml:space="preserve"> REF _Ref1 \\r </w:instrText></w:r>' + field("separate")
        + "<w:r><w:t>1.2</w:t></w:r>" + field("end") + '<w:r><w:t xml:space="preserve"> for details.</w:t></w:r>'
    )  # fmt: skip
    toc_start = field("begin") + '<w:r><w:instrText xml:space="preserve"> TOC </w:instrText></w:r>' + field("separate")
    path = make_docx(
        tmp_path / "fields.docx",
        p(runs=inside, para_id="0C000001")
        + p(runs=toc_start + "<w:r><w:t>Entry one</w:t></w:r>", para_id="0C000002")
        + p(runs="<w:r><w:t>Entry two</w:t></w:r>" + field("end"), para_id="0C000003")
        + p("After.", para_id="0C000004"),
    )
    across = find_range(path, "2 for")
    skip = suggest(path, [{"type": "replaceRange", "range": across, "replace": ""}]).value["skipped"][0]
    assert skip["code"] == "unsupportedBlock" and "field" in skip["reason"]
    skip = suggest(path, [{"type": "deleteBlock", "blockId": "0C000002"}]).value["skipped"][0]
    assert skip["code"] == "unsupportedBlock" and "table of contents" in skip["reason"]
    # Inside the field's result, and around the whole field, edits apply.
    applied(path, [{"type": "replaceInBlock", "blockId": "0C000001", "find": "1.2", "replace": "1.3"}])
    applied(path, [{"type": "replaceInBlock", "blockId": "0C000001", "find": "clause 1.3 for", "replace": "section"}])
    assert block_texts(path)[0] == "See section details."
