"""The block model on real and built documents: which paragraphs are blocks, their text in both
views, ids, kinds, cell coordinates."""

from __future__ import annotations

import zipfile

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.hashing import block_text_hash, deterministic_hex_id, normalize_text, text_hash
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p

TEXT_BOX = (
    '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent>'
    f"{p('In the box')}</w:txbxContent></wps:txbx></w:drawing></mc:Choice>"
    "<mc:Fallback><w:pict><v:textbox><w:txbxContent>"
    f"{p('In the box')}</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
)


@pytest.mark.corpus
def test_reference_ids_and_the_blank_block():
    doc = DocxDocument.open(CORPUS / "folio" / "authored-empty-paragraph.docx")
    blocks = doc.blocks
    assert [b.id for b in blocks] == ["0304003A", deterministic_hex_id(":2"), "32560014"]
    assert [b.text for b in blocks] == ["Heading paragraph.", "", "Trailing paragraph."]
    assert blocks[1].hash == "h45h"
    assert blocks[0].hash == "hnoenbg"


def test_hash_and_normalisation_match_the_reference():
    assert text_hash("Heading") == "h7zrslk"
    assert block_text_hash("  Heading\u00a0 paragraph.\ufeff") == "hnoenbg"
    assert normalize_text("\u3000a\u2028\tb ") == "a b"
    assert normalize_text("a\x1cb") == "a\x1cb"  # not whitespace for JavaScript's \s
    assert deterministic_hex_id("Document with tables::1") == "0EBEBAF9"
    assert deterministic_hex_id("A1:2") == "2D085DAF"


def test_containers_views_and_coordinates(tmp_path):
    body = (
        p(runs='<w:r><w:t xml:space="preserve">Keep </w:t></w:r><w:ins w:id="1" w:author="A"><w:r><w:t>new</w:t>'
          '</w:r></w:ins><w:del w:id="2" w:author="B"><w:r><w:delText>old</w:delText></w:r></w:del>')
        + p(runs='<w:hyperlink r:id="rX"><w:r><w:t>link</w:t></w:r></w:hyperlink><w:smartTag w:uri="u" w:element="e">'
            '<w:r><w:t>-tag</w:t></w:r></w:smartTag><w:fldSimple w:instr="PAGE"><w:r><w:t>-7</w:t></w:r></w:fldSimple>'
            '<w:sdt><w:sdtContent><w:r><w:t>-sdt</w:t></w:r></w:sdtContent></w:sdt>'
            '<w:r><w:rPr><w:vanish/></w:rPr><w:t>HIDDEN</w:t></w:r><w:r><w:t>  untrimmed  </w:t></w:r>')
        + p(runs='<w:moveFrom w:id="3" w:author="A"><w:r><w:t>away</w:t></w:r></w:moveFrom>'
            '<w:moveTo w:id="4" w:author="A"><w:r><w:t>here</w:t></w:r></w:moveTo>' + TEXT_BOX)
        + "<w:tbl><w:tr><w:tc>" + p("A1") + "</w:tc><w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr>" + p("B1")
        + "<w:tbl><w:tr><w:tc>" + p("inner") + "</w:tc></w:tr></w:tbl></w:tc><w:tc>" + p("D1") + "</w:tc></w:tr>"
        + '<w:tr><w:trPr><w:hidden/></w:trPr><w:tc>' + p("secret row") + "</w:tc></w:tr>"
        + '<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>'
        + p("B3") + "</w:tc></w:tr>"
        + '<w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr>' + p("merged away") + "</w:tc></w:tr></w:tbl>"
        + p()
    )  # fmt: skip
    doc = DocxDocument.open(make_docx(tmp_path / "x.docx", body))
    blocks = doc.blocks
    assert [b.text for b in blocks] == [
        "Keep new", "link-tag-7-sdtuntrimmed", "here", "In the box", "A1", "B1", "inner", "D1", "B3", "",
    ]  # fmt: skip
    assert [b.original_text for b in blocks][:3] == ["Keep old", "link-tag-7-sdtuntrimmed", "away"]
    assert blocks[3].in_text_box and not blocks[2].in_text_box
    cells = {b.text: b.cell for b in blocks if b.cell}
    assert cells == {"A1": (0, 0, 0), "B1": (0, 0, 1), "inner": (1, 0, 0), "D1": (0, 0, 3), "B3": (0, 2, 1)}
    assert len({b.id for b in blocks}) == len(blocks)


def test_kinds_levels_and_labels(tmp_path):
    styles = (
        '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/>'
        '<w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>'
        '<w:style w:type="paragraph" w:styleId="Kop3"><w:name w:val="heading 3"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Clause"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr>'
        '<w:outlineLvl w:val="0"/></w:pPr></w:style>'
    )
    numbering = (
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    body = (
        p("Title", ppr='<w:pStyle w:val="Heading2"/>')
        + p("Dutch", ppr='<w:pStyle w:val="Kop3"/>')
        + p("Outline", ppr='<w:outlineLvl w:val="4"/>')
        + p("Clause", ppr='<w:pStyle w:val="Clause"/>')
        + p("Plain")
    )
    doc = DocxDocument.open(make_docx(tmp_path / "x.docx", body, styles=styles, numbering=numbering))
    summary = [(b.kind, b.heading_level, b.display_label, b.style_id) for b in doc.blocks]
    assert summary == [
        ("heading", 2, None, "Heading2"),
        ("heading", 3, None, "Kop3"),
        ("heading", 5, None, None),
        ("heading", 1, "1.", "Clause"),  # numbered, with an outline level: a heading
        ("paragraph", None, None, None),
    ]


@pytest.mark.corpus
def test_an_unnumbered_heading_has_no_label():
    """displayLabel is the marker Word draws; an unnumbered heading draws none (its style id is in
    styleId), so a model looking for "clause 2" never matches a style name."""
    headings = [b for b in DocxDocument.open(CORPUS / "pandoc" / "tables.docx").blocks if b.kind == "heading"]
    assert headings and [(b.style_id, b.display_label) for b in headings] == [(b.style_id, None) for b in headings]
    assert {b.style_id for b in headings} >= {"Heading2"}


NO_IDS_BODY = p("A paragraph Word wrote without ids.") + p(
    runs='<w:r><w:t xml:space="preserve">Kept, and </w:t></w:r><w:ins w:id="1" w:author="Ann" '
    'w:date="2024-01-01T00:00:00Z"><w:r><w:t>inserted</w:t></w:r></w:ins>'
)


@pytest.mark.parametrize("source", ["built", pytest.param("corpus", marks=pytest.mark.corpus)])
def test_minted_ids_are_written_on_the_next_save_and_survive(tmp_path, source):
    path = tmp_path / "x.docx"
    if source == "built":
        make_docx(path, NO_IDS_BODY)
    else:
        path.write_bytes((CORPUS / "pandoc" / "track_changes_insertion.docx").read_bytes())
    before = {b.text: b.id for b in DocxDocument.open(path).blocks}
    with zipfile.ZipFile(path) as archive:
        assert b"w14:paraId" not in archive.read("word/document.xml")
    from tests.helpers import run_cli

    run_cli("docx", "accept-all", str(path))
    with zipfile.ZipFile(path) as archive:
        assert b"w14:paraId" in archive.read("word/document.xml")
    after = {b.text: b.id for b in DocxDocument.open(path).blocks}
    assert after == before


def test_duplicate_para_ids_get_fresh_ones(tmp_path):
    body = p("one", para_id="AAAA0001") + p("two", para_id="AAAA0001") + p("three", para_id="BBBB0002")
    ids = [b.id for b in DocxDocument.open(make_docx(tmp_path / "x.docx", body)).blocks]
    assert ids[0] == "AAAA0001" and ids[2] == "BBBB0002"
    assert ids[1] == deterministic_hex_id("two:2")


def test_a_minted_id_never_repeats_a_later_paragraphs_stored_id(tmp_path):
    """The second "two" needs an id; the one its text and position give is already stored on the
    paragraph after it (a file stamped before, or paragraphs copied from another file), so the
    minted id is salted instead of taking it (this used to fail with a KeyError)."""
    clash = deterministic_hex_id("two:2")
    body = p("one", para_id="AAAA0001") + p("two", para_id="AAAA0001") + p("three", para_id=clash)
    ids = [b.id for b in DocxDocument.open(make_docx(tmp_path / "x.docx", body)).blocks]
    assert ids == ["AAAA0001", deterministic_hex_id("two:2:1"), clash]
