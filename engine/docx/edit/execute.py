"""Running a batch of decoded operations on an open document, in memory.

``run_operations`` does, in order:

1. **replay**: an id recorded as applied with the same content is ``replayed`` when the document
   bears the record out (see ``replay``), and skipped with ``replayUnverified`` when it does not;
   with different content the call fails (``ReplayConflict``) unless the record is unverified;
2. **version**: a ``documentVersion`` that is not the document's skips every remaining
   operation with ``documentVersionMismatch``;
3. **resolve**, in input order, against the document as read: mode support, storable text,
   the target block and its precondition, the type's own resolver, then the overlap rule (a
   claim conflicting with an earlier operation's skips with ``overlappingOperation``);
4. **apply**, in descending document order (see ``spec.Plan``); each operation is backed up
   first and rolled back if its handler skips it (``invalidResult`` and friends), so a skipped
   operation changes nothing. Comments are attached last, around what the handler reports.

Nothing is saved here: the caller writes the document (or not: dry run, queue).
"""

from __future__ import annotations

from copy import deepcopy
from typing import TYPE_CHECKING, Any

from ..review.comment_edits import CommentWriter
from ..review.revisions import story_parts
from ..wml.ns import W_AUTHOR, W_DATE, W_ID
from ..wml.revisions import IdAllocator, Revisions, revision_date
from ..wml.text import unstorable_character
from ..wml.touching_insertions import separate_touching_insertions
from . import registry, row_replacement
from .context import ApplyContext, ResolveContext, check_precondition
from .explain import explain
from .replay import ReplayRecord, blocks_digest, fingerprint
from .spec import Claim, Operation, Plan, Skip
from .textmap import Edit

if TYPE_CHECKING:
    from ..model.document import DocxDocument


class ReplayConflict(Exception):
    """An operation id already names a different applied operation."""


class Outcome:
    def __init__(self) -> None:
        self.applied: list[Operation] = []
        self.skipped: list[tuple[Operation, str, dict[str, Any]]] = []
        self.replayed: list[Operation] = []
        self.receipts: dict[int, dict[str, Any]] = {}
        self.stamped: dict[int, str] = {}  # operation index -> its block's hash when resolved
        self.version_before = ""
        self.date = ""

    def skip(self, op: Operation, code: str, details: dict[str, Any]) -> None:
        self.skipped.append((op, code, details))

    def result(self, operations: list[Operation]) -> dict[str, Any]:
        """The envelope parts every status shares, in input order."""
        order = {op.index: n for n, op in enumerate(operations)}
        skipped = sorted(self.skipped, key=lambda item: order[item[0].index])
        return {
            "applied": [{"id": op.id} for op in sorted(self.applied, key=lambda op: op.index)],
            "skipped": [{"id": op.id, "code": code, "reason": explain(code, details)} for op, code, details in skipped],
            "replayed": [{"id": op.id} for op in sorted(self.replayed, key=lambda op: op.index)],
            "receipts": [self.receipts[index] for index in sorted(self.receipts)],
        }


_STRING_FIELDS = ("find", "replace", "text", "comment", "quote")


def _check_storable(op: Operation) -> None:
    for name in _STRING_FIELDS:
        value = op.get(name)
        if isinstance(value, str):
            found = unstorable_character(value)
            if found is not None:
                raise Skip(
                    "invalidResult",
                    what=f"`{name}` holds the character {found[1]} at position {found[0]}, which a .docx cannot store",
                )
    for index, value in enumerate(op.get("cellTexts") or ()):
        found = unstorable_character(value) if isinstance(value, str) else None
        if found is not None:
            raise Skip(
                "invalidResult", what=f"`cellTexts[{index}]` holds the character {found[1]}, which a .docx cannot store"
            )


def _describe(claim: Claim) -> str:
    kind = claim.key[0]
    return {"text": "text", "para": "block", "props": "block's properties", "gap": "place"}.get(kind, "target")


def run_operations(
    doc: DocxDocument,
    operations: list[Operation],
    *,
    mode: str,
    author: str,
    document_version: str | None = None,
    apply: bool = True,
    table_revisions: str = "cells",
) -> Outcome:
    outcome = Outcome()
    outcome.version_before = doc.version
    outcome.date = revision_date()
    record = ReplayRecord(doc)
    pending: list[Operation] = []
    for op in operations:
        recorded = None if op.generated_id else record.lookup(op.id)
        if recorded is None:
            pending.append(op)
        elif recorded.fingerprint == fingerprint(op):
            if recorded.verified:
                outcome.replayed.append(op)
            else:
                outcome.skip(op, "replayUnverified", {"id": op.id})
        elif not recorded.verified:
            pending.append(op)  # an entry the document does not bear out names no operation
        else:
            raise ReplayConflict(
                f"operation id {op.id!r} (operations[{op.index}]) already names a different operation applied to "
                "this document; give this operation a new id, or leave the id out to have one generated."
            )
    if document_version is not None and document_version != outcome.version_before:
        for op in pending:
            outcome.skip(op, "documentVersionMismatch", {"given": document_version, "current": outcome.version_before})
        return outcome
    plans = _resolve(doc, pending, mode, outcome, table_revisions)
    if apply and plans:
        _apply(doc, plans, mode, author, outcome, record, table_revisions)
    elif plans:
        outcome.applied.extend(plan.op for plan in plans)
    return outcome


def _resolve(
    doc: DocxDocument, pending: list[Operation], mode: str, outcome: Outcome, table_revisions: str
) -> list[Plan]:
    ctx = ResolveContext(doc, mode, table_revisions)
    rows_view = row_replacement.resolve_view(ctx)
    claimed: dict[tuple, list[tuple[Claim, Operation]]] = {}  # by key: only equal keys conflict
    plans: list[Plan] = []
    for op in pending:
        spec = registry.get_spec(op.type)
        try:
            if mode not in spec.modes:
                raise Skip("unsupportedMode", type=op.type, mode=mode, modes=" and ".join(spec.modes))
            _check_storable(op)
            target = spec.target(op)
            block = None
            if target is not None:
                block = ctx.block(target)
                check_precondition(op, block)
                outcome.stamped[op.index] = block.hash
            if row_replacement.replaces_rows(ctx, op.type):
                plan = spec.resolve(rows_view, op, block)
                plan.claims.append(row_replacement.nesting_claim(plan))
            else:
                plan = spec.resolve(ctx, op, block)
            for claim in plan.claims:
                for earlier_claim, earlier in claimed.get(claim.key, ()):
                    if claim.conflicts(earlier_claim):
                        raise Skip("overlappingOperation", earlier=earlier.id, what=_describe(claim))
        except Skip as skip:
            outcome.skip(op, skip.code, skip.details)
            continue
        for claim in plan.claims:
            claimed.setdefault(claim.key, []).append((claim, op))
        plans.append(plan)
    return plans


def _evidence(doc: DocxDocument, receipt: dict[str, Any], date: str, author: str) -> tuple[list[str], list[str]]:
    """What an applied operation left that a later replay can check (see ``replay``): its marks
    (tracked changes of this batch in the blocks it changed, the comments it anchored) and the
    blocks it changed; with no mark to show, a digest of those blocks stands for them."""
    blocks = [item["blockId"] for item in receipt["affected"] if isinstance(item.get("blockId"), str)]
    marks = [f"c:{item['commentId']}" for item in receipt["affected"] if item.get("commentId") is not None]
    for block_id in blocks:
        block = doc.block(block_id)
        if block is None:
            continue
        for element in block.element.iter():
            if element.get(W_DATE) == date and element.get(W_AUTHOR) == author and element.get(W_ID) is not None:
                marks.append(f"r:{element.get(W_ID)}")
    if not marks:
        marks.append("b:" + blocks_digest(doc, blocks))
    return list(dict.fromkeys(marks)), blocks


class _Backup:
    """Copies of what one operation may change, to put back if it is skipped while applying:
    the touched elements and, unless the operation keeps them (``keeps_siblings``), the child
    lists of their parents (insertions, deletions and splits add or remove siblings)."""

    def __init__(self, touches: list[Any], keeps_siblings: bool = False) -> None:
        self.elements = [(element, deepcopy(element)) for element in touches]
        parents: dict[int, tuple[Any, list[Any]]] = {}
        for element in () if keeps_siblings else touches:
            parent = element.getparent()
            if parent is not None and id(parent) not in parents:
                parents[id(parent)] = (parent, list(parent))
        self.parents = list(parents.values())

    def restore(self) -> None:
        for element, copy in self.elements:
            element[:] = list(copy)
            element.attrib.clear()
            element.attrib.update(copy.attrib)
            element.text = copy.text
        for parent, children in self.parents:
            parent[:] = children


def _apply(
    doc: DocxDocument, plans: list[Plan], mode: str, author: str, outcome: Outcome, record, table_revisions: str
) -> None:
    doc.stamp_minted_ids()  # existing blocks keep the ids the caller read, whatever gets inserted
    roots = [doc.package.xml(part) for part in story_parts(doc)]
    ids = IdAllocator.scan(roots)
    revisions = Revisions(ids, author, outcome.date) if mode == "tracked-changes" else None
    ctx = ApplyContext(doc, Edit(ids, revisions), author, table_revisions)
    ctx.declare_w14()
    ctx.marks_deleted = frozenset(
        plan.data["deletes_mark"] for plan in plans if plan.data.get("deletes_mark") is not None
    )
    ctx.rows_deleted = frozenset(plan.data["deletes_row"] for plan in plans if "deletes_row" in plan.data)
    writer = CommentWriter(doc, author, outcome.date, ctx.para_ids, ids)
    ctx.comments = writer
    row_replacement.begin(ctx, plans)
    ordered = sorted(plans, key=lambda plan: (plan.order, plan.op.index if plan.reverse_ties else -plan.op.index))
    applied: list[Operation] = []
    for plan in reversed(ordered):
        op = plan.op
        spec = registry.get_spec(op.type)
        backup = _Backup(plan.data.get("touches") or [], plan.data.get("keeps_siblings", False))
        checkpoint = writer.checkpoint()
        try:
            if row_replacement.replaces_rows(ctx, op.type):
                result = row_replacement.apply(ctx, plan, spec)
            else:
                result = spec.apply(ctx, plan)
            affected = list(result.affected)
            comment = op.get("comment")
            if comment is not None and spec.comment:
                span = result.comment_span
                if isinstance(span, tuple):
                    comment_id = writer.add(comment, span[0], span[1])
                else:  # no text to span: a point at the end of the paragraph
                    comment_id = writer.add_at_end(comment, span if span is not None else plan.data["touches"][0])
                affected.append({"type": "comment", "commentId": comment_id})
        except Skip as skip:
            backup.restore()
            writer.rollback(checkpoint)
            outcome.skip(op, skip.code, skip.details)
            continue
        receipt: dict[str, Any] = {
            "operationId": op.id,
            "operationIndex": op.index,
            "type": op.type,
            "affected": affected,
        }
        for key in ("severity", "area"):
            if op.get(key) is not None:
                receipt[key] = op.get(key)
        outcome.receipts[op.index] = receipt
        applied.append(op)
    row_replacement.finish(ctx)
    if revisions is not None:
        for root in roots:
            separate_touching_insertions(root, revisions, own_only=True)
    outcome.applied.extend(applied)
    doc.package.mark_dirty(doc.main_part)
    doc.invalidate()
    evidence = {op.index: _evidence(doc, outcome.receipts[op.index], outcome.date, author) for op in applied}
    record.add(sorted(applied, key=lambda op: op.index), outcome.date, evidence)
