"""``nodes.equal_data``, the quick comparison of two documents that saves rely on (is anything
to write? does the written text read as the new data?), answers as ``same_value`` does: a
boolean is never a number, 1 is 1.0, key order does not count, and objects shared in one
document and not in the other change nothing."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.engine.textdoc.nodes import equal_data, same_value
from tests.hypothesis_profiles import examples

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 1, -1, 0.0, -0.0, 1.0, 2**70]),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from("abcd"), inner, max_size=4)),
    max_leaves=20,
)


def _twin(value, draw):
    """A value == to ``value`` that may differ as JSON: True for 1, 1.0 for 1, keys reordered,
    a list long enough to be compared in pieces."""
    if isinstance(value, bool):
        return int(value) if draw(st.booleans()) else value
    if isinstance(value, int) and value in (0, 1):
        return draw(st.sampled_from([value, float(value), bool(value)]))
    if isinstance(value, dict):
        keys = draw(st.permutations(list(value)))
        return {key: _twin(value[key], draw) for key in keys}
    if isinstance(value, list):
        return [_twin(item, draw) for item in value]
    return copy.copy(value)


@settings(max_examples=examples(300), deadline=None)
@given(values, st.data())
def test_equal_data_answers_as_same_value(value, data):
    twin = _twin(value, data.draw)
    assert equal_data(value, twin) == same_value(value, twin)
    assert equal_data(value, copy.deepcopy(value))


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("xyz"), scalars, max_size=3), min_size=1, max_size=8), st.data())
def test_long_lists_compared_in_pieces_answer_as_same_value(items, data):
    items = [copy.deepcopy(item) for _ in range(600 // len(items) + 1) for item in items]  # over 500 items
    twin = _twin(items, data.draw)
    assert equal_data(items, twin) == same_value(items, twin)


def test_shared_objects_change_nothing():
    name = "a shared string"
    shared = {"k": [1, 2]}
    one = [{"name": name, "v": shared}, {"name": name, "v": shared}] * 300
    other = [{"name": "a shared " + "string", "v": {"k": [1, 2]}} for _ in range(600)]
    assert equal_data(one, other) and equal_data(other, one)
    other[599]["v"]["k"][1] = 2.0
    assert equal_data(one, other)  # 2 is 2.0
    other[599]["v"]["k"][0] = True
    assert not equal_data(one, other)  # true is not 1
