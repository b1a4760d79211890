"""``openapi check``: everything a load would refuse, and what other OpenAPI tools would, at once.

Errors are what stops a tool from loading or from working (the x-agent vocabulary, profiles,
names, references, input schemas, editor groups, lint). Warnings are the rest: the document
against the OpenAPI specification (its JSON Schema and the rules beyond it: ``structure``), a
missing server URL, an over-long skill description. ``live`` adds what the running API reveals
about each editor group (``live_check``). Every finding has a JSON pointer and, when the
document was read from text, a line and a column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .load import analyse
from .problems import ERROR, WARNING, Problem, Problems
from .request import base_url_for
from .source import Source

if TYPE_CHECKING:
    from .live_check import LiveOptions


@dataclass(frozen=True)
class Finding:
    severity: str
    rule: str
    message: str
    pointer: str
    line: int | None = None
    column: int | None = None
    artifact: str | None = None  # the file, when one report covers several documents

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.artifact is None else {"file": self.artifact}
        out |= {
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "pointer": self.pointer,
        }
        if self.line is not None:
            out["line"] = self.line
            out["column"] = self.column
        return out


def check_source(
    source: Source,
    *,
    profiles: list[str] | tuple[str, ...] | None = None,
    structure: bool = True,
    live: LiveOptions | None = None,
) -> list[Finding]:
    """Every finding for ``source``. ``profiles`` limits the tool checks to one selection (an
    undeclared name raises ``SpecUsageError``); by default every declared profile is checked.
    With ``live``, each editor group's schema is also requested from the API and its form built
    (``live_check``)."""
    problems = Problems()
    analysis = analyse(
        source.data,
        profiles=profiles or None,
        every_profile=not profiles,
        source_url=source.url,
        problems=problems,
    )
    version_ok = not any(p.rule == "openapi-version" for p in problems)
    if version_ok:
        if analysis.plain and base_url_for(source.data, source_url=source.url) is None:
            problems.add(
                "base-url-missing",
                "the document gives no absolute server URL (servers[0].url), so every tool call needs --base-url.",
                "/servers" if "servers" in source.data else "",
                WARNING,
            )
        if structure:
            from .structure import structural_problems

            # An error at the same place (a reference that leads nowhere) already says it.
            errors_at = {p.pointer for p in problems if p.severity == ERROR}
            problems.extend(p for p in structural_problems(source.data) if p.pointer not in errors_at)
        if live is not None:
            from .live_check import live_problems

            live_problems(analysis, live, problems, source.text)
    return locate(source, list(problems))


def locate(source: Source, problems: list[Problem]) -> list[Finding]:
    source.positions.prepare(p.pointer for p in problems)
    findings = []
    for problem in problems:
        position = source.positions.locate(problem.pointer)
        line, column = position if position is not None else (None, None)
        findings.append(Finding(problem.severity, problem.rule, problem.message, problem.pointer, line, column))
    findings.sort(key=lambda f: (f.line or 0, f.column or 0, f.severity != ERROR, f.rule, f.message))
    return findings


def has_errors(findings: list[Finding], *, strict: bool = False) -> bool:
    return any(f.severity == ERROR or (strict and f.severity == WARNING) for f in findings)
