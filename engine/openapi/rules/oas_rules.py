"""OpenAPI rules that the official JSON Schemas cannot express.

The schemas check each object on its own; these rules look across objects: operationIds are
unique in the document; every ``{name}`` of a path template is declared as a path parameter of
each operation under it, and every path parameter appears in the template; one parameter list
names each (name, in) pair once; tag names are unique; a schema's ``default`` is valid against
that schema; a ``pattern`` is a valid regular expression; a ``required`` beside ``allOf`` names
properties that some part of the schema declares; a ``$ref`` leads somewhere (in the document, or
in another file it names: ``documents``), and to an object of the kind expected where it stands.
Findings are ``(rule, location, message)``, the location naming the place where the fix goes.

Each document is walked once: every object the OpenAPI structure allows (path items, operations,
parameters, headers, bodies, responses, callbacks, examples, links, security schemes, webhooks,
and every Schema Object with its subschemas) is visited at its own location; a ``$ref`` is
followed to its target, which is visited there, in whichever file it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ... import jsonpointer
from ...refs import RefError
from ..document.documents import DocumentSet, NotFollowed, Unresolvable
from ..document.schema_messages import error_messages
from ..document.text import short_json
from .oas_schemas import Family
from .schema_values import Example, value_findings

Finding = tuple[str, str, str]  # (rule, location, message)

_METHODS_BEFORE_32 = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_METHODS_32 = (*_METHODS_BEFORE_32, "query")
# RFC 9110's token: what an HTTP field name is made of.
_HEADER_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_MAX_HOPS = 32  # references followed from one place before the chain is taken for a loop
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
_VALUE_KEYWORDS = frozenset(("default", "pattern", "example", "examples", "nullable"))
_SCHEMA_KEYWORDS_OF_INTEREST = _SUBSCHEMA_MAP_SET | _SUBSCHEMA_OTHER_SET | _VALUE_KEYWORDS


def rule_findings(
    documents: DocumentSet, family: Family, dialect: str | None = None
) -> tuple[list[Finding], list[str]]:
    """Every finding of these rules for the document of OpenAPI ``family`` (and the other files
    its references lead to), and a sentence for each part that could not be checked. ``dialect``
    is the one the document's schemas use."""
    document = documents.root.data
    walk = _Walk(documents, family.name)
    walk.run()
    findings = list(_duplicate_tags(document))
    findings += walk.findings
    findings += _reference_findings(walk.references, family, dialect)
    findings += _pattern_findings(walk.patterns)
    if family.name != "3.0":
        findings += _server_variable_findings(walk.servers)
    unchecked: list[str] = []
    findings += value_findings(documents, family.name, walk.defaults, walk.examples, walk.nullable, unchecked)
    findings += _backtracking_findings(walk.patterns)
    return findings, unchecked


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
    documents: DocumentSet
    family: str
    findings: list[Finding] = field(default_factory=list)
    defaults: list[tuple[str, Any]] = field(default_factory=list)  # (schema location, schema)
    patterns: list[tuple[str, str]] = field(default_factory=list)  # (location, regular expression)
    operations: list[_Operation] = field(default_factory=list)
    # (location of the $ref, kind expected there, target location, target) outside the kind's section
    references: list[tuple[str, str, str, Any]] = field(default_factory=list)
    servers: list[tuple[str, Any]] = field(default_factory=list)  # (location, Server Object)
    examples: list[Example] = field(default_factory=list)
    nullable: list[dict[str, Any]] = field(default_factory=list)  # 3.0 schemas: nullable beside a type

    def __post_init__(self) -> None:
        self.document = self.documents.root.data
        self.methods = _METHODS_32 if self.family == "3.2" else _METHODS_BEFORE_32
        self._seen: set[int] = set()  # objects already visited (shared through $ref or YAML aliases)
        self._not_followed: set[str] = set()  # documents already reported as not followed

    def run(self) -> None:
        document = self.document
        self._servers("", document)
        for path, item in _members(document.get("paths")):
            self.path_item(jsonpointer.append("/paths", path), item, path, templated=True)
        self.findings += _identical_path_findings(document.get("paths"))
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
                "examples": self.example,
                "links": self.link,
                "securitySchemes": self.security_scheme,
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
        """``(location, node)`` with a ``$ref`` chain followed; None when it leads nowhere. A
        reference that leads nowhere is reported; one that leads to an object of ``kind`` outside
        that kind's components section is recorded (to be checked as that kind)."""
        site, trail = None, [pointer]
        while isinstance(node, dict) and "$ref" in node:
            if kind is not None and kind != "pathItem":  # a Path Item's $ref is one of its fields
                self._ignored_siblings(pointer, node, keep=("summary", "description"))
            site = site or pointer + "/$ref"
            target = self._lookup(pointer + "/$ref", node["$ref"])
            if target is None:
                return None
            pointer, node = target
            if pointer in trail or len(trail) > _MAX_HOPS:
                # Reported once, at the reference that closes the loop: that is where to fix it.
                loop = trail[trail.index(pointer) :] if pointer in trail else trail
                self.findings.append(
                    (
                        "ref-unresolvable",
                        trail[-1] + "/$ref",
                        "this $ref never leads to an object: the references go round in a loop ("
                        + " -> ".join(location or "/" for location in (*loop, pointer))
                        + ")",
                    )
                )
                return None
            trail.append(pointer)
        if site is not None and kind is not None and not _in_section(pointer, kind):
            self.references.append((site, kind, pointer, node))
        return pointer, node

    def _lookup(self, site: str, ref: Any) -> tuple[str, Any] | None:
        try:
            return self.documents.lookup(site, ref)
        except NotFollowed as exc:
            # Once per document not read: its other references add nothing.
            if str(exc) not in self._not_followed:
                self._not_followed.add(str(exc))
                self.findings.append(("ref-not-followed", site, str(exc)))
        except Unresolvable as exc:
            self.findings.append(("ref-unresolvable", site, f'$ref "{ref}" leads nowhere: {exc}'))
        except RefError as exc:
            if isinstance(ref, str):  # a $ref that is not a string is the schema pass's finding
                self.findings.append(("ref-unresolvable", site, exc.message.rstrip(".")))
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
        self._servers(pointer, item)
        shared = self.parameter_list(pointer + "/parameters", item.get("parameters"))
        operations = [(method, item[method]) for method in self.methods if isinstance(item.get(method), dict)]
        if self.family == "3.2":
            extra = _members(item.get("additionalOperations"))
            operations += [(name, op) for name, op in extra if isinstance(op, dict)]
        if templated and not operations:
            self.findings += _stray_path_parameters(path, shared)
        for method, operation in operations:
            op_pointer = (
                jsonpointer.append(pointer, method)
                if method in self.methods
                else jsonpointer.append(pointer, "additionalOperations", method)
            )
            if "$ref" in operation:
                # Not a place the specification takes a reference (the schema pass says so); tools
                # that bundle documents follow it, so its target is checked all the same.
                resolved = self._resolve(op_pointer, operation)
                if resolved is None or not isinstance(resolved[1], dict) or id(resolved[1]) in self._seen:
                    continue
                self._seen.add(id(resolved[1]))
                op_pointer, operation = resolved
            self._servers(op_pointer, operation)
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
                        "parameter-duplicate",
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
        name = parameter.get("name")
        if kind == "parameter" and parameter.get("in") == "header" and isinstance(name, str):
            self._header_name(pointer + "/name", name)
        if "schema" in parameter:
            self.schema(pointer + "/schema", parameter["schema"])
        self._content(pointer, parameter)
        self._examples(pointer, parameter)

    def _header_name(self, pointer: str, name: str) -> None:
        if not _HEADER_NAME.match(name):
            self.findings.append(
                (
                    "header-name-invalid",
                    pointer,
                    f"{short_json(name)} is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only, no "
                    "spaces or separators)",
                )
            )

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
            self._header_name(jsonpointer.append(pointer, "headers", name), name)
            self.header(jsonpointer.append(pointer, "headers", name), header)
        self._content(pointer, response)
        for name, link in _members(response.get("links")):
            self.link(jsonpointer.append(pointer, "links", name), link)

    def callback(self, pointer: str, callback: Any) -> None:
        entered = self._enter(pointer, callback, "callback")
        if entered is None:
            return
        pointer, callback = entered
        for expression, item in _members(callback):
            self.path_item(jsonpointer.append(pointer, expression), item, expression)

    def example(self, pointer: str, example: Any) -> None:
        self._enter(pointer, example, "example")

    def link(self, pointer: str, link: Any) -> None:
        entered = self._enter(pointer, link, "link")
        if entered is not None and isinstance(entered[1].get("server"), dict):
            self.servers.append((entered[0] + "/server", entered[1]["server"]))

    def _servers(self, pointer: str, holder: dict[str, Any]) -> None:
        servers = holder.get("servers")
        for index, server in enumerate(servers if isinstance(servers, list) else []):
            if isinstance(server, dict):
                self.servers.append((f"{pointer}/servers/{index}", server))

    def security_scheme(self, pointer: str, scheme: Any) -> None:
        self._enter(pointer, scheme, "securityScheme")

    def _examples(self, pointer: str, holder: dict[str, Any], media: str | None = None) -> None:
        """The Example Objects of a parameter, header or media type, and (when it has a schema)
        its example values to check against that schema. A string example of a media type that
        is not JSON is a serialized payload (XML, CSV), not checked."""
        schema = holder.get("schema")
        if isinstance(schema, dict) and "example" in holder:
            self._example_value(pointer + "/example", holder["example"], pointer, schema, media)
        for name, example in _members(holder.get("examples")):
            resolved = self._resolve(jsonpointer.append(pointer, "examples", name), example, "example")
            if resolved is None:
                continue
            self.example(*resolved)
            location, target = resolved
            if isinstance(schema, dict) and isinstance(target, dict) and "value" in target:
                self._example_value(location + "/value", target["value"], pointer, schema, media)

    def _example_value(self, location: str, value: Any, holder: str, schema: Any, media: str | None) -> None:
        if isinstance(value, str) and media is not None and not _is_json_media(media):
            return
        self.examples.append(Example(location, holder + "/schema", value, schema))

    def _ignored_siblings(self, pointer: str, node: dict[str, Any], keep: tuple[str, ...]) -> None:
        """Members beside ``$ref`` that the reference replaces: every one in OpenAPI 3.0, all but
        ``keep`` later (extensions are left to the tools that read them)."""
        kept = () if self.family == "3.0" else keep
        ignored = [k for k in node if k != "$ref" and k not in kept and not (isinstance(k, str) and k.startswith("x-"))]
        if not ignored:
            return
        names = ", ".join(str(k) for k in ignored)
        if self.family == "3.0":
            version = "OpenAPI 3.0 ignores every member beside a $ref"
        else:
            version = "beside a $ref, a Reference Object keeps only summary and description"
        self.findings.append(
            (
                "ref-siblings-ignored",
                jsonpointer.append(pointer, str(ignored[0])),
                f"{names} {'is' if len(ignored) == 1 else 'are'} ignored: {version}. Move "
                f"{'it' if len(ignored) == 1 else 'them'} into the target, or wrap the reference in allOf",
            )
        )

    def _content(self, pointer: str, holder: dict[str, Any]) -> None:
        """The media types of ``content``: each one's schema, examples and encodings' headers."""
        for media, entry in _members(holder.get("content")):
            if not isinstance(entry, dict):
                continue
            entry_pointer = jsonpointer.append(pointer, "content", media)
            if "schema" in entry:
                self.schema(entry_pointer + "/schema", entry["schema"])
            self._examples(entry_pointer, entry, media)
            for name, encoding in _members(entry.get("encoding")):
                if isinstance(encoding, dict):
                    for header, value in _members(encoding.get("headers")):
                        where = jsonpointer.append(entry_pointer, "encoding", name, "headers", header)
                        self._header_name(where, header)
                        self.header(where, value)

    # -- schemas -------------------------------------------------------------------------------

    def schema(self, pointer: str, node: Any) -> None:
        # Paths stay token tuples and are joined only where something is recorded: a large
        # document has thousands of schema nodes and few defaults or patterns. ``scope`` is the
        # location of the nearest enclosing schema with an $id (from 3.1): references inside it
        # resolve against that resource, not the document.
        stack: list[tuple[str, tuple[Any, ...], Any, str | None]] = [(pointer, (), node, None)]
        while stack:
            base, path, schema, scope = stack.pop()
            if not isinstance(schema, dict) or id(schema) in self._seen:
                continue
            self._seen.add(id(schema))
            if self.family != "3.0" and isinstance(schema.get("$id"), str):
                scope = base + jsonpointer.join(path)
            if "$ref" in schema:
                # One step: the target is visited at its own place (and may refer on from there).
                site = base + jsonpointer.join((*path, "$ref"))
                ref = schema["$ref"]
                target = self._lookup(site, ref) if scope is None else self._in_resource(scope, site, ref)
                if target is not None:
                    if _external(target[0]):  # nothing else checks a schema in another file
                        self.references.append((site, "schema", *target))
                    stack.append((target[0], (), target[1], scope))
                if self.family == "3.0":  # keywords beside a $ref are ignored in 3.0, applied from 3.1
                    self._ignored_siblings(base + jsonpointer.join(path), schema, keep=())
                    continue
            keywords = schema.keys() & _SCHEMA_KEYWORDS_OF_INTEREST
            if not keywords:
                continue
            if "default" in keywords and not (schema["default"] is None and schema.get("nullable") is True):
                self.defaults.append((base + jsonpointer.join(path), schema))
            if (
                "nullable" in keywords
                and self.family == "3.0"
                and schema["nullable"] is True
                and isinstance(schema.get("type"), str)
            ):
                self.nullable.append(schema)
            if "example" in keywords or "examples" in keywords:
                self._schema_examples(base + jsonpointer.join(path), schema)
            if "pattern" in keywords and isinstance(schema["pattern"], str):
                self.patterns.append((base + jsonpointer.join((*path, "pattern")), schema["pattern"]))
            if "allOf" in keywords and isinstance(schema.get("required"), list):
                self.findings += self._undeclared_required(base + jsonpointer.join(path), schema)
            for key in keywords & _SUBSCHEMA_MAP_SET:
                value = schema[key]
                if isinstance(value, dict):
                    stack.extend((base, (*path, key, name), sub, scope) for name, sub in value.items())
                    if key == "patternProperties":
                        self.patterns += [(base + jsonpointer.join((*path, key, name)), name) for name in value]
            for key in keywords & _SUBSCHEMA_OTHER_SET:
                value = schema[key]
                if isinstance(value, list):  # composition keywords, and tuple-form items
                    stack.extend((base, (*path, key, index), sub, scope) for index, sub in enumerate(value))
                elif isinstance(value, dict):
                    stack.append((base, (*path, key), value, scope))

    def _schema_examples(self, where: str, schema: dict[str, Any]) -> None:
        """A Schema Object's ``example`` (OpenAPI 3.0; deprecated later) and, from 3.1, its JSON
        Schema ``examples`` array."""
        if "example" in schema:
            self.examples.append(Example(where + "/example", where, schema["example"], schema))
        if self.family != "3.0" and isinstance(schema.get("examples"), list):
            self.examples += [
                Example(f"{where}/examples/{index}", where, value, schema)
                for index, value in enumerate(schema["examples"])
            ]

    def _in_resource(self, scope: str, site: str, ref: Any) -> tuple[str, Any] | None:
        """A reference inside a schema resource with its own $id: a JSON pointer fragment is
        followed inside that resource; anything else resolves against the $id's URI, which
        deskcheck does not fetch, and is left unchecked."""
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            return None
        uri, root = self.documents.split(scope)
        pointer = root + unquote(ref[1:])
        try:
            target = jsonpointer.resolve(self.documents.documents[uri].data, pointer)
        except jsonpointer.PointerError:
            self.findings.append(
                ("ref-unresolvable", site, f'$ref "{ref}" leads nowhere in the schema resource whose $id is at {root}')
            )
            return None
        return self.documents.location(uri, pointer), target

    def _undeclared_required(self, where: str, schema: dict[str, Any]) -> list[Finding]:
        declared = self._property_names(where, schema, set())
        missing = [name for name in schema["required"] if isinstance(name, str) and name not in declared]
        if not missing:
            return []
        names = ", ".join(f"'{name}'" for name in missing)
        return [
            (
                "required-undeclared",
                where + "/required",
                f"required names {names}, which neither this schema nor any schema of its allOf declares "
                "under properties",
            )
        ]

    def _property_names(self, where: str, schema: Any, seen: set[int]) -> set[str]:
        """Property names a schema declares itself or through allOf/anyOf/oneOf/items/not."""
        hops = 0
        while isinstance(schema, dict) and "$ref" in schema and hops < 32:
            try:
                where, schema = self.documents.lookup(where, schema["$ref"])
            except (RefError, NotFollowed, Unresolvable):  # reported where the walk meets it
                return set()
            hops += 1
        if not isinstance(schema, dict) or id(schema) in seen:
            return set()
        seen.add(id(schema))
        properties = schema.get("properties")
        names = set(properties) if isinstance(properties, dict) else set()
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in schema.get(key) if isinstance(schema.get(key), list) else []:
                names |= self._property_names(where, sub, seen)
        for key in ("items", "not"):
            names |= self._property_names(where, schema.get(key), seen)
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
    "example": "examples",
    "link": "links",
    "securityScheme": "securitySchemes",
}
_DEFINITIONS_30 = {
    "parameter": "Parameter",
    "header": "Header",
    "requestBody": "RequestBody",
    "response": "Response",
    "callback": "Callback",
    "pathItem": "PathItem",
    "example": "Example",
    "link": "Link",
    "securityScheme": "SecurityScheme",
    "schema": "Schema",
}
_DEFINITIONS = {
    "parameter": "parameter",
    "header": "header",
    "requestBody": "request-body",
    "response": "response",
    "callback": "callbacks",
    "pathItem": "path-item",
    "example": "example",
    "link": "link",
    "securityScheme": "security-scheme",
    "schema": "schema",
}
_LABELS = {
    "parameter": "Parameter Object",
    "header": "Header Object",
    "requestBody": "Request Body Object",
    "response": "Response Object",
    "callback": "Callback Object",
    "pathItem": "Path Item Object",
    "example": "Example Object",
    "link": "Link Object",
    "securityScheme": "Security Scheme Object",
    "schema": "Schema Object",
}


def _in_section(pointer: str, kind: str) -> bool:
    """Whether ``pointer`` names an entry of the components section for ``kind`` (where the
    document schema already checks it as that kind)."""
    tokens = pointer.split("/")
    return len(tokens) == 4 and tokens[1] == "components" and tokens[2] == _SECTIONS[kind]


def _reference_findings(
    references: list[tuple[str, str, str, Any]], family: Family, dialect: str | None
) -> Iterator[Finding]:
    """A reference whose target is not an object of the kind its place expects. A target in the
    document outside its kind's components section (a parameter that points at a schema) is
    reported at the reference: the reference is what to fix. A target in another file, which
    nothing else validates, is reported where it is wrong, once."""
    from .oas_schemas import ANY_DIALECT, UnknownDialect, part_validator

    definitions = _DEFINITIONS_30 if family.name == "3.0" else _DEFINITIONS
    verdicts: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for site, kind, target_location, target in references:
        key = (kind, target_location)
        if key in verdicts:
            if _external(target_location):
                continue
        else:
            try:
                validator = part_validator(family, definitions[kind], dialect)
            except UnknownDialect:
                validator = part_validator(family, definitions[kind], ANY_DIALECT)
            verdicts[key] = error_messages(validator.iter_errors(target))
        messages = verdicts[key]
        if not messages:
            continue
        if _external(target_location):
            from .misplaced_refs import misplaced_message, misplaced_reference

            for where, message in messages:
                misplaced = misplaced_reference(target, where)
                if misplaced is not None:
                    ref = jsonpointer.resolve(target, misplaced)
                    yield "ref-not-allowed", target_location + misplaced, misplaced_message(ref)
                else:
                    yield "openapi-schema", target_location + where, f"{_LABELS[kind]}: {message}"
            continue
        # A missing required member says best what kind of object the target is not.
        where, message = min(messages, key=lambda pair: not pair[1].startswith("must have required"))
        more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
        yield (
            "ref-wrong-kind",
            site,
            f"$ref leads to {target_location or '/'}, which is not a {_LABELS[kind]}: {where or '/'} {message}{more}",
        )


def _external(location: str) -> bool:
    """Whether ``location`` is in another file than the document (see ``documents``)."""
    return not (location == "" or location.startswith("/"))


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
                "operation-id-duplicate",
                operation.pointer + "/operationId",
                f"operationId '{name}' is also the id of {other.method.upper()} {other.path}; "
                "each operation needs its own",
            )
        first.setdefault(name, operation)


def _path_parameter_findings(operation: _Operation) -> Iterator[Finding]:
    if not operation.templated:
        return
    in_template = set(_TEMPLATE_NAME.findall(operation.path))
    # The operation's own parameters override the path item's of the same name and location.
    declared = _path_parameters((*operation.parameters, *operation.shared))
    for name in sorted(in_template - set(declared)):
        yield (
            "path-parameter-undeclared",
            operation.pointer,
            f"the path {operation.path} has {{{name}}}, but {operation.method.upper()} declares no path "
            f"parameter '{name}', neither itself nor on the path",
        )
    yield from _stray_path_parameters(operation.path, (*operation.parameters, *operation.shared))


def _stray_path_parameters(path: str, parameters: Sequence[tuple[str, Any]]) -> Iterator[Finding]:
    """A path parameter (of an operation, or of the path item, with or without operations)
    that names no template expression of ``path``."""
    in_template = set(_TEMPLATE_NAME.findall(path))
    declared = _path_parameters(parameters)
    for name in sorted(set(declared) - in_template):
        yield (
            "path-parameter-not-in-path",
            declared[name],
            f"the path parameter '{name}' does not appear in the path {path}",
        )


def _path_parameters(parameters: Sequence[tuple[str, Any]]) -> dict[str, str]:
    """Name → pointer of each path parameter, the first of a name winning."""
    declared: dict[str, str] = {}
    for pointer, parameter in parameters:
        if parameter.get("in") == "path" and isinstance(parameter.get("name"), str):
            declared.setdefault(parameter["name"], pointer)
    return declared


def _identical_path_findings(paths: Any) -> Iterator[Finding]:
    """Path templates that differ only in the names of their expressions (``/users/{id}`` and
    ``/users/{name}``): they match the same requests."""
    first: dict[str, str] = {}
    for path, _ in _members(paths):
        if "{" not in path:
            continue
        shape = _TEMPLATE_NAME.sub("{}", path)
        if shape in first:
            yield (
                "path-template-duplicate",
                jsonpointer.append("/paths", path),
                f"the path {path} matches the same requests as {first[shape]}: they differ only in the names of "
                "their parameters, which the specification forbids. Merge them, or make one of them literal",
            )
        first.setdefault(shape, path)


def _is_json_media(media: str) -> bool:
    """Whether a media type's examples are JSON values (``application/json``, ``*+json``, a
    wildcard) rather than text in another format."""
    kind = media.split(";", 1)[0].strip().lower()
    return "json" in kind or kind in ("*/*", "application/*")


def _server_variable_findings(servers: list[tuple[str, Any]]) -> Iterator[Finding]:
    """From 3.1 on, a server variable's default MUST be one of its enum values (3.0 only advised it)."""
    for pointer, server in servers:
        for name, variable in _members(server.get("variables")):
            if not isinstance(variable, dict):
                continue
            enum, default = variable.get("enum"), variable.get("default")
            if isinstance(enum, list) and enum and isinstance(default, str) and default not in enum:
                yield (
                    "server-variable-default-not-in-enum",
                    jsonpointer.append(pointer, "variables", name, "default"),
                    f"the server variable '{name}' defaults to {short_json(default)}, which is not one of its enum "
                    f"values ({', '.join(short_json(v) for v in enum[:5])}{', …' if len(enum) > 5 else ''})",
                )


def _duplicate_tags(document: dict[str, Any]) -> Iterator[Finding]:
    tags = document.get("tags")
    seen: dict[str, int] = {}
    for index, tag in enumerate(tags if isinstance(tags, list) else []):
        name = tag.get("name") if isinstance(tag, dict) else None
        if not isinstance(name, str):
            continue
        if name in seen:
            yield (
                "tag-duplicate",
                f"/tags/{index}/name",
                f"the tag '{name}' is declared twice (see tag {seen[name]}); tag names must be unique",
            )
        seen.setdefault(name, index)


def _pattern_findings(patterns: list[tuple[str, str]]) -> Iterator[Finding]:
    # Patterns are ECMA-262 regular expressions. Python's re reads most of them, quickly; one it
    # refuses is judged by a JavaScript engine (QuickJS, with its limits), which reads `\p{L}`,
    # named back-references and `[^]` as a browser does.
    verdicts: dict[str, str | None] = {}
    for pointer, pattern in patterns:
        if pattern not in verdicts:
            try:
                re.compile(pattern)
                verdicts[pattern] = None
            except (re.error, RecursionError, OverflowError):
                from ...forms.schema.expressions import regex_syntax_error

                verdicts[pattern] = regex_syntax_error(pattern)
        if verdicts[pattern] is not None:
            yield (
                "pattern-invalid",
                pointer,
                f"{short_json(pattern)} is not a valid regular expression ({verdicts[pattern]})",
            )


def _backtracking_findings(patterns: list[tuple[str, str]]) -> Iterator[Finding]:
    from ...forms.schema.patterns import BACKTRACK_LIMIT, needs_backtracking

    for pointer, pattern in patterns:
        if needs_backtracking(pattern):
            yield (
                "pattern-backtracking",
                pointer,
                f"the pattern {short_json(pattern)} needs backtracking (a back-reference or look-around): on a long "
                "value a backtracking validator can take exponential time. deskcheck gives such a value at most "
                f"{BACKTRACK_LIMIT:,} steps and reports it as not checked beyond that; write the pattern without "
                "back-references and look-around if you can",
            )
