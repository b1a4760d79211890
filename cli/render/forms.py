"""Readable views of the form family: the sessions and drafts the store keeps, and the text the
form tools answer (written for people and agents alike), coloured as the docx views are: field
paths in cyan, errors in red, validity in green or red, headings in bold; long lines wrap."""

from __future__ import annotations

import re
from typing import Any

from .draw import Column, Line, Span, Table, View, Wrapped, note, plural

STATUS_STYLES = {"ready": "green", "stale": "yellow", "error": "red", "saving": "yellow", "closed": "dim"}


def duration(seconds: Any) -> str:
    """``42 s``, ``12 min``, ``3 h``, ``2 d``."""
    if not isinstance(seconds, (int, float)):
        return "?"
    seconds = abs(seconds)
    for limit, unit, size in ((120, "s", 1), (7200, "min", 60), (172800, "h", 3600)):
        if seconds < limit:
            return f"{int(seconds // size)} {unit}"
    return f"{int(seconds // 86400)} d"


def _record(key: dict[str, Any]) -> str:
    params = key.get("params") or {}
    # Which record: its path parameters (the API's address is the group's business), or a file.
    words = " ".join(f"{name}={value}" for name, value in params.items() if name not in ("schema", "data", "api"))
    if "data" in params:  # a file-backed form: its data file says which record
        words = f"{params['data']} {words}".strip()
    return words or "-"


def sessions(value: Any, args: dict[str, Any]) -> View:
    items = [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
    if not items:
        return [note("No open form sessions.")]
    rows = []
    for item in items:
        key = item.get("key") or {}
        status = str(item.get("status", ""))
        valid = ("valid", "green") if item.get("valid") else (plural(int(item.get("errors") or 0), "error"), "red")
        rows.append(
            [
                str(key.get("group", "")),
                _record(key),
                str(key.get("identity") or "-"),
                (status, STATUS_STYLES.get(status, "")),
                ("unsaved edits", "yellow") if item.get("modified") else ("saved", "dim"),
                valid,
                duration(item.get("idleSeconds")),
                duration(item.get("expiresInSeconds")),
                (str(item.get("message") or item.get("title") or ""), ""),
            ]
        )
    columns = [
        Column("group", style="bold cyan"),
        Column("record", flex=True, keep_end=True),
        Column("identity", style="dim", max_width=16),
        Column("status"),
        Column("edits"),
        Column("valid"),
        Column("idle", align="right"),
        Column("expires in", align="right"),
        Column("title", max_width=20),
    ]
    return [Line((plural(len(rows), "open session"), "bold")), Table(columns, rows)]


def drafts(value: Any, args: dict[str, Any]) -> View:
    items = [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
    if not items:
        return [note("No drafts: no session expired with unsaved edits.")]
    rows = [
        [
            str(item.get("draft", "")),
            str((item.get("key") or {}).get("group", "")),
            _record(item.get("key") or {}),
            ("valid", "green") if item.get("valid") else ("not valid", "red"),
            duration(item.get("expiredSecondsAgo")) + " ago",
            ", ".join(map(str, item.get("changed", []))) or "-",
        ]
        for item in items
    ]
    columns = [
        Column("draft", style="bold cyan", align="right"),
        Column("group"),
        Column("record", keep_end=True),
        Column("valid"),
        Column("expired"),
        Column("changed fields", flex=True),
    ]
    return [
        Line((plural(len(rows), "draft"), "bold")),
        Table(columns, rows),
        note("deskcheck form restore --draft N re-applies one; discard --draft N drops it."),
    ]


def get_data(value: Any, args: dict[str, Any]) -> View:
    """getData answers JSON text (the record or a field, whether it is valid): shown as keys and
    values, the way other structures are on a terminal."""
    import json

    from .values import value_view

    try:
        answer = json.loads(value)
    except (TypeError, ValueError):
        return value_view(value)
    if not isinstance(answer, dict):
        return value_view(answer)
    view: View = [note("unset (no value)")] if answer.get("unset") else value_view(answer.get("data"))
    if "valid" in answer:
        view.append(Line(("the record is valid", "green")) if answer["valid"] else Line(("not valid", "red")))
    others = {key: item for key, item in answer.items() if key not in ("data", "valid", "unset")}
    return view + value_view(others) if others else view


_VALID = re.compile(r"^(valid: )(true|false)(.*)$")
_HEADING = re.compile(r"^[A-Z][^:]{0,60}:$")
# "- /path (types) rest", "- /path: message" or "/path (types) = value": a path ends at a space or
# at the ": " of an error line.
_FIELD = re.compile(r"^(\s*)(- )?(/\S*?)(?=$|: | \(| =)(: | \(([^)]*)\))?(.*)$")
_OPTION = re.compile(r"^(\s*- )(\[\d+\])(.*)$")


def text(value: Any, args: dict[str, Any]) -> View:
    """A form tool's answer, line by line (see the module docstring)."""
    return [_styled(line) for line in str(value).split("\n")]


def _styled(line: str) -> Line | Wrapped:
    if not line:
        return Line("")
    indent = len(line) - len(line.lstrip(" "))
    spans: list[Span]
    found = _VALID.match(line)
    if found:
        ok = found.group(2) == "true"
        spans = [(found.group(1), "bold"), (found.group(2) + found.group(3), "bold green" if ok else "bold red")]
    elif _HEADING.match(line):
        spans = [(line, "bold")]
    elif (option := _OPTION.match(line)) is not None:
        spans = [(option.group(1), ""), (option.group(2), "cyan"), (option.group(3), "")]
    elif (field := _FIELD.match(line)) is not None and (field.group(2) or not indent):
        spans = _field_spans(field)
    elif line.startswith("no errors"):
        spans = [(line, "green")]
    else:
        spans = [(line, "")]
    bullet = 2 if line.lstrip().startswith("- ") else 0
    return Wrapped(tuple(spans), indent=indent + bullet)


def _field_spans(found: re.Match) -> list[Span]:
    lead, bullet, path, middle, kinds, rest = found.groups()
    spans: list[Span] = [(lead + (bullet or ""), ""), (path, "cyan")]
    has_error = middle == ": " or (kinds is not None and "error" in kinds.split(", "))
    if middle == ": ":  # an error line: "- /name: what is wrong"
        return [*spans, (": ", ""), (rest, "red")]
    if middle:
        spans.append((middle, "dim"))
    message, dash, problem = rest.partition(" — ")
    spans.append((message, ""))
    if dash:
        spans.append((dash + problem, "red" if has_error else ""))
    return spans


VIEWS = {"sessions": sessions, "drafts": drafts, "getData": get_data, "text": text}
