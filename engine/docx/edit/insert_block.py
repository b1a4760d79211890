"""insertAfterBlock and insertBeforeBlock: a new paragraph next to a block.

The new paragraph sits in the same container as the anchor (the body, a table cell, a text box;
outside a content control that shows its placeholder, which the paragraph would otherwise join),
copies the anchor's paragraph properties (style, list membership, alignment, ...; not its
section break) unless ``styleId`` is given, and gets a fresh paragraph id, reported in the
receipt. Text may be empty: a blank paragraph is a real edit. Tabs and line feeds in the text
become tab characters and line breaks inside the one paragraph.

Tracked mode marks the text inserted and records the new paragraph mark the way Word does (see
``mark_new_paragraph``), so rejecting removes the paragraph completely (the reference system
left an empty paragraph behind) and accepting keeps it with the properties asked for.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from ..model.scan import DEL
from ..model.walk import BLOCK_LEVEL
from ..wml.ns import W14_PARAID, W_P, W_PPR
from ..wml.properties import (
    PPR_BASE,
    PPR_ORDER,
    get_or_add,
    insert_ordered,
    paragraph_properties,
    remove_child,
    same_paragraph_properties,
)
from ..wml.revisions import (
    has_annotations,
    insert_runs,
    make_run,
    mark_paragraph,
    record_paragraph_properties,
)
from .context import ApplyContext, ResolveContext, outside_placeholder_controls
from .delete_block import carries_section_break
from .fields import DecodeError, Decoding, Field, block_id_field, kind_of, string_field
from .spec import AFTER_BLOCK, BEFORE_BLOCK, Applied, Claim, Operation, OperationSpec, Plan, Skip


def _decode_style(value, path: str, state: Decoding) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 253:
        raise DecodeError(f"{path} must be a paragraph style id (a short string) or null, not {kind_of(value)}.")
    return value


STYLE_FIELD = Field(
    "styleId",
    # Untyped: the tool schemas stay in the subset every model API takes, which has no type
    # union, and a client validating its call against a plain string type would refuse the null.
    {"description": "A paragraph style id of this document, a string (null or empty: no style)."},
    _decode_style,
    False,
    "A paragraph style id this document defines for the new paragraph (default: the anchor's formatting).",
)


def check_style(ctx: ResolveContext, style_id: str | None) -> None:
    """Skip with missingStyle unless ``style_id`` is a paragraph style of the document."""
    if style_id is None or style_id == "":
        return
    styles = ctx.paragraph_styles()
    if style_id not in {sid for sid, _ in styles}:
        listed = ", ".join(f"{sid} ({name})" if name != sid else sid for sid, name in styles[:60])
        raise Skip("missingStyle", styleId=repr(style_id), styles=listed or "the document defines none")


def set_style(ppr, style_id: str | None) -> None:
    from ..wml.ns import W_VAL

    if style_id:
        get_or_add(ppr, "w:pStyle", PPR_ORDER).set(W_VAL, style_id)
    else:
        remove_child(ppr, "w:pStyle")


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    if block.row_flags & DEL:
        # The new paragraph would sit in the same row or cell, and go with it when accepted.
        raise Skip(
            "pendingDeletion", blockId=block.id, what="its table row or cell is deleted",
            instead="anchor the new paragraph on a block outside it",
        )  # fmt: skip
    if "styleId" in op.fields:
        check_style(ctx, op.get("styleId"))
    after = op.type == "insertAfterBlock"
    p = block.element
    return Plan(
        op,
        (block.index, AFTER_BLOCK if after else BEFORE_BLOCK, 0),
        [Claim(("gap", p, "after" if after else "before"), exclusive=False)],
        reverse_ties=after,
        block=block,
        touches=[p],
    )


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    op = plan.op
    anchor = plan.data["block"].element
    if anchor.getparent() is None:
        raise Skip("invalidResult", what="the anchor block was removed by another operation of this call")
    p = ctx.new_paragraph(anchor, f"insert:{op.id}")
    if "styleId" in op.fields:
        ppr = paragraph_properties(p, create=True)
        set_style(ppr, op.get("styleId"))
        remove_child(ppr, "w:numPr")  # a chosen style brings its own numbering, if any
        if len(ppr) == 0:
            p.remove(ppr)
    text = op.get("text")
    runs = [make_run(text)] if text else []
    position = "after" if op.type == "insertAfterBlock" else "before"
    place = outside_placeholder_controls(anchor)
    if position == "after":
        place.addnext(p)
    else:
        place.addprevious(p)
    if ctx.tracked:
        if runs:
            p.append(insert_runs(runs, ctx.revisions))
        mark_new_paragraph(ctx, p)
    else:
        p.extend(runs)
    content = [child for child in p if child.tag != W_PPR]
    span = (content[0], content[-1]) if content else p
    target = {
        "type": "insertion",
        "story": "main",
        "anchorBlockId": plan.data["block"].id,
        "position": position,
        "content": "block",
        "blockId": p.get(W14_PARAID),
    }
    return Applied([target], span)


def _previous_paragraph(p: Any) -> Any | None:
    """The paragraph right before ``p`` in its container (markers between them skipped)."""
    node = p.getprevious()
    while node is not None and node.tag not in BLOCK_LEVEL:
        node = node.getprevious()
    return node if node is not None and node.tag == W_P else None


def mark_new_paragraph(ctx: ApplyContext, p: Any) -> None:
    """Record new paragraph ``p`` (already in place, its text already marked) as inserted.

    Word records a new paragraph as pressing Enter at the end of the paragraph before it: that
    paragraph's mark is the inserted one, and the new paragraph carries the original mark (with
    a ``w:pPrChange`` when its properties differ, so that rejecting restores them). LibreOffice
    reads this form correctly in every case; the other form (the new paragraph's own mark
    inserted) it mishandles when the paragraph before ends with an insertion (see
    ``touching_insertions``, which the executor runs afterwards). The other form is used when
    there is no suitable paragraph before: the start of a container, a section break, a mark
    that this call deletes (a mark both inserted and deleted LibreOffice reads as deleted only,
    so rejecting would leave an empty paragraph behind), and a paragraph whose properties carry
    any revision of their own (a mark someone inserted, deleted or moved, a property or mark
    formatting change). The original mark of such a paragraph belongs to that revision: moved
    onto the new paragraph it would make the new paragraph part of someone else's change (a
    copied ``w:ins`` under their id and name: rejecting their changes would glue this paragraph
    to its neighbours, and rejecting ours would leave it behind empty)."""
    previous = _previous_paragraph(p)
    if (
        previous is None
        or carries_section_break(previous)
        or has_annotations(paragraph_properties(previous))
        or previous in ctx.marks_deleted
    ):
        mark_paragraph(p, "ins", ctx.revisions)
        return
    wanted = paragraph_properties(p)
    carried = deepcopy(paragraph_properties(previous)) if paragraph_properties(previous) is not None else None
    if wanted is not None:
        p.remove(wanted)
    if carried is not None:
        p.insert(0, carried)
    if not same_paragraph_properties(carried, wanted):
        ppr = record_paragraph_properties(p, ctx.revisions)
        for child in list(ppr):
            if child.tag in PPR_BASE:
                ppr.remove(child)
        for child in list(wanted) if wanted is not None else ():
            if child.tag in PPR_BASE:
                insert_ordered(ppr, deepcopy(child), PPR_ORDER)
    mark_paragraph(previous, "ins", ctx.revisions)


_TEXT = string_field("text", "The new paragraph's text (empty for a blank paragraph).", required=True)

SPECS = (
    OperationSpec(
        name="insertAfterBlock",
        summary=(
            "Insert a new paragraph right after a block, in the same place (body, table cell, text box), with "
            "the block's paragraph formatting unless `styleId` is given. An empty `text` inserts a blank line."
        ),
        fields=(block_id_field(), _TEXT, STYLE_FIELD),
        resolve=_resolve,
        apply=_apply,
    ),
    OperationSpec(
        name="insertBeforeBlock",
        summary="Like insertAfterBlock, but the new paragraph goes right before the block.",
        fields=(block_id_field(), _TEXT, STYLE_FIELD),
        resolve=_resolve,
        apply=_apply,
    ),
)
