"""Strict Open XML documents, read through the transitional vocabulary.

ISO/IEC 29500 Strict (Word's "Strict Open XML Document") says the same things as the
transitional form every other module reads, under other names: its own namespaces
(``http://purl.oclc.org/ooxml/...``) and relationship types. A package whose officeDocument
relationship has the Strict type is *strict*; each part of it is translated to the transitional
names when it is parsed (``to_transitional``), so every reader works unchanged. The bytes of the
file are never touched: ``documentVersion`` is the file's own, and an unedited package saves as
the same bytes.

Writing is refused (``refuse_writing``): an edited part would be saved with transitional names
inside a package that declares Strict conformance, which is neither form. Every read tool works;
suggest_changes, comments, accepting and rejecting changes and a redline onto a Strict document
say so and point to saving it as a regular Word document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import InputError

if TYPE_CHECKING:
    from .docx_package import DocxPackage

_STRICT = "http://purl.oclc.org/ooxml/"
_TRANSITIONAL = "http://schemas.openxmlformats.org/"
_STRICT_RELATIONSHIPS = _STRICT + "officeDocument/relationships/"
_TRANSITIONAL_RELATIONSHIPS = _TRANSITIONAL + "officeDocument/2006/relationships/"
STRICT_OFFICE_DOCUMENT = _STRICT_RELATIONSHIPS + "officeDocument"

# Namespace names of ISO/IEC 29500-1 Strict and their transitional twins (those of a
# WordprocessingML document and the parts around it: drawings, charts, properties, custom XML).
_NAMESPACES = {
    _STRICT + strict: _TRANSITIONAL + transitional
    for strict, transitional in {
        "wordprocessingml/main": "wordprocessingml/2006/main",
        "officeDocument/relationships": "officeDocument/2006/relationships",
        "officeDocument/math": "officeDocument/2006/math",
        "officeDocument/sharedTypes": "officeDocument/2006/sharedTypes",
        "officeDocument/bibliography": "officeDocument/2006/bibliography",
        "officeDocument/customXml": "officeDocument/2006/customXml",
        "officeDocument/customXmlDataProps": "officeDocument/2006/customXmlDataProps",
        "officeDocument/customProperties": "officeDocument/2006/custom-properties",
        "officeDocument/extendedProperties": "officeDocument/2006/extended-properties",
        "officeDocument/docPropsVTypes": "officeDocument/2006/docPropsVTypes",
        "drawingml/main": "drawingml/2006/main",
        "drawingml/wordprocessingDrawing": "drawingml/2006/wordprocessingDrawing",
        "drawingml/picture": "drawingml/2006/picture",
        "drawingml/chart": "drawingml/2006/chart",
        "drawingml/chartDrawing": "drawingml/2006/chartDrawing",
        "drawingml/diagram": "drawingml/2006/diagram",
        "drawingml/lockedCanvas": "drawingml/2006/lockedCanvas",
        "drawingml/compatibility": "drawingml/2006/compatibility",
        "schemaLibrary/main": "schemaLibrary/2006/main",
    }.items()
}
# Relationship types keep their last word, but for these two.
_RENAMED_TYPES = {"extendedProperties": "extended-properties", "customProperties": "custom-properties"}
_RELATIONSHIP = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


def is_strict(package: DocxPackage) -> bool:
    """Whether the package's main document relationship has the Strict type."""
    from .docx_package import PACKAGE_RELS_PART

    if not package.has_part(PACKAGE_RELS_PART):
        return False
    data = package.read_bytes(PACKAGE_RELS_PART)
    if STRICT_OFFICE_DOCUMENT.encode() not in data:
        return False
    from ..wml.parser import XmlError, parse_xml

    package.charge(PACKAGE_RELS_PART, data)
    try:
        root = parse_xml(data)
    except XmlError:
        return False  # the package's own reading reports the damage
    return any(rel.get("Type") == STRICT_OFFICE_DOCUMENT for rel in root.iter(_RELATIONSHIP))


def relationship_type(value: str) -> str:
    """The transitional name of a Strict relationship type (others unchanged)."""
    if not value.startswith(_STRICT_RELATIONSHIPS):
        return value
    last = value[len(_STRICT_RELATIONSHIPS) :]
    return _TRANSITIONAL_RELATIONSHIPS + _RENAMED_TYPES.get(last, last)


def _translated(name: str) -> str:
    """A Clark name (``{namespace}local``) with a Strict namespace given its transitional one."""
    if not name.startswith("{" + _STRICT):
        return name
    namespace, _, local = name[1:].partition("}")
    twin = _NAMESPACES.get(namespace)
    return "{" + twin + "}" + local if twin else name


def to_transitional(root: Any) -> Any:
    """Rename, in place, the elements and attributes of a parsed Strict part to their transitional
    names, and relationship types to theirs; returns ``root``."""
    for element in root.iter():
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if tag.startswith("{" + _STRICT):
            element.tag = _translated(tag)
        if tag == _RELATIONSHIP:
            value = element.get("Type")
            if value is not None:
                element.set("Type", relationship_type(value))
        for name in [name for name in element.attrib if name.startswith("{" + _STRICT)]:
            value = element.attrib.pop(name)
            element.set(_translated(name), value)
    return root


EDITING = "it cannot be edited, commented or have its changes accepted or rejected here"


def refuse_writing(package: DocxPackage, consequence: str = EDITING) -> None:
    """``InputError`` when ``package`` is Strict: deskcheck reads it but does not write it."""
    if getattr(package, "strict", False):
        raise InputError(
            f"{package.name} is saved as Strict Open XML: deskcheck reads it (every read tool works) but "
            f"does not write that form, so {consequence}. Save it from Word as a regular Word Document "
            "(.docx) and use that copy.",
            code="strictReadOnly",
        )
