"""commentOnRange and commentOnBlock: anchor a comment on text without changing it (the same in
tracked and direct mode). The comment itself is written by the framework around the span these
handlers return (see ``comment_edits``)."""

from __future__ import annotations

from .context import ApplyContext, ResolveContext, block_json_target, check_bound
from .fields import RANGE_FIELD, REQUIRED_COMMENT_FIELD, block_id_field, string_field
from .spec import TEXT, Applied, Claim, Operation, OperationSpec, Plan


def _plan(op: Operation, block, start: int, end: int, **data) -> Plan:
    p = block.element
    return Plan(
        op,
        (block.index, TEXT, start),
        [Claim(("text", p), start, end, False), Claim(("para", p), exclusive=False)],
        block=block,
        start=start,
        end=end,
        touches=[p],
        keeps_siblings=True,
        **data,
    )


def _resolve_range(ctx: ResolveContext, op: Operation, block) -> Plan:
    start, end = ctx.range_offsets(block, op.get("range"), text_change=False)
    _check_anchor(block, start, end)
    return _plan(op, block, start, end)


def _check_anchor(block, start: int, end: int) -> None:
    """A comment on part of a block may not start or end inside data-bound text: its stored
    runs are not the text the range counts (a comment on the whole block is fine)."""
    from ..model.offsets import utf16_length

    if (start, end) != (0, utf16_length(block.text)):
        check_bound(block, start, end)


def _resolve_block(ctx: ResolveContext, op: Operation, block) -> Plan:
    quote = op.get("quote")
    if quote:
        start, end = ctx.find_once(block, quote)
        ctx.check_offset(block, start, text_change=False)
        ctx.check_offset(block, end, text_change=False)
        _check_anchor(block, start, end)
    else:
        from ..model.offsets import utf16_length

        start, end = 0, utf16_length(block.text)
    return _plan(op, block, start, end)


def _span(ctx: ApplyContext, plan: Plan):
    data = plan.data
    text = ctx.paragraph_text(data["block"].element)
    runs = text.runs_in(data["start"], data["end"], ctx.ids) if data["end"] > data["start"] else []
    return (runs[0], runs[-1]) if runs else None


def _apply_range(ctx: ApplyContext, plan: Plan) -> Applied:
    return Applied([{"type": "textRange", "range": plan.op.get("range"), "effect": "commented"}], _span(ctx, plan))


def _apply_block(ctx: ApplyContext, plan: Plan) -> Applied:
    return Applied([block_json_target(plan.data["block"], "commented")], _span(ctx, plan))


SPECS = (
    OperationSpec(
        name="commentOnRange",
        summary="Attach a comment to the text a find_text range selects; the text does not change.",
        fields=(RANGE_FIELD, REQUIRED_COMMENT_FIELD._replace(help="The comment text.")),
        resolve=_resolve_range,
        apply=_apply_range,
    ),
    OperationSpec(
        name="commentOnBlock",
        summary=(
            "Attach a comment to a whole block, or to `quote` (text that occurs exactly once in it); the text "
            "does not change. add_comment does the same."
        ),
        fields=(
            block_id_field(),
            REQUIRED_COMMENT_FIELD._replace(help="The comment text."),
            string_field("quote", "Text of the block to anchor the comment on; it must occur exactly once."),
        ),
        resolve=_resolve_block,
        apply=_apply_block,
        default=False,
    ),
)
