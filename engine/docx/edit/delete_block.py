"""deleteBlock: remove a paragraph.

Tracked mode deletes the paragraph's text and its paragraph mark, so accepting removes the
paragraph entirely (the reference system left an empty paragraph behind) and rejecting restores
it. Direct mode removes the paragraph, moving any comment or bookmark markers it holds to the
neighbouring paragraph so that nothing anchored elsewhere loses its other end.

A paragraph that no paragraph follows in its container — the last one of the body, a table cell
or a text box, or one right before a table — keeps its (now empty) paragraph in both modes: only
its text is deleted (``keptBlankParagraph`` in the receipt), because Word needs a paragraph there.
A paragraph that carries a section break is refused (``unsupportedBlock``): deleting it would
merge two sections.
"""

from __future__ import annotations

from typing import Any

from ..model.walk import next_block_sibling
from ..wml.ns import W_COMMENTREFERENCE, W_P, W_PPR, W_SECTPR, qn
from ..wml.properties import paragraph_properties
from ..wml.revisions import delete_paragraph_text, mark_paragraph, paragraph_mark_state, paragraph_runs
from .context import ApplyContext, ResolveContext, block_json_target, check_editable
from .fields import block_id_field
from .spec import STRUCTURE, Applied, Claim, Operation, OperationSpec, Plan, Skip
from .textmap import fields_balanced

_MARKERS = tuple(
    qn(f"w:{name}")
    for name in ("commentRangeStart", "commentRangeEnd", "bookmarkStart", "bookmarkEnd", "permStart", "permEnd")
)


def carries_section_break(p: Any) -> bool:
    ppr = paragraph_properties(p)
    return ppr is not None and ppr.find(W_SECTPR) is not None


def followed_by_paragraph(p: Any) -> bool:
    """A paragraph comes right after ``p`` in its container. When a table, a content control or
    the container's end comes next instead, ``p``'s paragraph mark cannot go: Word needs a
    paragraph before a table and at the end of a body, cell or text box."""
    following = next_block_sibling(p)
    return following is not None and following.tag == W_P


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    p = block.element
    if block.pending_deletion or "del" in paragraph_mark_state(p):
        raise Skip("noopOperation", why=f"block {block.id} is already pending deletion")
    check_editable(block)
    if carries_section_break(p):
        raise Skip(
            "unsupportedBlock",
            what=(
                f"block {block.id} ends a section (it carries the section's page setup), so deleting it would "
                "merge two sections; use replaceBlock with an empty text to empty it instead."
            ),
        )
    if not fields_balanced(list(paragraph_runs(p))):
        raise Skip(
            "unsupportedBlock",
            what=(
                f"block {block.id} holds one end of a field that spans several paragraphs (such as a table of "
                "contents), which deleting it would break; edit its text with replaceBlock instead."
            ),
        )
    keep = not followed_by_paragraph(p)
    if keep and not block.text:
        raise Skip("noopOperation", why=f"block {block.id} is the blank last paragraph of its container, which stays")
    return Plan(
        op,
        (block.index, STRUCTURE, 0),
        [Claim(("text", p)), Claim(("para", p))],
        block=block,
        keep=keep,
        touches=[p],
        deletes_mark=None if keep else p,
    )


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    p = block.element
    keep = plan.data["keep"]
    target = block_json_target(block, "deleted")
    if keep:
        target["keptBlankParagraph"] = True
    if ctx.tracked:
        wrappers = delete_paragraph_text(p, ctx.revisions)
        if not keep:
            mark_paragraph(p, "del", ctx.revisions)
        return Applied([target], (wrappers[0], wrappers[-1]) if wrappers else p)
    if keep:
        for run in list(paragraph_runs(p)):
            if run.find(W_COMMENTREFERENCE) is None:
                run.getparent().remove(run)
        from ..wml.revisions import remove_empty_wrappers

        remove_empty_wrappers(p)
        return Applied([target], p)
    _move_markers(p)
    p.getparent().remove(p)
    return Applied([target], None)


def _move_markers(p: Any) -> None:
    """Keep range markers and comment references of a removed paragraph in a neighbour."""
    markers = list(p.iter(*_MARKERS))
    references = [r.getparent() for r in p.iter(W_COMMENTREFERENCE)]
    if not markers and not references:
        return
    following = p.getnext()
    while following is not None and following.tag != W_P:
        following = following.getnext()
    if following is not None:
        position = 1 if len(following) and following[0].tag == W_PPR else 0
        for element in [*markers, *references]:
            following.insert(position, element)
            position += 1
        return
    previous = p.getprevious()
    while previous is not None and previous.tag != W_P:
        previous = previous.getprevious()
    if previous is not None:
        previous.extend([*markers, *references])


SPECS = (
    OperationSpec(
        name="deleteBlock",
        summary=(
            "Delete a block (its text and its paragraph). A paragraph followed by no other paragraph (the last "
            "of the document or of a table cell, or one right before a table) only loses its text; a paragraph "
            "ending a section cannot be deleted."
        ),
        fields=(block_id_field(),),
        resolve=_resolve,
        apply=_apply,
    ),
)
