"""What is wrong with an option's value, checked the same way wherever the line is read.

A bad option value is bad usage: the usage on stderr, nothing on stdout, exit 2 (the contract of
docs/cli.md). Typer reports it when a callback raises ``typer.BadParameter`` (``checked``); the plain
readers (``cli.plain_line``) leave a line with a bad value to Typer, so that it says the same
thing; ``build_context`` checks again for callers that read no line (the REPL, the MCP server).
Typer-free: plain readers import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MODES = ("tracked-changes", "direct")
TABLE_REVISIONS = ("cells", "rows")
REVIEW_META = ("required", "optional")
# What engine.textdoc reads (kept here so that reading a command line imports no engine module).
DATA_FORMATS = ("json", "yaml", "toml")
YAML_VERSIONS = ("1.1", "1.2")


def choice_problem(value: str, allowed: Sequence[str]) -> str | None:
    """Why ``value`` is not one of ``allowed`` (with the closest ones), or None when it is."""
    if value in allowed:
        return None
    from deskcheck.engine.close_matches import did_you_mean

    return f"{value!r} is not one of {', '.join(allowed)}.{did_you_mean(value, allowed)}"


def _header_problem(line: str) -> str | None:
    name, sep, _ = line.partition(":")
    if not sep or not name.strip() or any(c.isspace() for c in name.strip()):
        return f"{line!r} is not a header; write it as 'Name: value'."
    return None


def _operation_types_problem(value: str) -> str | None:
    from deskcheck.engine.close_matches import did_you_mean
    from deskcheck.engine.docx.edit import registry

    for name in (t.strip() for t in value.split(",") if t.strip()):
        if name not in registry.CONTRACT_TYPES:
            hint = did_you_mean(name, registry.CONTRACT_TYPES)
            choose = ", ".join(registry.available_types())
            return f"{name!r} is not a suggest_changes operation type.{hint} Choose from {choose}."
        if not registry.is_available(name):
            return f"{name} is part of the suggest_changes contract but deskcheck does not implement it yet."
    return None


def _engine_problem(check: Callable[[str], Any]) -> Callable[[str], str | None]:
    """A check of the engine's (raising ``InputError``) as a problem finder."""

    def problem(value: str) -> str | None:
        from deskcheck.engine.errors import InputError

        try:
            check(value)
        except InputError as exc:
            return exc.message
        return None

    return problem


def _author(value: str) -> None:
    from deskcheck.engine.docx.wml.text import check_author

    check_author(value, "the name")


def _base_url(value: str) -> None:
    from deskcheck.engine.urls import check_http_url

    check_http_url(value, "the address")


def _allowed_host(value: str) -> None:
    from deskcheck.engine.forms.sources.remote_items import parse_allowed_host

    parse_allowed_host(value)


def _text_problem(value: str) -> str | None:
    """Bytes that are not UTF-8 arrive as lone surrogates: such a value would be stored, compared
    or printed, and no UTF-8 output can hold it (file paths are not checked: a file name may be
    any bytes)."""
    from deskcheck.engine.json_text import lone_surrogate

    found = lone_surrogate(value)
    return f"it is not UTF-8 text (it holds {found}, a byte that is not UTF-8); give it as text." if found else None


# build_context keyword -> what is wrong with one value (None: nothing).
PROBLEMS: dict[str, Callable[[str], str | None]] = {
    "mode": lambda value: choice_problem(value, MODES),
    "table_revisions": lambda value: choice_problem(value, TABLE_REVISIONS),
    "review_meta": lambda value: choice_problem(value, REVIEW_META),
    "operation_types": _operation_types_problem,
    "header": _header_problem,
    "author": _engine_problem(_author),
    "base_url": _engine_problem(_base_url),
    "allow_host": _engine_problem(_allowed_host),
    "identity": _text_problem,
    "profile": _text_problem,
    "store": _text_problem,
    "data_format": lambda value: choice_problem(value, DATA_FORMATS),
    "yaml_version": lambda value: choice_problem(value, YAML_VERSIONS),
    "document": lambda value: None if int(value) >= 1 else f"{value} is not a document: the first is 1.",
}


def option_problem(keyword: str, value: Any) -> str | None:
    """What is wrong with the value (each item of a repeated option) of the option ``keyword``;
    None when nothing is, or when the option has no check."""
    check = PROBLEMS.get(keyword)
    if check is None or value is None:
        return None
    for item in value if isinstance(value, (list, tuple)) else [value]:
        problem = check(item)
        if problem is not None:
            return problem
    return None


def checked(keyword: str) -> Callable[[Any], Any]:
    """A Typer callback refusing a bad value of the option ``keyword`` as bad usage."""
    return _refusing(lambda value: option_problem(keyword, value))


def one_of(allowed: Sequence[str]) -> Callable[[Any], Any]:
    """A Typer callback refusing a value outside ``allowed`` (a --format) as bad usage."""
    return _refusing(lambda value: None if value is None else choice_problem(value, allowed))


def _refusing(problem_of: Callable[[Any], str | None]) -> Callable[[Any], Any]:
    def callback(value: Any) -> Any:
        problem = problem_of(value)
        if problem is not None:
            import typer

            raise typer.BadParameter(problem)
        return value

    return callback


def metavar(allowed: Sequence[str]) -> str:
    """The placeholder naming the allowed values: ``tracked-changes|direct``."""
    return "|".join(allowed)
