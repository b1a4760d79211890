"""A ``$ref`` where the specification takes no reference: found and worded once for the structure
check (``structure``) and the rules that follow references (``oas_rules``), which both report it."""

from __future__ import annotations

from typing import Any

from ... import jsonpointer


def misplaced_reference(document: Any, pointer: str) -> str | None:
    """The pointer of the ``$ref`` member when ``pointer`` is an object made of a reference (or
    that member itself): the schema refuses it because no Reference Object may stand there."""
    holder = pointer.removesuffix("/$ref")
    try:
        node = jsonpointer.resolve(document, holder)
    except jsonpointer.PointerError:
        return None
    # A reference that is not a string is wrong wherever it stands: the schema says why.
    return holder + "/$ref" if isinstance(node, dict) and isinstance(node.get("$ref"), str) else None


def misplaced_message(ref: Any) -> str:
    return (
        f'$ref "{ref}" stands where the specification takes no reference (only the places it marks as Reference '
        "Object do); tools that bundle multi-file documents follow it, others refuse the document. Bundle the "
        "document, or move the reference to a place that takes one"
    )
