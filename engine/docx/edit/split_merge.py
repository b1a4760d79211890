"""splitBlock and mergeBlockWithNext: change where one paragraph ends and the next begins.

**splitBlock** ``{blockId, offset}`` cuts a block in two at a UTF-16 offset of its text. The
first part becomes a new paragraph (fresh id, the same paragraph properties, with someone's
pending change of them under a fresh revision id, so rejecting it restores both parts) placed
before the block; the block keeps its id, its paragraph mark and the rest of the text. Tracked
mode marks the new paragraph's mark inserted, which is how Word records pressing Enter:
rejecting joins the parts again.
Offset 0 or the text's length gives a blank paragraph before or after the text.

**mergeBlockWithNext** ``{blockId}`` joins a block with the paragraph right after it in the same
container. Tracked mode marks the block's paragraph mark deleted; accepting joins the two, and
the joined paragraph keeps the second one's properties and id, as Word's paragraph marks work.
Direct mode does the same at once.
"""

from __future__ import annotations

from typing import Any

from ..model.walk import next_block_sibling
from ..wml.ns import (
    W14_PARAID,
    W_BDO,
    W_CUSTOMXML,
    W_DEL,
    W_DIR,
    W_HYPERLINK,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PPR,
    W_SMARTTAG,
)
from ..wml.revisions import mark_paragraph, paragraph_mark_state, split_wrapper
from .context import (
    ApplyContext,
    ResolveContext,
    block_json_target,
    check_bound,
    check_editable,
    check_placeholder,
    in_placeholder_control,
)
from .delete_block import carries_section_break
from .fields import block_id_field, integer_field
from .spec import STRUCTURE, Applied, Claim, Operation, OperationSpec, Plan, Skip

# Inline wrappers a split may cut in two (each half keeps the attributes; a revision half gets a
# fresh id). Fields and content controls cannot be cut.
_SPLITTABLE = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_DIR, W_BDO, W_INS, W_DEL, W_MOVEFROM, W_MOVETO})


# -- splitBlock --------------------------------------------------------------------------------


def _resolve_split(ctx: ResolveContext, op: Operation, block) -> Plan:
    if block.pending_deletion:
        raise Skip("pendingDeletion", blockId=block.id)
    offset = op.get("offset")
    ctx.check_offset(block, offset, text_change=True)
    p = block.element
    if in_placeholder_control(p):
        check_placeholder(block)
    check_editable(block, offset, offset)
    return Plan(
        op, (block.index, STRUCTURE, offset), [Claim(("text", p)), Claim(("para", p))], block=block, touches=[p]
    )


def _boundary(text, offset: int, ids) -> Any | None:
    """Split runs at ``offset`` and return the first visible run at or after it (None: the
    offset is at the end)."""
    text._split_at(offset, "left", ids)
    for span in text.spans:
        if span.visible and span.start >= offset and (span.end > span.start or span.start > offset):
            return span.run
    for span in text.spans:
        if span.visible and span.start >= offset and span.end > span.start:
            return span.run
    return None


def _cut_before(element: Any, p: Any, ids) -> Any:
    """Split the wrappers between ``element`` and ``p`` so that ``element`` starts a direct child
    of ``p``; returns that child."""
    node = element
    parent = node.getparent()
    while parent is not p:
        if parent.tag not in _SPLITTABLE:
            raise Skip(
                "unsupportedBlock",
                what="the offset falls inside a field or content control, which cannot be split in two",
            )
        # Only the revision wrappers among them carry a w:id, which the twin gets afresh.
        node = split_wrapper(parent, node, ids) if node.getprevious() is not None else parent
        parent = node.getparent()
    return node


def _apply_split(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    p = block.element
    offset = plan.op.get("offset")
    text = ctx.paragraph_text(p)
    if text.text != block.text:
        raise Skip("invalidResult", what="the block's text did not read as expected when the split was applied")
    boundary = _boundary(text, offset, ctx.ids)
    head = ctx.new_paragraph(p, f"split:{plan.op.id}", history=True)
    children = [child for child in p if child.tag != W_PPR]
    if boundary is None:
        moving = children
    else:
        first_kept = _cut_before(boundary, p, ctx.ids)
        moving = []
        for child in p:
            if child is first_kept:
                break
            if child.tag != W_PPR:
                moving.append(child)
    for child in moving:
        head.append(child)
    p.addprevious(head)
    if ctx.tracked:
        mark_paragraph(head, "ins", ctx.revisions)
    first_text = ctx.paragraph_text(head).text
    second_text = ctx.paragraph_text(p).text
    if first_text + second_text != block.text:
        raise Skip("invalidResult", what="the split did not divide the text as expected")
    affected = [
        {"type": "block", "story": "main", "blockId": head.get(W14_PARAID), "effect": "inserted", "part": "first"},
        {**block_json_target(block, "split"), "part": "second"},
    ]
    content = [child for child in head if child.tag != W_PPR]
    return Applied(affected, (content[0], content[-1]) if content else head)


# -- mergeBlockWithNext ----------------------------------------------------------------------


def _next_paragraph(p: Any) -> Any | None:
    following = next_block_sibling(p)
    return following if following is not None and following.tag == W_P else None


def _resolve_merge(ctx: ResolveContext, op: Operation, block) -> Plan:
    p = block.element
    if "del" in paragraph_mark_state(p):
        raise Skip("noopOperation", why=f"block {block.id} is already joined with the next one (pending)")
    if block.pending_deletion:
        raise Skip("pendingDeletion", blockId=block.id)
    following = _next_paragraph(p)
    if following is None:
        raise Skip(
            "unsupportedBlock",
            what=f"no paragraph follows block {block.id} in the same place (it ends the document, a cell or a "
            "text box, or a table comes next), so there is nothing to join it with.",
        )
    if carries_section_break(p):
        raise Skip(
            "unsupportedBlock",
            what=f"block {block.id} ends a section, so joining it with the next paragraph would merge two sections.",
        )
    next_block = ctx.next_block(block)
    if next_block is None or next_block.element is not following:
        raise Skip("unsupportedBlock", what=f"the paragraph after block {block.id} is not a block of this document.")
    if next_block.pending_deletion:
        raise Skip("pendingDeletion", blockId=next_block.id)
    for joined in (block, next_block):
        # Joining paragraphs of a control that shows its placeholder changes that placeholder.
        if in_placeholder_control(joined.element):
            check_placeholder(joined)
        if joined.bound_block:  # a paragraph a bound control holds whole: Word rewrites it
            check_bound(joined)
    claims = [
        Claim(("text", p)), Claim(("para", p)), Claim(("text", following)), Claim(("para", following)),
        Claim(("gap", p, "after")), Claim(("gap", following, "before")),
    ]  # fmt: skip
    return Plan(op, (block.index, STRUCTURE, 0), claims, block=block, next=next_block, touches=[p, following])


def _apply_merge(ctx: ApplyContext, plan: Plan) -> Applied:
    block, next_block = plan.data["block"], plan.data["next"]
    p, following = block.element, next_block.element
    before = ctx.paragraph_text(p).text + ctx.paragraph_text(following).text
    content = [child for child in p if child.tag != W_PPR]
    if ctx.tracked:
        mark_paragraph(p, "del", ctx.revisions)
    else:
        position = 1 if len(following) and following[0].tag == W_PPR else 0
        for child in content:
            following.insert(position, child)
            position += 1
        p.getparent().remove(p)
        if ctx.paragraph_text(following).text != before:
            raise Skip("invalidResult", what="the joined paragraph did not read as the two parts together")
    affected = [
        {**block_json_target(block, "merged"), "mergedInto": next_block.id},
        block_json_target(next_block, "updated"),
    ]
    span = (content[0], content[-1]) if content else following
    return Applied(affected, span)


SPECS = (
    OperationSpec(
        name="splitBlock",
        summary=(
            "Split a block in two at `offset` (UTF-16 units into its text): the text before it becomes a new "
            "paragraph with the same formatting, placed before the block, which keeps its id and the rest."
        ),
        fields=(
            block_id_field(),
            integer_field(
                "offset",
                "Where to split: UTF-16 units into the block's text.",
                minimum=0,
                maximum=10_000_000,
                required=True,
            ),
        ),
        resolve=_resolve_split,
        apply=_apply_split,
    ),
    OperationSpec(
        name="mergeBlockWithNext",
        summary=(
            "Join a block with the paragraph right after it (in the same body, cell or text box) into one "
            "paragraph, which keeps the second paragraph's formatting and id."
        ),
        fields=(block_id_field(),),
        resolve=_resolve_merge,
        apply=_apply_merge,
    ),
)
