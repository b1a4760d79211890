"""What an operation type is: ``OperationSpec`` (its fields, its rules and its two handlers), the
decoded ``Operation``, the ``Plan`` a resolver returns, ``Claim`` and ``Skip``.

The life of one operation:

1. **decode** (``decode``): the caller's JSON becomes an ``Operation`` (fields checked by the
   spec's ``Field`` decoders, then the spec's ``check`` for rules across fields).
2. **resolve** (``spec.resolve(ctx, op, block)``), against the document as it was read, before
   anything changes: the framework has already found the target block (``blockId``, or the
   range's) and checked the precondition. The resolver raises ``Skip(code, **details)`` or
   returns a ``Plan``: where it applies (``order``), what it claims (``claims``, for the
   overlap rule) and whatever the handler needs later (``data``).
3. **apply** (``spec.apply(ctx, plan)``), on the live tree, in descending document order; the
   resolver's elements are still valid because later positions are edited first. The handler
   looks at ``ctx.tracked`` for the mode and returns an ``Applied``: the receipt's ``affected``
   targets and, when the operation may carry a comment, the first and last element the
   comment should span. Raising ``Skip("invalidResult")`` (or any exception) rolls the
   operation back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .fields import Field

MODES = ("tracked-changes", "direct")

# The middle element of a Plan's order for operations on one block (plans apply in descending
# order): insertions after the block first, then text edits (by descending offset), then
# insertions before it, then paragraph properties, then changes to the paragraph itself. New
# paragraphs thus copy the block's properties as they were read, and a split or a deletion
# comes last.
AFTER_BLOCK = 4
TEXT = 3
BEFORE_BLOCK = 2
PROPERTIES = 1
STRUCTURE = 0


class Skip(Exception):
    """An operation that cannot apply: a skip code (see ``explain``) and details for the reason."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.code = code
        self.details = details


class Operation:
    """One decoded operation."""

    __slots__ = ("fields", "generated_id", "id", "index", "stamped_hash", "type")

    def __init__(self, index: int, op_id: str, op_type: str, fields: dict[str, Any], generated_id: bool) -> None:
        self.index = index
        self.id = op_id
        self.type = op_type
        self.fields = fields
        self.generated_id = generated_id
        # The target block's hash when the batch was resolved earlier (a queued batch).
        self.stamped_hash: str | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    @property
    def target_block_id(self) -> str | None:
        if "range" in self.fields:
            return self.fields["range"]["blockId"]
        return self.fields.get("blockId")

    def as_json(self) -> dict[str, Any]:
        """The operation as the caller could resend it (its id, type and decoded fields)."""
        return {"id": self.id, "type": self.type, **self.fields}


class Claim(NamedTuple):
    """A stake in part of the document. Two claims conflict when their keys are equal, their
    spans overlap (``None`` spans cover everything) and at least one is exclusive."""

    key: tuple
    start: int | None = None
    end: int | None = None
    exclusive: bool = True

    def conflicts(self, other: Claim) -> bool:
        if self.key != other.key or not (self.exclusive or other.exclusive):
            return False
        if self.start is None or other.start is None:
            return True
        if self.start == self.end or other.start == other.end:
            return max(self.start, other.start) <= min(self.end, other.end)
        return max(self.start, other.start) < min(self.end, other.end)


class Plan:
    """A resolved operation waiting to be applied."""

    __slots__ = ("claims", "data", "op", "order", "reverse_ties")

    def __init__(
        self, op: Operation, order: tuple, claims: list[Claim], *, reverse_ties: bool = True, **data: Any
    ) -> None:
        self.op = op
        # Sort key: plans apply in descending order. Ties apply in reverse input order (so
        # that several insertions after one block end up in input order) unless
        # ``reverse_ties`` is False (insertions before one block).
        self.order = order
        self.claims = claims
        self.reverse_ties = reverse_ties
        self.data = data


class Applied(NamedTuple):
    affected: list[dict[str, Any]]
    # First and last element (in document order) a comment on this operation spans; or one
    # paragraph, for a comment at its end (nothing to span); None: the end of the first touched
    # element.
    comment_span: tuple[Any, Any] | Any | None = None


class OperationSpec(NamedTuple):
    name: str
    summary: str
    fields: tuple[Field, ...]
    resolve: Callable[..., Plan]
    apply: Callable[..., Applied]
    comment: bool = True
    modes: tuple[str, ...] = MODES
    default: bool = True
    check: Callable[[dict[str, Any], str], None] | None = None
    # The block the precondition guards and the framework resolves before ``resolve``; None
    # when the type has no target block (the resolver finds its own).
    target: Callable[[Operation], str | None] = lambda op: op.target_block_id
