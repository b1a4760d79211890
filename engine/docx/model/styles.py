"""What the block model needs from styles.xml: a paragraph style's outline level, numbering and
hidden flag, a character style's hidden flag, and the default paragraph style, each resolved
through the ``w:basedOn`` chain (a style without a setting inherits its parent's)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..wml.attrs import int_attr, is_on, val
from ..wml.ns import W_ILVL, W_NUMID, W_NUMPR, W_OUTLINELVL, W_PPR, W_RPR, W_VANISH, qn

_HEADING_ID = re.compile(r"^heading([1-9])$", re.IGNORECASE)
_HEADING_NAME = re.compile(r"^heading ([1-9])$", re.IGNORECASE)
_MAX_CHAIN = 32  # basedOn chains are a few levels deep; a longer one is a loop in a broken file


class ParagraphStyle(NamedTuple):
    style_id: str
    outline_level: int | None  # 0..8; None when unset or "body text" (9)
    num_id: str | None
    ilvl: int | None
    hidden: bool | None
    name_heading_level: int | None  # from a built-in name such as "heading 2"


class Styles:
    def __init__(self, root: Any | None) -> None:
        self._styles: dict[tuple[str, str], Any] = {}
        self.default_paragraph: str | None = None
        self.default_hidden = False
        self._para_cache: dict[str, ParagraphStyle] = {}
        self._char_hidden: dict[str, bool | None] = {}
        self.has_hidden_character_style = False
        if root is None:
            return
        style_tag = qn("w:style")
        for style in root.iter(style_tag):
            kind = style.get(qn("w:type")) or "paragraph"
            style_id = style.get(qn("w:styleId"))
            if style_id is None:
                continue
            self._styles.setdefault((kind, style_id), style)
            if kind == "paragraph" and is_on_attr(style.get(qn("w:default"))) and self.default_paragraph is None:
                self.default_paragraph = style_id
        self.has_hidden_character_style = any(
            kind == "character" and style.find(f"{W_RPR}/{W_VANISH}") is not None
            for (kind, _), style in self._styles.items()
        )
        defaults = root.find(qn("w:docDefaults"))
        if defaults is not None:
            rpr = defaults.find(f"{qn('w:rPrDefault')}/{W_RPR}")
            if rpr is not None:
                self.default_hidden = is_on(rpr.find(W_VANISH))

    def has_paragraph_style(self, style_id: str) -> bool:
        return ("paragraph", style_id) in self._styles

    def style_element(self, kind: str, style_id: str) -> Any | None:
        return self._styles.get((kind, style_id))

    def _chain(self, kind: str, style_id: str) -> list[Any]:
        chain, seen = [], set()
        current: str | None = style_id
        while current is not None and current not in seen and len(chain) < _MAX_CHAIN:
            seen.add(current)
            style = self._styles.get((kind, current))
            if style is None:
                break
            chain.append(style)
            current = val(style.find(qn("w:basedOn")))
        return chain

    def paragraph(self, style_id: str) -> ParagraphStyle:
        cached = self._para_cache.get(style_id)
        if cached is not None:
            return cached
        outline = num_id = ilvl = hidden = None
        outline_set = False
        for style in self._chain("paragraph", style_id):
            ppr = style.find(W_PPR)
            if ppr is not None:
                if not outline_set:
                    level_el = ppr.find(W_OUTLINELVL)
                    if level_el is not None:
                        outline_set = True
                        outline = int_attr(level_el, qn("w:val"))
                numpr = ppr.find(W_NUMPR)
                if numpr is not None:
                    if num_id is None and numpr.find(W_NUMID) is not None:
                        num_id = val(numpr.find(W_NUMID))
                    if ilvl is None and numpr.find(W_ILVL) is not None:
                        ilvl = int_attr(numpr.find(W_ILVL), qn("w:val"))
            if hidden is None:
                rpr = style.find(W_RPR)
                if rpr is not None and rpr.find(W_VANISH) is not None:
                    hidden = is_on(rpr.find(W_VANISH))
        if outline is not None and not 0 <= outline <= 8:
            outline = None
        name_level = None
        own = self._styles.get(("paragraph", style_id))
        if own is not None:
            match = _HEADING_NAME.match(val(own.find(qn("w:name"))) or "")
            if match:
                name_level = int(match.group(1))
        result = ParagraphStyle(style_id, outline, num_id, ilvl, hidden, name_level)
        self._para_cache[style_id] = result
        return result

    def character_hidden(self, style_id: str) -> bool | None:
        if style_id in self._char_hidden:
            return self._char_hidden[style_id]
        hidden = None
        for style in self._chain("character", style_id):
            rpr = style.find(W_RPR)
            if rpr is not None and rpr.find(W_VANISH) is not None:
                hidden = is_on(rpr.find(W_VANISH))
                break
        self._char_hidden[style_id] = hidden
        return hidden

    def numbering_style_num_id(self, style_id: str) -> str | None:
        """The numId a numbering style (``w:type="numbering"``) points to."""
        for style in self._chain("numbering", style_id):
            ppr = style.find(W_PPR)
            numpr = ppr.find(W_NUMPR) if ppr is not None else None
            if numpr is not None and numpr.find(W_NUMID) is not None:
                return val(numpr.find(W_NUMID))
        return None


def heading_level_from_style_id(style_id: str | None) -> int | None:
    if not style_id:
        return None
    match = _HEADING_ID.match(style_id)
    return int(match.group(1)) if match else None


def is_on_attr(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "on")
