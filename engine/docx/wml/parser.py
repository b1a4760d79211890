"""The one XML parser every part goes through, hardened for untrusted documents.

A .docx comes from whoever sent it. The parser therefore never expands entities (no "billion
laughs"), never loads a DTD or anything over the network, and keeps libxml2's default limits on
tree depth and text node size (``huge_tree`` off), so a crafted part fails to parse instead of
exhausting memory. ``XmlError`` carries a message a user can act on.
"""

from __future__ import annotations

from typing import Any

_PARSER: Any = None


class XmlError(ValueError):
    """A part is not well-formed XML (or trips one of the parser's safety limits)."""


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        from lxml import etree

        _PARSER = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            dtd_validation=False,
            huge_tree=False,
            remove_blank_text=False,
            remove_comments=False,
            remove_pis=False,
        )
    return _PARSER


def parse_xml(data: bytes) -> Any:
    """Parse ``data`` and return the root element. Raises ``XmlError`` for anything that is not
    well-formed XML, or that declares entities (refused rather than left unexpanded, because a
    part that needs a DTD is not something Word writes)."""
    from lxml import etree

    if b"<!ENTITY" in data[:4096] or b"<!DOCTYPE" in data[:4096]:
        raise XmlError("it declares a DTD or entities, which Word never writes")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        raise XmlError(str(exc)) from None
    if root is None:
        raise XmlError("it is empty")
    return root


def serialize_xml(root: Any) -> bytes:
    """The bytes of a part: UTF-8 with an XML declaration declaring it standalone, as Word
    writes them."""
    from lxml import etree

    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
