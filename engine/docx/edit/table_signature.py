"""insertSignatureTable: a borderless table of signature blocks, one column per party, next to a
block.

Each party's cell holds the party's name in bold, room to sign, a signature line, and the
signatory's name and title (italic) when given. The table is placed like insertTable places a
table (same container as the anchor, an empty paragraph where Word needs one).

Direct mode only, as in the contract: a signature block is added to a document when it is
finalised, not proposed as a change (tracked mode skips it with unsupportedMode). The type is not
in the default operation types; a host enables it explicitly.
"""

from __future__ import annotations

from typing import Any

from ..wml.ns import qn
from ..wml.properties import RPR_ORDER, get_or_add, run_properties
from .context import ApplyContext, ResolveContext
from .fields import COMMENT_FIELD, DecodeError, Decoding, Field, block_id_field, kind_of
from .spec import Applied, Operation, OperationSpec, Plan
from .table_insert import (
    POSITION_FIELD,
    column_widths,
    insert_built_table,
    insertion_plan,
    new_table,
    text_width,
    unstorable_text,
)
from .table_markup import fill_cell, new_cell

MAX_PARTIES = 8
MAX_NAME = 500
SIGNATURE_LINE = "_" * 30
_PARTY_KEYS = ("name", "signatory", "title")


def _decode_parties(value: Any, path: str, state: Decoding) -> list[dict[str, str]]:
    if not isinstance(value, list) or not value:
        raise DecodeError(f'{path} must be a non-empty array of parties, like [{{"name": "ACME Ltd"}}].')
    if len(value) > MAX_PARTIES:
        raise DecodeError(f"{path} has {len(value)} parties; at most {MAX_PARTIES} fit side by side.")
    parties = []
    for index, party in enumerate(value):
        where = f"{path}[{index}]"
        if isinstance(party, str):
            state.note(where, "partyName", "read the string as the party's name.")
            party = {"name": party}
        if not isinstance(party, dict):
            raise DecodeError(f"{where} must be an object with `name` (and optional `signatory`, `title`).")
        out = {}
        for key, text in party.items():
            if key not in _PARTY_KEYS:
                state.note(f"{where}.{key}", "droppedProperty", f"ignored `{key}`: a party has name, signatory, title.")
                continue
            if text is None:
                continue
            if not isinstance(text, str):
                raise DecodeError(f"{where}.{key} must be a string, not {kind_of(text)}.")
            if len(text) > MAX_NAME:
                raise DecodeError(f"{where}.{key} is {len(text):,} characters; at most {MAX_NAME} are allowed.")
            state.count_text(f"{where}.{key}", text)
            out[key] = text
        if not out.get("name", "").strip():
            raise DecodeError(f"{where} needs a non-empty `name`.")
        parties.append(out)
    return parties


PARTIES_FIELD = Field(
    "parties",
    {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_PARTIES,
        "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "description": "The party (a person or a company)."},
                "signatory": {"type": "string", "description": "Who signs for the party."},
                "title": {"type": "string", "description": "The signatory's title or role."},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "description": "The parties that sign, one signature block each (side by side).",
    },
    _decode_parties,
    True,
    "The parties, each {name, signatory?, title?}: one signature block per party, side by side.",
)


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    texts = [
        (f"parties[{index}].{key}", party[key])
        for index, party in enumerate(op.get("parties"))
        for key in _PARTY_KEYS
        if key in party
    ]
    unstorable_text(texts)
    return insertion_plan(op, block)


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    op = plan.op
    parties = op.get("parties")

    def build(anchor: Any) -> tuple[Any, list[Any]]:
        widths = column_widths(text_width(ctx, anchor), len(parties))
        tbl = new_table(ctx, widths, style=None, borders="nil")
        tr = tbl.makeelement(qn("w:tr"), {})
        tbl.append(tr)
        names = []
        for index, party in enumerate(parties):
            tc = new_cell(None, widths[index])
            seed = f"signature:{op.id}:{index}"
            names.append(fill_cell(ctx, tc, None, party["name"], f"{seed}:name", bold=True))
            for number, line in enumerate(("", "", SIGNATURE_LINE)):
                fill_cell(ctx, tc, None, line, f"{seed}:line{number}")
            if party.get("signatory"):
                fill_cell(ctx, tc, None, party["signatory"], f"{seed}:signatory")
            if party.get("title"):
                _italic(fill_cell(ctx, tc, None, party["title"], f"{seed}:title"))
            tr.append(tc)
        return tbl, names

    return insert_built_table(ctx, plan, "signatureTable", build)


def _italic(p: Any) -> None:
    for run in p.iter(qn("w:r")):
        rpr = run_properties(run, create=True)
        get_or_add(rpr, "w:i", RPR_ORDER)
        get_or_add(rpr, "w:iCs", RPR_ORDER)


SPECS = (
    OperationSpec(
        name="insertSignatureTable",
        summary=(
            "Insert a signature table after (or before) a block: one signature block per party, side by side "
            "(direct mode only)."
        ),
        fields=(block_id_field(), PARTIES_FIELD, POSITION_FIELD, COMMENT_FIELD),
        resolve=_resolve,
        apply=_apply,
        comment=False,  # placed by the handler (see table_markup.with_comment)
        modes=("direct",),
        default=False,
    ),
)
