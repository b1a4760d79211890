"""replaceBlock: give a block new text (its paragraph properties stay).

The old and new text are compared word by word, so only what differs is redlined (see
``text_replace``). A blank block can be filled; an empty ``text`` empties the block (the
paragraph stays; use deleteBlock to remove it). A block pending deletion is refused
(``pendingDeletion``): accepting would join the new text to the next paragraph.
"""

from __future__ import annotations

from ..model.offsets import utf16_length
from .context import ApplyContext, ResolveContext, block_json_target, check_editable
from .fields import block_id_field, string_field
from .spec import STRUCTURE, Applied, Claim, Operation, OperationSpec, Plan, Skip
from .text_replace import rewrite_text


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    if block.pending_deletion:
        raise Skip("pendingDeletion", blockId=block.id)
    if op.get("text") == block.text:
        raise Skip("noopOperation", why="the block already reads as `text`")
    check_editable(block)
    p = block.element
    return Plan(
        op,
        (block.index, STRUCTURE, 0),
        [Claim(("text", p)), Claim(("para", p))],
        block=block,
        touches=[p],
        keeps_siblings=True,
    )


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    p = block.element
    span = rewrite_text(ctx, p, 0, utf16_length(block.text), block.text, plan.op.get("text"))
    return Applied([block_json_target(block, "updated")], span if span is not None else p)


SPECS = (
    OperationSpec(
        name="replaceBlock",
        summary=(
            "Replace a block's whole text with `text`, keeping its paragraph formatting; only the words that "
            "differ are marked. An empty `text` empties the block (deleteBlock removes it)."
        ),
        fields=(block_id_field(), string_field("text", "The block's new text.", required=True)),
        resolve=_resolve,
        apply=_apply,
    ),
)
