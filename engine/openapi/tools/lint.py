"""Descriptions written in x-agent that contradict the schema they describe.

A model copies what a description shows. When the description of an array parameter shows a
quoted scalar (``"Paris"``) or talks of a comma-separated list, models send a string and the
call fails; a quoted value the enum does not allow is sent and refused. Only descriptions the
annotation wrote are checked (inherited API prose is not ours to fix).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_QUOTED = re.compile(r"\"([^\"\n]{1,60})\"|'([^'\n]{1,60})'")
_ARRAY_LITERAL = re.compile(r"\[\s*[\"']")
_COMMA_SEPARATED = re.compile(r"comma[-\s]separated", re.IGNORECASE)


@dataclass(frozen=True)
class LintFinding:
    property: str
    rule: str
    message: str


def lint_input(schema: dict[str, Any], authored: set[str]) -> list[LintFinding]:
    findings: list[LintFinding] = []
    properties = schema.get("properties") or {}
    for name in authored:
        prop = properties.get(name)
        if not isinstance(prop, dict) or not isinstance(prop.get("description"), str):
            continue
        findings += _lint_property(name, prop)
    return sorted(findings, key=lambda f: (list(properties).index(f.property), f.rule))


def _lint_property(name: str, prop: dict[str, Any]) -> list[LintFinding]:
    text = prop["description"]
    out: list[LintFinding] = []
    is_array = prop.get("type") == "array"
    quoted = [a or b for a, b in _QUOTED.findall(text)]
    if is_array and quoted and not _ARRAY_LITERAL.search(text):
        out.append(
            LintFinding(
                name,
                "scalar-example-for-array",
                "the description shows a quoted single value but the parameter is an array; show an array "
                'instead, e.g. ["value"].',
            )
        )
    if is_array and _COMMA_SEPARATED.search(text):
        out.append(
            LintFinding(
                name,
                "comma-separated-array",
                'the description says "comma-separated" but the parameter is an array: the request joins the '
                "values itself, and the agent never sees the commas.",
            )
        )
    enum = prop.get("enum")
    if enum is None and isinstance(prop.get("items"), dict):
        enum = prop["items"].get("enum")
    if isinstance(enum, list) and quoted:
        allowed = {str(v) for v in enum}
        outside = [q for q in dict.fromkeys(quoted) if q not in allowed]
        if outside:
            out.append(
                LintFinding(
                    name,
                    "quoted-value-not-in-enum",
                    "the description quotes "
                    + ", ".join(f'"{q}"' for q in outside)
                    + f", which the enum does not allow ({', '.join(map(str, enum))}).",
                )
            )
    return out
