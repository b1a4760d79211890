"""Configuration of ``openapi check``: rule severities (and ``strict``) from a file and the command line.

The file is ``.deskcheck.toml`` (tables at its top level) or ``pyproject.toml`` (the same tables
under ``[tool.deskcheck]``), found in the working directory or the nearest parent that has one
(``.deskcheck.toml`` first in each directory) up to the repository root, or named with
``--config``::

    [openapi.check]
    strict = false
    [openapi.check.severity]
    default-invalid = "off"
    openapi-schema = "warning"

``--severity RULE=LEVEL`` on the command line wins over the file. Unknown rules, levels and keys
are refused, naming the file: a typo must not silently keep a rule as it was.

The search stops at the repository root, the nearest directory holding ``.git`` (a directory,
or a file in a worktree or submodule); outside a repository only the working directory is
searched. A file above the repository is not the project's: on a shared machine or a CI runner
anyone who can write to ``/tmp`` or the workspace's parent could otherwise turn the gate's
errors off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...config_file import deskcheck_tables, find_config, search_path
from ...errors import InputError
from ..rules.rules import RULES, SEVERITIES

__all__ = ["CheckConfig", "check_severities", "find_config", "load_config", "parse_severity_options", "search_path"]

_KEYS = {"severity", "strict"}


@dataclass(frozen=True)
class CheckConfig:
    severity: dict[str, str] = field(default_factory=dict)
    strict: bool = False
    path: Path | None = None  # the file it came from


def load_config(path: Path) -> CheckConfig:
    """The ``openapi.check`` settings of ``path``; an ``InputError`` names what is wrong."""
    data, prefix = deskcheck_tables(path)
    section = data.get("openapi", {}).get("check", {}) if isinstance(data.get("openapi", {}), dict) else None
    where = f"[{prefix}openapi.check] in {path}"
    if not isinstance(section, dict):
        raise InputError(f"{where} must be a table.")
    unknown = sorted(set(section) - _KEYS)
    if unknown:
        raise InputError(f"{where} has unknown key(s) {', '.join(unknown)}; it takes {', '.join(sorted(_KEYS))}.")
    strict = section.get("strict", False)
    if not isinstance(strict, bool):
        raise InputError(f"{where}: strict must be true or false, not {strict!r}.")
    severity = section.get("severity", {})
    if not isinstance(severity, dict):
        raise InputError(f"{where}: severity must be a table of rule = level.")
    return CheckConfig(check_severities(severity.items(), f"{where}, severity"), strict, path)


def parse_severity_options(options: Iterable[str]) -> dict[str, str]:
    """``--severity RULE=LEVEL`` values as a mapping; an ``InputError`` for a malformed one."""
    pairs = []
    for option in options:
        rule, sep, level = option.partition("=")
        if not sep:
            raise InputError(f"--severity takes RULE=LEVEL (e.g. default-invalid=off), not {option!r}.")
        pairs.append((rule.strip(), level.strip()))
    return check_severities(pairs, "--severity")


def check_severities(pairs: Iterable[tuple[Any, Any]], where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for rule, level in pairs:
        if rule not in RULES:
            import difflib

            close = difflib.get_close_matches(str(rule), RULES, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise InputError(
                f"{where}: unknown rule {rule!r}{hint}; `deskcheck openapi rule` lists them "
                "(and docs/openapi-check.md)."
            )
        if level not in SEVERITIES:
            raise InputError(f"{where}: {rule} must be one of {', '.join(SEVERITIES)}, not {level!r}.")
        out[rule] = level
    return out
