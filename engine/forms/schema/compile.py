"""Compiled forms: a prepared JSON Schema read once into a tree of ``Skeleton`` nodes, cached by
schema version for the whole process.

``compile_form(schema, version)`` returns a ``CompiledForm``. Compiling the same version again
(with the same options) returns the cached object: editing two hundred records of one schema
compiles it once. ``compile_stats()`` counts real compilations and cache hits, for benchmarks and
for the session layer. Without a version, a hash of the schema's content serves as one.

A ``Skeleton`` is what the form knows about one schema fragment whatever the data: its component,
label, help, constraints, options, default and, for objects and arrays, the plan of its children
(properties, ``$deps-<prop>``, ``$allOf-<i>``, ``$oneOf``, ``$then``/``$else``, layout
composites ``$comp-<n>`` and slots ``$slot-<n>``, list items, tuple entries). Children are read
lazily, the first time a state needs them, so a recursive schema (a tree whose nodes hold nodes)
compiles to a finite skeleton that the state expands only as deep as the data goes. Local
``$ref`` are followed with ``engine.refs``; a skeleton is shared by every place that refers to the
same fragment.

A compiled form holds no data and nothing about a session: states (``FormState``) refer to it,
and many states may share it, across threads too.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ... import jsonpointer
from ...errors import InputError
from ...refs import RefError, RefResolver
from .expressions import Expression, parse_expression
from .layout import (
    ITEMS_COMPONENTS,
    ItemsSource,
    choose_component,
    items_source,
    normalize_layout,
)
from .record import FrozenRecord, Record
from .values import json_type

if TYPE_CHECKING:
    from .validation import Fragment, SchemaError, SchemaValidator

# Compiled forms kept per process. A session layer keeps few schemas alive at once; the bound
# only stops a long-running host that sees many schema versions from growing without limit.
CACHE_SIZE = 64


class FormSchemaError(InputError):
    """A schema the form engine cannot use (not an object, a broken reference...)."""


class CompileOptions(FrozenRecord):
    """Options that change what a compiled form does, part of its cache key.

    ``coerce_types``: convert written values to the schema's type when the conversion is
    lossless (``"42"`` -> 42 for an integer, ``"true"`` -> true, a single value -> a one-item
    array). Off by default: a string written to an integer field stays a string and is reported.
    """

    __slots__ = ("coerce_types",)

    def __init__(self, coerce_types: bool = False) -> None:
        self._set(coerce_types=coerce_types)

    def key(self) -> str:
        return json.dumps({"coerce": self.coerce_types})


# -- preparation --------------------------------------------------------------------------------


def prepare_schema(schema: Any, *, document: Any = None) -> dict[str, Any]:
    """The schema the form compiles, as a new object (the input is never changed):

    1. bundled: when ``schema`` is a part of a larger ``document`` (an OpenAPI request body that
       refers to ``#/components/schemas/...``), every fragment it reaches through local ``$ref``
       is copied under the same pointer, so the result stands alone; references written other
       than as plain pointers (the schema's own ``$id``, an anchor under an ``$id``, a fragment
       a URI must encode) become plain pointers (``bundle``);
    2. the vjsf-v2 keywords translated (``compat_v2``);
    3. every ``layout`` given as a component name normalised to ``{"comp": name}``.
    """
    if isinstance(schema, bool):
        schema = {} if schema else {"not": {}}
    if not isinstance(schema, dict):
        raise FormSchemaError(
            f"a form needs a JSON Schema object, not {type(schema).__name__}: pass the schema of the document to edit."
        )
    from .compat_v2 import translate_v2  # a schema is prepared once; a stored one is not again

    bundled = _bundle(schema, document) if document is not None and document is not schema else schema
    from .bundle import bundle, needs_bundling

    if needs_bundling(bundled):
        # References to the schema's own $id, anchors behind an $id, pointers a URI must encode:
        # rewritten as plain pointers (a schema from a file has its other files bundled already).
        bundled = bundle(bundled)
    translated = translate_v2(bundled)
    _normalise_string_layouts(translated)
    return translated


def _bundle(schema: dict[str, Any], document: Any) -> dict[str, Any]:
    out = copy.deepcopy(schema)
    resolver = RefResolver(document)
    pending = [out]
    copied: set[str] = set()
    while pending:
        node = pending.pop()
        stack = [node]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                ref = value.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/") and ref not in copied:
                    copied.add(ref)
                    try:
                        pointer, target = resolver.lookup(ref)
                    except RefError as exc:
                        raise FormSchemaError(f"the schema cannot be used: {exc}") from None
                    fragment = copy.deepcopy(target)
                    _place(out, jsonpointer.split(pointer), fragment)
                    pending.append(fragment)
                stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, (dict, list)))
    return out


def _place(root: dict[str, Any], tokens: list[str], fragment: Any) -> None:
    node: Any = root
    for token in tokens[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(token, {})
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return
    if isinstance(node, dict) and tokens:
        node.setdefault(tokens[-1], fragment)


def _normalise_string_layouts(schema: Any) -> None:
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, child in value.items():
                if key == "layout":
                    if isinstance(child, str):
                        value[key] = {"comp": child}
                    continue
                if key in ("enum", "const", "default", "examples"):
                    continue
                if isinstance(child, (dict, list)):
                    stack.append(child)
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))


# -- the cache ----------------------------------------------------------------------------------

_cache: OrderedDict[tuple[str, str], CompiledForm] = OrderedDict()
_cache_lock = threading.Lock()
_stats = {"compiles": 0, "hits": 0, "restored": 0}


def compile_form(
    schema: Any,
    version: str | None = None,
    *,
    document: Any = None,
    options: CompileOptions | None = None,
) -> CompiledForm:
    """The compiled form of ``schema`` (see ``prepare_schema`` for ``document``), from the
    process-wide cache when this version was compiled already. The caller promises that one
    version names one schema: a changed schema must come with a new version (or none)."""
    options = options or CompileOptions()
    if version is None:
        version = content_version(schema, document)
    cached = cached_form(version, options)
    if cached is not None:
        return cached
    return _keep(CompiledForm(prepare_schema(schema, document=document), str(version), options), "compiles")


def cached_form(version: str, options: CompileOptions | None = None) -> CompiledForm | None:
    """The compiled form of ``version`` when this process has it already (counted as a hit),
    else None. A session layer asks this before reading a prepared schema from its store."""
    key = (str(version), (options or CompileOptions()).key())
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
            _stats["hits"] += 1
        return cached


def compile_prepared(prepared: dict[str, Any], version: str, options: CompileOptions | None = None) -> CompiledForm:
    """The compiled form of a schema that ``prepare_schema`` already prepared (for example one a
    session store kept from an earlier process), cached like ``compile_form``. It is not counted
    as a compilation (``compile_stats()["restored"]`` counts these): the schema was prepared
    once, wherever it was stored from."""
    options = options or CompileOptions()
    cached = cached_form(version, options)
    if cached is not None:
        return cached
    return _keep(CompiledForm(prepared, str(version), options), "restored")


def _keep(compiled: CompiledForm, counter: str) -> CompiledForm:
    with _cache_lock:
        _stats[counter] += 1
        _cache[(compiled.version, compiled.options.key())] = compiled
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return compiled


def content_version(schema: Any, document: Any = None) -> str:
    """A version for a schema that has none: a hash of its content. Key order is part of the
    content: it is the order in which a form lists its fields."""
    payload = json.dumps([schema, document if document is not schema else None], default=str)
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()[:32]


def compile_stats() -> dict[str, int]:
    """``{"compiles": n, "hits": m, "restored": r, "cached": k}`` since the process started (or the
    last clear): schemas prepared and compiled here, cache hits, prepared schemas compiled from a
    session store (``compile_prepared``), and forms held now."""
    with _cache_lock:
        return {**_stats, "cached": len(_cache)}


def clear_compile_cache() -> None:
    with _cache_lock:
        _cache.clear()
        for name in _stats:
            _stats[name] = 0


# -- compiled form and skeleton ------------------------------------------------------------------


class CompiledForm:
    """A prepared schema and its skeleton. ``root`` is the skeleton of the whole document."""

    def __init__(self, schema: dict[str, Any], version: str, options: CompileOptions) -> None:
        self.schema = schema
        self.version = version
        self.options = options
        self.resolver = RefResolver(schema)
        self._skeletons: dict[str, Skeleton] = {}
        self._lock = threading.RLock()
        guide = schema.get("x-agent-guide")
        self.agent_guide: str | None = guide.strip() if isinstance(guide, str) and guide.strip() else None
        self.root = self.skeleton(schema, "")

    @cached_property
    def validator(self) -> SchemaValidator:
        from .validation import SchemaValidator

        return SchemaValidator(self.schema)

    @property
    def schema_problems(self) -> list[str]:
        """The parts of the schema that are not checked: references that were not followed,
        and keywords that are not valid JSON Schema."""
        from .bundle import left_out

        return [*left_out(self.schema), *self.validator.problems]

    def iter_errors(self, data: Any) -> list[SchemaError]:
        """Every validation error of ``data``, in the schema's order."""
        return self.validator.iter_errors(data)

    def warm(self) -> CompiledForm:
        """Compile now what is otherwise compiled on first use: every skeleton the schema reaches
        (each recursive one once) and the validators. Returns the form, for chaining."""
        seen: set[int] = set()
        stack = [self.root]
        while stack:
            skeleton = stack.pop()
            if id(skeleton) in seen:
                continue
            seen.add(id(skeleton))
            stack.extend(sub for _, sub in skeleton.properties)
            stack.extend(skeleton.dependent.values())
            stack.extend(skeleton.all_of)
            stack.extend(skeleton.variants)
            stack.extend(skeleton.tuple_entries)
            stack.extend(sub for _, sub in skeleton.pattern_properties)
            if skeleton.additional is not None:
                stack.append(skeleton.additional)
            if skeleton.variants:
                _ = skeleton.variant_validators
            if skeleton.condition is not None:
                stack.extend(branch for branch in skeleton.condition[1:] if branch is not None)
            if skeleton.item is not None:
                stack.append(skeleton.item)
            _ = skeleton.plan
        _ = self.validator
        return self

    @cached_property
    def any_skeleton(self) -> Skeleton:
        """The skeleton of a value no schema describes (a key the schema does not name): one JSON
        value. It has no place in the schema, so no pointer others could share."""
        return Skeleton(self, {}, "#any")

    @cached_property
    def any_object(self) -> Skeleton:
        """An object no schema describes, as a type switch builds it: a map of values no schema
        describes (each a switch in turn, as deep as the data goes)."""
        return Skeleton(self, {"type": "object", "additionalProperties": {}}, "#any/object")

    @cached_property
    def any_array(self) -> Skeleton:
        """A list no schema describes: a list whose items are values no schema describes."""
        return Skeleton(self, {"type": "array", "items": {}, "layout": {"comp": "list"}}, "#any/array")

    @cached_property
    def any_values(self) -> Skeleton:
        """A list of plain values no schema describes: one field, its items reached by index."""
        return Skeleton(self, {"type": "array"}, "#any/values")

    def branch_skeleton(self, fragment: dict[str, Any], pointer: str) -> Skeleton:
        """The skeleton of one branch of a type switch (``switch``): the union's entry at
        ``pointer`` with the keywords around the union merged in, kept apart from the entry's own."""
        key = "~branch:" + pointer
        with self._lock:
            skeleton = self._skeletons.get(key)
            if skeleton is None:
                skeleton = self._skeletons[key] = Skeleton(self, fragment, pointer)
                skeleton.switched = True
        return skeleton

    def sub_validator(self, schema: Any) -> Fragment:
        """A validator for a fragment of this schema (its references resolve in the whole)."""
        return self.validator.fragment(schema)

    def skeleton(self, fragment: Any, pointer: str) -> Skeleton:
        """The skeleton of ``fragment`` found at ``pointer`` (its ``$ref`` chain followed)."""
        fragment, pointer = self._deref(fragment, pointer)
        with self._lock:
            skeleton = self._skeletons.get(pointer)
            if skeleton is None:
                skeleton = self._skeletons[pointer] = Skeleton(self, fragment, pointer)
        return skeleton

    def _deref(self, fragment: Any, pointer: str) -> tuple[dict[str, Any], str]:
        if isinstance(fragment, bool) or fragment is None:
            return ({} if fragment is not False else {"not": {}}), pointer
        seen: list[str] = []
        while isinstance(fragment, dict) and "$ref" in fragment:
            ref = fragment["$ref"]
            if ref in seen:
                raise FormSchemaError(f"the schema's $ref {ref!r} at {pointer or '/'} refers to itself in a loop.")
            seen.append(ref)
            try:
                target_pointer, target = self.resolver.lookup(ref)
            except RefError:
                # The validator leaves it out too and names it under "Not checked": the form
                # around it stays usable, and the field accepts what the reference would describe.
                target_pointer, target = pointer, True
            siblings = {k: v for k, v in fragment.items() if k != "$ref"}
            if isinstance(target, bool):
                target = {} if target else {"not": {}}
            if siblings and isinstance(target, dict):
                fragment = {**target, **siblings}
            else:
                fragment, pointer = target, target_pointer
        if not isinstance(fragment, dict):
            raise FormSchemaError(f"the schema fragment at {pointer or '/'} is not a JSON Schema object.")
        return fragment, pointer


class ChildPlan(Record):
    """One child in a composite's plan. ``kind``: property, deps, allOf, oneOf, condition,
    composite, slot."""

    __slots__ = ("composite", "key", "kind", "skeleton", "text")

    def __init__(
        self,
        kind: str,
        key: str,
        skeleton: Skeleton | None = None,
        composite: CompositePlan | None = None,
        text: str | None = None,
    ) -> None:
        self.kind = kind
        self.key = key
        self.skeleton = skeleton
        self.composite = composite
        self.text = text


class CompositePlan(Record):
    """A layout-only group (a tab, a step, a card): a title and its own children."""

    __slots__ = ("children", "comp", "layout", "title")

    def __init__(
        self,
        comp: str,
        title: str | None,
        children: list[ChildPlan] | None = None,
        layout: dict[str, Any] | None = None,
    ) -> None:
        self.comp = comp
        self.title = title
        self.children = [] if children is None else children
        self.layout = {} if layout is None else layout


def _types_of(schema: dict[str, Any]) -> tuple[tuple[str, ...], bool]:
    declared = schema.get("type")
    if isinstance(declared, str):
        types = [declared]
    elif isinstance(declared, list):
        types = [t for t in declared if isinstance(t, str)]
    else:
        types = []
        if (
            isinstance(schema.get("properties"), dict)
            or schema.get("additionalProperties") is not None
            or isinstance(schema.get("patternProperties"), dict)
        ):
            types = ["object"]
        elif "items" in schema or "prefixItems" in schema:
            types = ["array"]
        elif "const" in schema:
            types = [json_type(schema["const"])]
        elif isinstance(schema.get("enum"), list) and schema["enum"]:
            found = {json_type(v) for v in schema["enum"]}
            types = sorted(found)
    nullable = "null" in types
    plain = tuple(t for t in types if t != "null")
    return plain, nullable


# How many allOf levels deep an object is looked for (allOf entries may refer to each other).
MAX_ALL_OF_DEPTH = 8


def _objects_all_of(form: CompiledForm, schema: dict[str, Any], pointer: str, depth: int = 0) -> bool:
    """Whether ``schema`` is an object by its ``allOf`` (an entry typed object or with properties)."""
    entries = schema.get("allOf")
    return (
        isinstance(entries, list)
        and depth < MAX_ALL_OF_DEPTH
        and _objects_in(form, entries, f"{pointer}/allOf", depth + 1)
    )


def _objects_in(form: CompiledForm, entries: list[Any], pointer: str, depth: int = 0) -> bool:
    """Whether one of the schemas ``entries`` (at ``pointer``) is typed object, has properties, or
    is an object by its own ``allOf``."""
    for index, entry in enumerate(entries):
        if isinstance(entry, dict):
            target, target_pointer = form._deref(entry, f"{pointer}/{index}")
            if _types_of(target)[0][:1] == ("object",) or "properties" in target:
                return True
            if _objects_all_of(form, target, target_pointer, depth):
                return True
    return False


def _variant_keyword(form: CompiledForm, schema: dict[str, Any], pointer: str, types: tuple[str, ...]) -> str | None:
    """``oneOf`` or ``anyOf`` when its entries are variants of an object the form shows one at a
    time: not all constants (those are options); a ``oneOf`` on a fragment typed object, or
    entries that all describe objects, one at least with its own fields. An ``anyOf`` of bare
    constraints (``required: [a]`` or ``required: [b]``) only checks; a union of an object and
    other types is a type switch (``Skeleton.branches``)."""
    for keyword in ("oneOf", "anyOf"):
        entries = schema.get(keyword)
        if not isinstance(entries, list) or not entries:
            continue
        if all(isinstance(e, dict) and ("const" in e or "enum" in e) for e in entries):
            continue
        if keyword == "oneOf" and "object" in types:
            return keyword
        where = f"{pointer}/{keyword}"
        if types and "object" not in types:
            continue
        if _objects_in(form, entries, where) and _only_objects(form, entries, where):
            return keyword
        if not types and _objects_in(form, entries, where):
            return None
    return None


def _only_objects(form: CompiledForm, entries: list[Any], pointer: str) -> bool:
    """Whether every entry describes an object: typed so, or with object keywords of its own
    (an untyped entry that is itself a union is not a variant: the value picks through it)."""
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            return False
        target, target_pointer = form._deref(entry, f"{pointer}/{index}")
        declared = _types_of(target)[0]
        if declared:
            if declared != ("object",):
                return False
        elif not _objects_in(form, [target], target_pointer) and "required" not in target:
            return False
    return True


def _nullable_union(schema: dict[str, Any]) -> tuple[str, Any] | None:
    """``anyOf``/``oneOf`` of exactly one schema and ``{type: null}``: a nullable field."""
    for keyword in ("anyOf", "oneOf"):
        entries = schema.get(keyword)
        if isinstance(entries, list) and len(entries) == 2:
            nulls = [i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("type") == "null"]
            if len(nulls) == 1:
                other = 1 - nulls[0]
                return f"{keyword}/{other}", entries[other]
    return None


SKELETON_CONSTRAINTS = ("format", "pattern", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems")


class Skeleton:
    """What the form knows about one schema fragment (see the module docstring)."""

    def __init__(self, form: CompiledForm, schema: dict[str, Any], pointer: str) -> None:
        self.form = form
        self.pointer = pointer
        # A branch of a type switch (``switch``), built for the value's type.
        self.switched = False
        nullable_extra = False
        union = _nullable_union(schema)
        if union is not None:
            suffix, other = union
            other, _ = form._deref(other, f"{pointer}/{suffix}")
            outer = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            schema = {**other, **outer}
            nullable_extra = True
        self.schema = schema
        self.layout = normalize_layout(schema.get("layout"))
        types, nullable = _types_of(schema)
        self.types = types
        self.nullable = nullable or nullable_extra
        self.has_const = "const" in schema
        self.const = schema.get("const")
        self.has_default = "default" in schema
        self.default = schema.get("default")
        self.read_only = schema.get("readOnly") is True or self.layout.get("readOnly") is True
        title = schema.get("title")
        self.title: str | None = title if isinstance(title, str) else None
        if "title" in self.layout:
            layout_title = self.layout["title"]
            self.title = layout_title if isinstance(layout_title, str) else None
        label = self.layout.get("label")
        self.label: str | None = label if isinstance(label, str) else None
        help_text = self.layout.get("help", schema.get("description"))
        self.help: str | None = help_text if isinstance(help_text, str) and help_text.strip() else None
        self.if_expression: Expression | None = (
            parse_expression(self.layout["if"]) if self.layout.get("if") is not None else None
        )
        properties = schema.get("properties")
        self._properties_raw: dict[str, Any] = properties if isinstance(properties, dict) else {}
        required = schema.get("required")
        self.required: frozenset[str] = (
            frozenset(r for r in required if isinstance(r, str)) if isinstance(required, list) else frozenset()
        )
        # The keyword whose entries are variants: oneOf, else an anyOf of object shapes (an
        # anyOf is read as a choice too, its active entry the one the data matches best).
        self.variant_keyword = _variant_keyword(form, schema, pointer, types) if union is None else None
        self.object_one_of = self.variant_keyword is not None
        kind = types[0] if len(types) == 1 else None
        item_schema: dict[str, Any] = {}
        self.tuple_items = False
        if kind == "array":
            raw_items = schema.get("items")
            if isinstance(schema.get("prefixItems"), list) or isinstance(raw_items, list):
                self.tuple_items = True
            elif isinstance(raw_items, dict):
                item_schema, _ = form._deref(raw_items, f"{pointer}/items")
                inner = _nullable_union(item_schema)
                if inner is not None:
                    item_schema, _ = form._deref(inner[1], f"{pointer}/items/{inner[0]}")
        value_schema = item_schema if kind == "array" else schema
        self.items: ItemsSource | None = items_source(schema, self.layout, value_schema)
        array_of_objects = kind == "array" and (
            _types_of(item_schema)[0][:1] == ("object",)
            or "properties" in item_schema
            or "oneOf" in item_schema
            or _variant_keyword(form, item_schema, f"{pointer}/items", _types_of(item_schema)[0]) is not None
            or _objects_all_of(form, item_schema, f"{pointer}/items")
        )
        # An object described only through allOf (renovate's package rules): its parts are fields.
        self.all_of_object = not types and _objects_all_of(form, schema, pointer)
        patterns = schema.get("patternProperties")
        self._patterns_raw: dict[str, Any] = patterns if isinstance(patterns, dict) else {}
        additional = schema.get("additionalProperties")
        # A map: an object whose keys are free names with values of one shape (compose services,
        # import maps, environment variables), or of any shape (a bare ``{"type": "object"}``,
        # ``additionalProperties: {}`` or ``true`` and nothing else: Helm values, metadata).
        self.free_form = (
            kind == "object"
            and not self._properties_raw
            and not self._patterns_raw
            and (additional is None or additional is True or additional == {})
            and not any(k in schema for k in ("allOf", "oneOf", "anyOf", "if", "not", "propertyNames"))
        )
        self.is_map = bool(self._patterns_raw) or (isinstance(additional, dict) and additional != {}) or self.free_form
        self.comp = choose_component(
            schema,
            self.layout,
            types,
            self.items,
            has_properties=bool(self._properties_raw) or "allOf" in schema or "if" in schema,
            has_map=self.is_map,
            object_one_of=self.object_one_of,
            array_of_objects=array_of_objects,
            tuple_items=self.tuple_items,
        )
        if self.comp not in ITEMS_COMPONENTS and self.items is not None and self.items.kind == "static":
            # Options of a field drawn as something else (a radio group named by layout) still count.
            pass
        self.multiple = kind == "array" and self.comp in ITEMS_COMPONENTS
        self.value_schema = value_schema
        self.constraints = self._constraints(value_schema if self.multiple else schema)
        self.layout_constraints = self._layout_constraints()
        self.min_items = schema.get("minItems") if isinstance(schema.get("minItems"), int) else None
        discriminator = schema.get("discriminator")
        self.discriminator: str | None = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
        self.item_title = parse_expression(self.layout["itemTitle"]) if self.layout.get("itemTitle") else None
        self.empty_data = self.layout.get("emptyData") is True
        # Read on every build of every state: computed once.
        self.object_composite = self.is_object and self.is_composite

    # -- descriptive -------------------------------------------------------------------------

    @property
    def kind(self) -> str | None:
        return self.types[0] if len(self.types) == 1 else None

    @property
    def is_object(self) -> bool:
        return self.kind == "object" or (
            self.kind is None
            and (bool(self._properties_raw) or self.object_one_of or self.is_map or self.all_of_object)
        )

    @property
    def is_composite(self) -> bool:
        """Whether the form shows this fragment's parts as fields of their own."""
        return (
            self.comp in ("section", "tabs", "vertical-tabs", "stepper", "expansion-panels", "card", "map")
            or (self.comp == "list")
            or (self.is_object and self.comp not in ITEMS_COMPONENTS and self.comp not in ("json", "none"))
        )

    def _constraints(self, schema: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for key in SKELETON_CONSTRAINTS:
            if key in schema and key != "format":
                out[key] = schema[key]
            elif key == "format" and isinstance(schema.get("format"), str):
                out[key] = schema["format"]
        if self.multiple:
            for key in ("minItems", "maxItems", "uniqueItems"):
                if key in self.schema:
                    out[key] = self.schema[key]
        return out

    def _layout_constraints(self) -> dict[str, Any]:
        schema, layout, comp = self.schema, self.layout, self.comp
        out: dict[str, Any] = {}
        integer = self.kind == "integer"
        if comp in ("number-field", "slider"):
            for source, target in (("minimum", "min"), ("maximum", "max")):
                if isinstance(schema.get(source), (int, float)) and not isinstance(schema.get(source), bool):
                    out[target] = schema[source]
            for target in ("min", "max", "step"):
                if isinstance(layout.get(target), (int, float)):
                    out[target] = layout[target]
            if "step" not in out and isinstance(schema.get("multipleOf"), (int, float)):
                out["step"] = schema["multipleOf"]
            if "step" not in out and integer:
                out["step"] = 1
            if comp == "number-field" and integer:
                out["precision"] = 0
        elif comp == "date-picker":
            for source, target in (("formatMinimum", "min"), ("formatMaximum", "max")):
                if isinstance(schema.get(source), str):
                    out[target] = schema[source]
            if schema.get("format") in ("date", "date-time"):
                out["format"] = schema["format"]
        elif comp in ("date-time-picker", "time-picker"):
            for source, target in (("formatMinimum", "min"), ("formatMaximum", "max")):
                if isinstance(schema.get(source), str):
                    out[target] = schema[source]
        elif comp in ("combobox", "number-combobox") and isinstance(layout.get("separator"), str):
            out["separator"] = layout["separator"]
        return out

    # -- children ------------------------------------------------------------------------------

    @cached_property
    def properties(self) -> list[tuple[str, Skeleton]]:
        base = self.pointer + "/properties"
        return [
            (name, self.form.skeleton(sub, jsonpointer.append(base, name)))
            for name, sub in self._properties_raw.items()
        ]

    @property
    def property_names(self) -> list[str]:
        """The names ``properties`` declares, without reading their schemas."""
        return list(self._properties_raw)

    @cached_property
    def pattern_properties(self) -> list[tuple[Fragment, Skeleton]]:
        """``(validator of the key pattern, skeleton of the value)`` per ``patternProperties``
        entry, in the schema's order. The pattern runs in the validator's regular-expression
        engine, as validation runs it."""
        base = self.pointer + "/patternProperties"
        out = []
        for pattern, sub in self._patterns_raw.items():
            if isinstance(sub, (dict, bool)):
                matches = self.form.sub_validator({"type": "string", "pattern": pattern})
                out.append((matches, self.form.skeleton(sub, jsonpointer.append(base, pattern))))
        return out

    @cached_property
    def additional(self) -> Skeleton | None:
        """The skeleton of the values of keys no property or pattern names (``additionalProperties``
        as a schema), or None."""
        additional = self.schema.get("additionalProperties")
        if self.free_form or additional is True:
            additional = {}  # any other key, with any value: a key of the user's choosing
        if not isinstance(additional, dict):
            return None
        return self.form.skeleton(additional, self.pointer + "/additionalProperties")

    @cached_property
    def branches(self) -> list[Skeleton]:
        """The branches of a type switch (``switch``), or []."""
        from .switch import type_branches

        return type_branches(self)

    @cached_property
    def allowed_types(self) -> frozenset[str]:
        """The JSON types the fragment allows, as far as its keywords (and nested unions) say."""
        from .switch import union_types

        return frozenset(self.types) or frozenset(union_types(self.schema, self.form, self.pointer))

    @cached_property
    def accepts_anything(self) -> bool:
        """Whether the fragment says nothing about its value (``{}``): a type switch whose
        branches are a map and a list of such values."""
        from .switch import accepts_anything

        return not self.layout and accepts_anything(self.schema)

    @cached_property
    def open_items(self) -> bool:
        """A list whose items no schema describes (``{"type": "array"}``): a list of plain values
        is one field, and one that holds objects or lists is a list of fields (``switch``)."""
        return (
            self.kind == "array"
            and not self.tuple_items
            and self.items is None
            and not self.layout.get("comp")
            and (self.item is None or self.item.accepts_anything)
        )

    @cached_property
    def own_validator(self) -> Fragment:
        """A validator of this fragment alone (its references resolve in the whole schema)."""
        return self.form.sub_validator(self.schema)

    @property
    def refuses_other_keys(self) -> bool:
        """Whether a key no property or pattern names is an error here."""
        return self.schema.get("additionalProperties") is False or self.schema.get("unevaluatedProperties") is False

    def entry_schema(self, key: str) -> Skeleton | None:
        """The skeleton of the value of ``key`` when a pattern or ``additionalProperties`` gives one."""
        for matches, sub in self.pattern_properties:
            if matches.is_valid(key):
                return sub
        return self.additional

    @cached_property
    def dependent(self) -> dict[str, Skeleton]:
        out: dict[str, Skeleton] = {}
        for keyword in ("dependentSchemas", "dependencies"):
            entries = self.schema.get(keyword)
            if isinstance(entries, dict):
                for name, sub in entries.items():
                    if isinstance(sub, dict) and name not in out:
                        out[name] = self.form.skeleton(sub, jsonpointer.append(self.pointer, keyword, name))
        return out

    @cached_property
    def all_of(self) -> list[Skeleton]:
        entries = self.schema.get("allOf")
        if not isinstance(entries, list):
            return []
        return [self.form.skeleton(e, f"{self.pointer}/allOf/{i}") for i, e in enumerate(entries)]

    @cached_property
    def variants(self) -> list[Skeleton]:
        keyword = self.variant_keyword
        if keyword is None:
            return []
        return [self.form.skeleton(e, f"{self.pointer}/{keyword}/{i}") for i, e in enumerate(self.schema[keyword])]

    @cached_property
    def variant_titles(self) -> list[str]:
        """One title per variant: from ``oneOfLayout.oneOfItems`` (whose header entries only
        group the others and name no variant; an entry's ``key`` names its variant's index), else
        the variant's own title, else ``option N``."""
        one_of_layout = self.schema.get("oneOfLayout")
        layout_items = one_of_layout.get("oneOfItems") if isinstance(one_of_layout, dict) else None
        from_layout: dict[int, str] = {}
        if isinstance(layout_items, list):
            entries = [e for e in layout_items if isinstance(e, dict) and e.get("header") is not True]
            for position, entry in enumerate(entries):
                key = entry.get("key", entry.get("value"))
                index = int(key) if isinstance(key, int) and not isinstance(key, bool) else position
                if isinstance(key, str) and key.strip().isdigit():
                    index = int(key.strip())
                title = entry.get("title")
                if title is not None and 0 <= index < len(self.variants):
                    from_layout.setdefault(index, str(title))
        return [
            from_layout.get(index) or str(variant.schema.get("title") or f"option {index + 1}")
            for index, variant in enumerate(self.variants)
        ]

    @cached_property
    def variant_label(self) -> str | None:
        one_of_layout = self.schema.get("oneOfLayout")
        if isinstance(one_of_layout, dict) and isinstance(one_of_layout.get("label"), str):
            return one_of_layout["label"]
        return None

    def variant_tag(self, index: int) -> Any:
        """The discriminator value of a variant, when the schema has a discriminator."""
        if not self.discriminator:
            return None
        for name, sub in self.variants[index].properties:
            if name == self.discriminator and sub.has_const:
                return sub.const
        return None

    @cached_property
    def variant_validators(self) -> list[Any]:
        return [self.form.sub_validator(v.schema) for v in self.variants]

    @cached_property
    def condition(self) -> tuple[Any, Skeleton | None, Skeleton | None] | None:
        """``(validator of if, then skeleton, else skeleton)`` when the fragment has ``if``."""
        if "if" not in self.schema:
            return None
        then = self.schema.get("then")
        other = self.schema.get("else")
        return (
            self.form.sub_validator(self.schema["if"]),
            self.form.skeleton(then, self.pointer + "/then") if isinstance(then, (dict, bool)) else None,
            self.form.skeleton(other, self.pointer + "/else") if isinstance(other, (dict, bool)) else None,
        )

    @cached_property
    def item(self) -> Skeleton | None:
        items = self.schema.get("items")
        if self.tuple_items or not isinstance(items, (dict, bool)):
            return None
        return self.form.skeleton(items, self.pointer + "/items")

    @cached_property
    def tuple_entries(self) -> list[Skeleton]:
        if not self.tuple_items:
            return []
        prefix = self.schema.get("prefixItems")
        keyword = "prefixItems" if isinstance(prefix, list) else "items"
        entries = prefix if isinstance(prefix, list) else self.schema.get("items")
        return [self.form.skeleton(e, f"{self.pointer}/{keyword}/{i}") for i, e in enumerate(entries or [])]

    @cached_property
    def declared_keys(self) -> frozenset[str]:
        """Every property key this fragment can hold, through its wrappers."""
        keys = {name for name, _ in self.properties}
        for wrapper in [*self.all_of, *self.variants, *self.dependent.values()]:
            keys |= wrapper.declared_keys
        if self.condition is not None:
            for branch in self.condition[1:]:
                if branch is not None:
                    keys |= branch.declared_keys
        return frozenset(keys)

    @cached_property
    def plan(self) -> list[ChildPlan]:
        """The children of an object, in order (``layout.children`` overrides the default)."""
        entries = self._default_plan()
        children = self.layout.get("children")
        if not isinstance(children, list):
            return entries
        by_key = {entry.key: entry for entry in entries}
        return self._layout_plan(children, by_key)

    def _default_plan(self) -> list[ChildPlan]:
        plan: list[ChildPlan] = []
        dependent = self.dependent
        for name, skeleton in self.properties:
            plan.append(ChildPlan("property", name, skeleton))
            if name in dependent:
                plan.append(ChildPlan("deps", f"$deps-{name}", dependent[name]))
        for name, skeleton in dependent.items():
            if name not in self._properties_raw:
                plan.append(ChildPlan("deps", f"$deps-{name}", skeleton))
        for index, skeleton in enumerate(self.all_of):
            plan.append(ChildPlan("allOf", f"$allOf-{index}", skeleton))
        if self.variants:
            plan.append(ChildPlan("oneOf", "$oneOf"))
        if self.condition is not None:
            plan.append(ChildPlan("condition", "$if"))
        return plan

    def _layout_plan(self, children: list[Any], by_key: dict[str, ChildPlan]) -> list[ChildPlan]:
        plan: list[ChildPlan] = []
        composite_count = 0
        slot_count = 0
        for child in children:
            if isinstance(child, str):
                entry = by_key.get(child)
                if entry is not None:
                    plan.append(entry)
                    if entry.kind == "property" and f"$deps-{child}" in by_key:
                        plan.append(by_key[f"$deps-{child}"])
                continue
            if not isinstance(child, dict):
                continue
            if isinstance(child.get("key"), str):
                entry = by_key.get(child["key"])
                if entry is not None:
                    plan.append(entry)
                continue
            if isinstance(child.get("children"), list):
                composite_count += 1
                comp = child.get("comp") if isinstance(child.get("comp"), str) else "section"
                title = child.get("title") if isinstance(child.get("title"), str) else None
                plan.append(
                    ChildPlan(
                        "composite",
                        f"$comp-{composite_count}",
                        composite=CompositePlan(comp, title, self._layout_plan(child["children"], by_key), child),
                    )
                )
                continue
            text = child.get("markdown") or child.get("text") or child.get("name")
            if isinstance(text, str):
                slot_count += 1
                plan.append(ChildPlan("slot", f"$slot-{slot_count}", text=text))
        # Wrappers that a layout cannot name still shape the data: keep them at the end.
        named = {entry.key for entry in _flatten(plan)}
        for entry in by_key.values():
            if entry.kind in ("oneOf", "condition", "allOf", "deps") and entry.key not in named:
                plan.append(entry)
        return plan


def _flatten(plan: list[ChildPlan]) -> list[ChildPlan]:
    out = []
    for entry in plan:
        out.append(entry)
        if entry.composite is not None:
            out.extend(_flatten(entry.composite.children))
    return out
