"""``openapi check``: everything a load would refuse, and what the specification forbids, at once.

Every finding has a rule (``rules.RULES``), and its rule a severity: what stops a tool from
loading or working (the x-agent vocabulary, profiles, names, references, input schemas, editor
groups, lint) and what the OpenAPI specification forbids (``structure``: its JSON Schema and the
rules beyond it, in the document and in the files its ``$ref``s name) are errors; what is only
questionable (a default its schema refuses, a missing server URL, an over-long skill
description) is a warning. ``severities`` changes a rule's severity, or turns it off. ``live``
adds what the running API reveals about each editor group (``live_check``). Every finding has a
JSON pointer and, when its document was read from text, a line and a column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ..document.documents import DocumentSet
from ..document.problems import ERROR, WARNING, Problem, Problems
from ..document.source import Source
from ..document.text import printable
from ..rules.rules import OFF, default_severity
from ..tools.load import analyse
from ..tools.request import base_url_for

if TYPE_CHECKING:
    from .live_check import LiveOptions

# Findings a report lists: a real description has hundreds; each costs about 50 us and 2 KB to
# place and print, so a crafted document of a million failing examples is cut here.
MAX_FINDINGS = 50_000


@dataclass(frozen=True)
class Finding:
    severity: str
    rule: str
    message: str
    pointer: str
    line: int | None = None
    column: int | None = None
    artifact: str | None = None  # the file it is in; None for the checked document itself
    # Where the token at line:column (a member's key, a value) ends: its last character.
    end_line: int | None = None
    end_column: int | None = None

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
            if self.end_line is not None:
                out["endLine"] = self.end_line
                out["endColumn"] = self.end_column
        return out


def check_source(
    source: Source,
    *,
    profiles: list[str] | tuple[str, ...] | None = None,
    structure: bool = True,
    live: LiveOptions | None = None,
    allow_hosts: Sequence[str] = (),
    severities: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Every finding for ``source``. ``profiles`` limits the tool checks to one selection (an
    undeclared name raises ``SpecUsageError``); by default every declared profile is checked.
    ``$ref``s to other files are read and checked; a URL only on the document's own host or
    one of ``allow_hosts``. ``severities`` maps rule ids to ``error``, ``warning`` or ``off``.
    With ``live``, each editor group's schema is also requested from the API and its form
    built (``live_check``)."""
    problems = Problems()
    analysis = analyse(
        source.data,
        profiles=profiles or None,
        every_profile=not profiles,
        source_url=source.url,
        problems=problems,
    )
    documents = DocumentSet(source, allow_hosts=tuple(allow_hosts))
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
            from ..rules.structure import structural_problems

            # A tool check that found the same thing at the same place (a reference that leads
            # nowhere, a path parameter missing) already says it, with what it means for the tool.
            said = {(p.rule, p.pointer) for p in problems}
            found = structural_problems(documents, limit=MAX_FINDINGS)
            problems.extend(p for p in found if (p.rule, p.pointer) not in said)
        if live is not None:
            from .live_check import live_problems

            live_problems(analysis, live, problems, source.text)
    return locate(documents, list(problems), severities or {})


def locate(documents: DocumentSet, problems: list[Problem], severities: Mapping[str, str]) -> list[Finding]:
    """The problems as findings, each with its file, line and column, at its configured
    severity (``off`` drops it), sorted by file and position; at most ``MAX_FINDINGS`` of them
    (what was left unchecked first, then errors), and then one ``findings-limit`` finding counting
    the rest."""
    rated = []
    for problem in problems:
        severity = severities.get(problem.rule) or default_severity(problem.rule, problem.severity)
        if severity != OFF:
            rated.append((problem, severity))
    findings = []
    if len(rated) > MAX_FINDINGS:
        # Stable: what was not checked, then errors, each in its order.
        rated.sort(key=lambda entry: (entry[0].rule != "structure-not-checked", entry[1] != ERROR))
        rest = rated[MAX_FINDINGS:]
        del rated[MAX_FINDINGS:]
        errors = sum(1 for _, severity in rest if severity == ERROR)
        findings.append(
            Finding(
                ERROR if errors else WARNING,
                "findings-limit",
                f"{len(rest):,} more findings ({errors:,} errors) are not listed: a report lists at most "
                f"{MAX_FINDINGS:,}, errors first. Fix those listed, or turn off the rules that report the most, "
                "and check again.",
                "",
            )
        )
    kept: dict[str, list[tuple[str, Problem, str]]] = {}
    for problem, severity in rated:
        uri, pointer = documents.split(problem.pointer)
        kept.setdefault(uri, []).append((pointer, problem, severity))
    for uri, entries in kept.items():
        source = documents.documents[uri]
        artifact = None if uri == documents.root_uri else documents.display(uri)
        source.positions.prepare(pointer for pointer, _, _ in entries)
        for pointer, problem, severity in entries:
            span = source.positions.span(pointer)
            line, column, end_line, end_column = span if span is not None else (None, None, None, None)
            findings.append(
                Finding(severity, problem.rule, problem.message, pointer, line, column, artifact, end_line, end_column)
            )
    findings.sort(key=sort_key)
    return findings


def sort_key(finding: Finding) -> tuple[Any, ...]:
    return (
        finding.artifact or "",
        finding.line or 0,
        finding.column or 0,
        finding.severity != ERROR,
        finding.rule,
        finding.message,
    )


def unreadable_finding(error: InputError) -> Finding:
    """A document that cannot be read, as a finding (at the line and column of a syntax error)."""
    line, column = getattr(error, "line", None), getattr(error, "column", None)
    return Finding(ERROR, "document-unreadable", printable(error.message), "", line, column, None, line, column)


def has_errors(findings: list[Finding], *, strict: bool = False) -> bool:
    return any(f.severity == ERROR or (strict and f.severity == WARNING) for f in findings)
