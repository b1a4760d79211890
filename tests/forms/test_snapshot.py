"""A state travels as plain JSON: rebuilt from a snapshot (as another process would, after a
trip through JSON text and a fresh compile), it answers exactly as the original would."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.forms import FormError, FormState, clear_compile_cache, compile_form, form_toolset

from .test_lists import FILTERS
from .test_variants import RECURSIVE, SHAPES


def reopen(state: FormState, schema: dict) -> FormState:
    """What the next process does: JSON text in, compile again, rebuild."""
    text = json.dumps(state.snapshot())
    clear_compile_cache()
    return FormState.from_snapshot(compile_form(schema), json.loads(text))


def call(state: FormState, verb: str, **args) -> str:
    result = form_toolset(state).call(f"form_{verb}", args)
    assert result.ok, result.error
    return result.value


def test_data_base_and_modified_flags_survive():
    state = FormState(compile_form(FILTERS), {"name": "a"}, base={"name": "a"})
    call(state, "setFieldValue", path="/name", value="b")
    again = reopen(state, FILTERS)
    assert again.document == {"name": "b"} and again.modified
    assert call(again, "describeState") == call(state, "describeState")


def test_suggestion_indices_survive_and_keep_counting():
    schema = {"type": "object", "properties": {"pick": {"type": "string", "enum": ["alpha", "beta"]}}}
    state = FormState(compile_form(schema), {})
    call(state, "getFieldSuggestions", path="/pick")
    again = reopen(state, schema)
    call(again, "setFieldValue", path="/pick", suggestionIndex=1)
    assert again.document == {"pick": "beta"}
    assert "[2] alpha" in call(again, "getFieldSuggestions", path="/pick")


def test_variant_choices_active_items_and_the_variants_memo_survive():
    state = FormState(compile_form(RECURSIVE), {})
    call(state, "editArray", path="/elements", action="add")
    call(state, "setFieldValue", path="/elements/0/$oneOf", value=1)
    again = reopen(state, RECURSIVE)
    assert again.active_items == {"/elements": 0}
    nested = call(again, "editArray", path="/elements/0/children", action="add")
    assert "the same list as for /elements/0/$oneOf" in nested, "the memo came along"
    assert "variant 1: Group (active)" in call(again, "describeState", path="/elements/0/$oneOf")


def test_an_explicit_choice_that_no_data_shows_survives():
    state = FormState(compile_form(SHAPES), {"shape": {}})
    call(state, "setFieldValue", path="/shape/$oneOf", value=1)
    assert reopen(state, SHAPES).variants == {"/shape/$oneOf": 1}


def test_a_record_without_data_or_base():
    state = FormState(compile_form(FILTERS), None)
    snapshot = json.loads(json.dumps(state.snapshot()))
    assert "base" not in snapshot
    again = FormState.from_snapshot(compile_form(FILTERS), snapshot)
    assert not again.tracking and again.document == {}


def test_a_foreign_snapshot_is_refused():
    with pytest.raises(FormError, match="snapshot"):
        FormState.from_snapshot(compile_form(FILTERS), {"format": 99})
