"""A session's document is stored once: the base it was loaded as is kept as the values where it
differs from the edited data (a 25 MB record made 50 MB of text per write before), and read back
exactly as it was."""

from __future__ import annotations

import json

import pytest

from tests.forms.test_store import record


def stored_text(store, key: str = "k") -> str:
    return store.db.execute("SELECT snapshot FROM sessions WHERE key = ?", (key,)).fetchone()[0]


def round_trip(make_store, data, base):
    store = make_store()
    with store.transaction():
        store.put(record(snapshot={"format": 1, "data": data, "base": base}))
    found = store.get("k").snapshot
    return store, found


CATALOGUE = {"title": "t", "items": [{"id": n, "name": f"item {n}", "tags": ["a"]} for n in range(300)]}


def test_a_document_equal_to_its_base_is_stored_once(make_store):
    base = json.loads(json.dumps(CATALOGUE))
    store, found = round_trip(make_store, CATALOGUE, base)
    assert stored_text(store).count('"item 299"') == 1
    assert found["data"] == CATALOGUE and found["base"] == CATALOGUE
    # Two documents, not one shared: a change to the data leaves the base as it was.
    found["data"]["items"][0]["name"] = "changed"
    assert found["base"]["items"][0]["name"] == "item 0"


def test_one_edit_stores_the_document_once_and_the_base_value_it_replaced(make_store):
    data = json.loads(json.dumps(CATALOGUE))
    data["items"][250]["name"] = "renamed"
    store, found = round_trip(make_store, data, CATALOGUE)
    text = stored_text(store)
    assert text.count('"item 299"') == 1 and text.count('"item 250"') == 1
    assert found["base"] == CATALOGUE and found["data"] == data


@pytest.mark.parametrize(
    ("data", "base"),
    [
        ({"n": 1.0}, {"n": 1}),  # equal to Python, not in a file
        ({"n": True}, {"n": 1}),
        ({"n": [0.0]}, {"n": [-0.0]}),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),  # key order is the file's
        ({"list": [1, 2, 3]}, {"list": [1, 2]}),  # another shape
        ({"a": {"b": 1}}, {"a": None}),
        ([1, {"x": "y"}], {"x": 1}),
        ({"a": 1}, None),
        ("text", "other"),
    ],
)
def test_the_base_reads_back_exactly(make_store, data, base):
    _, found = round_trip(make_store, data, base)
    assert json.dumps(found["base"]) == json.dumps(base)
    assert json.dumps(found["data"]) == json.dumps(data)


def test_a_base_far_from_the_data_is_stored_whole(make_store):
    data = {"items": [{"id": n, "name": "new"} for n in range(1500)]}
    base = {"items": [{"id": n, "name": "old"} for n in range(1500)]}
    store, found = round_trip(make_store, data, base)
    assert stored_text(store).count('"old"') == 1500
    assert found["base"] == base and found["data"] == data


def test_after_an_edit_and_a_save_the_store_holds_the_document_once(tmp_path, isolated_state):
    import sqlite3

    from tests.helpers import run_cli

    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}))
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"a": "kept-value", "b": 1}))
    context = ["--schema", str(schema), "--data", str(data)]

    def stored() -> str:
        with sqlite3.connect(isolated_state / "sessions.sqlite3") as db:
            [(text,)] = db.execute("SELECT snapshot FROM sessions").fetchall()
        return text

    run_cli("form", "set-field-value", *context, '{"path": "/b", "value": 2}')
    assert stored().count("kept-value") == 1
    run_cli("form", "save-form", *context)
    assert stored().count("kept-value") == 1
    assert json.loads(data.read_text()) == {"a": "kept-value", "b": 2}
    # The session reads as saved: nothing left to save, the file's values.
    out = run_cli("form", "get-data", *context).stdout
    assert json.loads(json.loads(out)["result"])["data"] == {"a": "kept-value", "b": 2}
