"""The building blocks of a readable view and how they are drawn at a given width.

A view is a list of ``Line`` (styled spans) and ``Table`` (aligned columns under a header), built
by the family modules (``render.docx``, ``render.forms``, ``render.openapi``...) from a result,
and drawn here as text lines, with ANSI styles when colours are on.

Why not rich's Table: a document of 15,000 paragraphs is a 15,000-row table, which rich lays out
at ~0.5 ms a row (7 s); these tables are drawn at a few microseconds a row, with rich's own cell
widths (wide and combining characters) and styles. Text from documents and APIs is untrusted:
control characters (an escape sequence hidden in a paragraph) are shown as symbols, never sent to
the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Union

Span = tuple[str, str]  # (text, rich style; "" for none)
Cell = Union[str, Span, tuple[Span, ...]]  # noqa: UP007 (a type alias, evaluated at import)

ELLIPSIS = "…"
GAP = "  "  # between two columns
MIN_FLEX = 12  # a flexible column never gets fewer cells than this
# The width for output that is not a terminal (a transcript, a log): nothing is cut from it.
TRANSCRIPT_WIDTH = 100_000


@dataclass(frozen=True)
class Column:
    header: str
    style: str = ""
    flex: bool = False  # takes the width the other columns leave; cut to it (or wrapped)
    wrap: bool = False  # a flexible column whose text wraps onto more lines instead of being cut
    align: str = "left"  # or "right"
    max_width: int = 40  # a column that is not flexible is cut to this
    keep_end: bool = False  # cut the start instead (a file path: its name is at the end)


@dataclass(frozen=True)
class Wrapped:
    """Styled spans that wrap onto as many lines as they need, each continuation line indented
    by ``indent`` cells (a long diff line, a comment's text, a finding's message)."""

    spans: tuple[Span, ...]
    indent: int = 0


@dataclass
class Table:
    columns: Sequence[Column]
    rows: list[Sequence[Cell]] = field(default_factory=list)
    indent: int = 0


class Line(tuple):
    """A line of styled spans: ``Line(("text", "bold"), ("more", ""))``."""

    def __new__(cls, *spans: Span | str) -> Line:
        return super().__new__(cls, tuple((s, "") if isinstance(s, str) else s for s in spans))


class Verbatim(str):
    """A line shown as it is, never cut (JSON a person asked for: cutting would break it); only
    its control characters are replaced."""


Block = Union[Line, Wrapped, Table, Verbatim]  # noqa: UP007
View = list[Block]


# -- text safety and width -----------------------------------------------------------------------------

# C0 controls as their Unicode control pictures (␛ for ESC), DEL as ␡, C1 controls as �; tab as
# a space and a line break as ↵ (a cell is one line).
_CONTROLS = {code: chr(0x2400 + code) for code in range(0x20)}
_CONTROLS.update({0x7F: "\u2421", 0x09: " ", 0x0A: "\u21b5", 0x0D: ""})
_CONTROLS.update({code: "\ufffd" for code in range(0x80, 0xA0)})


def clean(text: str) -> str:
    """``text`` with no control character left (see ``_CONTROLS``)."""
    if text.isprintable():
        return text
    return text.translate(_CONTROLS)


def safe_text(text: str) -> str:
    """``text`` with its line breaks kept and every other control character shown as a symbol:
    for any text that reaches the terminal outside a view (a tool's answer, an error message)."""
    if text.isprintable():
        return text
    return "\n".join(clean(line) for line in text.replace("\r\n", "\n").split("\n"))


def width_of(text: str) -> int:
    """The cells ``text`` takes on a terminal."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending with … when cut."""
    if width <= 0:
        return ""
    if text.isascii():
        return text if len(text) <= width else text[: width - 1] + ELLIPSIS
    if width_of(text) <= width:
        return text
    from rich.cells import set_cell_size

    return set_cell_size(text, width - 1).rstrip() + ELLIPSIS


def _tail(text: str, width: int) -> str:
    """The end of ``text`` that fits in ``width`` cells."""
    if text.isascii():
        return text[len(text) - width :] if width > 0 else ""
    out = ""
    for char in reversed(text):
        if width_of(char + out) > width:
            break
        out = char + out
    return out


def pad(text: str, width: int, align: str = "left") -> str:
    room = width - width_of(text)
    if room <= 0:
        return text
    return " " * room + text if align == "right" else text + " " * room


# -- styles ---------------------------------------------------------------------------------------

# Styles that carry meaning: in colour they are these rich styles; without colours the text gets
# these markers around it instead (a word diff must read on a monochrome terminal too).
MEANINGS = {"deleted": ("red strike", "[-", "-]"), "inserted": ("green underline", "{+", "+}")}


class Styler:
    """Turns (text, style) into what the terminal shows: ANSI codes around it, or the text alone
    when colours are off. ``color_system`` is rich's name ("standard", "256", "truecolor",
    "windows") or None; with ``no_color``, bold and the like stay but colours go (NO_COLOR)."""

    def __init__(self, color_system: str | None, *, no_color: bool = False) -> None:
        self.color_system = color_system
        self.no_color = no_color
        self._codes: dict[str, tuple[str, str]] = {}

    @property
    def plain(self) -> bool:
        return self.color_system is None

    @property
    def markers(self) -> bool:
        """Whether meaningful styles are shown by markers (see ``MEANINGS``)."""
        return self.color_system is None or self.no_color

    def expand(self, spans: Iterable[Span]) -> Iterable[Span]:
        """``spans`` with the markers of meaningful styles when they cannot be seen."""
        if not self.markers:
            return spans
        out: list[Span] = []
        for text, style in spans:
            meaning = MEANINGS.get(style)
            if meaning is None:
                out.append((text, style))
            elif text:
                out += [(meaning[1], ""), (text, ""), (meaning[2], "")]
        return out

    def __call__(self, text: str, style: str) -> str:
        if not style or self.color_system is None or not text:
            return text
        codes = self._codes.get(style)
        if codes is None:
            codes = self._codes[style] = self._make(style)
        return f"{codes[0]}{text}{codes[1]}"

    def _make(self, style_text: str) -> tuple[str, str]:
        from rich.color import ColorSystem
        from rich.style import Style

        systems = {
            "standard": ColorSystem.STANDARD,
            "256": ColorSystem.EIGHT_BIT,
            "truecolor": ColorSystem.TRUECOLOR,
            "windows": ColorSystem.WINDOWS,
        }
        style = Style.parse(MEANINGS[style_text][0] if style_text in MEANINGS else style_text)
        if self.no_color:
            style = style.without_color
        rendered = style.render("\0", color_system=systems.get(self.color_system, ColorSystem.STANDARD))
        before, _, after = rendered.partition("\0")
        return before, after


# -- drawing --------------------------------------------------------------------------------------


_PLAIN = Styler(None)


def draw(view: Iterable[Block], width: int, styler: Styler) -> list[str]:
    """The lines of ``view`` at ``width`` cells (each line at most that wide)."""
    out: list[str] = []
    for block in view:
        if isinstance(block, Table):
            out.extend(_draw_table(block, width, styler))
        elif isinstance(block, Wrapped):
            out.extend(_draw_wrapped(block, width, styler))
        elif isinstance(block, Verbatim):
            out.append(clean(block))
        else:
            out.append(_draw_line(block, width, styler))
    return out


def _draw_line(line: Line, width: int, styler: Styler) -> str:
    return _fit_spans(line, width, styler, "")[0]


def _fit_spans(spans: Iterable[Span], width: int, styler: Styler, default: str) -> tuple[str, int]:
    """The spans drawn within ``width`` cells (the one that overflows cut with …), and the
    cells used."""
    parts: list[str] = []
    used = 0
    for text, style in styler.expand(spans):
        text = clean(text)
        size = width_of(text)
        if used + size > width:
            cut = fit(text, width - used)
            parts.append(styler(cut, style or default))
            used += width_of(cut)
            break
        parts.append(styler(text, style or default))
        used += size
    return "".join(parts), used


def _draw_wrapped(block: Wrapped, width: int, styler: Styler) -> list[str]:
    """Greedy filling: words go on the current line while they fit, lines break only at spaces
    (a word may change style in its middle: a word diff's ``thirty`` then ``forty``); a word wider
    than a whole line is cut into pieces."""
    indent = min(block.indent, width // 2)
    lines: list[str] = []
    parts: list[Span] = []
    used = 0

    def new_line() -> None:
        nonlocal parts, used
        lines.append(_joined(parts, styler))
        parts, used = [(" " * indent, "")], indent

    for word in _words(styler.expand(block.spans)):
        if word is None:
            new_line()
            continue
        size = sum(width_of(text) for text, _ in word)
        if used + size > width and used > indent:
            new_line()
            word = _without_leading_spaces(word)
        for text, style in word:
            while used + width_of(text) > width and text:  # only a word longer than a line
                piece = fit_exact(text, width - used) if width > used else ""
                if piece:
                    parts.append((piece, style))
                    text = text[len(piece) :]
                new_line()
            parts.append((text, style))
            used += width_of(text)
    lines.append(_joined(parts, styler))
    return lines


def _joined(parts: list[Span], styler: Styler) -> str:
    """One drawn line of ``parts``, neighbours of one style styled together, trailing spaces off."""
    merged: list[list[str]] = []
    for text, style in parts:
        if merged and merged[-1][1] == style:
            merged[-1][0] += text
        else:
            merged.append([text, style])
    if merged:
        merged[-1][0] = merged[-1][0].rstrip()
    return "".join(styler(text, style) for text, style in merged).rstrip()


def _words(spans: Iterable[Span]) -> list[list[Span] | None]:
    """The spans as words, each with the spaces before it and its pieces in their styles; None
    where the text breaks its line."""
    import re

    words: list[list[Span] | None] = [[]]
    for text, style in spans:
        for index, chunk in enumerate(clean_lines(text)):
            if index:
                words += [None, []]
            for piece in re.findall(r" +|[^ ]+", chunk):
                current = words[-1]
                if current is None or (piece.startswith(" ") and any(t.strip() for t, _ in current)):
                    current = []
                    words.append(current)
                current.append((piece, style))
    return [word for word in words if word is None or word]


def _without_leading_spaces(word: list[Span]) -> list[Span]:
    out = list(word)
    while out and not out[0][0].strip():
        out.pop(0)
    return out


def clean_lines(text: str) -> list[str]:
    """``text``'s lines, each cleaned of control characters."""
    return [clean(line) for line in text.replace("\r\n", "\n").split("\n")]


def fit_exact(text: str, width: int) -> str:
    """The longest start of ``text`` that fits in ``width`` cells (at least one character)."""
    if text.isascii():
        return text[: max(1, width)]
    from rich.cells import set_cell_size

    piece = set_cell_size(text, max(1, width)).rstrip()
    return piece or text[:1]


def _cell_spans(cell: Cell) -> tuple[Span, ...]:
    if isinstance(cell, str):
        return ((cell, ""),)
    if cell and isinstance(cell[0], str):
        return (cell,)  # type: ignore[return-value]
    return cell  # type: ignore[return-value]


def _cell_text(cell: Cell) -> str:
    return clean("".join(text for text, _ in _cell_spans(cell)))


def _draw_table(table: Table, width: int, styler: Styler) -> list[str]:
    columns = table.columns
    texts = [[_cell_text(cell) for cell in row] for row in table.rows]
    widths = _widths(columns, texts, width - table.indent)
    margin = " " * table.indent
    last = len(columns) - 1
    header = GAP.join(
        styler(pad(fit(c.header, w), 0 if i == last else w, c.align), "bold")
        for i, (c, w) in enumerate(zip(columns, widths, strict=True))
    )
    lines = [(margin + header).rstrip()]
    for row, row_texts in zip(table.rows, texts, strict=True):
        lines.extend(_draw_row(row, row_texts, columns, widths, margin, styler))
    return lines


MIN_COLUMN = 4


def _widths(columns: Sequence[Column], texts: list[list[str]], room: int) -> list[int]:
    """Each column's width: its longest cell (within its ``max_width``; the flexible one takes
    what is left), narrowed from the widest down until the table fits ``room`` cells."""
    longest = [max((width_of(row[i]) for row in texts if i < len(row)), default=0) for i in range(len(columns))]
    widths = [max(width_of(c.header), longest[i]) for i, c in enumerate(columns)]
    room -= len(GAP) * (len(columns) - 1)
    flex = next((i for i, c in enumerate(columns) if c.flex), None)
    wanted_flex = 0 if flex is None else min(widths[flex], MIN_FLEX)
    fixed = [i for i in range(len(columns)) if i != flex]
    if sum(widths[i] for i in fixed) + (0 if flex is None else widths[flex]) > room:
        # Too wide: the columns that say how wide they may be give up their room first.
        for i in fixed:
            widths[i] = min(widths[i], max(width_of(columns[i].header), columns[i].max_width))
    while sum(widths[i] for i in fixed) + wanted_flex > room:
        widest = max(fixed, key=lambda i: widths[i], default=None)
        if widest is None or widths[widest] <= MIN_COLUMN:
            break
        widths[widest] -= 1
    if flex is not None:
        left = max(MIN_FLEX, room - sum(widths[i] for i in fixed))
        widths[flex] = min(widths[flex], left)
    return widths


def _draw_row(
    row: Sequence[Cell], texts: list[str], columns: Sequence[Column], widths: list[int], margin: str, styler: Styler
) -> list[str]:
    cells: list[list[str]] = []
    for index, column in enumerate(columns):
        text = texts[index] if index < len(texts) else ""
        cell_width = widths[index]
        last = index == len(columns) - 1
        if column.wrap and width_of(text) > cell_width:
            pieces = _draw_wrapped(Wrapped(((text, ""),)), cell_width, _PLAIN)
            style = _single_style(row[index]) or column.style
            cells.append([styler(pad(p, 0 if last else cell_width), style) for p in pieces])
            continue
        spans = _cell_spans(row[index]) if index < len(row) else ()
        cells.append([_styled_cell(spans, cell_width, column, styler, last)])
    height = max(len(c) for c in cells)
    out = []
    for line_number in range(height):
        parts = []
        for index, cell in enumerate(cells):
            if line_number < len(cell):
                parts.append(cell[line_number])
            elif index < len(cells) - 1:
                parts.append(" " * widths[index])
        out.append((margin + GAP.join(parts)).rstrip())
    return out


def _single_style(cell: Cell) -> str:
    spans = _cell_spans(cell)
    return spans[0][1] if len(spans) == 1 else ""


def _styled_cell(spans: tuple[Span, ...], width: int, column: Column, styler: Styler, last: bool) -> str:
    """One cell's spans, cut to ``width`` and padded (the last column is not padded)."""
    if column.keep_end:
        text = "".join(t for t, _ in spans)
        if width_of(text) > width:
            spans = ((ELLIPSIS + _tail(text, width - 1), next((s for t, s in spans if s), "")),)
    drawn, used = _fit_spans(spans, width, styler, column.style)
    room = 0 if last else width - used
    if room <= 0:
        return drawn
    return " " * room + drawn if column.align == "right" else drawn + " " * room


# -- small helpers the family views share --------------------------------------------------------------


def note(text: str) -> Wrapped:
    """A hint or an instruction: dim, and wrapped rather than cut, so a narrow terminal still
    shows all of it."""
    indent = len(text) - len(text.lstrip(" "))
    return Wrapped(((text, "dim"),), indent=indent)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else many or word + 's'}"
