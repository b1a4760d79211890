"""Type switches: a field whose schema allows values of several JSON types (``type: [string,
array]``, or a ``oneOf``/``anyOf`` of a boolean and an object, as codecov's ``coverage/status``)
is built as the branch that the value's type selects, so an object or a list held there has
fields of its own. Writing a value of another type switches the branch.

A branch is the union's entry with the keywords around the union (a ``$ref``'s siblings, a
``description``) merged in, the entry's own winning. A value with no schema at all (``{}``, a key
nothing describes) is a switch too: an object is a map of such values, a list a list of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import json_type

if TYPE_CHECKING:
    from .compile import Skeleton

# Keywords that say nothing about a value: a schema holding only these accepts anything.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "$comment",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "markdownDescription",
    }
)
STRUCTURED = frozenset({"object", "array"})
# How deep unions nested in unions are read for the types they allow, and how many entries.
MAX_NESTING = 4
MAX_ENTRIES_READ = 256
# How many entries of one type a value is validated against to pick its branch.
MAX_TRIED = 8


def union_entries(skeleton: Skeleton) -> tuple[str, list[Any]] | None:
    """``(keyword, entries)`` of a union of types: ``oneOf``/``anyOf`` the form does not show as
    variants or options, whose entries allow more than one JSON type, one of them an object or
    an array, or lists of different shapes, or that has one entry holding such values (a
    wrapper); ``("type", types)`` for a ``type`` list of that kind."""
    schema = skeleton.schema
    options = skeleton.items
    if skeleton.object_one_of or (options is not None and not options.open) or skeleton.layout.get("comp"):
        return None  # variants, or a choice among fixed options (examples only suggest)
    for keyword in ("oneOf", "anyOf"):
        entries = schema.get(keyword)
        # One entry is a wrapper (avro's root: a oneOf of one reference to the real union).
        if isinstance(entries, list) and entries:
            kinds: set[str] = set()
            unknown = False  # an entry whose types its keywords do not say
            budget = [MAX_ENTRIES_READ]
            for index, entry in enumerate(entries[:MAX_ENTRIES_READ]):
                target, where = skeleton.form._deref(entry, f"{skeleton.pointer}/{keyword}/{index}")
                found = union_types(target, skeleton.form, where, budget=budget)
                unknown = unknown or not found
                kinds.update(found)
            # Different types, one of them structured; lists of different shapes (a matrix of
            # two or of four dimensions), told apart by which one the value fits; a structured
            # entry beside entries of no known type; or a wrapper of one entry.
            if kinds & STRUCTURED and (len(kinds) >= 2 or kinds == {"array"} or unknown or len(entries) == 1):
                return keyword, entries
            return None
    if len(skeleton.types) >= 2 and set(skeleton.types) & STRUCTURED:
        return "type", list(skeleton.types)
    return None


def union_types(
    schema: dict[str, Any], form: Any = None, pointer: str = "", depth: int = 0, budget: list[int] | None = None
) -> set[str]:
    """The JSON types ``schema`` allows, as far as its keywords say (a nested union's, a few
    levels deep: package.json's exports are unions of unions). At most ``MAX_ENTRIES_READ``
    entries are read in all: a schema of wide unions nested deep must not cost their product."""
    from .compile import _types_of

    budget = [MAX_ENTRIES_READ] if budget is None else budget
    declared = set(_types_of(schema)[0])
    if "object" not in declared and isinstance(schema.get("properties"), dict):
        declared.add("object")
    if not declared and form is not None and depth < MAX_NESTING:
        for keyword in ("oneOf", "anyOf"):
            entries = schema.get(keyword)
            if isinstance(entries, list):
                for index, entry in enumerate(entries):
                    if budget[0] <= 0:
                        return declared
                    budget[0] -= 1
                    target, where = form._deref(entry, f"{pointer}/{keyword}/{index}")
                    declared |= union_types(target, form, where, depth + 1, budget)
    return declared


def type_branches(skeleton: Skeleton) -> list[Skeleton]:
    """The skeleton of each branch of a type switch (see the module docstring), or []."""
    found = union_entries(skeleton)
    if found is None:
        return []
    keyword, entries = found
    form, pointer = skeleton.form, skeleton.pointer
    outer = {k: v for k, v in skeleton.schema.items() if k not in (keyword, "type")}
    branches = []
    for index, entry in enumerate(entries):
        if keyword == "type":
            merged, where = {**skeleton.schema, "type": entry}, f"{pointer}/type/{index}"
        else:
            target, where = form._deref(entry, f"{pointer}/{keyword}/{index}")
            merged = {**outer, **target}
            if "type" in skeleton.schema and "type" not in target:
                merged["type"] = skeleton.schema["type"]
        branches.append(form.branch_skeleton(merged, where))
    return branches


def accepts_anything(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` says nothing about its value (``{}``, or annotations only)."""
    return all(key in ANNOTATIONS or key.startswith("x-") for key in schema)


def branch_for(skeleton: Skeleton, value: Any) -> Skeleton | None:
    """The branch of a type switch that ``value`` selects, or None (not a switch, no value, or
    no branch of its type)."""
    if isinstance(value, dict):
        kind = "object"
    elif isinstance(value, list):
        kind = "array"
    else:
        kind = json_type(value)
    # A list whose items are objects or lists gets a field per item; one of plain values stays
    # one field (its items are reached by index, see ``paths.value_item``).
    structured = kind == "array" and any(isinstance(item, (dict, list)) for item in value)
    if skeleton.open_items:
        return plain(skeleton, "array") if structured else None
    if skeleton.accepts_anything:
        if kind == "array" and not structured:
            return skeleton.form.any_values
        return plain(skeleton, kind) if kind in STRUCTURED else None
    candidates = [b for b in skeleton.branches if _allows(b, kind)]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    # Entries that say their type first; a validator is built per entry tried, so only a few are.
    candidates.sort(key=lambda branch: not branch.types)
    for branch in candidates[:MAX_TRIED]:
        if branch.own_validator.is_valid(value):
            return branch
    return candidates[0]


def misfit(skeleton: Skeleton, value: Any) -> Skeleton | None:
    """A plain list or map for a value whose shape the skeleton cannot show as fields (a list
    where the schema's own keywords describe an object, as tslint's rules allow both), so each
    of its parts is still a field; the whole schema still judges it. None when the shapes fit."""
    if isinstance(value, list) and skeleton.object_composite and not skeleton.tuple_items:
        return plain(skeleton, "array")
    if isinstance(value, dict) and skeleton.comp == "list":
        return plain(skeleton, "object")
    item = skeleton.item
    if (
        isinstance(value, list)
        and skeleton.comp not in ("list", "json")
        and item is not None
        and (item.branches or item.accepts_anything or item.kind in STRUCTURED)
        and item.items is None
        and any(isinstance(entry, (dict, list)) for entry in value)
    ):
        # A list of plain values that also holds objects or lists (mkdocs' extra_javascript: a
        # path, or an object with one; a matrix's rows): a list of fields, each item its own.
        layout = {**skeleton.layout, "comp": "list"}
        return skeleton.form.branch_skeleton({**skeleton.schema, "layout": layout}, f"{skeleton.pointer}/~items")
    return None


def plain(skeleton: Skeleton, kind: str) -> Skeleton:
    """A map (``kind`` object) or a list of values no schema describes, with the title and help
    of ``skeleton``: each part of the value is a field, itself a switch."""
    form = skeleton.form
    kept = {k: skeleton.schema[k] for k in ("title", "description") if k in skeleton.schema}
    if not kept:
        return form.any_object if kind == "object" else form.any_array
    if kind == "object":
        return form.branch_skeleton({**kept, "type": "object", "additionalProperties": {}}, f"{skeleton.pointer}/~map")
    return form.branch_skeleton(
        {**kept, "type": "array", "items": {}, "layout": {"comp": "list"}}, f"{skeleton.pointer}/~list"
    )


def settle(skeleton: Skeleton, value: Any) -> Skeleton:
    """The skeleton ``value`` is built with: through a switch's branch that is a switch itself
    (a union of unions), a few levels deep, then a plain list or map for a misfit shape."""
    for _ in range(MAX_NESTING):
        if not (skeleton.accepts_anything or skeleton.branches or skeleton.open_items):
            break
        chosen = branch_for(skeleton, value)
        if chosen is None or chosen is skeleton:
            break
        skeleton = chosen
    if isinstance(value, (dict, list)):
        skeleton = misfit(skeleton, value) or skeleton
    return skeleton


def _allows(branch: Skeleton, kind: str) -> bool:
    types = branch.allowed_types
    if not types:
        if accepts_anything(branch.schema):
            return True
        return (kind == "object" and branch.is_object) or (kind == "array" and "items" in branch.schema)
    return kind in types or (kind == "integer" and "number" in types)


def switch_note(skeleton: Skeleton) -> str | None:
    """What a switch with no branch chosen yet takes, for describeState; None for other fields."""
    if not skeleton.branches:
        return None
    kinds: list[str] = []
    for branch in skeleton.branches:
        for kind in sorted(branch.allowed_types):
            if kind not in kinds:
                kinds.append(kind)
    listed = " or ".join(_NAMES.get(kind, kind) for kind in kinds)
    return f"takes {listed}: write one (an object's fields, a list's items then have paths of their own)"


_NAMES = {
    "boolean": "true/false",
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "null": "null",
}
