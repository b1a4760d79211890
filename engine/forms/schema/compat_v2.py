"""Translation of vjsf-v2 schema keywords into the ``layout`` vocabulary the form engine reads.

Schemas written for the older form library (data platforms still serve them) say ``x-fromUrl``,
``x-itemsProp``, ``x-display``, ``x-if`` ... This pass rewrites a copy of the schema so those
fields become pickers, hidden fields or conditional fields as their authors meant. The input is
never modified.

Every fragment reachable through ``$ref`` (local), ``properties``, ``allOf``/``oneOf``/``anyOf``,
``items`` (single or tuple, and ``prefixItems``), ``dependencies``/``dependentSchemas`` and
``then``/``else`` is visited once. A fragment that already has a ``layout`` keeps it untouched
(its sub-schemas are still visited). A produced layout that only names a component is stored as
that name (``"textarea"``), as hand-written schemas do.

Expressions of the old vocabulary are rewritten into the new one: ``parent.value`` reads
``parent.data``, ``model.``/``value.`` read ``data.``, ``modelRoot.``/``root.`` read
``rootData.``; a bare dotted path in a condition (``settings.enabled``) reads from the root
document, with numeric segments turned into indexes; in URL templates every ``{expr}`` except
``{q}`` (the search text) becomes a ``${...}`` interpolation.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ...refs import RefError, RefResolver

_DISPLAY_COMPONENTS = {"radio": "radio-group", "hidden": "none"}
_GROUP_COMPONENTS = {"checkbox": "checkbox-group", "switch": "switch-group"}
_KNOWN_ROOTS = ("data.", "context.", "rootData.", "parent.")


def translate_v2(schema: Any) -> Any:
    """A copy of ``schema`` with the vjsf-v2 keywords translated (see the module docstring)."""
    result = copy.deepcopy(schema)
    if not isinstance(result, dict):
        return result
    resolver = RefResolver(result)
    seen: set[int] = set()
    stack: list[Any] = [result]
    while stack:
        fragment = stack.pop()
        if not isinstance(fragment, dict) or id(fragment) in seen:
            continue
        seen.add(id(fragment))
        if isinstance(fragment.get("$ref"), str):
            try:
                _, target = resolver.lookup(fragment["$ref"])
            except RefError:
                target = None  # reported when the form compiles; nothing to translate here
            if isinstance(target, dict):
                stack.append(target)
        if "layout" not in fragment:
            _translate_fragment(fragment)
        stack.extend(_sub_schemas(fragment))
    return result


def _sub_schemas(fragment: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for key in ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions"):
        value = fragment.get(key)
        if isinstance(value, dict):
            out.extend(value.values())
    dependencies = fragment.get("dependencies")
    if isinstance(dependencies, dict):
        out.extend(v for v in dependencies.values() if isinstance(v, dict))
    for key in ("allOf", "oneOf", "anyOf", "prefixItems"):
        value = fragment.get(key)
        if isinstance(value, list):
            out.extend(value)
    items = fragment.get("items")
    if isinstance(items, list):
        out.extend(items)
    elif isinstance(items, dict):
        out.append(items)
    for key in ("additionalProperties", "if", "then", "else", "not"):
        if isinstance(fragment.get(key), dict):
            out.append(fragment[key])
    return out


def _translate_fragment(fragment: dict[str, Any]) -> None:
    layout: dict[str, Any] = {}

    for key in ("separator", "x-separator"):
        if key in fragment:
            layout["separator"] = fragment.pop(key)

    display = fragment.pop("x-display", None)
    items = fragment.get("items") if isinstance(fragment.get("items"), dict) else {}
    if display == "icon" and ("enum" in fragment or "enum" in items):
        layout["getItems"] = {"itemIcon": _item_accessor_or(fragment.get("x-itemIcon"), "data.value")}
    elif isinstance(display, str):
        is_boolean = fragment.get("type") == "boolean"
        component = _DISPLAY_COMPONENTS.get(display)
        if component is None:
            component = _GROUP_COMPONENTS.get(display) if not is_boolean else None
        component = component or display
        if isinstance(fragment.get("allOf"), list) and isinstance(fragment.get("properties"), dict):
            layout["children"] = [
                *fragment["properties"].keys(),
                {"comp": component, "children": [f"$allOf-{i}" for i in range(len(fragment["allOf"]))]},
            ]
        else:
            layout["comp"] = component

    if fragment.get("format") == "hexcolor":
        layout["comp"] = "color-picker"
        del fragment["format"]

    if "x-props" in fragment:
        layout["props"] = fragment.pop("x-props")
    if "x-fromData" in fragment:
        layout["getItems"] = _fixed_expression(str(fragment.pop("x-fromData")), "js-eval")
    if "x-if" in fragment:
        layout["if"] = _fixed_expression(str(fragment.pop("x-if")), "js-eval")
    if "x-fromUrl" in fragment:
        layout["getItems"] = {"url": _fixed_expression(str(fragment.pop("x-fromUrl")), "js-tpl")}

    get_items = layout.get("getItems")
    if isinstance(get_items, dict) and "type" not in get_items:
        for source, target in (
            ("x-itemKey", "itemKey"),
            ("x-itemTitle", "itemTitle"),
            ("x-itemValue", "itemValue"),
            ("x-itemsProp", "itemsResults"),
        ):
            if source in fragment:
                get_items[target] = _item_accessor(fragment.pop(source))
        if "x-itemIcon" in fragment:
            get_items["itemIcon"] = _item_accessor(fragment["x-itemIcon"])

    if "x-cols" in fragment:
        layout["cols"] = fragment["x-cols"]
    options = fragment.get("x-options")
    if isinstance(options, dict) and options.get("hideInArrayItem") and "if" not in layout:
        layout["if"] = {"type": "js-eval", "expr": "!summary", "pure": False}

    if fragment.get("type") == "array" and isinstance(fragment.get("items"), dict) and "getItems" not in layout:
        item_schema = fragment["items"]
        if layout.get("comp") in (None, "list") and _is_object_schema(item_schema):
            if "x-itemTitle" in fragment:
                layout["itemTitle"] = _item_accessor(fragment.pop("x-itemTitle"))
            elif _has_title_property(item_schema):
                layout["itemTitle"] = "data.title"

    one_of = fragment.get("oneOf")
    if isinstance(one_of, list) and one_of and isinstance(one_of[0], dict) and "oneOfLayout" not in fragment:
        first_props = one_of[0].get("properties")
        if isinstance(first_props, dict):
            for name, prop in first_props.items():
                if isinstance(prop, dict) and "const" in prop:
                    if isinstance(prop.get("title"), str):
                        fragment["oneOfLayout"] = {"label": prop["title"]}
                    required = fragment.get("required")
                    if isinstance(required, list) and name in required:
                        fragment["required"] = [r for r in required if r != name]
                    break

    if layout:
        fragment["layout"] = layout["comp"] if list(layout) == ["comp"] else layout


def _is_object_schema(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("type") == "object" or "properties" in schema)


def _has_title_property(schema: dict[str, Any]) -> bool:
    if isinstance(schema.get("properties"), dict) and "title" in schema["properties"]:
        return True
    for entry in schema.get("allOf") or []:
        if isinstance(entry, dict) and isinstance(entry.get("properties"), dict) and "title" in entry["properties"]:
            return True
    return False


def _item_accessor(name: Any) -> str:
    return f"data[{_js_string(str(name))}]"


def _item_accessor_or(name: Any, fallback: str) -> str:
    return _item_accessor(name) if name else fallback


def _js_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_BARE_PATH = re.compile(r"^[a-zA-Z_$][a-zA-Z0-9_$.]*$")
_TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")


def _fix_source(source: str, kind: str) -> tuple[str, bool]:
    pure = True
    if "parent.value" in source:
        source = source.replace("parent.value", "parent.data")
        pure = False
    source = re.sub(r"\b(?:modelRoot|root)\.", "rootData.", source)
    source = re.sub(r"(?<![\w.$])(?:model|value)\.", "data.", source)
    if kind == "js-eval" and _BARE_PATH.match(source) and not source.startswith(_KNOWN_ROOTS):
        source = "rootData." + source
    if kind == "js-eval":
        source = re.sub(r"(?<=[A-Za-z_$\]])\.(\d+)\b", r"[\1]", source)
    if "rootData" in source or "parent." in source or re.search(r"(?<![\w.$])data\b", source):
        pure = False
    return source, pure


def _fixed_expression(source: str, kind: str) -> dict[str, Any]:
    if kind == "js-tpl":
        pure = True

        def interpolate(match: re.Match[str]) -> str:
            nonlocal pure
            inner = match.group(1).strip()
            if inner == "q":
                return "{q}"
            fixed, inner_pure = _fix_source(inner, "js-eval")
            pure = pure and inner_pure
            return "${" + fixed + "}"

        # Keep ${...} interpolations that are already in the new syntax.
        parts = re.split(r"(\$\{[^{}]*\})", source)
        out = "".join(part if part.startswith("${") else _TEMPLATE_PART.sub(interpolate, part) for part in parts)
        if "rootData" in out or "parent." in out:
            pure = False
        return {"type": "js-tpl", "expr": out, "pure": pure}
    fixed, pure = _fix_source(source, kind)
    return {"type": kind, "expr": fixed, "pure": pure}
