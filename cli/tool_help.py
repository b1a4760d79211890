"""What a tool verb's ``--help`` says about its ARGS: each JSON key with its type, whether it is
required and what it is for, read from the tool's input schema, then one example command line
(``help_examples``). ``deskcheck docx tools NAME`` shows the same for one tool on a terminal.

The text is built when help is asked for (``ToolHelpCommand.format_epilog``), never when a verb
runs, so that a tool call pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from typer.core import TyperCommand

# An enum with more values than this is summarised ("one of 19 values") rather than listed.
LISTED_VALUES = 6


def type_words(schema: Any) -> str:
    """A property's type in a few words: ``string``, ``integer 1-2000``, ``true|false``,
    ``tracked-changes|direct``, ``array of strings``, ``object``, ``any JSON value``."""
    if not isinstance(schema, dict):
        return "any JSON value"
    if isinstance(schema.get("enum"), list):
        values = [str(value) for value in schema["enum"]]
        return "|".join(values) if len(values) <= LISTED_VALUES else f"one of {len(values)} values"
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(type_words({**schema, "type": one}) for one in kind)
    if kind == "boolean":
        return "true|false"
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{kind} {low}-{high}"
        if low is not None:
            return f"{kind} ≥ {low}"
        return str(kind)
    if kind == "array":
        items = type_words(schema.get("items")) if "items" in schema else "values"
        plural = {"string": "strings", "object": "objects", "integer": "integers", "number": "numbers"}
        return f"array of {plural.get(items, items)}"
    if kind == "object":
        keys = list(schema.get("properties") or {})
        return f"object ({', '.join(keys)})" if 0 < len(keys) <= LISTED_VALUES else "object"
    return str(kind) if kind else "any JSON value"


def argument_rows(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, "type, required. What it is for.") for each top-level key of an input schema."""
    required = set(schema.get("required") or [])
    rows = []
    for key, prop in (schema.get("properties") or {}).items():
        words = type_words(prop) + (", required" if key in required else "")
        description = prop.get("description", "") if isinstance(prop, dict) else ""
        rows.append((key, f"{words}. {description}".strip() if description else words))
    return rows


class ToolHelpCommand(TyperCommand):
    """A tool verb: its help ends with the tool's JSON arguments and an example.

    ``describe`` (set on the subclass each family makes) gives, for the verb's name, the input
    schema, extra sections (a title, then rows of a definition list or a paragraph) and the
    example command line."""

    describe: Callable[[str], tuple[dict[str, Any], list[tuple[str, Any]], str]]

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        super().format_epilog(ctx, formatter)
        schema, extra, example = type(self).describe(self.name or "")
        rows = argument_rows(schema)
        with formatter.section("JSON arguments (ARGS)"):
            if rows:
                formatter.write_dl(rows)
            else:
                formatter.write_text("none: give {} or leave ARGS out.")
        for title, body in extra:
            with formatter.section(title):
                if isinstance(body, str):
                    formatter.write_text(body)
                else:
                    formatter.write_dl(body)
        with formatter.section("Example"):
            formatter.write_text("\b\n" + example)
