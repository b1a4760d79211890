"""A tool's input schema, built from an operation's parameters, body and response annotations,
plus the bindings that say where each argument goes in the request."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ... import jsonpointer
from ..document.text import localize
from .operations import Operation
from .schema_summary import summarise_schema

FIELDS_PROPERTY = "fields"
FORMAT_PROPERTY = "response_format"
BODY_PROPERTY = "body"
# Keywords of an array parameter that describe one value, so they belong on its items.
_ITEM_KEYWORDS = ("default", "maximum", "enum")


@dataclass(frozen=True)
class Binding:
    """Where one input property goes: ``kind`` is path, query, header, body (the whole body),
    bodyProp (one property of the body), fields (the response field selection) or
    responseFormat (rendering only, never sent)."""

    property: str
    kind: str
    api_name: str
    style: str | None = None
    explode: bool | None = None


@dataclass
class ToolInput:
    schema: dict[str, Any]
    bindings: list[Binding]
    body_schema: dict[str, Any] | None = None  # the real body schema behind a compact ``body``
    authored: set[str] = field(default_factory=set)  # properties whose description x-agent wrote


class InputProblem(Exception):
    """An annotation that cannot produce an input schema; carries a rule and a pointer."""

    def __init__(self, rule: str, message: str, pointer: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.pointer = pointer


def build_input(operation: Operation, locale: str = "en") -> ToolInput:
    agent = operation.agent
    fixed = agent.get("fixed") if isinstance(agent.get("fixed"), dict) else {}
    response = agent.get("response") if isinstance(agent.get("response"), dict) else {}
    select_param = response.get("selectParam") if isinstance(response.get("selectParam"), str) else None
    properties: dict[str, Any] = {}
    required: list[str] = []
    bindings: list[Binding] = []
    authored: set[str] = set()

    for parameter in operation.parameters:
        override = parameter.agent
        if override.get("exclude") is True or parameter.name in fixed or parameter.name == select_param:
            continue
        name = override.get("name") if isinstance(override.get("name"), str) else parameter.name
        properties[name] = _parameter_schema(parameter.schema, parameter.description, override, locale)
        if "description" in override:
            authored.add(name)
        is_required = override["required"] if isinstance(override.get("required"), bool) else parameter.required
        if is_required:
            required.append(name)
        bindings.append(Binding(name, parameter.location, parameter.name, parameter.style, parameter.explode))

    body_schema = None
    if operation.request_body is not None:
        body_schema = _add_body(operation, properties, required, bindings, authored)

    if select_param is not None:
        selector = next((p for p in operation.parameters if p.name == select_param), None)
        if selector is None:
            raise InputProblem(
                "select-param-invalid",
                f'{operation.label}: response.selectParam "{select_param}" is not a parameter of this operation.',
                operation.agent_pointer + "/response/selectParam",
            )
        rows = response.get("rows") if isinstance(response.get("rows"), str) else None
        names = response_fields(operation.response_schema, rows)
        if not names:
            where = f'at "{rows}"' if rows else "at the top level"
            raise InputProblem(
                "select-param-invalid",
                f'{operation.label}: response.selectParam "{select_param}" needs response fields, but the response '
                f"schema declares no properties ({where}).",
                operation.agent_pointer + "/response/selectParam",
            )
        properties[FIELDS_PROPERTY] = {
            "type": "array",
            "items": {"type": "string", "enum": names},
            "description": "The response fields to return (by default the concise set); ask for exactly the "
            "fields you need.",
        }
        authored.add(FIELDS_PROPERTY)
        bindings.append(Binding(FIELDS_PROPERTY, "fields", select_param, selector.style or "form", selector.explode))

    concise, detailed = response.get("concise"), response.get("detailed")
    if concise is not None and detailed is not None:
        detailed_text = "every field" if detailed is True else ", ".join(map(str, detailed))
        properties[FORMAT_PROPERTY] = {
            "type": "string",
            "enum": ["concise", "detailed"],
            "default": "concise",
            "description": f"concise: {', '.join(map(str, concise))}. detailed: {detailed_text}.",
        }
        authored.add(FORMAT_PROPERTY)
        bindings.append(Binding(FORMAT_PROPERTY, "responseFormat", FORMAT_PROPERTY))

    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return ToolInput(schema, bindings, body_schema, authored)


def response_fields(response_schema: Any, rows: str | None) -> list[str]:
    """The field names a response row (or the response object) declares, minus excluded ones."""
    node = response_schema
    if rows and isinstance(node, dict):
        node = (node.get("properties") or {}).get(rows[1:])
        node = node.get("items") if isinstance(node, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get("properties"), dict):
        return []
    return [name for name, sub in node["properties"].items() if not is_excluded(sub)]


def is_excluded(schema: Any) -> bool:
    agent = schema.get("x-agent") if isinstance(schema, dict) else None
    return isinstance(agent, dict) and agent.get("exclude") is True


def _parameter_schema(schema: dict[str, Any], description: str | None, override: dict[str, Any], locale: str):
    out = copy.deepcopy(schema)
    out.pop("title", None)  # an inherited, untranslated title confuses more than it helps
    out.pop("x-agent", None)
    text = localize(override.get("description"), locale) if "description" in override else None
    text = text if text is not None else description
    if isinstance(text, str) and text.strip():
        out["description"] = text.strip()
    if out.get("type") == "array":
        items = dict(out.get("items")) if isinstance(out.get("items"), dict) else {}
        for key in _ITEM_KEYWORDS:
            if key in out:
                items[key] = out.pop(key)
            if key in override:
                items[key] = copy.deepcopy(override[key])
        out["items"] = items
    else:
        for key in _ITEM_KEYWORDS:
            if key in override:
                out[key] = copy.deepcopy(override[key])
    return out


def _add_body(
    operation: Operation,
    properties: dict[str, Any],
    required: list[str],
    bindings: list[Binding],
    authored: set[str],
) -> dict[str, Any]:
    agent = operation.agent
    body = operation.request_body or {}
    schema = body.get("schema") if isinstance(body.get("schema"), dict) else {}
    body_required = body.get("required") is True
    fields = agent.get("bodyFields")
    if isinstance(fields, list):
        schema = _pick_body_fields(operation, schema, fields)
    if agent.get("body") == "compact":
        properties[BODY_PROPERTY] = {
            "type": "object",
            "description": "The request body, a JSON object. Its properties (`?` marks an optional one):\n\n"
            + summarise_schema(schema),
        }
        authored.add(BODY_PROPERTY)
        if body_required:
            required.append(BODY_PROPERTY)
        bindings.append(Binding(BODY_PROPERTY, "body", BODY_PROPERTY))
        return schema
    body_properties = schema.get("properties")
    if schema.get("type", "object") == "object" and isinstance(body_properties, dict) and body_properties:
        body_required_names = schema.get("required") if isinstance(schema.get("required"), list) else []
        for name, sub in body_properties.items():
            key = f"{name}__body" if name in properties else name
            properties[key] = copy.deepcopy(sub)
            if name in body_required_names:
                required.append(key)
            bindings.append(Binding(key, "bodyProp", name))
        return schema
    properties[BODY_PROPERTY] = copy.deepcopy(schema)
    if body_required:
        required.append(BODY_PROPERTY)
    bindings.append(Binding(BODY_PROPERTY, "body", BODY_PROPERTY))
    return schema


def _pick_body_fields(operation: Operation, schema: dict[str, Any], fields: list[Any]) -> dict[str, Any]:
    pointer = operation.agent_pointer + "/bodyFields"
    declared = schema.get("properties")
    if schema.get("type") != "object" or not isinstance(declared, dict):
        raise InputProblem(
            "body-fields-invalid",
            f"{operation.tool_name}: bodyFields needs an object request body with properties.",
            pointer,
        )
    unknown = [str(f) for f in fields if f not in declared]
    if unknown:
        index = next(i for i, f in enumerate(fields) if f not in declared)
        raise InputProblem(
            "body-fields-invalid",
            f"{operation.tool_name}: bodyFields names properties the request body does not declare: "
            f"{', '.join(unknown)}.",
            jsonpointer.append(pointer, index),
        )
    picked: dict[str, Any] = {
        "type": "object",
        "properties": {name: declared[name] for name in fields},
        "additionalProperties": False,
    }
    if isinstance(schema.get("description"), str):
        picked["description"] = schema["description"]
    kept = [name for name in schema.get("required") or [] if name in fields]
    if kept:
        picked["required"] = kept
    return picked
