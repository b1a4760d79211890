"""OpenAPI rules that the official JSON Schemas cannot express.

The schemas check each object on its own; these rules look across objects: operationIds are
unique in the document; every ``{name}`` of a path template is declared as a path parameter of
each operation under it, and every path parameter appears in the template; one parameter list
names each (name, in) pair once; tag names are unique; a schema's ``default`` is valid against
that schema; a ``pattern`` is a valid regular expression; a ``required`` beside ``allOf`` names
properties that some part of the schema declares; a local ``$ref`` leads somewhere, and to an
object of the kind expected where it stands. Findings are ``(pointer, message)`` pairs, the
pointer naming the place in the document where the fix goes (never a place reached through a
``$ref``).

Each document is walked once: every Schema Object, wherever the OpenAPI structure allows one
(components, parameters, headers, media types, callbacks, webhooks, and their subschemas), is
visited at its own location; a ``$ref`` is followed to its target, which is visited there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import UnionType
from typing import Any

from .. import jsonpointer
from ..refs import ExternalRefError, RefError, RefResolver
from .oas_schemas import Family
from .schema_messages import error_messages

Finding = tuple[str, str]

_METHODS_BEFORE_32 = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_METHODS_32 = (*_METHODS_BEFORE_32, "query")
_TEMPLATE_NAME = re.compile(r"\{([^{}]+)\}")
# Schema keywords whose value is a map of subschemas, a list of them, or one.
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_SINGLE = (
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_SUBSCHEMA_MAP_SET = frozenset(_SUBSCHEMA_MAPS)
_SUBSCHEMA_OTHER_SET = frozenset((*_SUBSCHEMA_LISTS, *_SUBSCHEMA_SINGLE))
_SCHEMA_KEYWORDS_OF_INTEREST = _SUBSCHEMA_MAP_SET | _SUBSCHEMA_OTHER_SET | {"default", "pattern"}
# The base URI the document is registered under when defaults are checked against its schemas.
_DOCUMENT_URI = "urn:deskcheck:document"


def rule_findings(
    document: dict[str, Any], family: Family, dialect: str | None = None
) -> tuple[list[Finding], list[str], list[Finding]]:
    """Every finding of these rules for ``document`` of OpenAPI ``family``, a sentence for each
    part that could not be checked, and the patterns that need backtracking (their own rule).
    ``dialect`` is the one the document's schemas use."""
    walk = _Walk(document, family.name)
    walk.run()
    findings = list(_duplicate_tags(document))
    findings += walk.findings
    findings += [(site, f'$ref "{ref}" leads nowhere in this document') for site, ref in walk.broken_refs]
    findings += _reference_findings(walk.references, family, dialect)
    findings += _pattern_findings(walk.patterns)
    unchecked: list[str] = []
    findings += _default_findings(document, family.name, walk.defaults, unchecked)
    return findings, unchecked, list(_backtracking_findings(walk.patterns))


@dataclass
class _Operation:
    pointer: str
    method: str
    path: str  # the path template, or the callback / webhook key it sits under
    operation_id: Any
    templated: bool  # under /paths: its path is a template whose names are path parameters
    parameters: list[tuple[str, Any]]  # (pointer, resolved parameter) of the operation
    shared: list[tuple[str, Any]]  # the path item's own parameters


@dataclass
class _Walk:
    document: dict[str, Any]
    family: str
    findings: list[Finding] = field(default_factory=list)
    defaults: list[tuple[str, Any]] = field(default_factory=list)  # (schema pointer, schema)
    patterns: list[tuple[str, str]] = field(default_factory=list)  # (pointer, regular expression)
    operations: list[_Operation] = field(default_factory=list)
    broken_refs: list[tuple[str, str]] = field(default_factory=list)  # (pointer of the $ref, its value)
    # (pointer of the $ref, kind expected there, target pointer, target) outside the kind's section
    references: list[tuple[str, str, str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.resolver = RefResolver(self.document)
        self.methods = _METHODS_32 if self.family == "3.2" else _METHODS_BEFORE_32
        self._seen: set[int] = set()  # objects already visited (shared through $ref or YAML aliases)

    def run(self) -> None:
        document = self.document
        for path, item in _members(document.get("paths")):
            self.path_item(jsonpointer.append("/paths", path), item, path, templated=True)
        for name, item in _members(document.get("webhooks")):
            self.path_item(jsonpointer.append("/webhooks", name), item, name)
        components = document.get("components")
        if isinstance(components, dict):
            visit = {
                "schemas": self.schema,
                "parameters": self.parameter,
                "headers": self.header,
                "requestBodies": self.request_body,
                "responses": self.response,
                "callbacks": self.callback,
            }
            for section, visitor in visit.items():
                for name, value in _members(components.get(section)):
                    visitor(jsonpointer.append("/components", section, name), value)
            for name, item in _members(components.get("pathItems")):
                self.path_item(jsonpointer.append("/components/pathItems", name), item, name)
        self.findings += _operation_id_findings(self.operations)
        for operation in self.operations:
            self.findings += _path_parameter_findings(operation)

    # -- following references ------------------------------------------------------------------

    def _resolve(self, pointer: str, node: Any, kind: str | None = None) -> tuple[str, Any] | None:
        """``(pointer, node)`` with a ``$ref`` chain followed; None when it leads nowhere. A local
        reference that leads nowhere is recorded; so is one that leads to an object of ``kind``
        outside that kind's components section (to be checked as that kind)."""
        site, hops = None, 0
        while isinstance(node, dict) and "$ref" in node and hops < 32:
            site = site or pointer + "/$ref"
            target = self._lookup(pointer + "/$ref", node["$ref"])
            if target is None:
                return None
            pointer, node = target
            hops += 1
        if site is not None and kind is not None and not _in_section(pointer, kind):
            self.references.append((site, kind, pointer, node))
        return pointer, node

    def _lookup(self, site: str, ref: Any) -> tuple[str, Any] | None:
        try:
            return self.resolver.lookup(ref)
        except ExternalRefError:  # never followed; `ref-external` says so where tools need it
            return None
        except RefError:
            if isinstance(ref, str):  # a $ref that is not a string is the schema pass's finding
                self.broken_refs.append((site, ref))
            return None

    def _enter(self, pointer: str, node: Any, kind: str) -> tuple[str, dict[str, Any]] | None:
        """The object at ``pointer`` (references followed) if it is one not visited yet."""
        resolved = self._resolve(pointer, node, kind)
        if resolved is None or not isinstance(resolved[1], dict) or id(resolved[1]) in self._seen:
            return None
        self._seen.add(id(resolved[1]))
        return resolved

    # -- the OpenAPI structure -----------------------------------------------------------------

    def path_item(self, pointer: str, item: Any, path: str, *, templated: bool = False) -> None:
        """A Path Item; ``templated`` when ``path`` is a path template (under ``paths``), not a
        webhook name or a callback expression."""
        entered = self._enter(pointer, item, "pathItem")
        if entered is None:
            return
        pointer, item = entered
        shared = self.parameter_list(pointer + "/parameters", item.get("parameters"))
        operations = [(method, item[method]) for method in self.methods if isinstance(item.get(method), dict)]
        if self.family == "3.2":
            extra = _members(item.get("additionalOperations"))
            operations += [(name, op) for name, op in extra if isinstance(op, dict)]
        for method, operation in operations:
            op_pointer = (
                jsonpointer.append(pointer, method)
                if method in self.methods
                else jsonpointer.append(pointer, "additionalOperations", method)
            )
            own = self.parameter_list(op_pointer + "/parameters", operation.get("parameters"))
            self.operations.append(
                _Operation(op_pointer, method, path, operation.get("operationId"), templated, own, shared)
            )
            self.request_body(op_pointer + "/requestBody", operation.get("requestBody"))
            for code, response in _members(operation.get("responses")):
                self.response(jsonpointer.append(op_pointer, "responses", code), response)
            for name, callback in _members(operation.get("callbacks")):
                self.callback(jsonpointer.append(op_pointer, "callbacks", name), callback)

    def parameter_list(self, pointer: str, parameters: Any) -> list[tuple[str, Any]]:
        """The parameters of one list, resolved, with a finding for each repeated (name, in)."""
        out: list[tuple[str, Any]] = []
        seen: dict[tuple[Any, Any], int] = {}
        for index, parameter in enumerate(parameters if isinstance(parameters, list) else []):
            item_pointer = f"{pointer}/{index}"
            resolved = self._resolve(item_pointer, parameter, "parameter")
            if resolved is None or not isinstance(resolved[1], dict):
                continue
            target = resolved[1]
            out.append((item_pointer, target))
            key = (target.get("name"), target.get("in"))
            if not all(isinstance(part, str) for part in key):
                continue  # not a usable parameter: the schema pass says why
            if key in seen:
                self.findings.append(
                    (
                        item_pointer,
                        f"the {key[1]} parameter '{key[0]}' is listed twice here (see item {seen[key]}); "
                        "a parameter list names each name and location once",
                    )
                )
            seen.setdefault(key, index)
            self.parameter(*resolved)
        return out

    def parameter(self, pointer: str, parameter: Any, kind: str = "parameter") -> None:
        """A Parameter Object or (``kind="header"``) a Header Object: a schema, or content."""
        entered = self._enter(pointer, parameter, kind)
        if entered is None:
            return
        pointer, parameter = entered
        if "schema" in parameter:
            self.schema(pointer + "/schema", parameter["schema"])
        self._content(pointer, parameter)

    def header(self, pointer: str, header: Any) -> None:
        self.parameter(pointer, header, "header")

    def request_body(self, pointer: str, body: Any) -> None:
        entered = self._enter(pointer, body, "requestBody")
        if entered is not None:
            self._content(*entered)

    def response(self, pointer: str, response: Any) -> None:
        entered = self._enter(pointer, response, "response")
        if entered is None:
            return
        pointer, response = entered
        for name, header in _members(response.get("headers")):
            self.header(jsonpointer.append(pointer, "headers", name), header)
        self._content(pointer, response)

    def callback(self, pointer: str, callback: Any) -> None:
        entered = self._enter(pointer, callback, "callback")
        if entered is None:
            return
        pointer, callback = entered
        for expression, item in _members(callback):
            self.path_item(jsonpointer.append(pointer, expression), item, expression)

    def _content(self, pointer: str, holder: dict[str, Any]) -> None:
        """The media types of ``content``: each one's schema and its encodings' headers."""
        for media, entry in _members(holder.get("content")):
            if not isinstance(entry, dict):
                continue
            entry_pointer = jsonpointer.append(pointer, "content", media)
            if "schema" in entry:
                self.schema(entry_pointer + "/schema", entry["schema"])
            for name, encoding in _members(entry.get("encoding")):
                if isinstance(encoding, dict):
                    for header, value in _members(encoding.get("headers")):
                        self.header(jsonpointer.append(entry_pointer, "encoding", name, "headers", header), value)

    # -- schemas -------------------------------------------------------------------------------

    def schema(self, pointer: str, node: Any) -> None:
        # Paths stay token tuples and are joined only where something is recorded: a large
        # document has thousands of schema nodes and few defaults or patterns.
        stack: list[tuple[str, tuple[Any, ...], Any]] = [(pointer, (), node)]
        while stack:
            base, path, schema = stack.pop()
            if not isinstance(schema, dict) or id(schema) in self._seen:
                continue
            self._seen.add(id(schema))
            if "$ref" in schema:
                # One step: the target is visited at its own place (and may refer on from there).
                target = self._lookup(base + jsonpointer.join((*path, "$ref")), schema["$ref"])
                if target is not None:
                    stack.append((target[0], (), target[1]))
                if self.family == "3.0":  # keywords beside a $ref are ignored in 3.0, applied from 3.1
                    continue
            keywords = schema.keys() & _SCHEMA_KEYWORDS_OF_INTEREST
            if not keywords:
                continue
            if "default" in keywords and not (schema["default"] is None and schema.get("nullable") is True):
                self.defaults.append((base + jsonpointer.join(path), schema))
            if "pattern" in keywords and isinstance(schema["pattern"], str):
                self.patterns.append((base + jsonpointer.join((*path, "pattern")), schema["pattern"]))
            if "allOf" in keywords and isinstance(schema.get("required"), list):
                self.findings += self._undeclared_required(base + jsonpointer.join(path), schema)
            for key in keywords & _SUBSCHEMA_MAP_SET:
                value = schema[key]
                if isinstance(value, dict):
                    stack.extend((base, (*path, key, name), sub) for name, sub in value.items())
                    if key == "patternProperties":
                        self.patterns += [(base + jsonpointer.join((*path, key, name)), name) for name in value]
            for key in keywords & _SUBSCHEMA_OTHER_SET:
                value = schema[key]
                if isinstance(value, list):  # composition keywords, and tuple-form items
                    stack.extend((base, (*path, key, index), sub) for index, sub in enumerate(value))
                elif isinstance(value, dict):
                    stack.append((base, (*path, key), value))

    def _undeclared_required(self, where: str, schema: dict[str, Any]) -> list[Finding]:
        declared = self._property_names(schema, set())
        missing = [name for name in schema["required"] if isinstance(name, str) and name not in declared]
        if not missing:
            return []
        names = ", ".join(f"'{name}'" for name in missing)
        return [
            (
                where + "/required",
                f"required names {names}, which neither this schema nor any schema of its allOf declares "
                "under properties",
            )
        ]

    def _property_names(self, schema: Any, seen: set[int]) -> set[str]:
        """Property names a schema declares itself or through allOf/anyOf/oneOf/items/not."""
        hops = 0
        while isinstance(schema, dict) and "$ref" in schema and hops < 32:
            try:
                schema = self.resolver.lookup(schema["$ref"])[1]
            except RefError:  # reported where the walk meets it
                return set()
            hops += 1
        if not isinstance(schema, dict) or id(schema) in seen:
            return set()
        seen.add(id(schema))
        properties = schema.get("properties")
        names = set(properties) if isinstance(properties, dict) else set()
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in schema.get(key) if isinstance(schema.get(key), list) else []:
                names |= self._property_names(sub, seen)
        for key in ("items", "not"):
            names |= self._property_names(schema.get(key), seen)
        return names


def _members(value: Any) -> Iterator[tuple[str, Any]]:
    """The members of an object (nothing for anything else), extensions (``x-``) left out."""
    if isinstance(value, dict):
        for key, member in value.items():
            if isinstance(key, str) and not key.startswith("x-"):
                yield key, member


# -- references to the wrong kind of object ---------------------------------------------------------

# Where each kind of object lives in components, its definition in each schema, and its name.
_SECTIONS = {
    "parameter": "parameters",
    "header": "headers",
    "requestBody": "requestBodies",
    "response": "responses",
    "callback": "callbacks",
    "pathItem": "pathItems",
}
_DEFINITIONS_30 = {
    "parameter": "Parameter",
    "header": "Header",
    "requestBody": "RequestBody",
    "response": "Response",
    "callback": "Callback",
    "pathItem": "PathItem",
}
_DEFINITIONS = {
    "parameter": "parameter",
    "header": "header",
    "requestBody": "request-body",
    "response": "response",
    "callback": "callbacks",
    "pathItem": "path-item",
}
_LABELS = {
    "parameter": "Parameter Object",
    "header": "Header Object",
    "requestBody": "Request Body Object",
    "response": "Response Object",
    "callback": "Callback Object",
    "pathItem": "Path Item Object",
}


def _in_section(pointer: str, kind: str) -> bool:
    """Whether ``pointer`` names an entry of the components section for ``kind`` (where the
    document schema already checks it as that kind)."""
    tokens = pointer.split("/")
    return len(tokens) == 4 and tokens[1] == "components" and tokens[2] == _SECTIONS[kind]


def _reference_findings(
    references: list[tuple[str, str, str, Any]], family: Family, dialect: str | None
) -> Iterator[Finding]:
    """A reference whose target, found outside its kind's components section, is not an object
    of that kind (a parameter that points at a schema, a response at a parameter)."""
    from .oas_schemas import ANY_DIALECT, UnknownDialect, part_validator

    definitions = _DEFINITIONS_30 if family.name == "3.0" else _DEFINITIONS
    verdicts: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for site, kind, target_pointer, target in references:
        if (kind, target_pointer) not in verdicts:
            try:
                validator = part_validator(family, definitions[kind], dialect)
            except UnknownDialect:
                validator = part_validator(family, definitions[kind], ANY_DIALECT)
            verdicts[kind, target_pointer] = error_messages(validator.iter_errors(target))
        messages = verdicts[kind, target_pointer]
        if messages:
            # A missing required member says best what kind of object the target is not.
            where, message = min(messages, key=lambda pair: not pair[1].startswith("must have required"))
            more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
            yield (
                site,
                f"$ref leads to {target_pointer or '/'}, which is not a {_LABELS[kind]}: "
                f"{where or '/'} {message}{more}",
            )


# -- across operations -----------------------------------------------------------------------------


def _operation_id_findings(operations: list[_Operation]) -> Iterator[Finding]:
    first: dict[str, _Operation] = {}
    for operation in operations:
        name = operation.operation_id
        if not isinstance(name, str):
            continue
        if name in first:
            other = first[name]
            yield (
                operation.pointer + "/operationId",
                f"operationId '{name}' is also the id of {other.method.upper()} {other.path}; "
                "each operation needs its own",
            )
        first.setdefault(name, operation)


def _path_parameter_findings(operation: _Operation) -> Iterator[Finding]:
    if not operation.templated:
        return
    in_template = set(_TEMPLATE_NAME.findall(operation.path))
    declared: dict[str, str] = {}
    # The operation's own parameters override the path item's of the same name and location.
    for pointer, parameter in (*operation.parameters, *operation.shared):
        if parameter.get("in") == "path" and isinstance(parameter.get("name"), str):
            declared.setdefault(parameter["name"], pointer)
    for name in sorted(in_template - set(declared)):
        yield (
            operation.pointer,
            f"the path {operation.path} has {{{name}}}, but {operation.method.upper()} declares no path "
            f"parameter '{name}', neither itself nor on the path",
        )
    for name in sorted(set(declared) - in_template):
        yield (declared[name], f"the path parameter '{name}' does not appear in the path {operation.path}")


def _duplicate_tags(document: dict[str, Any]) -> Iterator[Finding]:
    tags = document.get("tags")
    seen: dict[str, int] = {}
    for index, tag in enumerate(tags if isinstance(tags, list) else []):
        name = tag.get("name") if isinstance(tag, dict) else None
        if not isinstance(name, str):
            continue
        if name in seen:
            yield (
                f"/tags/{index}/name",
                f"the tag '{name}' is declared twice (see tag {seen[name]}); tag names must be unique",
            )
        seen.setdefault(name, index)


def _pattern_findings(patterns: list[tuple[str, str]]) -> Iterator[Finding]:
    # Python's re, as many Python tools read patterns (deskcheck's own validation reads them with
    # jsonschema-rs, or in JavaScript when that refuses one).
    verdicts: dict[str, str | None] = {}
    for pointer, pattern in patterns:
        if pattern not in verdicts:
            try:
                re.compile(pattern)
                verdicts[pattern] = None
            except (re.error, RecursionError, OverflowError) as exc:
                verdicts[pattern] = str(exc)
        if verdicts[pattern] is not None:
            yield pointer, f"{_short(pattern)} is not a valid regular expression ({verdicts[pattern]})"


def _backtracking_findings(patterns: list[tuple[str, str]]) -> Iterator[Finding]:
    from ..forms.patterns import BACKTRACK_LIMIT, needs_backtracking

    for pointer, pattern in patterns:
        if needs_backtracking(pattern):
            yield (
                pointer,
                f"the pattern {_short(pattern)} needs backtracking (a back-reference or look-around): on a long "
                "value a backtracking validator can take exponential time. deskcheck gives such a value at most "
                f"{BACKTRACK_LIMIT:,} steps and reports it as not checked beyond that; write the pattern without "
                "back-references and look-around if you can.",
            )


# -- defaults ----------------------------------------------------------------------------------------


def _default_findings(
    document: dict[str, Any], family: str, defaults: list[tuple[str, Any]], unchecked: list[str]
) -> list[Finding]:
    """Each schema's ``default`` against that schema, ``$ref``s followed inside the document."""
    if not defaults:
        return []
    import jsonschema_rs

    from .oas_schemas import refuse_retrieval

    draft = jsonschema_rs.Draft4 if family == "3.0" else jsonschema_rs.Draft202012
    validator_class = jsonschema_rs.Draft4Validator if family == "3.0" else jsonschema_rs.Draft202012Validator
    options: dict[str, Any] = {"validate_formats": True, "retriever": refuse_retrieval}
    if family == "3.0":
        options["keywords"] = {"type": _NullableType}  # OpenAPI 3.0's nullable widens type
    try:
        registry = jsonschema_rs.Registry([(_DOCUMENT_URI, document)], draft=draft, retriever=refuse_retrieval)
    except (ValueError, jsonschema_rs.ReferencingError) as exc:
        unchecked.append(f"the defaults of its schemas could not be checked: {exc}")
        return []
    findings: list[Finding] = []
    for pointer, schema in defaults:
        try:
            validator = validator_class(
                {"$ref": f"{_DOCUMENT_URI}#{_uri_fragment(pointer)}"}, registry=registry, **options
            )
            errors = list(validator.iter_errors(schema["default"]))
        except (ValueError, jsonschema_rs.ReferencingError):
            # The schema itself does not compile: it is invalid (the schema pass says where) or
            # refers outside the document (never fetched). Its default cannot be judged.
            continue
        for where, message in error_messages(errors):
            findings.append(
                (
                    f"{pointer}/default{where}",
                    f"default {_short(schema['default'])} does not match its schema: {where or ''}"
                    f"{' ' if where else ''}{message}",
                )
            )
    return findings


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


def _uri_fragment(pointer: str) -> str:
    from urllib.parse import quote

    return quote(pointer, safe="/~!$&'()*+,;=:@")


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
