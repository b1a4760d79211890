"""``openapi check --format sarif``: SARIF 2.1.0 that GitHub code scanning takes whole.

Beyond the schema, GitHub Advanced Security requires of each rule a ``fullDescription`` and a
``help``, and shows a result only at a file path with a region; Microsoft's SARIF multitool checks
both (``validate --rule-kind "Sarif;Gh"``, run by ``tests/openapi/test_sarif_multitool.py``). So:
every rule a result names comes with its summary, its explanation and how to change its severity
(``rules.RULES``); every result has a region with a start and an end (a whole file that could not
be read: its first character); files are relative references from the working directory, or
``file:`` URIs with the working directory given; the configuration file read is an artifact with
the role ``userSpecifiedConfiguration``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..document.problems import ERROR
from ..rules.rules import RULES
from .check import Finding

if TYPE_CHECKING:
    from .report import CheckReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/deskcheck/deskcheck"
HELP_URI = INFORMATION_URI + "#checking-annotations-in-ci"


def sarif(report: CheckReport, *, tool_version: str) -> dict[str, Any]:
    rule_ids = sorted({f.rule for f in report.findings})
    index = {rule: position for position, rule in enumerate(rule_ids)}
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": "error" if f.severity == ERROR else "warning",
            "message": {"text": f.message},
            "locations": [_location(f)],
        }
        for f in report.findings
    ]
    invocation: dict[str, Any] = {
        "executionSuccessful": report.failure is None,
        "workingDirectory": {"uri": Path.cwd().as_uri() + "/"},
    }
    if report.failure is not None:
        invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": report.failure}}]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "deskcheck",
                "version": tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rule) for rule in rule_ids],
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if report.configuration is not None:
        run["artifacts"] = [{"location": {"uri": _uri(report.configuration)}, "roles": ["userSpecifiedConfiguration"]}]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _location(finding: Finding) -> dict[str, Any]:
    if finding.line is not None:
        end_line = finding.end_line if finding.end_line is not None else finding.line
        end_column = finding.end_column if finding.end_column is not None else finding.column
        # SARIF's endColumn is the column after the region; the finding's is its last character.
        region = {
            "startLine": finding.line,
            "startColumn": finding.column,
            "endLine": end_line,
            "endColumn": (end_column or 1) + 1,
        }
    else:  # a file that could not be read at all (missing, empty, too large): its start
        region = {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": {"uri": _uri(finding.artifact or "")}, "region": region}
    }
    if finding.pointer:
        location["logicalLocations"] = [{"fullyQualifiedName": finding.pointer, "kind": "member"}]
    return location


def _rule(rule_id: str) -> dict[str, Any]:
    known = RULES.get(rule_id)
    summary = known.summary if known is not None else f"The check reported {rule_id}."
    explanation = known.explanation if known is not None else "`deskcheck openapi rule` lists the rules."
    severity = known.severity if known is not None else "warning"
    levels = f"{rule_id}=error|warning|off"
    sections = (
        "[openapi.check.severity]",
        ".deskcheck.toml",
        "[tool.deskcheck.openapi.check.severity]",
        "pyproject.toml",
    )
    change = "Default severity: {}. Change it with {}, or in the configuration file ({} in {}, {} in {})."
    out: dict[str, Any] = {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("-")),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": f"{summary} {explanation}"},
        "help": {
            "text": f"{explanation}\n\n" + change.format(severity, f"--severity {levels}", *sections),
            "markdown": f"**{summary}**\n\n{explanation}\n\n"
            + change.format(f"**{severity}**", f"`--severity {levels}`", *(f"`{part}`" for part in sections)),
        },
        "helpUri": HELP_URI,
        "defaultConfiguration": {"level": severity},
    }
    if known is not None:
        out["properties"] = {"tags": ["openapi" if known.area == "spec" else known.area]}
    return out


def _uri(path: str) -> str:
    """A file as a SARIF artifact URI: a path relative to the working directory as a relative
    reference (percent-encoded), an absolute one as a ``file:`` URI; a URL as is."""
    if path.startswith(("http://", "https://")):
        return path
    if Path(path).is_absolute():
        return Path(path).as_uri()
    # A colon is encoded: in a first segment it would read as a URI scheme.
    return quote(path.replace("\\", "/"), safe="/@!$&'()*+,;=-._~")
