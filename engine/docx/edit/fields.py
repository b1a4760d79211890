"""Operation fields: each is a JSON Schema fragment for the tool definition plus the decoder the
executor runs, declared together so the schema and the executor cannot disagree.

A decoder takes the raw value and a ``Decoding`` (the operation's path, the call's text budget
and its normalisation log) and returns the decoded value, or raises ``DecodeError`` with a
message naming the path and what to send instead. Builders cover the common kinds
(``string_field``, ``integer_field``, ``enum_field``, ``flags_field``, ``string_list_field``);
a field with its own shape passes its own decoder. Nothing here imports lxml.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ...tools import json_type_name as kind_of
from ..model.hashing import HASH_PATTERN
from .limits import MAX_STRING_LENGTH, MAX_TOTAL_TEXT


class DecodeError(Exception):
    """The call is malformed: nothing is applied and the caller gets this message."""


class Decoding:
    """State shared by the decoders of one call: the text budget and the normalisation log."""

    __slots__ = ("normalizations", "text_total")

    def __init__(self) -> None:
        self.text_total = 0
        self.normalizations: list[dict[str, Any]] = []

    def note(self, path: str, code: str, message: str) -> None:
        self.normalizations.append({"path": path, "code": code, "message": message})

    def count_text(self, path: str, text: str) -> None:
        """Charge ``text`` against the per-string cap and the whole call's budget."""
        if len(text) > MAX_STRING_LENGTH:
            raise DecodeError(
                f"{path} is {len(text):,} characters, over the {MAX_STRING_LENGTH:,}-character limit; "
                "shorten it or split the edit into several operations."
            )
        self.text_total += len(text)
        if self.text_total > MAX_TOTAL_TEXT:
            raise DecodeError(
                f"{path} takes the call's text over the {MAX_TOTAL_TEXT:,}-character limit for all "
                "operations together; send the remaining operations in another call."
            )


Decoder = Callable[[Any, str, Decoding], Any]


class Field(NamedTuple):
    """One property of an operation type."""

    name: str
    schema: dict[str, Any]
    decode: Decoder
    required: bool = False
    # A sentence for the capabilities text (what the caller puts here).
    help: str = ""


# -- builders ----------------------------------------------------------------------------------


def string_field(
    name: str, description: str, *, required: bool = False, non_empty: bool = False, text: bool = True,
    max_length: int | None = None, help: str = "",
) -> Field:  # fmt: skip
    """A string. ``text`` strings count against the call's text budget; ``max_length`` caps
    short identifiers."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if non_empty:
        schema["minLength"] = 1
    if max_length is not None:
        schema["maxLength"] = max_length

    def decode(value: Any, path: str, state: Decoding) -> str:
        if not isinstance(value, str):
            raise DecodeError(f"{path} must be a string, not {kind_of(value)}.")
        if non_empty and not value:
            raise DecodeError(f"{path} must not be empty.")
        if max_length is not None and len(value) > max_length:
            raise DecodeError(f"{path} is {len(value):,} characters long; at most {max_length:,} are allowed.")
        if text:
            state.count_text(path, value)
        return value

    return Field(name, schema, decode, required, help or description)


def block_id_field(name: str = "blockId", description: str = "", *, required: bool = True) -> Field:
    return string_field(
        name,
        description or "A blockId from read_document, find_text or another read of this document.",
        required=required,
        non_empty=True,
        text=False,
        max_length=200,
    )


def integer_field(
    name: str, description: str, *, minimum: int, maximum: int, required: bool = False, help: str = ""
) -> Field:
    schema = {"type": "integer", "minimum": minimum, "maximum": maximum, "description": description}

    def decode(value: Any, path: str, state: Decoding) -> int:
        if isinstance(value, float) and value.is_integer():
            state.note(path, "numberAsInteger", f"read {value!r} as the whole number {int(value)}.")
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise DecodeError(f"{path} must be a whole number, not {kind_of(value)}.")
        if not minimum <= value <= maximum:
            raise DecodeError(f"{path} must be between {minimum:,} and {maximum:,}, not {value:,}.")
        return value

    return Field(name, schema, decode, required, help or description)


def enum_field(name: str, description: str, values: tuple[str, ...], *, required: bool = False) -> Field:
    schema = {"type": "string", "enum": list(values), "description": description}

    def decode(value: Any, path: str, state: Decoding) -> str:
        if value not in values:
            raise DecodeError(f"{path} must be one of {', '.join(values)}, not {value!r}.")
        return value

    return Field(name, schema, decode, required, description)


def flags_field(name: str, description: str, flags: tuple[str, ...], *, required: bool = False) -> Field:
    """An object of booleans (at least one given)."""
    schema = {
        "type": "object",
        "description": description,
        "properties": {flag: {"type": "boolean"} for flag in flags},
        "additionalProperties": False,
    }

    def decode(value: Any, path: str, state: Decoding) -> dict[str, bool]:
        if not isinstance(value, dict):
            raise DecodeError(f'{path} must be an object such as {{"{flags[0]}": true}}, not {kind_of(value)}.')
        out = {}
        for key, flag in value.items():
            if key not in flags:
                state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`: only {', '.join(flags)} apply.")
                continue
            if not isinstance(flag, bool):
                raise DecodeError(f"{path}.{key} must be true or false, not {kind_of(flag)}.")
            out[key] = flag
        if not out:
            raise DecodeError(f"{path} must set at least one of {', '.join(flags)}.")
        return out

    return Field(name, schema, decode, required, description)


def string_list_field(name: str, description: str, *, max_items: int, required: bool = False) -> Field:
    schema = {"type": "array", "items": {"type": "string"}, "maxItems": max_items, "description": description}

    def decode(value: Any, path: str, state: Decoding) -> list[str]:
        if not isinstance(value, list):
            raise DecodeError(f"{path} must be an array of strings, not {kind_of(value)}.")
        if len(value) > max_items:
            raise DecodeError(f"{path} has {len(value):,} entries; at most {max_items:,} are allowed.")
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise DecodeError(f"{path}[{index}] must be a string, not {kind_of(item)}.")
            state.count_text(f"{path}[{index}]", item)
        return list(value)

    return Field(name, schema, decode, required, description)


# -- fields shared by several operation types ------------------------------------------------

RANGE_DESCRIPTION = (
    "A text range copied unchanged from a find_text match: blockId, startOffset and endOffset "
    "(UTF-16 units of the block's text) and selectedTextHash."
)


def _decode_range(value: Any, path: str, state: Decoding) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DecodeError(f"{path} must be the range object of a find_text match, not {kind_of(value)}.")
    out = dict(value)
    if out.get("type", "textRange") != "textRange":
        raise DecodeError(f'{path}.type must be "textRange" (copy the range from find_text).')
    if out.get("story", "main") != "main":
        raise DecodeError(f'{path}.story must be "main": edits apply to the main text only.')
    for key in ("type", "story"):
        if key not in out:
            state.note(f"{path}.{key}", "filledDefault", f"took `{key}` as {'textRange' if key == 'type' else 'main'}.")
    block_id = out.get("blockId")
    if not isinstance(block_id, str) or not block_id:
        raise DecodeError(f"{path}.blockId must be a non-empty string (copy the range from find_text).")
    start, end = out.get("startOffset"), out.get("endOffset")
    for key, number in (("startOffset", start), ("endOffset", end)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise DecodeError(f"{path}.{key} must be a whole number of at least 0.")
    if end <= start:
        raise DecodeError(f"{path}.endOffset must be greater than startOffset.")
    selected = out.get("selectedTextHash")
    if not isinstance(selected, str) or not HASH_PATTERN.match(selected):
        raise DecodeError(f'{path}.selectedTextHash must be the hash find_text gave (like "h1a2b3c").')
    unknown = sorted(set(out) - {"type", "story", "blockId", "startOffset", "endOffset", "selectedTextHash"})
    for key in unknown:
        state.note(f"{path}.{key}", "droppedProperty", f"ignored `{key}`, which a range does not have.")
    return {
        "type": "textRange",
        "story": "main",
        "blockId": block_id,
        "startOffset": start,
        "endOffset": end,
        "selectedTextHash": selected,
    }


RANGE_FIELD = Field(
    "range",
    {
        "type": "object",
        "description": RANGE_DESCRIPTION,
        "properties": {
            "type": {"type": "string", "enum": ["textRange"]},
            "story": {"type": "string", "enum": ["main"]},
            "blockId": {"type": "string", "minLength": 1},
            "startOffset": {"type": "integer", "minimum": 0},
            "endOffset": {"type": "integer", "minimum": 1},
            "selectedTextHash": {"type": "string"},
        },
        "required": ["blockId", "startOffset", "endOffset", "selectedTextHash"],
        "additionalProperties": False,
    },
    _decode_range,
    True,
    RANGE_DESCRIPTION,
)


def _decode_comment(value: Any, path: str, state: Decoding) -> str:
    if isinstance(value, dict) and set(value) == {"text"}:
        state.note(path, "commentObject", "read the comment object {text} as its text.")
        value = value["text"]
    if not isinstance(value, str):
        raise DecodeError(f"{path} must be a string (the comment text), not {kind_of(value)}.")
    if not value.strip():
        raise DecodeError(f"{path} must not be blank; leave it out for no comment.")
    state.count_text(path, value)
    return value


COMMENT_DESCRIPTION = (
    "A comment to attach to the text this operation touches (plain text; a newline starts a new paragraph)."
)
COMMENT_FIELD = Field("comment", {"type": "string", "minLength": 1, "description": COMMENT_DESCRIPTION},
                      _decode_comment, False, COMMENT_DESCRIPTION)  # fmt: skip
REQUIRED_COMMENT_FIELD = COMMENT_FIELD._replace(required=True)


def _decode_precondition(value: Any, path: str, state: Decoding) -> dict[str, str]:
    if isinstance(value, str):
        state.note(path, "preconditionString", "read the string as {blockTextHash}.")
        value = {"blockTextHash": value}
    if not isinstance(value, dict) or set(value) != {"blockTextHash"}:
        raise DecodeError(f'{path} must be {{"blockTextHash": ...}} with the hash read_document gave.')
    block_hash = value["blockTextHash"]
    if not isinstance(block_hash, str) or not HASH_PATTERN.match(block_hash):
        raise DecodeError(f"{path}.blockTextHash must be the blockTextHash read_document or find_text gave.")
    return {"blockTextHash": block_hash}


PRECONDITION_FIELD = Field(
    "precondition",
    {
        "type": "object",
        "description": "Apply only if the target block still has this blockTextHash (echo it from your read).",
        "properties": {"blockTextHash": {"type": "string"}},
        "required": ["blockTextHash"],
        "additionalProperties": False,
    },
    _decode_precondition,
    False,
    "Apply only if the target block still has this blockTextHash.",
)

SEVERITIES = ("low", "medium", "high")
SEVERITY_FIELD = enum_field("severity", "How much this edit matters to a reviewer.", SEVERITIES)
AREA_FIELD = string_field(
    "area", "The review area this edit belongs to (for example \"liability\" or \"style\").",
    non_empty=True, text=False, max_length=200,
)  # fmt: skip
