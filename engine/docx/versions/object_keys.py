"""Comparison keys of the things a paragraph shows besides its text.

Two versions of a file rarely write the same picture the same way: ids, names and relationship
ids differ. ``ObjectKeys(package, part)(element)`` gives a tab, a break, a field character or
instruction, a note reference, an equation, a picture or a shape a key that is equal when the two
show the same thing: a drawing is compared without its ids, names, relationship ids and text-box
content (a text box is compared paragraph by paragraph on its own), plus the bytes of the pictures
it shows. ``canonical(element)`` is the comparable form of any element (revision session ids
left out), used for properties too.
"""

from __future__ import annotations

import zlib
from typing import Any

from ..wml.ns import (
    NS,
    RSID_PREFIX,
    W_BR,
    W_CR,
    W_ENDNOTEREFERENCE,
    W_FOOTNOTEREFERENCE,
    W_INSTRTEXT,
    W_TAB,
    W_TXBXCONTENT,
    qn,
)

_M = "{" + NS["m"] + "}"
_MATH = frozenset({_M + "oMath", _M + "oMathPara"})
_NOTE_REFERENCES = (W_FOOTNOTEREFERENCE, W_ENDNOTEREFERENCE)


def canonical(element: Any) -> tuple:
    """A comparable form of an element: tag, attributes (revision session ids left out) and
    children, recursively."""
    attrs = tuple(sorted((k, v) for k, v in element.attrib.items() if not k.startswith(RSID_PREFIX)))
    return (element.tag, attrs, tuple(canonical(child) for child in element if isinstance(child.tag, str)))


_BLIP = "{" + NS["a"] + "}blip"
_WP14 = "{http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing}"
_R_NS = "{" + NS["r"] + "}"
_NAMING = frozenset({"id", "name", "descr", "title"})


class ObjectKeys:
    """Comparison keys of the objects of one package's paragraphs: two pictures are the same
    when they show the same bytes at the same size and place, whatever ids, names or
    relationship ids each file gave them."""

    def __init__(self, package: Any, part: str | None) -> None:
        self.package = package
        self.part = part
        self._media: dict[str, str] = {}

    def __call__(self, child: Any) -> str:
        tag = child.tag
        if tag == W_TAB or tag == qn("w:ptab"):
            return "\x00tab"
        if tag in (W_BR, W_CR):
            return "\x00br:" + (child.get(qn("w:type")) or "")
        if tag == qn("w:fldChar"):
            return "\x00fld:" + (child.get(qn("w:fldCharType")) or "")
        if tag == W_INSTRTEXT:
            return "\x00instr:" + (child.text or "").strip()
        if tag in _NOTE_REFERENCES:
            return "\x00note:" + tag
        if tag in _MATH:
            return "\x00math:" + "".join(t.text or "" for t in child.iter(_M + "t"))
        digests = "".join(self._digest(blip.get(_R_NS + "embed")) for blip in child.iter(_BLIP))
        return "\x00obj:" + repr(_strip_ids(canonical(child))) + digests

    def _digest(self, rel_id: str | None) -> str:
        if not rel_id or self.package is None or self.part is None:
            return ""
        cached = self._media.get(rel_id)
        if cached is None:
            target = self.package.resolve_target(self.part, rel_id)
            cached = ""
            if target and self.package.has_part(target):
                data = self.package.read_bytes(target)
                cached = f":{zlib.crc32(data):08x}:{len(data)}"
            self._media[rel_id] = cached
        return cached


def _strip_ids(node: tuple) -> tuple:
    """An object's form for comparison: without ids, names, relationship ids and text-box
    content (a text box is compared paragraph by paragraph on its own)."""
    tag, attrs, children = node
    kept = tuple(
        (k, v) for k, v in attrs if k not in _NAMING and not k.endswith("}id") and not k.startswith((_R_NS, _WP14))
    )
    return (tag, kept, tuple(_strip_ids(child) for child in children if child[0] != W_TXBXCONTENT))
