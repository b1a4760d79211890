"""What a block will read once the replacements queued on it apply, for checking `replace` and
`comment` when they are queued rather than when the batch is sent.

suggest_changes resolves every operation of a batch against the document as it was read, and
refuses two operations on the same text. So a `replace` must name text the block has now, once,
away from the text another queued replacement changes; a `comment` on text that only a queued
replacement writes cannot be a separate operation, but can ride with that replacement (a comment
given with an edit covers its whole new text).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Rewrite(NamedTuple):
    """A queued replacement of one block: where its text is now, where its new text will be."""

    number: int  # as `ops` numbers it
    start: int
    end: int
    new_start: int
    new_end: int


def occurrences(text: str, part: str) -> list[int]:
    """Where ``part`` starts in ``text``, overlapping matches included."""
    found, start = [], text.find(part)
    while start != -1 and part:
        found.append(start)
        start = text.find(part, start + 1)
    return found


def rewrites(text: str, ops: list[dict[str, Any]], block_id: str) -> tuple[str, list[Rewrite]]:
    """The block's text as its queued replacements leave it, and where each one writes."""
    spans = []
    for number, op in enumerate(ops, start=1):
        if op.get("type") == "replaceInBlock" and op.get("blockId") == block_id:
            start = text.find(op["find"])
            if start != -1:
                spans.append((start, start + len(op["find"]), op["replace"], number))
    spans.sort()
    out, done, shift, found = [], 0, 0, []
    for start, end, replace, number in spans:
        out.append(text[done:start] + replace)
        found.append(Rewrite(number, start, end, start + shift, start + shift + len(replace)))
        shift += len(replace) - (end - start)
        done = end
    out.append(text[done:])
    return "".join(out), found


class Placement(NamedTuple):
    """Where a queued comment's quote goes: ``rides_with`` the number of the replacement whose new
    text holds it (None: a comment of its own), or ``problem``, why it cannot be queued."""

    rides_with: int | None = None
    problem: str | None = None


def replace_problem(text: str, find: str, ops: list[dict[str, Any]], block_id: str) -> str | None:
    """Why ``replace BLOCK FIND => ...`` cannot be queued, or None."""
    from ..render.values import fold

    where = occurrences(text, find)
    if len(where) > 1:
        return f"{fold(find, 40)!r} occurs {len(where)} times in block {block_id}; give more of the text around it."
    if not where:
        queued, _ = rewrites(text, ops, block_id)
        if find in queued:
            return f"{fold(find, 40)!r} is only in the text a queued replace writes: `apply` first, then replace it."
        return f"{fold(find, 40)!r} is not in block {block_id}, which reads: {fold(text, 80)!r}."
    start, end = where[0], where[0] + len(find)
    for rewrite in rewrites(text, ops, block_id)[1]:
        if start < rewrite.end and rewrite.start < end:
            return (
                f"{fold(find, 40)!r} overlaps the text queued replace {rewrite.number} changes: `drop "
                f"{rewrite.number}` and queue one replace for both."
            )
    return None


def place_comment(text: str, quote: str, ops: list[dict[str, Any]], block_id: str) -> Placement:
    """Where a comment on ``quote`` in block ``block_id`` goes, given the queued ``ops``."""
    from ..render.values import fold

    shown = fold(quote, 40)
    queued, found = rewrites(text, ops, block_id)
    where = occurrences(queued, quote)
    if len(where) > 1:
        return Placement(problem=f"{shown!r} occurs {len(where)} times in block {block_id}; quote more of it.")
    if not where:
        now = text.find(quote)
        gone = next((r for r in found if now != -1 and now < r.end and r.start < now + len(quote)), None)
        if gone is not None:
            return Placement(
                problem=f"{shown!r} will no longer be in block {block_id} once queued replace {gone.number} "
                f"applies; comment on its new text, or `apply` first."
            )
        return Placement(problem=f"{shown!r} is not in block {block_id}, which reads: {fold(queued, 80)!r}.")
    start, end = where[0], where[0] + len(quote)
    for rewrite in found:
        if rewrite.new_start <= start and end <= rewrite.new_end:
            return Placement(rides_with=rewrite.number)
        if start < rewrite.new_end and rewrite.new_start < end:
            return Placement(
                problem=f"{shown!r} runs across the text queued replace {rewrite.number} changes: quote only its "
                "new text or only text it leaves, or `apply` first."
            )
    if len(occurrences(text, quote)) != 1:  # the comment is resolved against the text as it is now
        return Placement(problem=f"{shown!r} occurs more than once in block {block_id}; quote more of it.")
    return Placement()
