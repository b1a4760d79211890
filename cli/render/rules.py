"""`openapi rule`: one rule explained (what it finds, why it matters, how to fix it, its default
severity), or the table of every rule."""

from __future__ import annotations

from typing import Any

from .draw import Column, Line, Table, View, Wrapped, note, plural

SEVERITY_STYLES = {"error": "bold red", "warning": "yellow"}
AREAS = {"spec": "OpenAPI specification", "x-agent": "x-agent annotations", "live": "--live"}


def rule(value: dict[str, Any], args: dict[str, Any]) -> View:
    severity = str(value.get("severity", ""))
    view: View = [
        Wrapped(
            (
                (str(value.get("id", "")), "bold cyan"),
                ("  default severity ", "dim"),
                (severity, SEVERITY_STYLES.get(severity, "")),
                (f"  ({AREAS.get(str(value.get('area')), value.get('area'))})", "dim"),
            )
        )
    ]
    for title, key in (("What it finds", "what"), ("Why it matters", "why"), ("How to fix it", "fix")):
        view += [Line((title, "bold")), Wrapped(((f"  {value.get(key, '')}", ""),), indent=2)]
    rule_id = value.get("id", "")
    view.append(
        note(
            f"Change its severity with --severity {rule_id}=error|warning|off, or under "
            "[openapi.check.severity] in .deskcheck.toml."
        )
    )
    return view


def rules(value: list[dict[str, Any]], args: dict[str, Any]) -> View:
    rows = [
        [
            str(item.get("id", "")),
            (str(item.get("severity", "")), SEVERITY_STYLES.get(str(item.get("severity")), "")),
            str(item.get("what", "")),
        ]
        for item in value
    ]
    columns = [
        Column("rule", style="cyan", max_width=40),
        Column("default"),
        Column("what it finds", flex=True, wrap=True),
    ]
    return [
        Line((plural(len(rows), "rule"), "bold")),
        Table(columns, rows),
        note("deskcheck openapi rule NAME explains one: why it matters and how to fix it."),
    ]


VIEWS = {"rule": rule, "rules": rules}
