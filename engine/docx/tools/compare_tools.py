"""Handler of compare_versions: two saved versions of a .docx compared (``compare``), answered
as text for a model (``diff_report``) or, with ``format: json``, as the structured comparison."""

from __future__ import annotations

from typing import Any

from ...tools import fail
from ..versions.compare import compare_versions
from ..versions.diff_report import format_diff_for_llm


def compare_versions_tool(session: Any, args: dict[str, Any]) -> Any:
    """Handler of ``compare_versions`` (see ``tooldefs``)."""
    for name in ("previous", "current"):
        value = args.get(name)
        if value is not None and (not isinstance(value, str) or not value):
            return fail(
                f"compare_versions' `{name}` must be a file path (a non-empty string).", code="invalidArguments"
            )
    output = args.get("format", "text")
    if output not in ("text", "json"):
        return fail(f"compare_versions' `format` must be text or json, not {output!r}.", code="invalidArguments")
    previous = args.get("previous")
    if previous is None:
        return fail("compare_versions needs `previous`, the path of the earlier .docx.", code="invalidArguments")
    current = args.get("current")
    if current is None:
        if session.path is None:
            return fail(
                "compare_versions needs `current` (the path of the later .docx) when no document is open.",
                code="invalidArguments",
            )
        current = session.path
    diff = compare_versions(previous, current, args.get("include"))
    if output == "json":
        return diff
    answer = {
        "previous": diff["previous"],
        "current": diff["current"],
        "summaryCounts": diff["summaryCounts"],
        "diff": format_diff_for_llm(diff),
    }
    for key in ("approximate", "unreadChanges"):
        if key in diff:
            answer[key] = diff[key]
    return answer
