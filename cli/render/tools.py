"""Tool definitions as a person reads them: each tool's name and what it does, in one line.

Any export shape is read (json, anthropic, openai, mcp: ``export_tools``), so the docx tools, an
OpenAPI document's tools and the REPL's `tools` list the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .draw import Column, Line, Table, Verbatim, View, Wrapped, note, plural


def summary(description: str) -> str:
    """A description's first sentence."""
    text = " ".join(str(description or "").split())
    first = text.partition(". ")[0]
    return first.rstrip(".") + "." if first else ""


def _fields(definition: dict[str, Any]) -> dict[str, Any]:
    # openai's shape keeps the definition under "function"
    inner = definition.get("function")
    return inner if isinstance(inner, dict) else definition


def _read_only(definition: dict[str, Any]) -> bool:
    annotations = definition.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def tools_table(definitions: Iterable[dict[str, Any]], *, indent: int = 0) -> Table:
    rows = []
    for definition in definitions:
        fields = _fields(definition)
        marks = ("read-only  ", "dim") if _read_only(fields) else ("", "")
        rows.append([str(fields.get("name", "")), (marks, (summary(fields.get("description", "")), ""))])
    return Table(
        [Column("tool", style="bold cyan", max_width=48), Column("what it does", flex=True, wrap=True)], rows, indent
    )


def listing(value: Any, args: dict[str, Any]) -> View:
    """A list of tool definitions (``deskcheck docx tools``, the REPL's `tools`)."""
    definitions = [d for d in value if isinstance(d, dict)] if isinstance(value, list) else []
    return [
        Line((plural(len(definitions), "tool"), "bold")),
        tools_table(definitions),
        note("NAME after `tools` shows one tool's arguments and an example; --format json, anthropic, openai or mcp"),
        note("prints the definitions themselves."),
    ]


def one_tool(value: dict[str, Any], args: dict[str, Any]) -> View:
    """One tool as its verb's --help tells it: what it does, its JSON arguments, an example."""
    rows = [[key, text] for key, text in value.get("arguments", [])]
    view: View = [
        Line((str(value.get("name", "")), "bold cyan"), (f"  {value.get('title') or ''}", "bold")),
        Wrapped(((str(value.get("description", "")), ""),)),
        Line(("JSON arguments (ARGS)", "bold")),
    ]
    if rows:
        view.append(Table([Column("key", style="cyan"), Column("type and use", flex=True, wrap=True)], rows, 2))
    else:
        view.append(note("  none: give {} or leave ARGS out."))
    view += [Line(("Example", "bold")), Verbatim("  " + str(value.get("example", "")))]
    return view


VIEWS = {"listing": listing, "tool": one_tool}
