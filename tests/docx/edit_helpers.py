"""Shared helpers for the editing tests: a document with the shapes edits meet (styles, runs with
different formatting, a list, a hyperlink, someone's pending tracked changes, a table, astral
and combining characters, a blank paragraph), calls to suggest_changes, texts in each view
(ours and LibreOffice's), and OOXML schema validation after unwrapping Markup Compatibility."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path
from typing import Any

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.revisions import resolve_all
from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset
from tests.docx.builders import add_relationship, make_docx, p, rewrite_parts
from tests.docx.views import normalise, paragraph_stream

STYLES = (
    '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>'
    '<w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style>'
    '<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>'
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>'
)
NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
    '<w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)
LIST = '<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'


def _r(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _cell(text: str, para_id: str) -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>{p(text, para_id=para_id)}</w:tc>'


BODY = (
    p("Heading One", ppr='<w:pStyle w:val="Heading1"/>', para_id="0A000001")
    + p(
        para_id="0A000002",
        runs=_r("The ")
        + _r("Supplier", "<w:b/>")
        + _r(" shall deliver the goods within ")
        + _r("thirty", '<w:i/><w:sz w:val="22"/>')
        + _r(" days."),
    )
    + p("First item", ppr=LIST, para_id="0A000003")
    + p("Second item", ppr=LIST, para_id="0A000004")
    + p(
        para_id="0A000005",
        runs=_r("Text with a ")
        + f'<w:hyperlink r:id="rIdX" w:history="1">{_r("link here")}</w:hyperlink>'
        + _r(" and more."),
    )
    + p(
        para_id="0A000006",
        runs=_r("Pending ")
        + f'<w:ins w:id="901" w:author="Other" w:date="2025-01-01T00:00:00Z">{_r("inserted words")}</w:ins>'
        + _r(" and ")
        + '<w:del w:id="902" w:author="Other" w:date="2025-01-01T00:00:00Z"><w:r><w:delText>removed</w:delText>'
        "</w:r></w:del>" + _r(" end."),
    )
    + '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="4000" w:type="dxa"/></w:tblPr>'
    '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
    f"<w:tr>{_cell('A1', '0A000011')}{_cell('B1', '0A000012')}</w:tr>"
    f"<w:tr>{_cell('A2', '0A000021')}{_cell('B2', '0A000022')}</w:tr></w:tbl>"
    + p("Emoji \U0001f600 and cafe\u0301 here.", para_id="0A000007")
    + p("", para_id="0A000008")
    + p("Last paragraph.", para_id="0A000009")
    + '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
)
ORIGINAL_TEXTS = [
    "Heading One",
    "The Supplier shall deliver the goods within thirty days.",
    "First item",
    "Second item",
    "Text with a link here and more.",
    "Pending inserted words and  end.",
    "A1",
    "B1",
    "A2",
    "B2",
    "Emoji \U0001f600 and cafe\u0301 here.",
    "",
    "Last paragraph.",
]


def build_document(path: Path) -> Path:
    """The rich test document (ids 0A0000xx; see ORIGINAL_TEXTS for its as-accepted blocks)."""
    make_docx(path, BODY, styles=STYLES, numbering=NUMBERING)
    # The hyperlink's target.
    return rewrite_parts(
        path, lambda parts: add_relationship(parts, "rIdX", "hyperlink", "https://example.com/", external=True)
    )


def copy_of(source: Path, folder: Path, name: str | None = None) -> Path:
    target = folder / (name or source.name)
    shutil.copy(source, target)
    return target


def suggest(path: Path, operations: list[dict[str, Any]] | dict[str, Any], **options: Any):
    """Call suggest_changes on ``path`` (options as DocxOptions keywords); returns the ToolResult."""
    args = operations if isinstance(operations, dict) else {"operations": operations}
    return docx_toolset(path, DocxOptions(**options)).call("suggest_changes", args)


def applied(path: Path, operations, **options: Any) -> dict[str, Any]:
    """suggest_changes that must succeed with every operation applied; returns the result."""
    result = suggest(path, operations, **options)
    assert result.ok, result.error
    assert result.value["skipped"] == [], result.value["skipped"]
    return result.value


def tracked_and_direct(folder: Path, stem: str, source: Path, operations, operation_types) -> tuple[Path, Path]:
    """Two copies of ``source`` in ``folder``, ``operations`` applied to one in tracked-changes
    mode and to the other in direct mode."""
    tracked, direct = folder / f"{stem}-tracked.docx", folder / f"{stem}-direct.docx"
    shutil.copy(source, tracked)
    shutil.copy(source, direct)
    applied(tracked, operations, mode="tracked-changes", operation_types=operation_types)
    applied(direct, operations, mode="direct", operation_types=operation_types)
    return tracked, direct


def block_texts(path: Path) -> list[str]:
    return [block.text for block in DocxDocument.open(path).blocks]


def resolved_texts(path: Path, mode: str) -> list[str]:
    """Our accept-all ("accept") or reject-all ("reject") of the file, as block texts."""
    doc = DocxDocument.open(path)
    resolve_all(doc, mode)
    return [block.text for block in doc.blocks]


def our_stream(path: Path, view: str) -> list[str]:
    """Our paragraphs of ``path`` in ``view``, laid out and normalised as LibreOffice shows them."""
    return [normalise(t) for t in paragraph_stream(DocxDocument.open(path), view)]


def lo_texts(row: dict[str, Any]) -> list[str]:
    """The normalised paragraphs of a row from tests/libreoffice.py, which must be a reading."""
    assert row["ok"], f"LibreOffice on {row['file']}: {row['error']}"
    return [normalise(text) for text in row["paragraphs"]]


# -- OOXML schema validation ---------------------------------------------------------------------

XSD = Path(__file__).resolve().parent.parent / "fixtures" / "ooxml-xsd"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
# Namespaces the 2006 transitional schemas know; anything else is a later extension.
KNOWN = {
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "http://schemas.openxmlformats.org/drawingml/2006/main",
    "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "http://schemas.openxmlformats.org/officeDocument/2006/sharedTypes",
    "http://www.w3.org/XML/1998/namespace",
    "urn:schemas-microsoft-com:vml",
    "urn:schemas-microsoft-com:office:office",
    "urn:schemas-microsoft-com:office:word",
}
_XML_XSD = """<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace">
  <xs:attribute name="space"><xs:simpleType><xs:restriction base="xs:NCName">
    <xs:enumeration value="default"/><xs:enumeration value="preserve"/></xs:restriction></xs:simpleType></xs:attribute>
  <xs:attribute name="lang" type="xs:language"/>
</xs:schema>"""


@cache
def wml_schema():
    """wml.xsd compiled with lxml (the xml namespace imported with a location first)."""
    import tempfile

    from lxml import etree

    folder = Path(tempfile.mkdtemp(prefix="ooxml-xsd-"))
    (folder / "xml.xsd").write_text(_XML_XSD)
    wrapper = folder / "wrapper.xsd"
    wrapper.write_text(
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:wrapper">'
        f'<xs:import namespace="http://www.w3.org/XML/1998/namespace" schemaLocation="{folder / "xml.xsd"}"/>'
        '<xs:import namespace="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        f'schemaLocation="{XSD / "wml.xsd"}"/></xs:schema>'
    )
    return etree.XMLSchema(etree.parse(str(wrapper)))


def unwrap_compatibility(root):
    """A copy of ``root`` reduced to what the 2006 schemas describe: ``mc:AlternateContent`` is
    replaced by its fallback (or dropped), elements and attributes of later namespaces go."""
    from copy import deepcopy

    root = deepcopy(root)
    for alternate in list(root.iter(f"{{{MC}}}AlternateContent")):
        parent = alternate.getparent()
        if parent is None:
            continue
        fallback = alternate.find(f"{{{MC}}}Fallback")
        index = parent.index(alternate)
        parent.remove(alternate)
        if fallback is not None:
            for offset, child in enumerate(list(fallback)):
                parent.insert(index + offset, child)
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        namespace = element.tag[1:].split("}")[0] if element.tag.startswith("{") else ""
        if namespace not in KNOWN and element is not root:
            parent = element.getparent()
            if parent is not None:
                parent.remove(element)
            continue
        for name in list(element.attrib):
            if name.startswith("{") and name[1:].split("}")[0] not in KNOWN:
                del element.attrib[name]
    return root


SCHEMA_PARTS = ("word/document.xml", "word/comments.xml", "word/numbering.xml", "word/styles.xml")


def schema_errors(path: Path) -> set[tuple[str, str]]:
    """(part, message) of every schema error in the WordprocessingML parts of ``path``."""
    import re

    from deskcheck.engine.docx.package.docx_package import DocxPackage

    schema = wml_schema()
    package = DocxPackage.open(path)
    errors = set()
    for part in SCHEMA_PARTS:
        if not package.has_part(part):
            continue
        root = unwrap_compatibility(package.xml(part))
        if not schema.validate(root):
            for entry in schema.error_log:
                errors.add((part, re.sub(r"line \d+", "", entry.message)))
    return errors


def new_schema_errors(source: Path, output: Path) -> set[tuple[str, str]]:
    return schema_errors(output) - schema_errors(source)


def outputs(folder: Path, source: Path, operations, stem: str) -> dict[str, Path]:
    """The batch applied to copies of ``source`` in both modes: {"tracked": path, "direct": path}."""
    out = {}
    for mode, key in (("tracked-changes", "tracked"), ("direct", "direct")):
        target = folder / f"{stem}-{key}.docx"
        shutil.copy(source, target)
        applied(target, operations, mode=mode)
        out[key] = target
    return out
