"""``json_equal``, the equality every form comparison uses (modified flags, folded list items,
rebase, shared YAML anchors): JSON's equality, where ``true`` is not ``1``, ``1`` is ``1.0`` and key
order does not count, checked against a plain statement of that rule on generated pairs that are
often equal or nearly so."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.engine.forms.schema.values import UNSET, json_equal
from tests.hypothesis_profiles import examples

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-3, 3, allow_nan=False).map(lambda f: round(f)),
    st.floats(-3, 3, allow_nan=False),
    st.sampled_from(["", "a", "1", "true"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from("abc"), inner, max_size=3)),
    max_leaves=10,
)


def canonical(value: Any) -> Any:
    """The value as JSON distinguishes it: kinds apart, numbers by value, objects unordered."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, dict):
        return ("object", frozenset((key, canonical(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("array", tuple(canonical(item) for item in value))
    return (type(value).__name__, value)


def variant(value: Any, draw) -> Any:
    """A copy of ``value`` with some numbers respelled (1 as 1.0, 1 as True), some objects as
    another mapping type or another key order, and now and then one value changed."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return draw(SCALARS) if draw(st.integers(0, 9)) == 0 else value
    if isinstance(value, (int, float)):
        spelled = draw(st.sampled_from([value, float(value), int(value), value == 1]))
        return draw(SCALARS) if draw(st.integers(0, 9)) == 0 else spelled
    if isinstance(value, list):
        return [variant(item, draw) for item in value]
    items = [(key, variant(item, draw)) for key, item in value.items()]
    items = draw(st.permutations(items))
    return OrderedDict(items) if draw(st.booleans()) else dict(items)


@settings(max_examples=examples(400))
@given(VALUES, st.data())
def test_json_equal_is_jsons_equality(value, data):
    other = variant(value, data.draw)
    expected = canonical(value) == canonical(other)
    assert json_equal(value, other) is expected
    assert json_equal(other, value) is expected


def test_unset_equals_only_itself():
    assert json_equal(UNSET, UNSET)
    assert not json_equal(UNSET, None) and not json_equal(None, UNSET) and not json_equal(UNSET, [])
    assert not json_equal(1, True) and json_equal(1, 1.0) and not json_equal("1", 1)
    assert json_equal({"a": [1, {"b": 2.0}]}, OrderedDict([("a", [1.0, {"b": 2}])]))
