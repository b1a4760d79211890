"""``w:altChunk``: a part of another format that Word imports where the element stands.

A ``w:altChunk`` (in the body, a cell, a header, a note...) names, by ``r:id``, a part related
with the ``aFChunk`` type. Word opens that part by its content type and shows its content as
paragraphs in place of the element; the file itself keeps only the part. ``read_chunk`` reads it
(see ``embedded`` for each format) into a ``Chunk``: the paragraphs a reader sees, or the reason
they are not read. ``paragraph_elements`` turns the paragraphs into plain ``w:p`` elements (the
text, and an outline level for a heading), the form the block walker reads and a redline writes.

Formats read: WordprocessingML (.docx, .docm, .dotx, .dotm), HTML, XHTML, plain text, MHT, and
XML that is a Word document in Flat OPC form. Not read, and reported: RTF, Word 2003 XML, any
other content type, a part that is missing or external, and a chunk whose content would take the
document over its size limits or is nested too deep.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..package import limits
from ..package.docx_package import RT, DocxPackage
from ..wml.ns import NS, W_OUTLINELVL, W_P, W_PPR, W_R, W_T, W_VAL, qn
from .embedded import (
    ImportedParagraph,
    Unreadable,
    read_flat_opc,
    read_html,
    read_mht,
    read_text,
    read_wordprocessing,
)

R_ID = qn("r:id")
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

_WORD = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
)
FORMATS: dict[str, str] = {
    **dict.fromkeys(_WORD, "docx"),
    "text/html": "html",
    "application/xhtml+xml": "xhtml",
    "text/plain": "text",
    "message/rfc822": "mht",
    "application/rtf": "rtf",
    "text/rtf": "rtf",
    "application/xml": "xml",
    "text/xml": "xml",
}


class Chunk(NamedTuple):
    """One imported part as read: ``paragraphs`` None when it is not read (``reason`` says why)."""

    part: str | None
    format: str
    paragraphs: list[ImportedParagraph] | None
    reason: str | None
    digest: str | None  # of the part's bytes, so that a change to unread content still shows
    unread: list[tuple[str, str, str]]  # (part, format, reason) left unread inside it
    characters: int = 0  # of all its paragraphs: what showing it once costs


def chunk_target(package: DocxPackage, part: str, element: Any) -> str | None:
    """The part a ``w:altChunk`` of story part ``part`` imports (None when it names none)."""
    rel_id = element.get(R_ID)
    if not rel_id:
        return None
    rel = package.relationship(part, rel_id)
    if rel is None or rel.external or rel.type != RT.AF_CHUNK:
        return None
    target = package.resolve_target(part, rel_id)
    return target if target is not None and package.has_part(target) else None


def read_chunk(package: DocxPackage, target: str | None, depth: int) -> Chunk:
    """Read part ``target`` (from ``chunk_target``) of ``package``, ``depth`` levels down."""
    if target is None:
        return Chunk(None, "unknown", None, "its relationship names no part of the file", None, [])
    content_type = (package.content_type(target) or "").split(";")[0].strip().lower()
    kind = FORMATS.get(content_type, "unknown")
    size = package.part_size(target)
    if size > limits.MAX_XML_BYTES:
        # Too big to read within the document's budget: not even unpacked (a digest would need it).
        reason = f"it unpacks to {size:,} bytes, over the {limits.MAX_XML_BYTES:,} bytes one document may read"
        return Chunk(target, kind, None, reason + " (DESKCHECK_MAX_XML_BYTES)", None, [])
    import hashlib  # (its OpenSSL library costs milliseconds to load: only for documents with chunks)

    data = package.read_bytes(target)
    digest = hashlib.sha256(data).hexdigest()[:16]
    try:
        if kind == "docx":
            imported = read_wordprocessing(data, target, package, depth + 1)
        elif kind in ("html", "xhtml"):
            imported = read_html(data, target, package)
        elif kind == "text":
            imported = read_text(data)
        elif kind == "mht":
            imported = read_mht(data, target, package)
        elif kind == "xml" and b"xmlPackage" in data[:4096]:
            imported = read_flat_opc(data, target, package, depth + 1)
        elif kind == "rtf":
            raise Unreadable("deskcheck does not read RTF")
        elif kind == "xml":
            raise Unreadable("it is XML that is not a Word document in Flat OPC form (such as Word 2003 XML)")
        else:
            raise Unreadable(f"its content type {content_type or '(none)'} is not one deskcheck reads")
    except Unreadable as exc:
        return Chunk(target, kind, None, str(exc), digest, [])
    characters = sum(len(paragraph.text) for paragraph in imported.paragraphs)
    return Chunk(target, kind, imported.paragraphs, None, digest, imported.unread, characters)


def paragraph_elements(paragraphs: list[ImportedParagraph]) -> list[Any]:
    """Plain ``w:p`` elements holding ``paragraphs``: one run of text each, a heading's level as
    the paragraph's outline level (so that it does not depend on the styles of the document it
    is read in)."""
    from lxml import etree

    nsmap = {"w": NS["w"]}
    out = []
    for paragraph in paragraphs:
        p = etree.Element(W_P, nsmap=nsmap)
        if paragraph.heading_level:
            ppr = etree.SubElement(p, W_PPR)
            etree.SubElement(ppr, W_OUTLINELVL, {W_VAL: str(paragraph.heading_level - 1)})
        if paragraph.text:
            t = etree.SubElement(etree.SubElement(p, W_R), W_T)
            t.text = paragraph.text
            t.set(XML_SPACE, "preserve")
        out.append(p)
    return out
