"""``openapi check`` reports as text, JSON, GitHub workflow commands or SARIF 2.1.0.

Every format says what happened in every outcome: findings, a document that could not be read
(a ``document-unreadable`` finding at the line where reading stopped), or a check that could
not run at all (``failure``: a bad option, an undeclared profile). Nothing is left out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..document.problems import ERROR, WARNING
from ..document.text import printable
from .check import Finding, has_errors

FORMATS = ("text", "json", "github", "sarif")
# GitHub shows this many annotations of each kind per step; the rest exist only in the log.
GITHUB_SHOWN_PER_KIND = 10

OK, FINDINGS, UNUSABLE = 0, 1, 2  # the exit codes of a check


@dataclass
class CheckReport:
    """The outcome of one ``openapi check`` run over one or more documents. Every finding names
    its file (``artifact``)."""

    documents: list[str]
    findings: list[Finding] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # documents that could not be read
    failure: str | None = None  # why the check could not run at all
    strict: bool = False
    configuration: str | None = None  # the configuration file read, if any

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == WARNING)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 errors (or warnings with strict), 2 a document unreadable or the check unable to run."""
        if self.failure is not None or self.unreadable:
            return UNUSABLE
        return FINDINGS if has_errors(self.findings, strict=self.strict) else OK

    def summary(self) -> str:
        """One sentence: what the check found."""
        if self.failure is not None:
            return self.failure
        counts = f"{_plural(self.errors, 'error')}, {_plural(self.warnings, 'warning')}"
        documents = _plural(len(self.documents), "document")
        if self.unreadable:
            return f"{_plural(len(self.unreadable), 'document')} could not be read; {counts} in {documents}."
        return f"{counts} in {documents}."

    def result(self) -> dict[str, Any]:
        """The JSON result: every finding (each with its file) and the counts."""
        return {
            "findings": [f.as_dict() for f in self.findings],
            "configuration": self.configuration,
            "summary": {
                "documents": len(self.documents),
                "unreadable": len(self.unreadable),
                "errors": self.errors,
                "warnings": self.warnings,
            },
        }


def format_report(report: CheckReport, fmt: str, *, tool_version: str) -> str:
    """``report`` in ``fmt`` (text, github or sarif; json is the CLI's envelope around ``result``)."""
    if fmt == "github":
        return github_report(report)
    if fmt == "sarif":
        from .sarif import sarif

        return json.dumps(sarif(report, tool_version=tool_version), ensure_ascii=False, indent=2)
    if fmt == "text":
        return text_report(report)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def text_report(report: CheckReport) -> str:
    """One line per finding and a closing line. Everything taken from a document or a file name
    is written with its control characters and line breaks escaped (``printable``): a CI log
    runs a line that starts with ``::`` as a workflow command, and a terminal obeys escape
    sequences."""
    lines = []
    for f in report.findings:
        artifact = printable(f.artifact or "")
        where = f"{artifact}:{f.line}:{f.column}" if f.line is not None else artifact
        lines.append(f"{where}: {f.severity} [{f.rule}] {printable(f.message)}")
        if f.pointer:
            lines.append(f"    at {printable(f.pointer)}")
    if report.configuration is not None:
        lines.append(f"configuration: {printable(report.configuration)}")
    if report.failure is not None:
        lines.append(f"error: {printable(report.failure)}")
    elif not report.findings:
        names = printable(report.documents[0]) if len(report.documents) == 1 else "the documents"
        lines.append(f"{names}: no problems found.")
    else:
        lines.append(report.summary())
    return "\n".join(lines)


def github_report(report: CheckReport) -> str:
    lines = [github_line(f) for f in report.findings]
    if report.failure is not None:
        lines.append(f"::error title={_escape_property('deskcheck openapi check')}::{_escape_data(report.failure)}")
    elif report.errors > GITHUB_SHOWN_PER_KIND or report.warnings > GITHUB_SHOWN_PER_KIND:
        lines.append(
            f"::notice title={_escape_property('deskcheck openapi check')}::"
            + _escape_data(
                f"{report.summary()} GitHub shows the first {GITHUB_SHOWN_PER_KIND} annotations of each kind per "
                "step; the job log above and --format sarif (code scanning) list them all."
            )
        )
    return "\n".join(lines)


def github_line(finding: Finding) -> str:
    """A workflow command (``::error file=…,line=…,endLine=…,col=…,endColumn=…,title=…::message``)
    that GitHub Actions shows as an annotation on the file, underlining the token the finding is
    at (a member's key, a value)."""
    command = "error" if finding.severity == ERROR else "warning"
    properties = [f"file={_escape_property(finding.artifact or '')}"]
    if finding.line is not None:
        properties += [f"line={finding.line}", f"endLine={finding.end_line or finding.line}", f"col={finding.column}"]
        properties.append(f"endColumn={finding.end_column or finding.column}")
    properties.append(f"title={_escape_property('deskcheck ' + finding.rule)}")
    message = finding.message + (f" (at {finding.pointer})" if finding.pointer else "")
    return f"::{command} {','.join(properties)}::{_escape_data(message)}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _escape_data(text: str) -> str:
    """A workflow command's message: line breaks and control characters escaped as in the text
    report (``printable``: an escape sequence would reach the log as such), then GitHub's own
    escape of ``%``; no line break is left for GitHub's ``%0A``."""
    return printable(text).replace("%", "%25")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
