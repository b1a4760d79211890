"""setBlockParagraphProperties: a block's paragraph style, alignment, indentation and numbering.

- ``styleId``: a paragraph style the document defines (``missingStyle`` lists them); null or ""
  clears the paragraph's own style.
- ``alignment``: left, center, right or justify (``w:jc``).
- ``indentation``: ``left``, ``right``, ``firstLine`` or ``hanging`` in points (``w:ind``, in
  twentieths of a point); firstLine and hanging exclude each other.
- ``numbering`` (``w:numPr``), by ``kind``:
  ``reference`` joins an existing list: ``numId`` (a list instance numbering.xml defines: the
  ``numId`` a list block of ``read_document`` carries, with its ``ilvl``) or ``fromBlockId`` (the
  list that block belongs to, a shortcut for the same), and ``ilvl`` (level 0-8, default the
  source block's level for ``fromBlockId``, else 0);
  ``none`` switches numbering off, even a style's; ``inherit`` removes the paragraph's own
  numbering so its style's applies; ``levelOnly`` changes the level of the list it is in;
  ``newList`` starts a new list (``format`` numbered or bullet, at ``level``), adding a list
  definition to numbering.xml. An unknown instance, or a level change on a paragraph that is in
  no list, skips with ``missingNumbering``.

Tracked mode records the previous properties in ``w:pPrChange`` (rejecting restores them); the
reference system changed styles without a record.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from ..package.docx_package import RT
from ..wml.ns import W_ILVL, W_NUMID, W_PPR, W_VAL, qn
from ..wml.properties import (
    PPR_ORDER,
    get_or_add,
    paragraph_properties,
    remove_child,
    same_paragraph_properties,
)
from ..wml.revisions import record_paragraph_properties
from .context import ApplyContext, ResolveContext, block_json_target
from .fields import DecodeError, Decoding, Field, block_id_field, enum_field, kind_of
from .insert_block import STYLE_FIELD, check_style, set_style
from .spec import PROPERTIES, Applied, Claim, Operation, OperationSpec, Plan, Skip

ALIGNMENTS = {"left": "left", "center": "center", "right": "right", "justify": "both"}
INDENTS = ("left", "right", "firstLine", "hanging")
MAX_INDENT_POINTS = 1584  # 22 inches, the widest page Word offers
NUMBERING_KINDS = ("reference", "none", "inherit", "levelOnly", "newList")
CT_NUMBERING = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"


def _decode_indentation(value: Any, path: str, state: Decoding) -> dict[str, float]:
    if not isinstance(value, dict) or not value:
        raise DecodeError(f"{path} must be an object with some of {', '.join(INDENTS)} (in points).")
    out = {}
    for key, number in value.items():
        if key not in INDENTS:
            state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`: only {', '.join(INDENTS)} apply.")
            continue
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise DecodeError(f"{path}.{key} must be a number of points, not {kind_of(number)}.")
        low = -MAX_INDENT_POINTS if key in ("left", "right") else 0
        if not low <= number <= MAX_INDENT_POINTS:
            raise DecodeError(f"{path}.{key} must be between {low} and {MAX_INDENT_POINTS} points, not {number}.")
        out[key] = number
    if not out:
        raise DecodeError(f"{path} must set at least one of {', '.join(INDENTS)}.")
    if "firstLine" in out and "hanging" in out:
        raise DecodeError(f"{path} cannot have both firstLine and hanging; give one.")
    return out


def _level(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
        raise DecodeError(f"{path} must be a list level from 0 to 8.")
    return value


def _decode_numbering(value: Any, path: str, state: Decoding) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DecodeError(f"{path} must be an object with a `kind` ({', '.join(NUMBERING_KINDS)}).")
    value = dict(value)
    if "type" in value and "kind" not in value:
        value["kind"] = value.pop("type")
        state.note(f"{path}.type", "typeAsKind", "read `type` as `kind`.")
    kind = value.get("kind")
    if kind not in NUMBERING_KINDS:
        raise DecodeError(f"{path}.kind must be one of {', '.join(NUMBERING_KINDS)}, not {kind!r}.")
    allowed = {
        "reference": ("numId", "fromBlockId", "ilvl"),
        "none": (),
        "inherit": (),
        "levelOnly": ("ilvl",),
        "newList": ("format", "level"),
    }[kind]
    out: dict[str, Any] = {"kind": kind}
    for key in value:
        if key != "kind" and key not in allowed:
            state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`, which kind {kind} does not take.")
    if kind == "reference":
        num_id, from_block = value.get("numId"), value.get("fromBlockId")
        if (num_id is None) == (from_block is None):
            raise DecodeError(f"{path} (reference) needs exactly one of `numId` or `fromBlockId`.")
        if num_id is not None:
            if isinstance(num_id, str) and num_id.strip().isdigit():
                num_id = int(num_id)
            if isinstance(num_id, bool) or not isinstance(num_id, int) or num_id < 1:
                raise DecodeError(f"{path}.numId must be a list instance number (1 or more).")
            out["numId"] = num_id
        else:
            if not isinstance(from_block, str) or not from_block:
                raise DecodeError(f"{path}.fromBlockId must be the blockId of a list item.")
            out["fromBlockId"] = from_block
        if "ilvl" in value:
            out["ilvl"] = _level(value["ilvl"], f"{path}.ilvl")
    elif kind == "levelOnly":
        if "ilvl" not in value:
            raise DecodeError(f"{path} (levelOnly) needs `ilvl`, the list level from 0 to 8.")
        out["ilvl"] = _level(value["ilvl"], f"{path}.ilvl")
    elif kind == "newList":
        fmt = value.get("format", "numbered")
        if fmt not in ("numbered", "bullet"):
            raise DecodeError(f"{path}.format must be numbered or bullet, not {fmt!r}.")
        out["format"] = fmt
        out["level"] = _level(value.get("level", 0), f"{path}.level")
    return out


NUMBERING_FIELD = Field(
    "numbering",
    {
        "type": "object",
        "description": (
            "kind reference (numId and ilvl as a list block of read_document shows them, or fromBlockId: that "
            "block's list), none (no numbering), inherit (the style's), levelOnly (ilvl), or newList (format "
            "numbered|bullet, level)."
        ),
        "properties": {
            "kind": {"type": "string", "enum": list(NUMBERING_KINDS)},
            "numId": {"type": "integer", "minimum": 1},
            "fromBlockId": {"type": "string"},
            "ilvl": {"type": "integer", "minimum": 0, "maximum": 8},
            "format": {"type": "string", "enum": ["numbered", "bullet"]},
            "level": {"type": "integer", "minimum": 0, "maximum": 8},
        },
        "required": ["kind"],
        "additionalProperties": False,
    },
    _decode_numbering,
    False,
    "Numbering: {kind: reference, numId, ilvl?} joins the list instance a list block of read_document carries "
    "(its numId and ilvl; or fromBlockId: that block's list); {kind: none} switches numbering off; "
    "{kind: inherit} uses the style's; {kind: levelOnly, ilvl} changes the level; {kind: newList, format: "
    "numbered|bullet, level?} starts a list.",
)
INDENTATION_FIELD = Field(
    "indentation",
    {
        "type": "object",
        "description": "Indents in points: left, right, and firstLine or hanging.",
        "properties": {name: {"type": "number"} for name in INDENTS},
        "additionalProperties": False,
    },
    _decode_indentation,
    False,
    "Indents in points: left, right, and firstLine or hanging.",
)
_PROPERTIES = ("styleId", "alignment", "indentation", "numbering")


def _check(fields: dict[str, Any], path: str) -> None:
    if not any(name in fields for name in _PROPERTIES):
        raise DecodeError(f"{path} (setBlockParagraphProperties) must set at least one of {', '.join(_PROPERTIES)}.")


# -- numbering.xml -------------------------------------------------------------------------------


def _numbering_root(doc, *, create: bool) -> Any | None:
    package = doc.package
    name = package.related_part(doc.main_part, RT.NUMBERING)
    if name is not None:
        return package.xml(name)
    if not create:
        return None
    from lxml import etree

    from ..wml.ns import NS

    root = etree.Element(qn("w:numbering"), nsmap={"w": NS["w"]})
    package.add_part("word/numbering.xml", CT_NUMBERING, root=root, source=doc.main_part, rel_type=RT.NUMBERING)
    return root


def _defined_num_ids(doc) -> set[str]:
    root = _numbering_root(doc, create=False)
    if root is None:
        return set()
    return {num.get(qn("w:numId")) for num in root.iter(qn("w:num")) if num.get(qn("w:numId"))}


def _new_list(doc, fmt: str) -> str:
    """Add a nine-level list definition and an instance of it; returns the instance's numId."""
    root = _numbering_root(doc, create=True)
    abstracts = root.findall(qn("w:abstractNum"))
    nums = root.findall(qn("w:num"))
    abstract_id = 1 + max((_int(a.get(qn("w:abstractNumId"))) for a in abstracts), default=-1)
    num_id = 1 + max((_int(n.get(qn("w:numId"))) for n in nums), default=0)
    abstract = root.makeelement(qn("w:abstractNum"), {qn("w:abstractNumId"): str(abstract_id)})
    abstract.append(abstract.makeelement(qn("w:multiLevelType"), {W_VAL: "hybridMultilevel"}))
    for level in range(9):
        lvl = abstract.makeelement(qn("w:lvl"), {qn("w:ilvl"): str(level)})
        lvl.append(lvl.makeelement(qn("w:start"), {W_VAL: "1"}))
        if fmt == "bullet":
            lvl.append(lvl.makeelement(qn("w:numFmt"), {W_VAL: "bullet"}))
            lvl.append(lvl.makeelement(qn("w:lvlText"), {W_VAL: "•◦▪"[level % 3]}))
        else:
            lvl.append(lvl.makeelement(qn("w:numFmt"), {W_VAL: ("decimal", "lowerLetter", "lowerRoman")[level % 3]}))
            lvl.append(lvl.makeelement(qn("w:lvlText"), {W_VAL: f"%{level + 1}."}))
        lvl.append(lvl.makeelement(qn("w:lvlJc"), {W_VAL: "left"}))
        ppr = lvl.makeelement(W_PPR, {})
        ppr.append(ppr.makeelement(qn("w:ind"), {qn("w:left"): str(720 * (level + 1)), qn("w:hanging"): "360"}))
        lvl.append(ppr)
        abstract.append(lvl)
    if abstracts:
        abstracts[-1].addnext(abstract)
    else:
        pictures = root.findall(qn("w:numPicBullet"))
        if pictures:
            pictures[-1].addnext(abstract)
        else:
            root.insert(0, abstract)
    num = root.makeelement(qn("w:num"), {qn("w:numId"): str(num_id)})
    num.append(num.makeelement(qn("w:abstractNumId"), {W_VAL: str(abstract_id)}))
    if nums:
        nums[-1].addnext(num)
    else:
        abstract.addnext(num)
    doc.package.mark_dirty(doc.package.related_part(doc.main_part, RT.NUMBERING))
    return str(num_id)


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return 0


# -- resolve and apply ---------------------------------------------------------------------------


def _resolve(ctx: ResolveContext, op: Operation, block) -> Plan:
    if block.pending_deletion:
        raise Skip("pendingDeletion", blockId=block.id)
    if "styleId" in op.fields:
        check_style(ctx, op.get("styleId"))
    numbering = op.get("numbering")
    resolved_numbering = None
    if numbering is not None:
        resolved_numbering = _resolve_numbering(ctx, numbering, block)
    p = block.element
    proposed = _proposed(p, op.fields, resolved_numbering)
    if same_paragraph_properties(paragraph_properties(p), proposed):
        raise Skip("noopOperation", why="the block already has these paragraph properties")
    return Plan(
        op,
        (block.index, PROPERTIES, 0),
        [Claim(("props", p)), Claim(("para", p), exclusive=False)],
        block=block,
        numbering=resolved_numbering,
        touches=[p],
        keeps_siblings=True,
    )


def _resolve_numbering(ctx: ResolveContext, numbering: dict[str, Any], block) -> dict[str, Any]:
    kind = numbering["kind"]
    if kind == "reference":
        if "fromBlockId" in numbering:
            source = ctx.block(numbering["fromBlockId"])
            if source.num_id is None:
                raise Skip("missingNumbering", what=f"block {source.id} is not in a list")
            return {"kind": "set", "numId": source.num_id, "ilvl": numbering.get("ilvl", source.ilvl or 0)}
        num_id = str(numbering["numId"])
        defined = _defined_num_ids(ctx.doc)
        if num_id not in defined:
            listed = ", ".join(sorted(defined, key=_int)[:40]) or "none"
            raise Skip("missingNumbering", what=f"this document defines no list instance {num_id} (it has: {listed})")
        return {"kind": "set", "numId": num_id, "ilvl": numbering.get("ilvl", 0)}
    if kind == "levelOnly":
        if block.num_id is None:
            raise Skip("missingNumbering", what=f"block {block.id} is in no list, so it has no level to change")
        return {"kind": "level", "ilvl": numbering["ilvl"]}
    if kind == "newList":
        return {"kind": "new", "format": numbering["format"], "ilvl": numbering["level"]}
    return {"kind": kind}


def _proposed(p: Any, fields: dict[str, Any], numbering: dict[str, Any] | None) -> Any:
    """The paragraph properties the operation asks for (a detached copy)."""
    from lxml import etree

    current = paragraph_properties(p)
    ppr = deepcopy(current) if current is not None else etree.Element(W_PPR)
    _change(ppr, fields, numbering, "0")
    return ppr


def _change(ppr: Any, fields: dict[str, Any], numbering: dict[str, Any] | None, new_num_id: str) -> None:
    if "styleId" in fields:
        set_style(ppr, fields["styleId"])
    if "alignment" in fields:
        get_or_add(ppr, "w:jc", PPR_ORDER).set(W_VAL, ALIGNMENTS[fields["alignment"]])
    if "indentation" in fields:
        ind = get_or_add(ppr, "w:ind", PPR_ORDER)
        for key, points in fields["indentation"].items():
            ind.set(qn(f"w:{key}"), str(round(points * 20)))
        if "firstLine" in fields["indentation"]:
            ind.attrib.pop(qn("w:hanging"), None)
        if "hanging" in fields["indentation"]:
            ind.attrib.pop(qn("w:firstLine"), None)
    if numbering is not None:
        kind = numbering["kind"]
        if kind == "inherit":
            remove_child(ppr, "w:numPr")
            return
        numpr = get_or_add(ppr, "w:numPr", PPR_ORDER)
        if kind == "none":
            numpr[:] = []
            numpr.append(numpr.makeelement(W_NUMID, {W_VAL: "0"}))
            return
        ilvl = numpr.find(W_ILVL)
        if ilvl is None:
            ilvl = numpr.makeelement(W_ILVL, {})
            numpr.insert(0, ilvl)
        ilvl.set(W_VAL, str(numbering["ilvl"]))
        if kind in ("set", "new"):
            num = numpr.find(W_NUMID)
            if num is None:
                num = numpr.makeelement(W_NUMID, {})
                ilvl.addnext(num)
            num.set(W_VAL, numbering["numId"] if kind == "set" else new_num_id)


def _apply(ctx: ApplyContext, plan: Plan) -> Applied:
    block = plan.data["block"]
    p = block.element
    numbering = plan.data["numbering"]
    new_num_id = _new_list(ctx.doc, numbering["format"]) if numbering and numbering["kind"] == "new" else ""
    ppr = record_paragraph_properties(p, ctx.revisions) if ctx.tracked else paragraph_properties(p, create=True)
    _change(ppr, plan.op.fields, numbering, new_num_id)
    if not ctx.tracked and len(ppr) == 0:
        p.remove(ppr)
    target = block_json_target(block, "formatted")
    if new_num_id:
        target["numId"] = int(new_num_id)
    runs = ctx.paragraph_text(p).visible_runs()
    return Applied([target], (runs[0], runs[-1]) if runs else p)


SPECS = (
    OperationSpec(
        name="setBlockParagraphProperties",
        summary=(
            "Change a block's paragraph style (`styleId`, a paragraph style of this document; null clears it), "
            "`alignment`, `indentation` (points) or `numbering` (join a list, start one, change the level, or "
            "switch numbering off). Give at least one."
        ),
        fields=(
            block_id_field(),
            STYLE_FIELD._replace(help="A paragraph style id this document defines; null clears the style."),
            enum_field("alignment", "Paragraph alignment.", tuple(ALIGNMENTS)),
            INDENTATION_FIELD,
            NUMBERING_FIELD,
        ),
        resolve=_resolve,
        apply=_apply,
        check=_check,
    ),
)
