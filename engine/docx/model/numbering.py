"""List labels: the marker Word draws beside a numbered or bulleted paragraph.

Definitions come from numbering.xml: ``w:abstractNum`` holds up to nine levels (start value,
format, level text such as ``%1.%2.``, restart rule, legal numbering); ``w:num`` instances point
to an abstract definition and may override levels (``w:lvlOverride`` with ``w:startOverride`` or
a whole ``w:lvl``). ``w:numStyleLink`` sends an abstract definition to the one behind a numbering
style.

Counting follows Word: instances of the same abstract definition share counters (a list
continues across them) unless an instance overrides a start value, in which case the list
restarts the first time that instance is used. Using a level resets the deeper levels, unless a
level's ``w:lvlRestart`` says otherwise (0 = never restart, N = restart only after level N).
A level that has not been used yet shows its start value.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..wml.attrs import int_attr, is_on, val
from ..wml.ns import qn
from .numfmt import format_counter
from .styles import Styles

MAX_LEVELS = 9

# Bullets drawn with the Symbol and Wingdings fonts are stored as private-use characters.
_SYMBOL_BULLETS = {
    "\uf0b7": "•", "\uf0a7": "▪", "\uf0a8": "■", "\uf06e": "■", "\uf0d8": "➢", "\uf0e0": "➢", "\uf0fc": "✓",
    "\uf076": "❖", "\uf071": "❑", "\uf0a4": "●", "\uf0b2": "◊", "\uf02d": "-", "\uf0be": "—", "\uf0de": "⇒",
    "\uf0e8": "➔", "\uf06f": "□", "\uf0f0": "⇨", "\uf09f": "•", "\uf097": "▪", "\uf0a1": "○",
}  # fmt: skip


class Level(NamedTuple):
    start: int = 1
    fmt: str | None = "decimal"
    custom_format: str | None = None
    text: str | None = None
    restart: int | None = None  # None: after any higher level; 0: never; N: after level N (1-based)
    legal: bool = False
    picture_bullet: bool = False
    style_id: str | None = None


class _Instance:
    __slots__ = ("abstract_id", "level_overrides", "num_id", "start_overrides")

    def __init__(self, num_id: str, abstract_id: str) -> None:
        self.num_id = num_id
        self.abstract_id = abstract_id
        self.start_overrides: dict[int, int] = {}
        self.level_overrides: dict[int, Level] = {}


class _Counters:
    __slots__ = ("started", "values")

    def __init__(self) -> None:
        self.values: list[int | None] = [None] * MAX_LEVELS
        self.started: set[str] = set()


def _parse_level(element: Any) -> Level:
    fmt_el = element.find(qn("w:numFmt"))
    restart_el = element.find(qn("w:lvlRestart"))
    text_el = element.find(qn("w:lvlText"))
    return Level(
        start=int_attr(element.find(qn("w:start")), qn("w:val"), 1) or 0,
        fmt=val(fmt_el) or "decimal",
        custom_format=None if fmt_el is None else fmt_el.get(qn("w:format")),
        text=None if text_el is None else text_el.get(qn("w:val")),
        restart=None if restart_el is None else int_attr(restart_el, qn("w:val")),
        legal=is_on(element.find(qn("w:isLgl"))),
        picture_bullet=element.find(qn("w:lvlPicBulletId")) is not None,
        style_id=val(element.find(qn("w:pStyle"))),
    )


class Numbering:
    """Definitions plus the running counters of one pass through a story."""

    def __init__(self, root: Any | None, styles: Styles) -> None:
        self._styles = styles
        self._abstract_levels: dict[str, dict[int, Level]] = {}
        self._abstract_links: dict[str, str] = {}  # abstractNumId -> numbering style it links to
        self._instances: dict[str, _Instance] = {}
        self._counters: dict[str, _Counters] = {}
        if root is None:
            return
        for abstract in root.iter(qn("w:abstractNum")):
            abstract_id = abstract.get(qn("w:abstractNumId"))
            if abstract_id is None:
                continue
            levels = {}
            for lvl in abstract.iter(qn("w:lvl")):
                ilvl = int_attr(lvl, qn("w:ilvl"), 0) or 0
                if 0 <= ilvl < MAX_LEVELS:
                    levels[ilvl] = _parse_level(lvl)
            self._abstract_levels.setdefault(abstract_id, levels)
            link = val(abstract.find(qn("w:numStyleLink")))
            if link:
                self._abstract_links[abstract_id] = link
        for num in root.iter(qn("w:num")):
            num_id = num.get(qn("w:numId"))
            abstract_id = val(num.find(qn("w:abstractNumId")))
            if num_id is None or abstract_id is None:
                continue
            instance = _Instance(num_id, abstract_id)
            for override in num.iter(qn("w:lvlOverride")):
                ilvl = int_attr(override, qn("w:ilvl"), 0) or 0
                start = override.find(qn("w:startOverride"))
                if start is not None:
                    instance.start_overrides[ilvl] = int_attr(start, qn("w:val"), 0) or 0
                lvl = override.find(qn("w:lvl"))
                if lvl is not None:
                    instance.level_overrides[ilvl] = _parse_level(lvl)
            self._instances.setdefault(num_id, instance)

    def has_instance(self, num_id: str | None) -> bool:
        return num_id is not None and num_id in self._instances

    def _resolve_abstract(self, abstract_id: str) -> str:
        """Follow ``w:numStyleLink`` to the abstract definition that really holds the levels."""
        seen = set()
        while abstract_id in self._abstract_links and abstract_id not in seen:
            seen.add(abstract_id)
            num_id = self._styles.numbering_style_num_id(self._abstract_links[abstract_id])
            instance = self._instances.get(num_id) if num_id else None
            if instance is None:
                break
            abstract_id = instance.abstract_id
        return abstract_id

    def level_for_style(self, num_id: str, style_id: str) -> int | None:
        """The level whose ``w:pStyle`` is ``style_id`` (how a style's numbering picks a level)."""
        instance = self._instances.get(num_id)
        if instance is None:
            return None
        levels = self._abstract_levels.get(self._resolve_abstract(instance.abstract_id), {})
        for ilvl, level in levels.items():
            if level.style_id == style_id:
                return ilvl
        return None

    def _levels(self, instance: _Instance) -> dict[int, Level]:
        levels = dict(self._abstract_levels.get(self._resolve_abstract(instance.abstract_id), {}))
        levels.update(instance.level_overrides)
        return levels

    def next_label(self, num_id: str, ilvl: int) -> str | None:
        """Count one paragraph of instance ``num_id`` at level ``ilvl`` and return its label
        (None when the instance or level is not defined)."""
        instance = self._instances.get(num_id)
        if instance is None or not 0 <= ilvl < MAX_LEVELS:
            return None
        levels = self._levels(instance)
        level = levels.get(ilvl)
        if level is None:
            return None
        counters = self._counters.setdefault(self._resolve_abstract(instance.abstract_id), _Counters())
        values = counters.values
        if num_id not in counters.started:
            counters.started.add(num_id)
            if instance.start_overrides or instance.level_overrides:
                for index in range(MAX_LEVELS):
                    if index in instance.start_overrides:
                        values[index] = instance.start_overrides[index] - 1
                    elif index in instance.level_overrides:
                        values[index] = instance.level_overrides[index].start - 1
        current = values[ilvl]
        values[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, MAX_LEVELS):
            rule = levels[deeper].restart if deeper in levels else None
            if rule is None or (rule != 0 and ilvl <= rule - 1):
                values[deeper] = None
        return self._render(level, ilvl, levels, values)

    def _render(self, level: Level, ilvl: int, levels: dict[int, Level], values: list[int | None]) -> str:
        if level.fmt == "bullet" or level.picture_bullet:
            if level.picture_bullet or not level.text:
                return "•"
            return "".join(
                _SYMBOL_BULLETS.get(char, "•" if "\ue000" <= char <= "\uf8ff" else char) for char in level.text
            )
        template = level.text
        if not template:
            return ""
        out = []
        index = 0
        while index < len(template):
            char = template[index]
            if char == "%" and index + 1 < len(template) and template[index + 1] in "123456789":
                ref = int(template[index + 1]) - 1
                ref_level = levels.get(ref)
                value = values[ref]
                if value is None:
                    value = ref_level.start if ref_level is not None else 1
                fmt = ref_level.fmt if ref_level is not None else "decimal"
                custom = ref_level.custom_format if ref_level is not None else None
                if level.legal and ref < ilvl and fmt != "none":
                    fmt = "decimal"
                out.append(format_counter(value, fmt, custom))
                index += 2
                continue
            out.append(char)
            index += 1
        return "".join(out)
