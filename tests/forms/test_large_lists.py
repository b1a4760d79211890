"""Long lists in a form: the items nobody is looking at are folded (one field each, no fields
under them) and unfold as soon as a path names them, a write changes them, or they become the
active item; describeState lists a page of a long list and says how to read the next one, naming
the items outside the page that have errors. What the form shows, checks and writes is the same
as for a short list."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.forms import FormState, compile_form, form_toolset
from deskcheck.engine.forms.state.tree import FOLD_FROM
from tests.helpers import run_cli
from tests.hypothesis_profiles import examples

ITEM = {
    "type": "object",
    "required": ["id", "name"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string", "minLength": 1},
        "price": {"type": "number", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}
SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}, "items": {"type": "array", "items": ITEM}}}
FORM = compile_form(SCHEMA, "large-lists-v1")


def catalogue(count: int, *, broken: tuple[int, ...] = ()) -> dict:
    items = [{"id": i, "name": f"item {i}", "price": i * 0.5, "tags": ["a"]} for i in range(count)]
    for index in broken:
        items[index]["price"] = -1
    return {"title": "t", "items": items}


def state_of(document: dict) -> FormState:
    return FormState(FORM, document, base=document)


def test_a_long_list_folds_its_items_and_a_short_one_does_not():
    long, short = state_of(catalogue(FOLD_FROM + 50)), state_of(catalogue(FOLD_FROM - 1))
    assert all(item.folded and not item.children for item in long.node("/items").children)
    assert len(long.tree.nodes) == FOLD_FROM + 50 + 3  # root, title, items and one field per item
    assert not any(item.folded for item in short.node("/items").children)


def test_a_folded_item_unfolds_when_a_path_names_it_and_writes_reach_it():
    state = state_of(catalogue(500))
    assert state.node("/items/321/name").data == "item 321"
    item = state.node("/items/321")
    assert not item.folded and [child.key for child in item.children] == ["id", "name", "price", "tags"]
    state.set_field_value("/items/400/price", 7)
    assert state.document["items"][400]["price"] == 7 and state.modified
    again = FormState.from_snapshot(FORM, json.loads(json.dumps(state.snapshot())))
    assert not again.tree.by_full_key["/items/400"].folded, "a written item stays unfolded"
    assert again.tree.by_full_key["/items"].modified and again.modified
    assert again.tree.by_full_key["/items/399"].folded


def test_errors_inside_folded_items_count_and_sit_on_the_item():
    state = state_of(catalogue(300, broken=(17, 250)))
    assert not state.valid and len(state.errors) == 2
    assert sorted(error.path for error in state.errors) == ["/items/17", "/items/250"]
    assert state.node("/items/250/price").error, "unfolded, the error is on its own field"


def test_the_same_document_validates_and_writes_alike_folded_or_not():
    document = catalogue(FOLD_FROM + 10, broken=(3,))
    tools = form_toolset(state_of(document))
    answer = tools.call("form_setFieldValue", {"path": "/items/3/price", "value": 2})
    assert answer.ok and "the form is valid" in answer.value
    data = json.loads(tools.call("form_getData", {}).value)
    assert data["valid"] and data["data"]["items"][3]["price"] == 2 and data["data"]["items"][4] == document["items"][4]


def test_describe_lists_a_page_of_a_long_list_and_says_how_to_read_on():
    tools = form_toolset(state_of(catalogue(1000, broken=(700, 900))))
    whole = tools.call("form_describeState", {}).value
    assert whole.count("  - /items/") == 50 and "/items/49 " in whole and "/items/50 " not in whole
    assert (
        "... 950 more item(s) of 1000 not listed here; 2 of them with errors (/items/700, /items/900): "
        'describeState {"path": "/items", "fromItem": 50} lists the next 50' in whole
    )
    page = tools.call("form_describeState", {"path": "/items", "fromItem": 700, "maxItems": 3}).value
    assert "/items/700/price (number, error, min=0)" in page and "/items/702/tags" in page
    assert "/items/699" not in page and "/items/703" not in page
    assert "1 of them with errors (/items/900)" in page
    last = tools.call("form_describeState", {"path": "/items", "fromItem": 998}).value
    assert "998 earlier item(s) of 1000 not listed here; 2 of them with errors" in last


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"path": "/items", "fromItem": 1000}, "fromItem 1000 is past the last item of /items (999)"),
        ({"path": "/title", "fromItem": 0}, "fromItem pages through a list; /title is not one"),
        ({"maxItems": 0}, "maxItems must be a whole number from 1 to 500"),
        ({"path": "/items", "fromItem": -1}, "fromItem"),
    ],
)
def test_a_page_out_of_range_is_refused_with_the_reason(arguments, message):
    answer = form_toolset(state_of(catalogue(1000))).call("form_describeState", arguments)
    assert not answer.ok and message in answer.error


@pytest.mark.slow
def test_a_file_of_twenty_thousand_items_is_described_in_a_page_and_edited_in_place(tmp_path):
    schema = tmp_path / "catalogue.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    data = tmp_path / "catalogue.json"
    text = json.dumps(catalogue(20_000), indent=2) + "\n"
    data.write_text(text)
    context = ["--schema", str(schema), "--data", str(data)]
    described = run_cli("form", "describe-state", *context).json["result"]
    assert len(described) < 10_000 and "19950 more item(s) of 20000" in described
    run_cli("form", "set-field-value", *context, '{"path": "/items/15000/name", "value": "renamed"}')
    assert run_cli("form", "save-form", *context).json["ok"]
    assert data.read_text() == text.replace('"name": "item 15000"', '"name": "renamed"')


# -- property: a folded list answers as an unfolded one would ---------------------------------------

items = st.fixed_dictionaries(
    {"id": st.one_of(st.integers(0, 10**6), st.text(max_size=3)), "name": st.one_of(st.text(max_size=8), st.none())},
    optional={
        "price": st.one_of(st.floats(-5, 5, allow_nan=False), st.booleans()),
        "tags": st.lists(st.text(max_size=3), max_size=2),
    },
)


@settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(st.lists(items, min_size=FOLD_FROM, max_size=FOLD_FROM + 20), st.data())
def test_validity_and_writes_of_a_folded_list_are_jsonschemas_and_exact(entries, draw):
    from jsonschema import Draft202012Validator

    document = {"title": "t", "items": [{k: v for k, v in e.items() if v is not None} for e in entries]}
    tools = form_toolset(state_of(document))
    answer = json.loads(tools.call("form_getData", {}).value)
    assert answer["data"] == document
    assert answer["valid"] is Draft202012Validator(SCHEMA).is_valid(document)
    index = draw.draw(st.integers(0, len(entries) - 1))
    assert tools.call("form_setFieldValue", {"path": f"/items/{index}/name", "value": "x"}).ok
    expected = json.loads(json.dumps(document))
    expected["items"][index]["name"] = "x"
    answer = json.loads(tools.call("form_getData", {}).value)
    assert answer["data"] == expected and answer["valid"] is Draft202012Validator(SCHEMA).is_valid(expected)
