"""The ``layout`` keyword: its normal form, the component a schema fragment gets, and where the
options of a choice field come from.

``layout`` may be a component name (``"textarea"``), a list of children (``["a", "b"]``) or an
object (``{"comp": ..., "label": ..., "if": ..., "items": ..., "getItems": ..., "children": ...}``);
``normalize_layout`` turns all three into the object form.

Components follow the form library's choices so a schema renders the same way here as on screen,
with one difference: a ``const`` is a ``select`` of its one value, shown and checked like any
field (the library hides it and writes it). An enum or a list of constants is a ``select``
(``autocomplete`` past 20 options), ``examples``, an open ``anyOf`` or a ``separator`` make a
``combobox``, a list of options from an expression or a URL is a ``select`` (``autocomplete``
when the URL searches), an object is a ``section`` (a ``map`` when it has no properties and its
keys follow ``patternProperties`` or ``additionalProperties``), an array of objects a ``list``,
an array of plain values a ``combobox`` (or a multiple select when its items have options),
dates and times get pickers, and ``oneOf`` on an object becomes a variant selector.
"""

from __future__ import annotations

from typing import Any

from .expressions import URL_TEMPLATE, Expression, parse_expression
from .record import FrozenRecord

# Past this many options a select becomes an autocomplete (a person types to filter).
AUTOCOMPLETE_THRESHOLD = 20

# Component name -> the type an agent sees in describeState.
AGENT_TYPES = {
    "text-field": "text",
    "number-field": "number",
    "textarea": "textarea",
    "markdown": "markdown",
    "checkbox": "boolean",
    "switch": "boolean",
    "date-picker": "date",
    "date-time-picker": "datetime",
    "time-picker": "time",
    "select": "select",
    "autocomplete": "autocomplete",
    "combobox": "combobox",
    "number-combobox": "number-combobox",
    "one-of-select": "variant-selector",
    "list": "array",
    "section": "section",
    "slider": "slider",
    "file-input": "file",
    "slot": "slot",
    "composite-slot": "composite-slot",
    "json": "json",
    "map": "map",
}

ITEMS_COMPONENTS = frozenset(
    {"select", "autocomplete", "combobox", "number-combobox", "radio-group", "checkbox-group", "switch-group"}
)
COMPOSITE_COMPONENTS = frozenset(
    {"section", "tabs", "vertical-tabs", "stepper", "expansion-panels", "card", "list", "one-of-select", "map"}
)


def agent_type(comp: str) -> str:
    return AGENT_TYPES.get(comp, comp)


def normalize_layout(raw: Any) -> dict[str, Any]:
    """The object form of a ``layout`` value (a copy; the schema is not changed)."""
    if raw is None:
        return {}
    if isinstance(raw, str):
        return {"comp": raw}
    if isinstance(raw, list):
        return {"children": list(raw)}
    if isinstance(raw, dict):
        return dict(raw)
    return {}


# -- options of choice fields -----------------------------------------------------------------


class ItemsSource(FrozenRecord):
    """Where a choice field's options come from.

    - ``static``: ``items`` is the whole list, known at compile time (``enum``, constants,
      ``examples``, ``layout.items``).
    - ``expression``: ``expression`` computes the list from the data or the context.
    - ``url``: ``url`` is a template giving the address to fetch; the response goes through
      ``results`` (where the list is), then ``title``/``key``/``value`` per raw item.
    """

    __slots__ = (
        "expression",
        "extra",
        "header",
        "headers",
        "icon",
        "items",
        "key",
        "kind",
        "open",
        "q_param",
        "results",
        "return_objects",
        "search_params",
        "title",
        "url",
        "value",
    )

    def __init__(
        self,
        kind: str,
        items: tuple[dict[str, Any], ...] = (),
        expression: Expression | None = None,
        url: Expression | None = None,
        q_param: str | None = None,
        search_params: tuple[tuple[str, Expression], ...] = (),
        headers: tuple[tuple[str, Expression], ...] = (),
        results: Expression | None = None,
        title: Expression | None = None,
        key: Expression | None = None,
        value: Expression | None = None,
        icon: Expression | None = None,
        header: Expression | None = None,
        return_objects: bool = False,
        open: bool = False,  # free values are accepted too (combobox)
        extra: dict[str, Any] | None = None,
    ) -> None:
        self._set(
            kind=kind,
            items=items,
            expression=expression,
            url=url,
            q_param=q_param,
            search_params=search_params,
            headers=headers,
            results=results,
            title=title,
            key=key,
            value=value,
            icon=icon,
            header=header,
            return_objects=return_objects,
            open=open,
            extra={} if extra is None else extra,
        )

    @property
    def searches_server(self) -> bool:
        if self.kind != "url" or self.url is None:
            return False
        return (
            "{q}" in self.url.source
            or self.q_param is not None
            or any("{q}" in expr.source for _, expr in self.search_params)
        )


def normal_item(raw: Any) -> dict[str, Any]:
    """One option in its normal form ``{key, title, value}`` (a header keeps ``header: true``)."""
    if isinstance(raw, dict):
        if raw.get("header") is True:
            return {"header": True, "title": str(raw.get("title", ""))}
        value = raw["value"] if "value" in raw else raw.get("key")
        key = raw.get("key")
        key = str(key) if key is not None else _key_of(value)
        title = raw.get("title")
        title = str(title) if title is not None else key
        item = {"key": key, "title": title, "value": value}
        if "icon" in raw:
            item["icon"] = raw["icon"]
        return item
    return {"key": _key_of(raw), "title": _key_of(raw), "value": raw}


def _key_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        import json

        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _choice_values(entry: Any) -> list[Any] | None:
    """The values one ``oneOf``/``anyOf`` entry allows when it is a list of them: a ``const``, or
    an ``enum`` (prettier writes each choice as a one-value enum with its description)."""
    if not isinstance(entry, dict):
        return None
    if "const" in entry:
        return [entry["const"]]
    values = entry.get("enum")
    return list(values) if isinstance(values, list) and values else None


def const_items(entries: list[Any]) -> tuple[dict[str, Any], ...] | None:
    """Options from ``oneOf``/``anyOf`` entries that are all constants or enums (``None``
    otherwise). A one-value entry's title names its option."""
    found = [_choice_values(entry) for entry in entries] if entries else []
    if not found or any(values is None for values in found):
        return None
    out = []
    for entry, values in zip(entries, found, strict=True):
        assert values is not None
        title = entry.get("title") if len(values) == 1 else None
        for value in values:
            out.append(
                {"key": _key_of(value), "title": str(title) if title is not None else _key_of(value), "value": value}
            )
    return tuple(out)


def open_any_of_items(entries: Any) -> tuple[dict[str, Any], ...] | None:
    """An ``anyOf`` whose last entry is ``{}`` (anything) and whose others are constants: the
    constants are suggestions and free values are accepted."""
    if not isinstance(entries, list) or len(entries) < 2 or entries[-1] != {}:
        return None
    return const_items(entries[:-1])


def items_source(schema: dict[str, Any], layout: dict[str, Any], value_schema: dict[str, Any]) -> ItemsSource | None:
    """The options of a field. ``value_schema`` is the schema of one value: the field's own
    schema, or its ``items`` for an array."""
    if isinstance(layout.get("items"), list):
        return ItemsSource("static", items=tuple(normal_item(i) for i in layout["items"]))
    get_items = layout.get("getItems")
    if get_items is not None:
        return _get_items_source(get_items, return_objects=_is_object(value_schema))
    if "const" in value_schema:
        return ItemsSource("static", items=(normal_item(value_schema["const"]),))
    if isinstance(value_schema.get("enum"), list) and value_schema["enum"]:
        return ItemsSource("static", items=tuple(normal_item(v) for v in value_schema["enum"]))
    for keyword in ("oneOf", "anyOf"):
        constants = const_items(value_schema[keyword]) if isinstance(value_schema.get(keyword), list) else None
        if constants is not None:
            return ItemsSource("static", items=constants)
    open_items = open_any_of_items(value_schema.get("anyOf"))
    if open_items is not None:
        return ItemsSource("static", items=open_items, open=True)
    examples = value_schema.get("examples")
    if (
        not _is_object(value_schema)
        and not isinstance(value_schema.get("properties"), dict)
        and isinstance(examples, list)
        and examples
        and value_schema.get("format") not in ("date", "date-time", "time")
        and all(not isinstance(e, (dict, list)) for e in examples)
    ):
        return ItemsSource("static", items=tuple(normal_item(v) for v in examples), open=True)
    return None


def _is_object(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" or (isinstance(schema.get("type"), list) and "object" in schema["type"])


def _get_items_source(get_items: Any, *, return_objects: bool) -> ItemsSource | None:
    if isinstance(get_items, str) or (isinstance(get_items, dict) and "expr" in get_items and "url" not in get_items):
        expression = parse_expression(get_items)
        if expression is None:
            return None
        extras = get_items if isinstance(get_items, dict) else {}
        return ItemsSource(
            "expression",
            expression=expression,
            title=_expr(extras.get("itemTitle")),
            key=_expr(extras.get("itemKey")),
            value=_expr(extras.get("itemValue")),
            icon=_expr(extras.get("itemIcon")),
            header=_expr(extras.get("itemHeader")),
            return_objects=bool(extras.get("returnObjects", return_objects)),
        )
    if not isinstance(get_items, dict):
        return None
    url = parse_expression(get_items.get("url"), default_kind="js-tpl") if get_items.get("url") is not None else None
    if isinstance(get_items.get("url"), str):
        url = Expression("js-tpl", get_items["url"], pure="${" not in get_items["url"])
    if url is not None and url.kind == "js-tpl":
        # Its values are encoded for the part of the URL they stand in (``engine.urls``).
        url = Expression(URL_TEMPLATE, url.source, pure=url.pure)
    search_params = get_items.get("searchParams") if isinstance(get_items.get("searchParams"), dict) else {}
    headers = get_items.get("headers") if isinstance(get_items.get("headers"), dict) else {}
    return ItemsSource(
        "url" if url is not None else "none",
        url=url,
        q_param=get_items.get("qSearchParam") if isinstance(get_items.get("qSearchParam"), str) else None,
        search_params=tuple((k, e) for k, v in search_params.items() if (e := _expr(v, "js-tpl")) is not None),
        headers=tuple((k, e) for k, v in headers.items() if (e := _expr(v, "js-tpl")) is not None),
        results=_expr(get_items.get("itemsResults")),
        title=_expr(get_items.get("itemTitle")),
        key=_expr(get_items.get("itemKey")),
        value=_expr(get_items.get("itemValue")),
        icon=_expr(get_items.get("itemIcon")),
        header=_expr(get_items.get("itemHeader")),
        return_objects=bool(get_items.get("returnObjects", return_objects)),
    )


def _expr(value: Any, kind: str = "js-eval") -> Expression | None:
    if value is None:
        return None
    return parse_expression(value, default_kind=kind)


def choose_component(
    schema: dict[str, Any],
    layout: dict[str, Any],
    types: tuple[str, ...],
    items: ItemsSource | None,
    *,
    has_properties: bool,
    object_one_of: bool,
    has_map: bool = False,
    array_of_objects: bool,
    tuple_items: bool,
) -> str:
    """The component a fragment gets (see the module docstring)."""
    if isinstance(layout.get("comp"), str):
        return layout["comp"]
    kind = types[0] if len(types) == 1 else None
    if kind == "object" or (kind is None and (has_properties or object_one_of)):
        if items is not None:
            return _choice_component(items)
        if has_properties or object_one_of or schema.get("allOf") or schema.get("if"):
            return "section"
        return "map" if has_map else "json"
    if kind == "array":
        if tuple_items:
            return "section"
        if items is not None:
            return "combobox" if items.open else _choice_component(items)
        if array_of_objects:
            return "list"
        return "combobox"
    if kind is None and len(types) > 1:
        return "json"
    if items is not None:
        if items.open:
            return "number-combobox" if kind in ("number", "integer") else "combobox"
        return _choice_component(items)
    if kind == "string":
        if isinstance(layout.get("separator"), str):
            return "combobox"
        fmt = schema.get("format")
        if fmt == "date":
            return "date-picker"
        if fmt == "date-time":
            return "date-time-picker"
        if fmt == "time":
            return "time-picker"
        return "text-field"
    if kind in ("number", "integer"):
        return "number-field"
    if kind == "boolean":
        return "checkbox"
    if kind == "null":
        return "none"
    return "json"


def _choice_component(items: ItemsSource) -> str:
    if items.kind == "static":
        return "autocomplete" if len(items.items) > AUTOCOMPLETE_THRESHOLD else "select"
    if items.kind == "url" and items.searches_server:
        return "autocomplete"
    return "select"
