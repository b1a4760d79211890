"""How WordprocessingML spells text: the primitives every reader and writer of run text shares.

- ``xml:space``: unless ``preserve`` is in force on a ``w:t`` (or any ancestor), its leading and
  trailing whitespace (``XML_WHITESPACE``) is not text, as Word and LibreOffice read it; a writer
  sets ``preserve`` on text that starts or ends with whitespace.
- ``w:sym``: its character, unless it is a symbol-font glyph (private use area) or not a
  character at all.
- ``mc:AlternateContent``: the branch a reader follows (``choose_alternate``).
- complex fields: between a ``w:fldChar`` ``begin`` and its ``separate`` stand the field's
  instructions, which Word does not show (only the result after ``separate``), even when they
  are spelled as ``w:t`` rather than ``w:instrText`` (``FieldCodes``).
"""

from __future__ import annotations

import re
from typing import Any

from .ns import MC_CHOICE, MC_FALLBACK, qn

# Characters XML 1.0 cannot hold: control characters other than tab, line feed and carriage
# return; lone surrogates; U+FFFE and U+FFFF.
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def unstorable_character(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` a .docx cannot store, as (index, "U+XXXX")."""
    found = _UNSTORABLE.search(text)
    return None if found is None else (found.start(), f"U+{ord(found.group()):04X}")


def check_author(author: str | None, name: str = "the author") -> None:
    """Refuse an author name a .docx cannot store (it goes into every revision and comment);
    ``name`` is how the caller knows it (``--author``)."""
    from ...errors import InputError

    found = unstorable_character(author) if author else None
    if found is not None:
        raise InputError(
            f"{name} holds the character {found[1]} at position {found[0]}, which a .docx cannot store; "
            "give a name of printable characters.",
            code="badAuthor",
        )


XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
XML_WHITESPACE = " \t\r\n"
W_CHAR = qn("w:char")

# Markup-compatibility namespaces whose content we can read: drawing shapes and groups (where
# text boxes live) and Word 2010+ paragraph attributes. A choice that requires anything else
# (for example w16se symbol extensions, which carry emoji as attributes) is skipped for its
# fallback, which holds the same content as plain text.
UNDERSTOOD_PREFIXES = frozenset({"wps", "wpg", "wpc", "wpi", "w14", "w15", "wp14", "a14", "v", "o", "w10", "m"})


def preserves_space(element: Any) -> bool:
    """``xml:space`` applies to an element and everything inside it, so look upwards."""
    while element is not None:
        value = element.get(XML_SPACE)
        if value is not None:
            return value == "preserve"
        element = element.getparent()
    return False


def symbol_char(sym: Any) -> str:
    """The character of a ``w:sym`` when it is a real character; symbol-font glyphs (stored in
    the private-use area) stand for no text."""
    return char_of_code(sym.get(W_CHAR))


def char_of_code(hex_code: str | None) -> str:
    """The character a hexadecimal code names (a ``w:sym``'s, a check box state's), or "" for a
    symbol-font glyph or anything that is not a character."""
    try:
        code = int(hex_code or "", 16)
    except ValueError:
        return ""
    if code >= 0xF000 or code < 0x20 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        return ""
    return chr(code)


def choose_alternate(element: Any) -> Any | None:
    """The branch of an ``mc:AlternateContent`` to read: the first choice whose required
    namespaces we understand (what current Word renders), else the fallback."""
    for child in element:
        if child.tag == MC_CHOICE:
            required = (child.get("Requires") or "").split()
            if all(prefix in UNDERSTOOD_PREFIXES for prefix in required):
                return child
    for child in element:
        if child.tag == MC_FALLBACK:
            return child
    return None


_FLDCHARTYPE = qn("w:fldCharType")


class FieldCodes:
    """Where a paragraph stands among its complex fields, fed every ``w:fldChar`` in order:
    ``hiding`` while some field is still in its instructions (after ``begin``, before its
    ``separate``), where nothing is shown. Each paragraph starts afresh (Word keeps a field's
    instructions within one paragraph; its result may run on, and is shown)."""

    __slots__ = ("hiding", "open")

    def __init__(self) -> None:
        self.open: list[bool] = []  # per open field: still in its instructions
        self.hiding = 0

    def feed(self, fld_char: Any) -> None:
        kind = fld_char.get(_FLDCHARTYPE)
        if kind == "begin":
            self.open.append(True)
            self.hiding += 1
        elif kind == "separate":
            if self.open and self.open[-1]:
                self.open[-1] = False
                self.hiding -= 1
        elif kind == "end" and self.open and self.open.pop():
            self.hiding -= 1
