"""Restoring a draft re-applies its changes onto the source's current copy: properties of
``changed_pointers`` and ``rebase`` over generated documents, and JSON files keeping their layout."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine import jsonpointer
from deskcheck.engine.forms.schema.values import UNSET, json_equal
from deskcheck.engine.forms.state.rebase import changed_pointers, rebase
from deskcheck.engine.textdoc import write_document

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["a", "b", ""]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["x", "y", "z", "a/b"]), inner, max_size=3)
    ),
    max_leaves=8,
)
documents = st.dictionaries(st.sampled_from(["p", "q", "r", "s"]), values, max_size=4)


def at(document, pointer: str):
    node = document
    for token in jsonpointer.split("" if pointer == "/" else pointer):
        if not isinstance(node, dict) or token not in node:
            return UNSET
        node = node[token]
    return node


@given(documents)
def test_nothing_changed_between_a_document_and_itself(doc):
    assert changed_pointers(doc, json.loads(json.dumps(doc))) == []


@given(documents, documents)
def test_every_reported_pointer_differs_and_every_difference_is_reported(base, data):
    pointers = changed_pointers(base, data)
    assert len(pointers) == len(set(pointers))
    for pointer in pointers:
        assert not json_equal(at(base, pointer), at(data, pointer))
    assert (pointers == []) == json_equal(base, data)


@given(documents, documents)
def test_rebasing_onto_an_unchanged_copy_gives_the_draft(base, mine):
    merged, conflicts = rebase(base, mine, json.loads(json.dumps(base)))
    assert json_equal(merged, mine) and conflicts == []


@given(documents, documents)
def test_a_draft_without_changes_takes_the_current_copy(base, theirs):
    merged, conflicts = rebase(base, json.loads(json.dumps(base)), theirs)
    assert json_equal(merged, theirs) and conflicts == []


@given(documents, documents, documents)
def test_the_drafts_changes_win_and_the_others_are_kept(base, mine, theirs):
    merged, conflicts = rebase(base, mine, theirs)
    for pointer in changed_pointers(base, mine):
        assert json_equal(at(merged, pointer), at(mine, pointer))
    for pointer in changed_pointers(base, theirs):
        if not any(
            pointer == p or pointer.startswith(p + "/") or p.startswith(pointer + "/")
            for p in changed_pointers(base, mine)
        ):
            assert json_equal(at(merged, pointer), at(theirs, pointer))
    # A conflict is at a field the draft changed, or at an object around it that the other side
    # replaced or removed.
    for pointer in conflicts:
        prefix = "" if pointer == "/" else pointer
        assert any(p == pointer or p.startswith(prefix + "/") for p in changed_pointers(base, mine))


def test_a_field_changed_on_both_sides_is_a_conflict():
    merged, conflicts = rebase({"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 3, "b": 4})
    assert merged == {"a": 2, "b": 4} and conflicts == ["/a"]
    merged, conflicts = rebase({"a": 1}, {}, {"a": 1, "c": 5})
    assert merged == {"c": 5} and conflicts == []


@given(documents, st.sampled_from([2, 4, "\t"]), st.booleans())
def test_a_json_file_keeps_its_layout(doc, indent, newline):
    nested = {"outer": doc or {"k": 1}}
    text = json.dumps(nested, indent=indent) + ("\n" if newline else "")
    grown = {**nested, "added": doc}
    assert (
        write_document(text.encode(), grown, "json")
        == (json.dumps(grown, indent=indent) + ("\n" if newline else "")).encode()
    )
