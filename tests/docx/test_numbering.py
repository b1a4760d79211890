"""List labels. The expected labels of the pandoc fixtures were checked against the labels
LibreOffice computes for the same files (its ListLabelString), bullets aside (LibreOffice reports
no text for them)."""

from __future__ import annotations

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.numfmt import format_counter
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p

EXPECTED = {
    "pandoc/lists_restarting.docx": ["2.", "3.", "4.", "1."],
    "pandoc/lists_level_override.docx": ["1.", "2.", "3.", "4.", "5.", "6."],
    "pandoc/lists_sublist_reset.docx": ["1.", "1.1", "1.2", "2.", "1.1"],
    "pandoc/lists_continuing.docx": ["1.", "2.", "3.", "4."],
    "pandoc/lists_restart_8367.docx": ["1.", "2.", "3.", "1.", "2.", "3.", "4."],
    "pandoc/lists_multiple_initial.docx": ["1.", "(a)", "(b)", "•", "o", "o"],
    "pandoc/enumerated_headings.docx": ["1", "1.1", "1.1.1"],
    "pandoc/numbered_header.docx": ["1."],
    "pandoc/lists.docx": ["1.", "2.", "a.", "b.", "•", "•", "-", "•", "•", "•"],
}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_pandoc_list_fixtures(name):
    blocks = DocxDocument.open(CORPUS / name).blocks
    assert [b.display_label for b in blocks if b.kind == "listItem" or b.display_label] == EXPECTED[name]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pandoc/enumerated_headings.docx", [(1, "1", "H1"), (2, "1.1", "H2"), (3, "1.1.1", "H3")]),
        ("pandoc/numbered_header.docx", [(1, "1.", "A Numbered Header.")]),
    ],
)
def test_a_numbered_heading_is_a_heading_with_its_number_as_label(name, expected):
    """The seed: a numbered heading is kind heading, with its headingLevel, and its number in
    displayLabel (a heading level wins over numbering for the kind)."""
    blocks = DocxDocument.open(CORPUS / name).blocks
    numbered = [b for b in blocks if b.display_label]
    assert [(b.kind, b.heading_level, b.display_label, b.text) for b in numbered] == [
        ("heading", *row) for row in expected
    ]


@pytest.mark.corpus
def test_contract_clause_numbers():
    blocks = DocxDocument.open(CORPUS / "folio" / "contract-stella-style.docx").blocks
    labels = [b.display_label for b in blocks if b.kind == "listItem"]
    assert labels[:8] == ["(A)", "(B)", "(C)", "1", "(a)", "(b)", "(c)", "(d)"]
    assert "1.1" in labels and "2.1" in labels


def _level(ilvl: int, fmt: str, text: str, start: int = 1, extra: str = "") -> str:
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/>{extra}</w:lvl>'
    )


def test_formats_restarts_overrides_and_legal_numbering(tmp_path):
    numbering = (
        '<w:abstractNum w:abstractNumId="0">'
        + _level(0, "upperRoman", "%1.", start=3)
        + _level(1, "lowerLetter", "(%2)")
        + _level(2, "decimal", "%1.%2.%3", extra="<w:isLgl/>")
        + "</w:abstractNum>"
        + '<w:abstractNum w:abstractNumId="1">'
        + _level(0, "bullet", "\uf0b7")
        + _level(1, "bullet", "o")
        + "</w:abstractNum>"
        + '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        + '<w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>'
        + '<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/>'
        + "</w:lvlOverride></w:num>"
        + '<w:num w:numId="4"><w:abstractNumId w:val="1"/></w:num>'
    )

    def item(num: int, ilvl: int, text: str) -> str:
        return p(text, ppr=f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr>')

    body = (
        item(1, 0, "III")
        + item(1, 1, "a")
        + item(1, 1, "b")
        + item(1, 2, "legal")
        + item(1, 0, "IV")
        + item(1, 1, "a again")
        + item(2, 0, "continues as V")
        + item(3, 0, "restarts at I")
        + item(4, 0, "bullet")
        + item(4, 1, "sub bullet")
        + p("numbering off", ppr='<w:numPr><w:numId w:val="0"/></w:numPr>')
    )
    doc = DocxDocument.open(make_docx(tmp_path / "x.docx", body, numbering=numbering))
    assert [(b.display_label, b.kind) for b in doc.blocks] == [
        ("III.", "listItem"),
        ("(a)", "listItem"),
        ("(b)", "listItem"),
        ("3.2.1", "listItem"),
        ("IV.", "listItem"),
        ("(a)", "listItem"),
        ("V.", "listItem"),
        ("I.", "listItem"),
        ("•", "listItem"),
        ("o", "listItem"),
        (None, "paragraph"),
    ]


@pytest.mark.parametrize(
    ("value", "fmt", "expected"),
    [
        (4, "upperRoman", "IV"),
        (1994, "lowerRoman", "mcmxciv"),
        (28, "upperLetter", "BB"),
        (3, "decimalZero", "03"),
        (12, "ordinal", "12th"),
        (22, "ordinal", "22nd"),
        (21, "cardinalText", "Twenty-one"),
        (3, "ordinalText", "Third"),
        (40, "ordinalText", "Fortieth"),
        (5, "decimalEnclosedCircle", "⑤"),
        (7, "none", ""),
        (9, "someFutureFormat", "9"),
    ],
)
def test_counter_formats(value, fmt, expected):
    assert format_counter(value, fmt) == expected
