"""``openapi check`` findings as text, JSON, GitHub workflow commands or SARIF 2.1.0."""

from __future__ import annotations

import json
from typing import Any

from .check import Finding
from .problems import ERROR
from .rules import RULES

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def format_findings(findings: list[Finding], fmt: str, *, artifact: str, tool_version: str) -> str:
    if fmt == "json":
        return json.dumps({"findings": [f.as_dict() for f in findings]}, ensure_ascii=False, indent=2)
    if fmt == "github":
        return "\n".join(github_line(f, f.artifact or artifact) for f in findings)
    if fmt == "sarif":
        return json.dumps(sarif(findings, artifact=artifact, tool_version=tool_version), ensure_ascii=False, indent=2)
    if fmt == "text":
        return text_report(findings, artifact)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def text_report(findings: list[Finding], artifact: str) -> str:
    lines = []
    for f in findings:
        name = f.artifact or artifact
        where = f"{name}:{f.line}:{f.column}" if f.line is not None else name
        lines.append(f"{where}: {f.severity} [{f.rule}] {f.message}")
        if f.pointer:
            lines.append(f"    at {f.pointer}")
    errors = sum(1 for f in findings if f.severity == ERROR)
    warnings = len(findings) - errors
    if not findings:
        lines.append(f"{artifact or 'the documents'}: no problems found.")
    else:
        lines.append(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}.")
    return "\n".join(lines)


def github_line(finding: Finding, artifact: str) -> str:
    """A workflow command (``::error file=…,line=…,col=…,title=…::message``) that GitHub Actions
    shows as an annotation on the file."""
    command = "error" if finding.severity == ERROR else "warning"
    properties = [f"file={_escape_property(artifact)}"]
    if finding.line is not None:
        properties += [f"line={finding.line}", f"col={finding.column}"]
    properties.append(f"title={_escape_property('deskcheck ' + finding.rule)}")
    message = finding.message + (f" (at {finding.pointer})" if finding.pointer else "")
    return f"::{command} {','.join(properties)}::{_escape_data(message)}"


def sarif(findings: list[Finding], *, artifact: str, tool_version: str) -> dict[str, Any]:
    rule_ids = sorted({f.rule for f in findings})
    results = []
    for f in findings:
        location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": f.artifact or artifact}}}
        if f.line is not None:
            location["physicalLocation"]["region"] = {"startLine": f.line, "startColumn": f.column}
        if f.pointer:
            location["logicalLocations"] = [{"fullyQualifiedName": f.pointer, "kind": "member"}]
        results.append(
            {
                "ruleId": f.rule,
                "ruleIndex": rule_ids.index(f.rule),
                "level": "error" if f.severity == ERROR else "warning",
                "message": {"text": f.message},
                "locations": [location],
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "deskcheck",
                        "version": tool_version,
                        "rules": [
                            {"id": rule, "shortDescription": {"text": RULES.get(rule, rule)}} for rule in rule_ids
                        ],
                    }
                },
                "results": results,
            }
        ],
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
