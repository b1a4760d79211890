"""The ``x-agent`` vocabulary: our JSON Schema of each place an annotation may sit, and the walk
that validates every annotation of a document against it.

Validation runs on the raw document (before any ``$ref`` is followed), reports every invalid
annotation (not only the first), and places each problem precisely: the pointer of the offending
key, under the object that carries the ``x-agent``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ... import jsonpointer
from .problems import WARNING, Problems
from .schema_messages import MESSAGE_KEY, error_messages

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# Skill names follow the Agent Skills format: lowercase words joined by single hyphens.
SKILL_NAME_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
# A skill description is what an agent reads in its list of skills; the Agent Skills format caps
# it at this length. Longer ones still load (deskcheck writes no SKILL.md), with a warning.
MAX_SKILL_DESCRIPTION = 1024

_LOCALIZED = {
    "anyOf": [
        {"type": "string"},
        {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}},
    ],
    MESSAGE_KEY: 'must be a string or an object of strings by locale (e.g. {"en": …, "fr": …})',
}
_NAMES = {"type": "array", "minItems": 1, "items": {"type": "string"}}
_OPERATION_PROFILES = {
    "anyOf": [{"const": True}, _NAMES],
    MESSAGE_KEY: 'must be true (every profile) or a non-empty array of profile names, e.g. ["explore"]',
}

PARAM_OVERRIDE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": "^[a-zA-Z_][a-zA-Z0-9_]*$"},
        "description": _LOCALIZED,
        "exclude": {"type": "boolean"},
        "default": {},
        "maximum": {"type": "number"},
        "enum": {"type": "array", "minItems": 1},
        "required": {"type": "boolean"},
    },
}

OPERATION = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "profiles": _OPERATION_PROFILES,
        "name": {"type": "string", "pattern": "^[a-z0-9_]+$"},
        "title": _LOCALIZED,
        "description": _LOCALIZED,
        "examples": {"type": "array", "items": {"type": "object"}},
        "annotations": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                key: {"type": "boolean"}
                for key in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
            },
        },
        "params": {"type": "object", "additionalProperties": PARAM_OVERRIDE},
        "fixed": {"type": "object"},
        "body": {"enum": ["flat", "compact"]},
        "bodyFields": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"type": "string"}},
        "response": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "rows": {"type": "string", "pattern": "^/[^/]+$"},
                "concise": _NAMES,
                "detailed": {
                    "anyOf": [{"const": True}, _NAMES],
                    MESSAGE_KEY: "must be true (every field) or a non-empty array of field names",
                },
                "selectParam": {"type": "string"},
                "hints": {"type": "boolean"},
            },
        },
        "editor": {
            "anyOf": [
                {"const": True},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "schemaOperation": {"type": "string", "minLength": 1},
                        "schemaParams": {"type": "object"},
                        "readOperation": {"type": "string", "minLength": 1},
                    },
                },
            ],
            MESSAGE_KEY: "must be true, or an object with schemaOperation, schemaParams, readOperation (each optional)",
        },
    },
}

ROOT = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "namePrefix": {"type": "string", "pattern": "^[a-z0-9_]*$"},
        "profiles": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "title": _LOCALIZED,
                    "description": _LOCALIZED,
                    "includes": _NAMES,
                },
            },
        },
        "skills": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "description"],
                "properties": {
                    "name": {"type": "string", "maxLength": 64, "pattern": SKILL_NAME_PATTERN},
                    "description": _LOCALIZED,
                    "href": _LOCALIZED,
                    "body": _LOCALIZED,
                    "profiles": {"type": "array", "items": {"type": "string"}},
                    "tools": {"type": "array", "items": {"type": "string"}},
                },
                "not": {"required": ["href", "body"]},
                MESSAGE_KEY: "must NOT have both href and body: a skill's text is either linked or inline",
            },
        },
    },
}

TAG = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"profiles": _OPERATION_PROFILES, "skill": _LOCALIZED},
}

PROPERTY = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"hint": _LOCALIZED, "exclude": {"type": "boolean"}},
}

KINDS = {"root": ROOT, "tag": TAG, "operation": OPERATION, "param": PARAM_OVERRIDE, "property": PROPERTY}

_validators: dict[str, Any] = {}


def validate_vocabulary(document: dict[str, Any], problems: Problems) -> None:
    """Add one problem per invalid annotation detail anywhere in ``document``."""
    for kind, owner, value in iter_annotations(document):
        if kind == "operation" and isinstance(value, list):
            _validate_views(owner, value, problems)
            continue
        _report(kind, owner, "/x-agent", value, problems)
        if kind == "root" and isinstance(value, dict):
            _check_skill_lengths(value.get("skills"), problems)


def _check_skill_lengths(skills: Any, problems: Problems) -> None:
    for index, skill in enumerate(skills if isinstance(skills, list) else []):
        description = skill.get("description") if isinstance(skill, dict) else None
        texts = {"": description} if isinstance(description, str) else description
        if not isinstance(texts, dict):
            continue
        for locale, text in texts.items():
            if isinstance(text, str) and len(text) > MAX_SKILL_DESCRIPTION:
                pointer = jsonpointer.append(f"/x-agent/skills/{index}/description", *([locale] if locale else []))
                problems.add(
                    "skill-description-too-long",
                    f"skill {skill.get('name')!r}: its description is {len(text)} characters, more than the "
                    f"{MAX_SKILL_DESCRIPTION} the Agent Skills format allows; hosts that export skills may cut it. "
                    "Move the detail into the skill's body.",
                    pointer,
                    WARNING,
                )


def iter_annotations(document: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """``(kind, pointer of the carrying object, x-agent value)`` for every annotation we check."""
    if "x-agent" in document:
        yield "root", "", document["x-agent"]
    tags = document.get("tags")
    if isinstance(tags, list):
        for index, tag in enumerate(tags):
            if isinstance(tag, dict) and "x-agent" in tag:
                yield "tag", f"/tags/{index}", tag["x-agent"]
    seen: set[int] = set()
    paths = document.get("paths")
    if isinstance(paths, dict):
        for path, item in paths.items():
            if not isinstance(item, dict):
                continue
            item_pointer = jsonpointer.append("/paths", path)
            yield from _parameters(item.get("parameters"), item_pointer + "/parameters", seen)
            for method in METHODS:
                operation = item.get(method)
                if not isinstance(operation, dict):
                    continue
                op_pointer = f"{item_pointer}/{method}"
                if "x-agent" in operation:
                    yield "operation", op_pointer, operation["x-agent"]
                yield from _parameters(operation.get("parameters"), op_pointer + "/parameters", seen)
                yield from _request_body(operation.get("requestBody"), op_pointer + "/requestBody", seen)
                responses = operation.get("responses")
                if isinstance(responses, dict):
                    for code, response in responses.items():
                        yield from _content(response, jsonpointer.append(op_pointer, "responses", code), seen)
    components = document.get("components")
    if isinstance(components, dict):
        for name, section in (
            ("schemas", None),
            ("parameters", "parameter"),
            ("requestBodies", "body"),
            ("responses", "response"),
        ):
            entries = components.get(name)
            if not isinstance(entries, dict):
                continue
            for key, entry in entries.items():
                pointer = jsonpointer.append("/components", name, key)
                if section is None:
                    yield from _schema(entry, pointer, seen)
                elif section == "parameter":
                    yield from _parameter(entry, pointer, seen)
                else:
                    yield from _content(entry, pointer, seen)


def _parameters(parameters: Any, pointer: str, seen: set[int]) -> Iterator[tuple[str, str, Any]]:
    if isinstance(parameters, list):
        for index, parameter in enumerate(parameters):
            yield from _parameter(parameter, f"{pointer}/{index}", seen)


def _parameter(parameter: Any, pointer: str, seen: set[int]) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(parameter, dict):
        return
    if "x-agent" in parameter:
        yield "param", pointer, parameter["x-agent"]
    yield from _schema(parameter.get("schema"), pointer + "/schema", seen)


def _request_body(body: Any, pointer: str, seen: set[int]) -> Iterator[tuple[str, str, Any]]:
    yield from _content(body, pointer, seen)


def _content(holder: Any, pointer: str, seen: set[int]) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(holder, dict) or not isinstance(holder.get("content"), dict):
        return
    for media, entry in holder["content"].items():
        if isinstance(entry, dict):
            yield from _schema(entry.get("schema"), jsonpointer.append(pointer, "content", media, "schema"), seen)


_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions")
_SCHEMA_LISTS = ("oneOf", "anyOf", "allOf", "prefixItems")
_SCHEMA_SINGLE = ("items", "additionalProperties", "not")


def _schema(node: Any, pointer: str, seen: set[int]) -> Iterator[tuple[str, str, Any]]:
    # Paths are kept as token tuples and joined only where an annotation is found: schemas of
    # real documents are large, and almost none of their nodes carry one.
    stack: list[tuple[tuple[Any, ...], Any]] = [((), node)]
    while stack:
        path, schema = stack.pop()
        if not isinstance(schema, dict) or id(schema) in seen:
            continue
        seen.add(id(schema))
        if "x-agent" in schema:
            yield "property", pointer + jsonpointer.join(path), schema["x-agent"]
        children: list[tuple[tuple[Any, ...], Any]] = []
        for key in _SCHEMA_MAPS:
            value = schema.get(key)
            if isinstance(value, dict):
                children += [((*path, key, name), sub) for name, sub in value.items() if isinstance(sub, dict)]
        for key in (*_SCHEMA_LISTS, *_SCHEMA_SINGLE):
            value = schema.get(key)
            if isinstance(value, list):  # composition keywords, and draft-07 tuple items
                children += [((*path, key, i), sub) for i, sub in enumerate(value) if isinstance(sub, dict)]
            elif isinstance(value, dict):
                children.append(((*path, key), value))
        stack.extend(reversed(children))


def _validate_views(owner: str, views: list[Any], problems: Problems) -> None:
    base = owner + "/x-agent"
    if not views:
        problems.add(
            "x-agent-invalid",
            f"x-agent invalid at {owner}: an array of views needs at least one view; give one object per tool.",
            base,
        )
        return
    names: dict[str, int] = {}
    for index, view in enumerate(views):
        view_owner = f"{owner}/{index}"
        if isinstance(view, dict) and not isinstance(view.get("name"), str):
            problems.add(
                "x-agent-invalid",
                f"x-agent invalid at {view_owner}: every view of an operation needs a name (the views become "
                "separate tools).",
                f"{base}/{index}",
            )
        elif isinstance(view, dict):
            name = view["name"]
            if name in names:
                problems.add(
                    "x-agent-invalid",
                    f'x-agent invalid at {view_owner}: duplicate view name "{name}" (view {names[name]} has it too).',
                    f"{base}/{index}/name",
                )
            names.setdefault(name, index)
        _report("operation", owner, f"/x-agent/{index}", view, problems, label=view_owner)


def _report(kind: str, owner: str, suffix: str, value: Any, problems: Problems, label: str | None = None) -> None:
    validator = _validator(kind)
    pairs = error_messages(validator.iter_errors(value), schema=KINDS[kind])
    for instance, message in pairs:
        detail = _unknown_key_hint(kind, instance, message)
        problems.add(
            "x-agent-invalid",
            f"x-agent invalid at {label or owner or '/'}: {instance or '/'} {message}{detail}",
            _pointer_for(owner + suffix, instance, message),
        )


def _pointer_for(base: str, instance: str, message: str) -> str:
    pointer = base + instance
    if message.startswith("must NOT have additional properties (") and message.endswith(")"):
        pointer = jsonpointer.append(pointer, message[len("must NOT have additional properties (") : -1])
    return pointer


def _unknown_key_hint(kind: str, instance: str, message: str) -> str:
    if instance or not message.startswith("must NOT have additional properties ("):
        return ""
    allowed = ", ".join(KINDS[kind].get("properties", {}))
    return f"; the keys allowed here are {allowed}"


def _validator(kind: str) -> Any:
    # jsonschema-rs, not jsonschema: `openapi check` and `openapi tools` need no other validator,
    # and jsonschema-rs imports in a fifth of the time (~30 ms against ~125 ms).
    if kind not in _validators:
        import jsonschema_rs

        _validators[kind] = jsonschema_rs.Draft202012Validator(KINDS[kind], validate_formats=False)
    return _validators[kind]
