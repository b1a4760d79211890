"""formatRange: set or clear bold, italic or underline on the text a find_text range selects.

``true`` sets the property on the runs (``w:b``+``w:bCs``, ``w:i``+``w:iCs``, ``w:u
w:val="single"``), ``false`` removes the run's own setting. Tracked mode records each changed
run's previous properties in ``w:rPrChange`` so rejecting restores them. Formatting that would
not change anything skips the operation (``noopOperation``).
"""

from __future__ import annotations

from typing import Any

from ..wml.attrs import is_on
from ..wml.properties import get_or_add, remove_child, run_properties
from ..wml.revisions import record_run_properties
from .context import ApplyContext, ResolveContext, check_editable
from .fields import RANGE_FIELD, flags_field
from .spec import TEXT, Applied, Claim, Operation, OperationSpec, Plan, Skip

PROPERTIES = ("bold", "italic", "underline")
_TAGS = {"bold": ("w:b", "w:bCs"), "italic": ("w:i", "w:iCs"), "underline": ("w:u",)}


def _state(rpr: Any, name: str) -> bool:
    from ..wml.ns import qn

    if rpr is None:
        return False
    element = rpr.find(qn(_TAGS[name][0]))
    if element is None:
        return False
    if name == "underline":
        return (element.get(qn("w:val")) or "single") != "none"
    return is_on(element)


def _changes(r: Any, formatting: dict[str, bool]) -> dict[str, bool]:
    rpr = run_properties(r)
    return {name: value for name, value in formatting.items() if _state(rpr, name) != value}


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    start, end = ctx.range_offsets(block, op.get("range"), text_change=False)
    check_editable(block, start, end)
    p = block.element
    text = ctx_text(ctx, p)
    touched = [s for s in text.spans if s.visible and s.end > s.start and s.start < end and s.end > start]
    if not any(_changes(s.run, op.get("formatting")) for s in touched):
        raise Skip("noopOperation", why="the text already has that formatting")
    return Plan(
        op,
        (block.index, TEXT, start),
        [
            Claim(("text", p), start, end, False),
            Claim(("format", p), start, end, True),
            Claim(("para", p), exclusive=False),
        ],
        block=block,
        start=start,
        end=end,
        touches=[p],
        keeps_siblings=True,
    )


def ctx_text(ctx: ResolveContext, p: Any):
    from .textmap import ParagraphText

    return ParagraphText(p, ctx.doc.styles, display=ctx.doc.display)


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    from ..wml.ns import qn

    data = plan.data
    formatting = plan.op.get("formatting")
    text = ctx.paragraph_text(data["block"].element)
    runs = text.runs_in(data["start"], data["end"], ctx.ids)
    changed = False
    for r in runs:
        wanted = _changes(r, formatting)
        if not wanted:
            continue
        changed = True
        rpr = record_run_properties(r, ctx.revisions) if ctx.tracked else run_properties(r, create=True)
        for name, value in wanted.items():
            tags = _TAGS[name]
            if value:
                for tag in tags:
                    element = get_or_add(rpr, tag)
                    element.attrib.pop(qn("w:val"), None)
                    if name == "underline":
                        element.set(qn("w:val"), "single")
            else:
                for tag in tags:
                    remove_child(rpr, tag)
        if not ctx.tracked and len(rpr) == 0:
            r.remove(rpr)
    if not changed:
        raise Skip("noopOperation", why="the text already has that formatting")
    return Applied([{"type": "textRange", "range": plan.op.get("range"), "effect": "formatted"}])


SPECS = (
    OperationSpec(
        name="formatRange",
        summary=(
            "Set (true) or clear (false) bold, italic or underline on the text a find_text range selects. "
            "Clearing removes the text's own setting; formatting a style gives stays."
        ),
        fields=(
            RANGE_FIELD,
            flags_field("formatting", "Which formatting to set (true) or clear (false).", PROPERTIES, required=True),
        ),
        resolve=_resolve,
        apply=_apply,
        comment=False,
    ),
)
