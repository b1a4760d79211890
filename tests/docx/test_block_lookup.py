"""Looking up one block by id (``DocxDocument.block``) gives exactly the block the whole list
has, whether the document's blocks were built or only the looked-up ones (a document with no
list instance: no label depends on the paragraphs before it)."""

from __future__ import annotations

from pathlib import Path

from deskcheck.engine.docx.blocks import Block
from deskcheck.engine.docx.document import DocxDocument
from deskcheck.engine.errors import DeskcheckError
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p

FIELDS = [name for name in Block.__slots__ if name != "_hash"]


def _same(looked_up: Block, listed: Block) -> None:
    for name in FIELDS:
        mine, theirs = getattr(looked_up, name), getattr(listed, name)
        if name == "element":  # two parses of one file: compare positions in the tree
            mine, theirs = mine.getroottree().getpath(mine), theirs.getroottree().getpath(theirs)
        assert mine == theirs, (listed.id, name)
    assert looked_up.hash == listed.hash


def _check_lookups(path: Path) -> DocxDocument:
    listed = DocxDocument.open(path).blocks
    doc = DocxDocument.open(path)
    ids = doc.paragraph_ids.ids
    hidden = {para_id for walked, para_id in zip(doc.walk_main(), ids, strict=True) if walked.hidden_row}
    by_id = {block.id: block for block in listed}
    for para_id in reversed(ids):  # out of document order: positions do not depend on the order asked
        block = doc.block(para_id)
        if para_id in hidden:
            assert block is None
        else:
            _same(block, by_id[para_id])
            assert doc.block(para_id) is block
    assert doc.block("7FFFFFFF" if "7FFFFFFF" not in by_id else "nothing") is None
    # The list built afterwards holds the very blocks handed out before.
    assert [doc.block(block.id) for block in doc.blocks] == doc.blocks
    assert all(doc.block(block.id) is block for block in doc.blocks)
    return doc


def test_hidden_rows_text_boxes_and_tracked_text(tmp_path):
    body = (
        p("Before", para_id="00000011")
        + p(runs='<w:r><w:t xml:space="preserve">Keep </w:t></w:r><w:ins w:id="1" w:author="A"><w:r><w:t>new</w:t>'
            '</w:r></w:ins><w:del w:id="2" w:author="B"><w:r><w:delText>old</w:delText></w:r></w:del>')
        + "<w:tbl><w:tr><w:tc>" + p("A1") + "</w:tc></w:tr>"
        + "<w:tr><w:trPr><w:hidden/></w:trPr><w:tc>" + p("secret row") + p("second secret") + "</w:tc></w:tr>"
        + '<w:tr><w:trPr><w:del w:id="3" w:author="A"/></w:trPr><w:tc>' + p("deleted row") + "</w:tc></w:tr>"
        + "<w:tr><w:tc>" + p("A4", ppr='<w:outlineLvl w:val="2"/>') + "</w:tc></w:tr></w:tbl>"
        + p("Duplicate id", para_id="00000011")
        + p()
    )  # fmt: skip
    doc = _check_lookups(make_docx(tmp_path / "x.docx", body))
    texts = [block.text for block in doc.blocks]
    assert texts == ["Before", "Keep new", "A1", "deleted row", "A4", "Duplicate id", ""]
    assert [block.index for block in doc.blocks] == list(range(len(texts)))


def test_numbered_documents_count_every_earlier_paragraph(tmp_path):
    numbering = (
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    numbered = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    body = p("One", ppr=numbered) + p("Plain") + p("Two", ppr=numbered) + p("Three", ppr=numbered)
    doc = DocxDocument.open(make_docx(tmp_path / "x.docx", body, numbering=numbering))
    last = doc.paragraph_ids.ids[-1]
    assert doc.block(last).display_label == "3."
    _check_lookups(tmp_path / "x.docx")


def test_every_corpus_document():
    paths = sorted(CORPUS.rglob("*.docx"))
    assert len(paths) > 100
    checked = 0
    for path in paths:
        try:
            _check_lookups(path)
        except DeskcheckError:  # a file the reader refuses (other tests cover those)
            continue
        checked += 1
    assert checked > 100
