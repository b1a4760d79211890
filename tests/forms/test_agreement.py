"""Property: for generated schemas of every draft Python's jsonschema implements (4, 6, 7,
2019-09, 2020-12) and generated documents, a form loaded with the document keeps it as it is and
reports the validity jsonschema reports (the same format checkers on both sides: a form checks
formats on purpose). Schemas use each draft's own spelling (``definitions`` or ``$defs``,
``dependencies`` or ``dependentRequired``, ``items`` lists or ``prefixItems``, boolean or numeric
exclusive bounds, ``if``/``then``/``else`` from draft 7)."""

from __future__ import annotations

import json

import jsonschema
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deskcheck.engine.forms import FormState, compile_form
from tests.hypothesis_profiles import examples

from .schemastore import format_checker

DRAFTS = {
    4: ("http://json-schema.org/draft-04/schema#", jsonschema.Draft4Validator),
    6: ("http://json-schema.org/draft-06/schema#", jsonschema.Draft6Validator),
    7: ("http://json-schema.org/draft-07/schema#", jsonschema.Draft7Validator),
    2019: ("https://json-schema.org/draft/2019-09/schema", jsonschema.Draft201909Validator),
    2020: ("https://json-schema.org/draft/2020-12/schema", jsonschema.Draft202012Validator),
}
NAMES = st.sampled_from(["a", "b", "c", "name", "default", "$id", "x y"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(-5, 5, allow_nan=False), st.sampled_from(["", "a", "ab"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(NAMES, inner, max_size=3)),
    max_leaves=8,
)
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])
FORMATS = st.sampled_from(["date", "email", "uri", "ipv4", "uuid", "duration"])


def _json_identity(value) -> str:
    """Values JSON Schema holds equal spell alike (0 and 0.0 are one number): draft 4 requires an
    enum's items to be unique, and an enum of [0, 0.0] is not a schema any draft means."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value)


def schemas(draft: int) -> st.SearchStrategy[dict]:
    """Schemas in ``draft``'s spelling, with references to one shared definition."""

    def leaf() -> st.SearchStrategy[dict]:
        options = [
            st.builds(lambda t: {"type": t}, TYPES),
            st.builds(lambda ts: {"type": sorted(set(ts))}, st.lists(TYPES, min_size=1, max_size=3)),
            st.builds(lambda v: {"enum": v}, st.lists(SCALARS, min_size=1, max_size=3, unique_by=_json_identity)),
            st.builds(lambda n: {"minimum": n}, st.integers(-3, 3)),
            st.builds(lambda n: {"maxLength": n}, st.integers(0, 3)),
            st.builds(lambda p: {"type": "string", "pattern": p}, st.sampled_from(["^a", "b$", "^[0-9]+$"])),
            st.builds(lambda f: {"type": "string", "format": f}, FORMATS),
            st.builds(lambda n: {"minItems": n, "uniqueItems": True}, st.integers(0, 2)),
            st.just({"$ref": "#/" + ("$defs" if draft >= 2019 else "definitions") + "/shared"}),
        ]
        if draft == 4:
            options.append(st.just({"type": "number", "maximum": 2, "exclusiveMaximum": True}))
        else:
            options += [
                st.builds(lambda v: {"const": v}, SCALARS),
                st.builds(lambda n: {"exclusiveMaximum": n}, st.integers(-2, 2)),
            ]
        return st.one_of(options)

    def compose(inner: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
        objects = st.builds(
            lambda props, required, extra: {
                "type": "object",
                "properties": props,
                **({"required": sorted(set(required) & set(props))} if set(required) & set(props) else {}),
                **extra,
            },
            st.dictionaries(NAMES, inner, max_size=3),
            st.lists(NAMES, max_size=2),
            st.sampled_from(
                [
                    {},
                    {"additionalProperties": False},
                    {"additionalProperties": {"type": "integer"}},
                    {"minProperties": 1},
                ]
            ),
        )
        mixes = [
            objects,
            st.builds(lambda i: {"type": "array", "items": i}, inner),
            st.builds(lambda xs: {"allOf": xs}, st.lists(inner, min_size=1, max_size=2)),
            st.builds(lambda xs: {"anyOf": xs}, st.lists(inner, min_size=1, max_size=2)),
            st.builds(lambda xs: {"oneOf": xs}, st.lists(inner, min_size=1, max_size=3)),
            st.builds(lambda x: {"not": x}, inner),
            st.builds(
                lambda p, x: {"type": "object", "patternProperties": {p: x}}, st.sampled_from(["^a", "y$"]), inner
            ),
        ]
        if draft >= 2020:
            mixes.append(
                st.builds(lambda xs: {"type": "array", "prefixItems": xs}, st.lists(inner, min_size=1, max_size=2))
            )
        else:
            mixes.append(st.builds(lambda xs: {"type": "array", "items": xs}, st.lists(inner, min_size=1, max_size=2)))
        if draft >= 2019:
            mixes.append(st.just({"type": "object", "dependentRequired": {"a": ["b"]}}))
        else:
            mixes.append(st.builds(lambda x: {"type": "object", "dependencies": {"a": ["b"], "b": x}}, inner))
        if draft >= 7:
            mixes.append(st.builds(lambda i, t, e: {"if": i, "then": t, "else": e}, inner, inner, inner))
        return st.one_of(mixes)

    body = st.recursive(leaf(), compose, max_leaves=6)
    container = "$defs" if draft >= 2019 else "definitions"
    return st.builds(
        lambda root, shared: {"$schema": DRAFTS[draft][0], **root, container: {"shared": shared}},
        body,
        st.one_of(leaf().filter(lambda s: "$ref" not in s), st.just({"type": "object"})),
    )


def documents(schema: dict) -> st.SearchStrategy:
    """Any small JSON value, and values built from the schema's own enums and constants."""
    found = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found += node.get("enum", []) + ([node["const"]] if "const" in node else [])
            stack += [v for k, v in node.items() if k not in ("enum", "const")]
        elif isinstance(node, list):
            stack += node
    picked = st.sampled_from(found) if found else VALUES
    return st.one_of(VALUES, picked, st.dictionaries(NAMES, st.one_of(VALUES, picked), max_size=4))


def check(draft: int, schema: dict, document) -> None:
    validator_class = DRAFTS[draft][1]
    validator_class.check_schema(schema)
    expected = validator_class(schema, format_checker=format_checker()).is_valid(document)
    state = FormState(compile_form(schema), document, base=document, fill_defaults=False)
    assert state.form.schema_problems == []
    assert state.document == document and not state.modified, "a loaded document is kept as it is"
    assert state.valid is expected, (json.dumps(schema), json.dumps(document), [e.message for e in state.errors])


def _property(draft: int):
    # Built once per draft: a recursive strategy rebuilt for every example was validated anew
    # each time, which cost more than the check itself.
    draft_schemas = schemas(draft)

    @settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test(data):
        schema = data.draw(draft_schemas)
        document = data.draw(documents(schema))
        assume(document is not None or draft != 4)  # draft 4 has no null const; keep shapes comparable
        check(draft, schema, document)

    return test


test_draft_4_agrees_with_jsonschema = _property(4)
test_draft_6_agrees_with_jsonschema = _property(6)
test_draft_7_agrees_with_jsonschema = _property(7)
test_draft_2019_09_agrees_with_jsonschema = _property(2019)
test_draft_2020_12_agrees_with_jsonschema = _property(2020)
