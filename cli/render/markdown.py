"""Text written in Markdown for a model (an API tool's answer: ``- **key**: value`` lines, rows as
a Markdown table, ``> Hint:`` quotes) drawn for a person: tables as tables, keys in bold, hints
dimmed, long lines wrapped rather than cut."""

from __future__ import annotations

import re
from typing import Any

from .draw import Column, Line, Table, View, Wrapped, note

_SEPARATOR = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$")
_KEY_VALUE = re.compile(r"^(\s*)- \*\*(.+?)\*\*:(.*)$")
# A cell boundary: a | not escaped as \|.
_CELL = re.compile(r"(?<!\\)\|")


def text(value: Any, args: dict[str, Any]) -> View:
    lines = str(value).split("\n")
    view: View = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|") and index + 1 < len(lines) and _SEPARATOR.match(lines[index + 1]):
            end = index + 2
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            view.append(_table(lines[index], lines[index + 2 : end]))
            index = end
            continue
        view.append(_line(line))
        index += 1
    return view


def _cells(row: str) -> list[str]:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip().replace("\\|", "|") for cell in _CELL.split(inner)]


def _table(header: str, rows: list[str]) -> Table:
    names = _cells(header)
    columns = [Column(name, style="cyan" if number == 0 else "", max_width=30) for number, name in enumerate(names)]
    columns[-1] = Column(names[-1], flex=True, wrap=True)
    body = [(_cells(row) + [""] * len(names))[: len(names)] for row in rows]
    return Table(columns, body)


def _line(line: str) -> Line | Wrapped:
    if not line.strip():
        return Line("")
    if line.strip() == "_(no rows)_":
        return note("(no rows)")
    if line.startswith(">"):
        return note(line[1:].strip())
    found = _KEY_VALUE.match(line)
    if found:
        indent, key, rest = found.groups()
        return Wrapped(((f"{indent}- ", ""), (key, "bold"), (f":{rest}", "")), indent=len(indent) + 2)
    lead = len(line) - len(line.lstrip(" "))
    return Wrapped(((line, ""),), indent=lead + (2 if line.lstrip().startswith("- ") else 0))


VIEWS = {"text": text}
