"""The one XML parser every part goes through, hardened for untrusted documents.

A .docx comes from whoever sent it. The parser therefore never expands entities (no "billion
laughs"), never loads a DTD or anything over the network, refuses a document type declaration
wherever it stands, and keeps libxml2's default limits on tree depth and text node size
(``huge_tree`` off), so a crafted part fails to parse instead of exhausting memory. ``XmlError``
carries a message a user can act on.

What a part costs once parsed grows with its markup, not its bytes: six bytes (``<w:p/>``) make
an element, four (`` a=""``) an attribute. ``markup_nodes`` counts, before anything is parsed,
an upper bound of the nodes a part will make, so that the package can refuse a part that would
cost more than its budget (see ``limits``) without first building its tree.
"""

from __future__ import annotations

import functools
import re
from typing import Any

_PARSER: Any = None

# The XML declaration's encoding, read from the raw bytes (ASCII-compatible encodings only).
_DECLARED_ENCODING = re.compile(rb"""^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# The first four bytes of a UTF-32 (UCS-4) document, with or without its byte order mark: libxml2
# reads it, but every count below is made on UTF-8 or UTF-16 bytes (XML 1.0, appendix F).
_UTF32_STARTS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"<\x00\x00\x00", b"\x00\x00\x00<")
# Declared encodings in which "<", "/" and "=" are always those bytes: UTF-8 and the single-byte
# ASCII supersets some generators still declare (UTF-16 is recognised by its first bytes).
_SAFE_ENCODING = re.compile(rb"(?i)utf-?8|utf-?16(le|be)?|(us-)?ascii|iso-?8859-\d+|latin-?1|(windows|cp)-?125\d")


class XmlError(ValueError):
    """A part is not well-formed XML (or trips one of the parser's safety limits)."""


class PartEncodingError(XmlError):
    """A part is XML in an encoding a .docx may not use: not damage, so it is worded apart."""


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


def markup_nodes(data: bytes) -> int:
    """An upper bound of the elements, attributes (namespace declarations included), comments
    and processing instructions ``data`` parses into, counted on the bytes.

    Every start or empty-element tag, comment and instruction opens with ``<``; an end tag's
    ``</`` adds nothing (a ``</`` inside a comment cancels its own ``<``); every attribute has an
    ``=``. Characters that are not markup can only add to the count. Valid for UTF-8 and UTF-16,
    the encodings ``check_encoding`` lets through (in UTF-16, ``</`` is not found, so end tags
    count too: still an upper bound)."""
    return data.count(b"<") - data.count(b"</") + data.count(b"=")


def element_tags(data: bytes, local_name: str, stop_after: int) -> int:
    """An upper bound of the elements named ``local_name`` (``p``, ``r``) that ``data`` parses
    into, whatever their prefix (a WordprocessingML paragraph may be spelled ``w:p``, ``x:p``,
    or ``p`` under a default namespace), counted on the bytes up to ``stop_after + 1``."""
    if _is_utf16(data):
        matches = _tag_pattern(local_name, text=True).finditer(data.decode(_utf16_codec(data), errors="replace"))
    else:
        matches = _tag_pattern(local_name, text=False).finditer(data)
    count = 0
    for count, _ in enumerate(matches, start=1):
        if count > stop_after:
            break
    return count


def _is_utf16(data: bytes) -> bool:
    """Whether ``data`` is UTF-16 by its first bytes (a byte order mark, or ``<`` as a 16-bit
    unit), UTF-32 excepted."""
    if data.startswith(_UTF32_STARTS):
        return False
    return data.startswith(_UTF16_BOMS) or data[:2] in (b"<\x00", b"\x00<")


def _utf16_codec(data: bytes) -> str:
    """The byte order of UTF-16 ``data``: its byte order mark's, else the one its first ``<`` is
    in (Python's "utf-16" without a mark reads little-endian, and big-endian text then counted no
    paragraph at all)."""
    if data.startswith(_UTF16_BOMS):
        return "utf-16"
    return "utf-16-be" if data.startswith(b"\x00<") else "utf-16-le"


@functools.cache
def _tag_pattern(local_name: str, *, text: bool) -> re.Pattern:
    # Any prefix the parser accepts: an XML name may hold letters of any script (``<ü:p>``), so
    # the prefix is whatever comes before the colon that is not markup or white space.
    pattern = r"<(?:[^\s<>/:=!?\"']+:)?" + re.escape(local_name) + r"[\s/>]"
    return re.compile(pattern if text else pattern.encode())


def check_encoding(data: bytes) -> None:
    """Refuse a part in another encoding than UTF-8 or UTF-16 (as Open Packaging requires) or an
    ASCII superset: in EBCDIC, UTF-7 or UTF-32, ``<`` need not be the byte (or the 16-bit unit)
    the counts above look for."""
    if data.startswith(_UTF32_STARTS):
        raise PartEncodingError("it is encoded in UTF-32; the parts of a .docx are UTF-8 or UTF-16")
    if _is_utf16(data):
        return
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    if not body.lstrip(b" \t\r\n").startswith(b"<"):
        raise XmlError("it does not start with XML markup in UTF-8 or UTF-16")
    declared = _DECLARED_ENCODING.match(body)
    if declared is not None and not _SAFE_ENCODING.fullmatch(declared.group(1)):
        name = declared.group(1).decode("ascii")
        raise PartEncodingError(f"it is encoded in {name}; the parts of a .docx are UTF-8 or UTF-16")


def parse_xml(data: bytes) -> Any:
    """Parse ``data`` and return the root element. Raises ``XmlError`` for anything that is not
    well-formed XML in UTF-8 or UTF-16, or that has a document type declaration (refused rather
    than left unexpanded: its entities would be written back undeclared, and Word never writes
    one)."""
    from lxml import etree

    check_encoding(data)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        raise XmlError(str(exc)) from None
    if root is None:
        raise XmlError("it is empty")
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None:
        raise XmlError("it declares a DTD or entities (a document type declaration), which Word never writes")
    return root


def serialize_xml(root: Any) -> bytes:
    """The bytes of a part: UTF-8 with an XML declaration declaring it standalone, as Word
    writes them."""
    from lxml import etree

    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
