"""insertAfterBlock and insertBeforeBlock: a new paragraph next to a block.

The new paragraph sits in the same container as the anchor (the body, a table cell, a text box),
copies the anchor's paragraph properties (style, list membership, alignment, ...; not its
section break) unless ``styleId`` is given, and gets a fresh paragraph id, reported in the
receipt. Text may be empty: a blank paragraph is a real edit. Tabs and line feeds in the text
become tab characters and line breaks inside the one paragraph.

Tracked mode marks both the text and the paragraph mark inserted, so rejecting removes the
paragraph completely (the reference system left an empty paragraph behind). When no paragraph
follows the anchor in its container (the end of the body, a cell, a text box, or a table next),
the anchor's own mark is marked inserted instead, as Word records pressing Enter at the end of a
last paragraph: rejecting then joins the anchor with the empty new paragraph.
"""

from __future__ import annotations

from ..wml.ns import W14_PARAID, W_PPR
from ..wml.properties import PPR_ORDER, get_or_add, paragraph_properties, remove_child
from ..wml.revisions import insert_runs, make_run, mark_paragraph
from .context import ApplyContext, ResolveContext
from .delete_block import carries_section_break, followed_by_paragraph
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
    {"type": "string", "description": "A paragraph style id of this document (null or empty: no style)."},
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
    if ctx.tracked:
        if runs:
            p.append(insert_runs(runs, ctx.revisions))
        if position == "after" and not followed_by_paragraph(anchor) and not carries_section_break(anchor):
            # Nothing follows to join the new paragraph with on reject: as Word records Enter at
            # the end of the last paragraph, the anchor's mark is the new one.
            mark_paragraph(anchor, "ins", ctx.revisions)
        else:
            mark_paragraph(p, "ins", ctx.revisions)
    else:
        p.extend(runs)
    if position == "after":
        anchor.addnext(p)
    else:
        anchor.addprevious(p)
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
