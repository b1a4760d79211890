"""What the REPL's review adds to the docx views it shares with the CLI and the demo
(``cli.render.docx``): change references typed back (``footnote:1/7``), the pending batch as
`ops` numbers it, and the completion candidates (block ids with their text, comment ids, change
ids). Pure functions from result dicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..render.docx import block_text, change_ref, describe_op
from ..render.values import fold
from .suggest import Candidate


def parse_change_ref(ref: str) -> tuple[dict[str, Any] | None, str]:
    """(the story handle, the id) of a ``change_ref``; no handle for a plain id."""
    label, slash, change_id = ref.rpartition("/")
    kind, _, key = label.partition(":")
    if not slash or not change_id:
        return None, ref
    if label == "main":
        return {"type": "main"}, change_id
    if kind in ("footnote", "endnote") and key.lstrip("-").isdigit():
        return {"type": kind, "noteId": int(key)}, change_id
    if kind in ("header", "footer") and key:
        return {"type": kind, "relationshipId": key}, change_id
    return None, ref


def op_names(ops: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each pending operation's id -> ``N. what it does``, as `ops` lists them."""
    return {op["id"]: f"{number}. {describe_op(op)}" for number, op in enumerate(ops, start=1)}


def op_lines(ops: Sequence[dict[str, Any]]) -> list[str]:
    return list(op_names(ops).values()) or ["No pending operations."]


# -- completion candidates --------------------------------------------------------------------------


def block_candidates(blocks: Sequence[dict[str, Any]]) -> list[Candidate]:
    return [
        Candidate(block["blockId"], f"#{number} {block_text(block, 60)}")
        for number, block in enumerate(blocks, start=1)
    ]


def comment_candidates(comments: Sequence[dict[str, Any]]) -> list[Candidate]:
    out = []
    for thread in comments:
        out.append(Candidate(str(thread["id"]), f"{thread.get('author', '')}: {fold(thread.get('text', ''), 50)}"))
        for reply in thread.get("replies", []):
            out.append(
                Candidate(str(reply["id"]), f"reply by {reply.get('author', '')}: {fold(reply.get('text', ''), 40)}")
            )
    return out


def change_candidates(changes: Sequence[dict[str, Any]]) -> list[Candidate]:
    out = [Candidate("all", "every pending change")]
    out += [Candidate(change_ref(c), f"{c.get('type')}: {fold(c.get('text') or '', 50)}") for c in changes]
    return out
