"""replaceInBlock and replaceRange: rewrite a stretch of one block's text.

Both write the smallest redline a reviewer can read: the old and new text are compared word by
word (whitespace, words and punctuation marks are the tokens) and only the tokens that differ
are deleted and inserted; unchanged words keep their own formatting. Inserted text takes
the formatting of the first character it replaces. Direct mode makes the same edits without
revision marks. ``rewrite_text`` is shared with replaceBlock.
"""

from __future__ import annotations

import re
from typing import Any

from .context import ApplyContext, ResolveContext, block_json_target, check_editable
from .fields import RANGE_FIELD, block_id_field, string_field
from .spec import TEXT, Applied, Claim, Operation, OperationSpec, Plan, Skip

# Tokens: runs of whitespace, words (letters and digits with their combining marks, so a change
# never separates a letter from its accent), and single other characters (punctuation), so that
# "paragraph." -> "paragraph here." inserts " here" instead of replacing the whole word.
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_TOKENS = re.compile(rf"\s+|[\w{_MARKS}]+|[^\w\s][{_MARKS}]*")
MAX_DIFF_PAIRS = 4_000_000  # token pairs; beyond this the whole stretch is replaced at once


def _utf16(text: str) -> int:
    return len(text) if text.isascii() else len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def word_edits(old: str, new: str) -> list[tuple[int, int, str]]:
    """Edits turning ``old`` into ``new``: (start, end, replacement) with UTF-16 offsets into
    ``old``, in ascending order."""
    from difflib import SequenceMatcher

    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    if len(a) * len(b) > MAX_DIFF_PAIRS:
        return [(0, _utf16(old), new)]
    starts = [0]
    for token in a:
        starts.append(starts[-1] + _utf16(token))
    edits = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append((starts[i1], starts[i2], "".join(b[j1:j2])))
    return edits


def rewrite_text(ctx: ApplyContext, p: Any, start: int, end: int, old: str, new: str) -> tuple[Any, Any] | None:
    """Replace ``old`` (the paragraph's visible text at UTF-16 ``[start, end)``) by ``new``,
    checking the result. Returns the span a comment should cover: the whole of ``new`` (and what
    was deleted of ``old``), not only the words that changed, as the comment is about the text
    the edit names ("forty-five (45) days", not "forty-five (45")."""
    from ..model.scan import ScanContext, original_text, scan_paragraph

    text = ctx.paragraph_text(p)
    current = text.text
    from ..model.offsets import from_utf16

    first_cp, last_cp = from_utf16(current, start), from_utf16(current, end)
    if first_cp is None or last_cp is None or current[first_cp:last_cp] != old:
        raise Skip("invalidResult", what="the block's text did not read as expected when the edit was applied")
    scan_ctx = ScanContext(ctx.styles)
    original_before = original_text(scan_paragraph(p, scan_ctx)[0]) if ctx.tracked else None
    first = last = None
    try:
        for edit_start, edit_end, replacement in reversed(word_edits(old, new)):
            span = text.replace(start + edit_start, start + edit_end, replacement, ctx.edit)
            if span is not None:
                first = span[0]
                last = last if last is not None else span[1]
    except ValueError as exc:
        raise Skip("unsupportedBlock", what=f"this block's text cannot be edited there ({exc})") from None
    expected = current[:first_cp] + new + current[last_cp:]
    if text.text != expected or (
        original_before is not None and original_text(scan_paragraph(p, scan_ctx)[0]) != original_before
    ):
        raise Skip("invalidResult", what="the edit did not produce the expected text in this block")
    if first is None:
        return None
    covering = text.runs_in(start, start + _utf16(new), ctx.edit.ids) if new else []
    return _outermost(p, [first, last, *covering[:1], *covering[-1:]])


def _outermost(p: Any, elements: list[Any]) -> tuple[Any, Any]:
    """The first and the last of ``elements`` (inside paragraph ``p``) in document order."""
    ordered = [element for element in p.iter() if any(element is wanted for wanted in elements)]
    return ordered[0], ordered[-1]


# -- replaceInBlock ----------------------------------------------------------------------------


def _resolve_in_block(ctx: ResolveContext, op: Operation, block) -> Plan:
    find, replace = op.get("find"), op.get("replace")
    if find == replace:
        raise Skip("noopOperation", why="`find` and `replace` are the same text")
    start, end = ctx.find_once(block, find)
    ctx.check_offset(block, start, text_change=True)
    ctx.check_offset(block, end, text_change=True)
    return _plan(op, block, start, end, find, replace)


def _plan(op: Operation, block, start: int, end: int, old: str, new: str) -> Plan:
    check_editable(block, start, end)
    p = block.element
    return Plan(
        op,
        (block.index, TEXT, start),
        [Claim(("text", p), start, end, True), Claim(("para", p), exclusive=False)],
        block=block,
        start=start,
        end=end,
        old=old,
        new=new,
        touches=[p],
        keeps_siblings=True,
    )


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    data = plan.data
    span = rewrite_text(ctx, data["block"].element, data["start"], data["end"], data["old"], data["new"])
    return Applied([block_json_target(data["block"], "updated")], span)


# -- replaceRange ------------------------------------------------------------------------------


def _resolve_range(ctx: ResolveContext, op: Operation, block) -> Plan:
    start, end = ctx.range_offsets(block, op.get("range"), text_change=True)
    from ..model.offsets import from_utf16

    old = block.text[from_utf16(block.text, start) : from_utf16(block.text, end)]
    if old == op.get("replace"):
        raise Skip("noopOperation", why="the range already reads as `replace`")
    return _plan(op, block, start, end, old, op.get("replace"))


SPECS = (
    OperationSpec(
        name="replaceInBlock",
        summary=(
            "Replace the one occurrence of `find` in a block's text with `replace` (an empty `replace` deletes "
            "it). The match is exact and case-sensitive; `find` must occur exactly once in the block."
        ),
        fields=(
            block_id_field(),
            string_field(
                "find",
                "The exact text to replace; it must occur exactly once in the block.",
                required=True,
                non_empty=True,
            ),
            string_field("replace", "The new text (empty to delete).", required=True),
        ),
        resolve=_resolve_in_block,
        apply=_apply,
    ),
    OperationSpec(
        name="replaceRange",
        summary="Replace the text a find_text range selects with `replace` (an empty `replace` deletes it).",
        fields=(RANGE_FIELD, string_field("replace", "The new text (empty to delete).", required=True)),
        resolve=_resolve_range,
        apply=_apply,
    ),
)
