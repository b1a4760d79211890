"""Refusing a damaged package up front, whichever tool opens it.

A tool reads only the parts it needs: read_comments never looked at ``document.xml`` when the
package had no comments, so a file whose main part is not even XML passed as "no comments",
while read_document refused the same file. ``check_document_parts(package)`` makes the answer
the same for every tool: it parses every XML part the document consists of (the main part and
each part it, or the package, points to with an XML content type: styles, numbering, comments
and their companions, headers, footers, notes, settings, properties, custom XML) and raises the
package's ``InputError`` (``corruptPackage``, exit 2) for the first one that does not parse.
Parsed trees stay cached in the package, so the parts a tool reads next cost nothing more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .docx_package import DocxPackage

_XML_TYPES = ("application/xml", "text/xml")


def is_xml_content_type(content_type: str | None) -> bool:
    return content_type is not None and (content_type.endswith("+xml") or content_type in _XML_TYPES)


def document_parts(package: DocxPackage) -> list[str]:
    """The main part, then every part the package or the main part points to that holds XML.
    Imported chunks (``w:altChunk``) are left out: they are files of other formats (an XHTML
    chunk is HTML to read leniently, a .docx chunk a whole package), read and reported on their
    own (``model.chunks``), never a reason to refuse the document around them."""
    from .docx_package import RT, resolve_part_name

    names = [package.main_part]
    for source in ("", package.main_part):
        for rel in package.relationships(source):
            if rel.external or rel.type == RT.AF_CHUNK:
                continue
            name = resolve_part_name(source, rel.target)
            if name not in names and package.has_part(name) and is_xml_content_type(package.content_type(name)):
                names.append(name)
    return names


def check_document_parts(package: DocxPackage) -> None:
    """Parse every part of ``document_parts``: ``InputError`` for the first one that is damaged."""
    for name in document_parts(package):
        package.xml(name)
