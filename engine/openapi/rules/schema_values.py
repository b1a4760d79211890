"""Values a document gives for its own schemas, against those schemas: defaults and examples.

A ``default`` that is not of its schema's declared type breaks OpenAPI 3.0, which requires the
default to conform to the type of the Schema Object at the same level (``default-type-mismatch``,
an error); anything else its schema refuses (a pattern, an enum, a nested property's type; in
3.1 and later, where the default is a JSON Schema annotation, the type too) is questionable
rather than forbidden (``default-invalid``, a warning). An ``example`` or an Example Object's
``value`` that its schema refuses is a warning (``example-invalid``).

Every schema is compiled once, by jsonschema-rs, as a reference into a registry of the documents
read (``$ref``s followed across files, nothing fetched), OpenAPI 3.0 schemas as draft 4, later
ones as JSON Schema 2020-12; schemas that are only a ``$ref`` share their target's validator (a
description such as GitHub's has thousands of examples), and so do leaf schemas that validate
alike. OpenAPI 3.0's ``nullable: true`` widens ``type`` to also allow null: the schemas are
compiled with ``type: [T, "null"]`` for those (a Python keyword doing the same made every compile
and validation call back into Python, 5x slower on GitHub's description).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from types import UnionType
from typing import Any

from ... import jsonpointer
from ..document.documents import DocumentSet
from ..document.schema_messages import error_messages
from ..document.text import short_json

Finding = tuple[str, str, str]  # (rule, location, message)
# An example that fails its schema in many places is shown by its first few failures.
MESSAGES_PER_VALUE = 3


@dataclass(frozen=True)
class Example:
    location: str  # where the value is (an ``example``, an Example Object's ``value``, a ``default``)
    schema: str  # the location of the schema it illustrates
    value: Any
    node: Any = None  # the schema at ``schema``, when the walk has it (saves looking it up)
    default: bool = False  # a schema's default, not an example


def value_findings(
    documents: DocumentSet,
    family: str,
    defaults: list[tuple[str, Any]],
    examples: list[Example],
    nullable: list[dict[str, Any]],
    unchecked: list[str],
) -> list[Finding]:
    """Each schema's ``default`` against that schema (``defaults``: schema location, schema), and
    each example against the schema it illustrates. ``nullable`` lists the 3.0 schemas with
    ``nullable: true`` beside a ``type``. A part that cannot be checked at all adds a sentence
    to ``unchecked``."""
    findings: list[Finding] = []
    values: list[Example] = []
    for location, schema in defaults:
        default = schema["default"]
        declared = schema.get("type")
        if family == "3.0" and _wrong_type(default, declared, nullable=schema.get("nullable") is True):
            findings.append(
                (
                    "default-type-mismatch",
                    f"{location}/default",
                    f"default {short_json(default)} is {_type_name(default)}, but its schema's type is {declared}; "
                    "OpenAPI 3.0 requires the default to be of the schema's type",
                )
            )
        else:
            values.append(Example(f"{location}/default", location, default, schema, default=True))
    values += examples
    if not values:
        return findings
    judge = _Judge(documents, family, unchecked)
    # Values that share a validator are checked together, and each validator is dropped once its
    # values are done: a large description compiles thousands, some of a few megabytes.
    with _nullable_as_type(nullable):
        for key, group in groupby(sorted(values, key=judge.key), key=judge.key):
            validator = judge.compile(key)
            if validator is None:
                continue
            for value in group:
                errors = judge.errors(validator, value.value)
                if errors:
                    findings += _describe(value, errors)
    return findings


def _describe(value: Example, errors: list[tuple[str, str]]) -> list[Finding]:
    if value.default:
        quoted = short_json(value.value)
        return [
            (
                "default-invalid",
                value.location + where,
                f"default {quoted} does not match its schema: {where}{' ' if where else ''}{message}",
            )
            for where, message in errors
        ]
    shown = "; ".join(f"{where}{' ' if where else ''}{message}" for where, message in errors[:MESSAGES_PER_VALUE])
    more = len(errors) - MESSAGES_PER_VALUE
    return [
        (
            "example-invalid",
            value.location + errors[0][0],
            f"the example does not match its schema ({value.schema or '/'}): {shown}"
            + (f" (and {more} more)" if more > 0 else ""),
        )
    ]


# Keywords that say nothing about which values a schema accepts.
_ANNOTATIONS = frozenset(("description", "title", "example", "examples", "default", "deprecated", "externalDocs"))
# A schema without references, of at most this much JSON, is compiled on its own and shared with
# every schema that validates the same way (GitHub's description has 2,600 property examples,
# most of them beside a bare type).
_INLINE_LIMIT = 2_000


@dataclass
class _Judge:
    """Validators for the schemas of a document set, compiled once per way of validating."""

    documents: DocumentSet
    family: str
    unchecked: list[str]
    _registry: Any = None
    _failed: bool = False
    _keys: dict[str, tuple[str, Any]] = field(default_factory=dict)
    _inline: dict[str, Any] = field(default_factory=dict)
    _nodes: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Whether any document read has a reference (``$ref`` in its text, quoted in JSON, a key
        # in YAML): without one, every schema compiles on its own.
        self._references = any("$ref" in source.text for source in self.documents.documents.values())

    def key(self, value: Example) -> tuple[str, Any]:
        """What a validator for ``value``'s schema is compiled from: ``("inline", JSON)`` for a
        leaf schema (no subschema; its annotations left out, so that leaves that validate alike
        share one), ``("node", id)`` for any other schema when no document read has a
        reference (a dereferenced description: nothing to resolve, so no registry), else
        ``("ref", location)``, a chain of bare ``$ref``s followed to its end."""
        location = value.schema
        if location not in self._keys:
            node = value.node if value.node is not None else self._node(location)
            self._keys[location] = self._key_of(location, node)
        return self._keys[location]

    def _key_of(self, location: str, node: Any) -> tuple[str, Any]:
        if isinstance(node, dict) and _is_leaf(node):
            rules = {k: v for k, v in node.items() if k not in _ANNOTATIONS and not str(k).startswith("x-")}
            text = json.dumps(rules, sort_keys=True, default=str)
            if '"$' not in text:
                self._inline.setdefault(text, node)
                return ("inline", text)
        if isinstance(node, dict) and not self._references:
            self._nodes[id(node)] = node
            return ("node", id(node))
        return ("ref", self._target(location))

    def compile(self, key: tuple[str, str]) -> Any:
        """The validator of a ``key``; None when the schema does not compile (it is invalid,
        which the schema pass reports, or refers to a document that was not read)."""
        import jsonschema_rs

        from .oas_schemas import refuse_retrieval

        cls = jsonschema_rs.Draft4Validator if self.family == "3.0" else jsonschema_rs.Draft202012Validator
        kind, what = key
        try:
            if kind != "ref":
                schema = self._inline[what] if kind == "inline" else self._nodes.pop(what)
                return cls(schema, validate_formats=True, retriever=refuse_retrieval)
            registry = self._registry_once()
            if registry is None:
                return None
            uri, pointer = self.documents.split(what)
            schema = {"$ref": f"{uri}#{_uri_fragment(pointer)}"}
            return cls(schema, registry=registry, validate_formats=True, retriever=refuse_retrieval)
        except (ValueError, jsonschema_rs.ReferencingError):
            return None

    def errors(self, validator: Any, value: Any) -> list[tuple[str, str]] | None:
        """``(where in the value, message)`` for each way ``value`` fails ``validator``."""
        import jsonschema_rs

        try:
            return error_messages(list(validator.iter_errors(value)))
        except (ValueError, jsonschema_rs.ReferencingError):  # a value the validator cannot take
            return None

    def _node(self, location: str) -> Any:
        try:
            return jsonpointer.resolve(self.documents.data(location), self.documents.split(location)[1])
        except jsonpointer.PointerError:
            return None

    def _target(self, location: str) -> str:
        """Where a chain of schemas made only of a ``$ref`` ends (``location`` itself when the
        schema there is more than a reference, or a reference leads nowhere)."""
        from ...refs import RefError
        from ..document.documents import NotFollowed, Unresolvable

        for _ in range(32):
            node = self._node(location)
            if not (isinstance(node, dict) and len(node) == 1 and isinstance(node.get("$ref"), str)):
                return location
            try:
                location, _ = self.documents.lookup(location, node["$ref"])
            except (RefError, NotFollowed, Unresolvable):
                return location
        return location

    def _registry_once(self) -> Any:
        if self._registry is None and not self._failed:
            import jsonschema_rs

            from .oas_schemas import refuse_retrieval

            draft = jsonschema_rs.Draft4 if self.family == "3.0" else jsonschema_rs.Draft202012
            resources = [(uri, source.data) for uri, source in self.documents.documents.items()]
            try:
                self._registry = jsonschema_rs.Registry(resources, draft=draft, retriever=refuse_retrieval)
            except (ValueError, jsonschema_rs.ReferencingError) as exc:
                self._failed = True
                self.unchecked.append(f"the defaults and examples of its schemas could not be checked: {exc}")
        return self._registry


def _is_leaf(schema: dict[str, Any]) -> bool:
    """Whether a schema has no subschema (and so no reference but its own ``$ref``): no object
    among its values, no list but of scalars."""
    for value in schema.values():
        if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(i, (dict, list)) for i in value)):
            return False
    return True


@contextmanager
def _nullable_as_type(schemas: list[dict[str, Any]]) -> Iterator[None]:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema says it (``type: [T, "null"]``) while
    validators are compiled (jsonschema-rs copies what it compiles): the documents themselves
    are put back as they were."""
    saved = [(schema, schema["type"]) for schema in {id(schema): schema for schema in schemas}.values()]
    try:
        for schema, declared in saved:
            schema["type"] = [declared, "null"]
        yield
    finally:
        for schema, declared in saved:
            schema["type"] = declared


# JSON Schema draft 4 (OpenAPI 3.0's base): an integer is an int, never a float.
_TYPES: dict[str, type | UnionType] = {
    "string": str,
    "integer": int,
    "number": int | float,
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
}


def _is_type(value: Any, name: str) -> bool:
    if isinstance(value, bool):  # a bool is an int to Python, never to JSON Schema
        return name == "boolean"
    return isinstance(value, _TYPES[name])


def _wrong_type(value: Any, declared: Any, *, nullable: bool) -> bool:
    """Whether ``value`` is not of the single ``type`` a 3.0 schema declares (null allowed by
    ``nullable``); False when the type is not one JSON Schema knows (the schema pass says so)."""
    if not isinstance(declared, str) or declared not in _TYPES:
        return False
    return not _is_type(value, declared) and not (value is None and nullable)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    names = {str: "a string", int: "an integer", float: "a number", dict: "an object", list: "an array"}
    return names.get(type(value), type(value).__name__)


def _uri_fragment(pointer: str) -> str:
    from urllib.parse import quote

    return quote(pointer, safe="/~!$&'()*+,;=:@")
