"""The placeholder text of empty content controls (issue 19, item 6).

A content control that shows its placeholder (``w:showingPlcHdr``) holds a prompt such as
"Choose an item.", not content: reads mark it (``placeholder: true``, ``placeholderRanges``),
find_text flags matches in it, and edits that would change it are skipped (``placeholderText``)
while edits around it still apply.
"""

from __future__ import annotations

import shutil

import pytest

from deskcheck.cli.context import ContextOptions
from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.wml.ns import qn
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import resolved_texts, suggest
from tests.repl.support import drive, lines

FIXTURES = REPO / "tests" / "fixtures" / "docx"
DROPDOWN = FIXTURES / "docx2python-check-drop-my.docx"  # "Choose an item." in an empty drop-down
TEXT_CONTROL = FIXTURES / "openxmlsdk-simpleSdt.docx"  # a block-level control: "Click here to enter text."
ALL_TYPES = (
    "replaceInBlock", "replaceRange", "formatRange", "insertAfterBlock", "insertBeforeBlock", "replaceBlock",
    "deleteBlock", "splitBlock", "mergeBlockWithNext", "commentOnRange", "commentOnBlock",
)  # fmt: skip


def _inline_control(prompt: str, *, showing: str = "<w:showingPlcHdr/>") -> str:
    return (
        f'<w:sdt><w:sdtPr><w:id w:val="77"/><w:placeholder><w:docPart w:val="DefaultPlaceholder"/></w:placeholder>'
        f'{showing}<w:text/></w:sdtPr><w:sdtContent><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr>'
        f"<w:t>{prompt}</w:t></w:r></w:sdtContent></w:sdt>"
    )


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def form_document(path):
    """A sentence with an empty inline control in it (after an emoji, so UTF-16 offsets differ
    from code points), a filled control (showingPlcHdr off), and a control whose placeholder
    part is named but that holds real text (no showingPlcHdr)."""
    empty = _inline_control("Click to enter a name.")
    filled = _inline_control("ACME Ltd", showing='<w:showingPlcHdr w:val="false"/>')
    body = (
        p(para_id="0E000001", runs=_run("Buyer \U0001f600 ") + empty + _run(" agrees."))
        + p(para_id="0E000002", runs=_run("Seller ") + filled)
        + p(para_id="0E000003", runs=_inline_control("Real text", showing=""))
        + p("Closing.", para_id="0E000004")
    )
    return make_docx(path, body)


def blocks_of(path) -> dict[str, dict]:
    return {b["blockId"]: b for b in docx_toolset(path).call("read_document", {}).value["blocks"]}


def test_placeholder_text_is_marked_where_it_is(tmp_path):
    path = form_document(tmp_path / "form.docx")
    blocks = blocks_of(path)
    sentence = blocks["0E000001"]
    assert sentence["text"] == "Buyer \U0001f600 Click to enter a name. agrees."
    start = len("Buyer ") + 2 + 1  # the emoji counts two UTF-16 units
    assert sentence["placeholder"] is True
    assert sentence["placeholderRanges"] == [{"startOffset": start, "endOffset": start + len("Click to enter a name.")}]
    assert "placeholder" not in blocks["0E000002"] and "placeholder" not in blocks["0E000003"]
    assert "placeholder" not in blocks["0E000004"]


def test_real_documents():
    dropdown = [b for b in blocks_of(DROPDOWN).values() if b.get("placeholder")]
    assert [b["text"] for b in dropdown] == ["Choose an item."]
    control = [b for b in blocks_of(TEXT_CONTROL).values() if b.get("placeholder")]
    assert [b["text"] for b in control] == ["Click here to enter text."]
    assert control[0]["placeholderRanges"] == [{"startOffset": 0, "endOffset": 25}]
    # The drop-down's chosen values are content.
    chosen = [b for b in blocks_of(DROPDOWN).values() if b["text"] in ("my_item_A", "my_item_B")]
    assert chosen and not any(b.get("placeholder") for b in chosen)


def test_find_text_flags_matches_in_placeholders(tmp_path):
    path = form_document(tmp_path / "form.docx")
    tools = docx_toolset(path)
    inside = tools.call("find_text", {"query": "enter a"}).value["matches"]
    assert len(inside) == 1 and inside[0]["placeholder"] is True
    outside = tools.call("find_text", {"query": "agrees"}).value["matches"]
    assert len(outside) == 1 and "placeholder" not in outside[0]
    assert (
        "placeholder" in tools.get("find_text").description and "placeholder" in tools.get("read_document").description
    )


def _range(path, query):
    return docx_toolset(path).call("find_text", {"query": query}).value["matches"][0]["range"]


def changing_operations(path) -> dict[str, dict]:
    """Operations that would change the placeholder text of form_document."""
    return {
        "replaceInBlock": {"type": "replaceInBlock", "blockId": "0E000001", "find": "enter a name", "replace": "Bob"},
        "replaceRange": {"type": "replaceRange", "range": _range(path, "\U0001f600 Click"), "replace": ":)"},
        "formatRange": {"type": "formatRange", "range": _range(path, "Click"), "formatting": {"bold": True}},
        "replaceBlock": {"type": "replaceBlock", "blockId": "0E000001", "text": "Buyer Bob agrees."},
        "deleteBlock": {"type": "deleteBlock", "blockId": "0E000001"},
        "splitBlock": {"type": "splitBlock", "blockId": "0E000001", "offset": 15},
    }


@pytest.mark.parametrize("mode", ["tracked-changes", "direct"])
def test_edits_that_would_change_a_placeholder_are_skipped(tmp_path, mode):
    path = form_document(tmp_path / "form.docx")
    before = path.read_bytes()
    for name, operation in changing_operations(path).items():
        result = suggest(path, [operation], mode=mode, operation_types=ALL_TYPES)
        assert result.ok, result.error
        assert [s["code"] for s in result.value["skipped"]] == ["placeholderText"], (name, result.value)
        assert "Click to enter a name." in result.value["skipped"][0]["reason"]
        assert path.read_bytes() == before, name


def test_edits_around_a_placeholder_apply(tmp_path):
    path = form_document(tmp_path / "form.docx")
    operations = [
        {"type": "replaceInBlock", "blockId": "0E000001", "find": "agrees", "replace": "accepts"},
        {"type": "commentOnRange", "range": _range(path, "Click to"), "comment": "Fill this in."},
        {"type": "insertAfterBlock", "blockId": "0E000001", "text": "A new clause."},
    ]
    result = suggest(path, operations, operation_types=ALL_TYPES)
    assert result.ok and result.value["skipped"] == [], result.value
    accepted = resolved_texts(path, "accept")
    assert accepted[:2] == ["Buyer \U0001f600 Click to enter a name. accepts.", "A new clause."]
    assert blocks_of(path)["0E000001"]["placeholder"] is True


@pytest.mark.parametrize("kind", ["insertAfterBlock", "insertBeforeBlock"])
def test_a_new_paragraph_goes_outside_a_block_level_placeholder(tmp_path, kind):
    path = shutil.copy(TEXT_CONTROL, tmp_path / "control.docx")
    control = next(b for b in blocks_of(path).values() if b.get("placeholder"))
    result = suggest(path, [{"type": kind, "blockId": control["blockId"], "text": "Our text."}])
    assert result.ok and result.value["skipped"] == [], result.value
    new_id = result.value["receipts"][0]["affected"][0]["blockId"]
    blocks = blocks_of(path)
    assert "placeholder" not in blocks[new_id] and blocks[control["blockId"]]["placeholder"] is True
    new = DocxDocument.open(path).block(new_id).element
    assert not any(ancestor.tag == qn("w:sdt") for ancestor in new.iterancestors())


def test_a_block_level_placeholder_is_not_split_deleted_or_replaced(tmp_path):
    path = shutil.copy(DROPDOWN, tmp_path / "dropdown.docx")
    before = path.read_bytes()
    block = next(b for b in blocks_of(path).values() if b.get("placeholder"))["blockId"]
    for operation in (
        {"type": "splitBlock", "blockId": block, "offset": 0},
        {"type": "replaceBlock", "blockId": block, "text": "my_item_A"},
        {"type": "deleteBlock", "blockId": block},
        {"type": "replaceInBlock", "blockId": block, "find": "item", "replace": "thing"},
    ):
        result = suggest(path, [operation], operation_types=ALL_TYPES)
        assert [s["code"] for s in result.value["skipped"]] == ["placeholderText"], operation
    assert path.read_bytes() == before


def test_the_repl_marks_placeholders(tmp_path):
    path = form_document(tmp_path / "form.docx")
    out = drive(ContextOptions(docx=path, author="Reviewer"), lines("blocks", "find enter")).output
    flagged = [line for line in out.splitlines() if "0E000001" in line]
    assert len(flagged) == 2 and all("placeholder" in line for line in flagged), out
    assert not any("placeholder" in line for line in out.splitlines() if "0E000002" in line)
