"""Readable views of the openapi family: `openapi check` findings grouped by file with their
severity in colour, and what `openapi tools` found in a document."""

from __future__ import annotations

from typing import Any

from .draw import Column, Line, Table, View, Wrapped, note, plural
from .tools import summary, tools_table

SEVERITY_STYLES = {"error": "bold red", "warning": "yellow"}


def check(value: Any, args: dict[str, Any]) -> View:
    """Findings (``Finding.as_dict()``), grouped by file in the order they came; the counts close."""
    findings = value.get("findings", []) if isinstance(value, dict) else list(value)
    files: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        files.setdefault(str(finding.get("file") or args.get("artifact") or "the document"), []).append(finding)
    view: View = []
    for name, found in files.items():
        errors = sum(1 for f in found if f.get("severity") == "error")
        counts = f"  {plural(errors, 'error')}, {plural(len(found) - errors, 'warning')}"
        view.append(Line((name, "bold underline"), (counts, "dim")))
        for finding in found:
            severity = str(finding.get("severity", ""))
            where = f"{finding['line']}:{finding.get('column', 0)}" if finding.get("line") is not None else "-"
            view.append(
                Wrapped(
                    (
                        (f"  {where:>7}  ", "dim"),
                        (f"{severity:<7}", SEVERITY_STYLES.get(severity, "")),
                        (f" {finding.get('message', '')}", ""),
                        (f"  [{finding.get('rule', '')}]", "dim"),
                    ),
                    indent=19,
                )
            )
            if finding.get("pointer"):
                view.append(Line((f"{'':19}at {finding['pointer']}", "cyan")))
    errors = sum(1 for f in findings if f.get("severity") == "error")
    if args.get("configuration"):
        view.append(Line(("configuration: ", "dim"), (str(args["configuration"]), "")))
    for name in args.get("clean", []):
        view.append(Line((name, "bold underline"), ("  no problems found", "green")))
    if not findings:
        checked = args.get("artifact") or "the documents"
        view.append(Wrapped((("✓ ", "green"), (f"{checked}: no problems found.", "bold")), indent=2))
    else:
        style = "bold red" if errors else "bold yellow"
        view.append(Line((f"{plural(errors, 'error')}, {plural(len(findings) - errors, 'warning')}.", style)))
    return view


def tools(value: Any, args: dict[str, Any]) -> View:
    """`openapi tools` (json shape): profiles, the plain tools, the editor groups and their
    form tools, skills and whether instructions are given."""
    groups = value.get("editorGroups", [])
    form_tools = {name for group in groups for name in group.get("tools", [])}
    plain = [t for t in value.get("tools", []) if t.get("name") not in form_tools]
    view: View = [
        Line(("Profiles: ", "bold"), (", ".join(value.get("profiles", [])) or "(none)", "cyan")),
        Line((plural(len(plain), "tool"), "bold"), (" (one per annotated operation)", "dim")),
    ]
    if plain:
        view.append(tools_table(plain, indent=2))
    view.append(Line((plural(len(groups), "editor group"), "bold"), (" (eight form tools each)", "dim")))
    if groups:
        rows = [
            [
                str(group.get("name", "")),
                str(group.get("mode", "")),
                ", ".join(p.get("name", "") for p in group.get("pathParameters", [])) or "-",
                str(group.get("title") or summary(group.get("description") or "")),
            ]
            for group in groups
        ]
        columns = [
            Column("group", style="bold cyan", max_width=48),
            Column("mode"),
            Column("parameters", style="dim"),
            Column("title", flex=True),
        ]
        view.append(Table(columns, rows, indent=2))
    skills = value.get("skills", [])
    if skills:
        view.append(Line((plural(len(skills), "skill"), "bold")))
        rows = [[str(s.get("name") or s.get("id") or ""), summary(s.get("description") or "")] for s in skills]
        view.append(Table([Column("skill", style="cyan"), Column("about", flex=True)], rows, indent=2))
    if value.get("instructions"):
        lines = str(value["instructions"]).count("\n") + 1
        view.append(note(f"Instructions for the agent: {plural(lines, 'line')} (--format json prints them)."))
    return view


VIEWS = {"check": check, "tools": tools}
