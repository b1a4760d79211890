"""Values a document gives for its own schemas, against those schemas: defaults and examples.

A ``default`` that is not of its schema's declared type breaks OpenAPI 3.0, which requires the
default to conform to the type of the Schema Object at the same level (``default-type-mismatch``,
an error); anything else its schema refuses (a pattern, an enum, a nested property's type; in
3.1 and later, where the default is a JSON Schema annotation, the type too) is questionable
rather than forbidden (``default-invalid``, a warning). An ``example`` or an Example Object's
``value`` that its schema refuses is a warning (``example-invalid``).

Every schema is compiled once, by jsonschema-rs, as a reference into a registry of the documents
read (``$ref``s followed across files, nothing fetched); OpenAPI 3.0 schemas as draft 4 with
``nullable`` widening ``type``, later ones as JSON Schema 2020-12.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import UnionType
from typing import Any

from .documents import DocumentSet
from .schema_messages import error_messages
from .text import short_json

Finding = tuple[str, str, str]  # (rule, location, message)
# An example that fails its schema in many places is shown by its first few failures.
MESSAGES_PER_VALUE = 3


@dataclass(frozen=True)
class Example:
    location: str  # where the value is (an ``example``, an Example Object's ``value``)
    schema: str  # the location of the schema it illustrates
    value: Any


def value_findings(
    documents: DocumentSet,
    family: str,
    defaults: list[tuple[str, Any]],
    examples: list[Example],
    unchecked: list[str],
) -> list[Finding]:
    """Each schema's ``default`` against that schema (``defaults``: schema location, schema), and
    each example against the schema it illustrates. A part that cannot be checked at all adds a
    sentence to ``unchecked``."""
    if not defaults and not examples:
        return []
    judge = _Judge(documents, family, unchecked)
    return [*_default_findings(judge, family, defaults), *_example_findings(judge, examples)]


def _default_findings(judge: _Judge, family: str, defaults: list[tuple[str, Any]]) -> list[Finding]:
    findings: list[Finding] = []
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
            continue
        errors = judge.errors(location, default)
        if errors is None:
            continue
        for where, message in errors:
            findings.append(
                (
                    "default-invalid",
                    f"{location}/default{where}",
                    f"default {short_json(default)} does not match its schema: {where}{' ' if where else ''}{message}",
                )
            )
    return findings


def _example_findings(judge: _Judge, examples: list[Example]) -> list[Finding]:
    findings: list[Finding] = []
    for example in examples:
        errors = judge.errors(example.schema, example.value)
        if not errors:
            continue
        shown = "; ".join(f"{where}{' ' if where else ''}{message}" for where, message in errors[:MESSAGES_PER_VALUE])
        more = len(errors) - MESSAGES_PER_VALUE
        findings.append(
            (
                "example-invalid",
                example.location + errors[0][0],
                f"the example does not match its schema ({example.schema or '/'}): {shown}"
                + (f" (and {more} more)" if more > 0 else ""),
            )
        )
    return findings


@dataclass
class _Judge:
    """Validators for the schemas of a document set, compiled once per schema location."""

    documents: DocumentSet
    family: str
    unchecked: list[str]
    _registry: Any = None
    _failed: bool = False
    _validators: dict[str, Any] = field(default_factory=dict)

    def errors(self, schema_location: str, value: Any) -> list[tuple[str, str]] | None:
        """``(where in the value, message)`` for each way ``value`` fails the schema at
        ``schema_location``; None when that schema cannot be compiled (it is invalid, which the
        schema pass reports, or refers to a document that was not read)."""
        import jsonschema_rs

        validator = self._validator(schema_location)
        if validator is None:
            return None
        try:
            return error_messages(list(validator.iter_errors(value)))
        except (ValueError, jsonschema_rs.ReferencingError):
            return None

    def _validator(self, location: str) -> Any:
        if location in self._validators:
            return self._validators[location]
        import jsonschema_rs

        from .oas_schemas import refuse_retrieval

        validator = None
        registry = self._registry_once()
        if registry is not None:
            uri, pointer = self.documents.split(location)
            cls = jsonschema_rs.Draft4Validator if self.family == "3.0" else jsonschema_rs.Draft202012Validator
            options: dict[str, Any] = {"validate_formats": True, "retriever": refuse_retrieval}
            if self.family == "3.0":
                options["keywords"] = {"type": _NullableType}  # OpenAPI 3.0's nullable widens type
            try:
                validator = cls({"$ref": f"{uri}#{_uri_fragment(pointer)}"}, registry=registry, **options)
            except (ValueError, jsonschema_rs.ReferencingError):
                validator = None
        self._validators[location] = validator
        return validator

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


class _NullableType:
    """``type`` as OpenAPI 3.0 reads it: ``nullable: true`` beside it also allows null."""

    def __init__(self, parent_schema: dict[str, Any], value: Any, schema_path: Any) -> None:
        # An unknown type name is the schema's own error (reported by the schema pass), not the value's.
        self.types = [t for t in (value if isinstance(value, list) else [value]) if isinstance(t, str) and t in _TYPES]
        self.nullable = parent_schema.get("nullable") is True

    def validate(self, instance: Any) -> None:
        if not self.types or (instance is None and self.nullable):
            return
        if not any(_is_type(instance, name) for name in self.types):
            raise ValueError("must be " + ",".join(self.types))


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
