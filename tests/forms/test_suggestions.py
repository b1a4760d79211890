"""Options of choice fields: lists known without a request, lists behind a URL (through a
fetcher the test provides), the index store and its invalidation."""

from __future__ import annotations

from .support import Form

BIG = {"id": "big", "title": "Big dataset", "description": "x" * 500}


def test_options_from_an_expression_keep_their_full_value():
    schema = {
        "type": "object",
        "properties": {
            "dataset": {
                "type": "object",
                "layout": {"getItems": "context.datasets.map(d => ({title: d.title, key: d.id, value: d}))"},
            }
        },
    }
    datasets = [BIG, {"id": "b2", "title": "Second big", "description": "y" * 400}, {"id": "c", "title": "C"}]
    form = Form(schema, {}, context={"datasets": datasets})
    answer = form.call("getFieldSuggestions", path="/dataset")
    assert "- [0] Big dataset (big) — apply with suggestionIndex=0" in answer
    assert "apply with suggestionIndex" in answer and len(answer) < 600 and "xxxx" not in answer
    form.call("setFieldValue", path="/dataset", suggestionIndex=0)
    assert form.data("/dataset") == BIG


def test_short_values_are_printed_and_long_ones_named():
    schema = {"type": "object", "properties": {"pick": {"type": "string", "enum": ["short", "z" * 120]}}}
    answer = Form(schema, {}).call("getFieldSuggestions", path="/pick")
    assert '- [0] short — value="short"' in answer
    assert "- [1] " in answer and "apply with suggestionIndex=1" in answer


def test_store_errors():
    schema = {"type": "object", "properties": {"pick": {"type": "string", "enum": ["a", "b"]}}}
    form = Form(schema, {})
    assert "call getFieldSuggestions on this path first" in form.error("setFieldValue", path="/pick", suggestionIndex=0)
    form.call("getFieldSuggestions", path="/pick")
    assert "out of range" in form.error("setFieldValue", path="/pick", suggestionIndex=2)
    assert "out of range" in form.error("setFieldValue", path="/pick", suggestionIndex=-1)
    assert "not an index" in form.error("setFieldValue", path="/pick", suggestionIndex=0.5)
    assert "not both" in form.error("setFieldValue", path="/pick", suggestionIndex=0, value="a")


def test_indices_are_absolute_across_listings_of_a_field():
    schema = {"type": "object", "properties": {"pick": {"type": "string", "enum": ["alpha", "beta"]}}}
    form = Form(schema, {})
    first = form.call("getFieldSuggestions", path="/pick")
    second = form.call("getFieldSuggestions", path="/pick")
    assert "[0] alpha" in first and "[1] beta" in first
    assert "[2] alpha" in second and "[3] beta" in second
    form.call("setFieldValue", path="/pick", suggestionIndex=3)
    assert form.data("/pick") == "beta"
    narrowed = form.call("getFieldSuggestions", path="/pick", query="ALP")
    assert "[4] alpha" in narrowed and "beta" not in narrowed


def test_a_removed_item_makes_its_remembered_options_stale():
    schema = {
        "type": "object",
        "properties": {
            "rows": {
                "type": "array",
                "items": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["a", "b"]}}},
            }
        },
    }
    form = Form(schema, {"rows": [{}, {}]})
    form.call("getFieldSuggestions", path="/rows/1/kind")
    form.call("editArray", path="/rows", action="remove", index=0)
    message = form.error("setFieldValue", path="/rows/0/kind", suggestionIndex=0)
    assert "call getFieldSuggestions on this path" in message
    assert form.data("/rows") == [{}]


DEPENDENT = {
    "type": "object",
    "properties": {
        "country": {"type": "string"},
        "city": {"type": "string", "layout": {"getItems": "context.cities[parent.data.country] || []"}},
        "fixed": {"type": "string", "oneOf": [{"const": "x", "title": "X"}, {"const": "y", "title": "Y"}]},
        "kind": {"type": "string"},
        "byKind": {"type": "string", "layout": {"getItems": 'rootData.kind === "a" ? ["a1", "a2"] : ["b1"]'}},
    },
}
CITIES = {"fr": ["Paris", "Lyon"], "de": ["Berlin"]}


def test_a_write_drops_only_the_lists_it_may_have_changed():
    form = Form(DEPENDENT, {"country": "fr", "kind": "a"}, context={"cities": CITIES})
    form.call("getFieldSuggestions", path="/city")
    form.call("getFieldSuggestions", path="/fixed")
    form.call("getFieldSuggestions", path="/byKind")
    form.call("setFieldValue", path="/country", value="de")
    message = form.error("setFieldValue", path="/city", suggestionIndex=0)
    assert "discarded by a write" in message and "again" in message and "first" not in message
    assert form.call("setFieldValue", path="/fixed", suggestionIndex=0).startswith('/fixed (select) = "x"')
    form.call("setFieldValue", path="/kind", value="b")
    assert "discarded" in form.error("setFieldValue", path="/byKind", suggestionIndex=0)


def test_set_data_drops_every_remembered_list():
    form = Form(DEPENDENT, {}, context={"cities": CITIES})
    form.call("getFieldSuggestions", path="/fixed")
    form.call("setData", data={"kind": "a"})
    assert "discarded" in form.error("setFieldValue", path="/fixed", suggestionIndex=0)
    assert "[0] X" in form.call("getFieldSuggestions", path="/fixed"), "numbering starts again"


def test_a_null_constant_writes_null():
    schema = {
        "type": "object",
        "properties": {
            "color": {
                "type": ["string", "null"],
                "oneOf": [{"const": None, "title": "None (default)"}, {"const": "primary", "title": "Primary"}],
            }
        },
    }
    form = Form(schema, {})
    assert "[0] None (default) (null) — value=null" in form.call("getFieldSuggestions", path="/color")
    form.call("setFieldValue", path="/color", suggestionIndex=0)
    assert form.data() == {"color": None} and form.state.valid


FLAGS = {
    "type": "object",
    "properties": {
        "plainList": {"type": "array", "items": {"type": "string"}},
        "fromExpr": {"type": "string", "layout": {"getItems": {"expr": '["a","b"]'}}},
        "metric": {
            "type": "string",
            "oneOf": [{"const": "avg", "title": "Moyenne"}, {"const": "sum", "title": "Somme"}],
        },
        "remote": {"type": "string", "layout": {"getItems": {"url": "https://api.test/things"}}},
        "many": {"type": "string", "enum": [f"value-{i}" for i in range(60)]},
        "source": {"type": "object", "properties": {"href": {"type": "string"}}},
        "columns": {
            "type": "string",
            "layout": {"getItems": {"url": {"type": "js-tpl", "expr": "${rootData.source.href}/columns"}}},
        },
    },
}


def test_describe_flags_how_each_field_gets_its_options():
    form = Form(FLAGS, {})
    assert "suggestions" not in form.line("/plainList") and "values=" not in form.line("/plainList")
    assert 'values=["a", "b"]' in form.line("/fromExpr")
    assert 'values=["avg" (Moyenne), "sum" (Somme)]' in form.line("/metric")
    assert "(select, suggestions)" in form.line("/remote")
    assert "(autocomplete, suggestions)" in form.line("/many")
    assert "suggestions once another field is set" in form.line("/columns")
    assert "has no list of options" in form.error("getFieldSuggestions", path="/plainList")


def test_a_list_waiting_for_another_field_says_which():
    form = Form(FLAGS, {}, fetcher=lambda request: [])
    answer = form.call("getFieldSuggestions", path="/columns")
    assert answer.startswith("No options yet") and "rootData.source.href" in answer
    form.call("setFieldValue", path="/source/href", value="https://api.test/d1")
    assert "(select, suggestions)" in form.line("/columns")
    assert "Nothing matched" in form.call("getFieldSuggestions", path="/columns")


def test_lists_behind_a_url_go_through_the_fetcher():
    schema = {
        "type": "object",
        "properties": {
            "dep": {
                "type": "string",
                "layout": {
                    "getItems": {
                        "url": "https://api.test/departements?q={q}&size=5",
                        "itemsResults": "data.results",
                        "itemTitle": "data.nom",
                        "itemKey": "data.code",
                    }
                },
            }
        },
    }
    requests = []

    def fetcher(request):
        requests.append(request.url)
        return {"results": [{"code": "29", "nom": "Finistère"}, {"code": "35", "nom": "Ille-et-Vilaine"}]}

    form = Form(schema, {}, fetcher=fetcher)
    answer = form.call("getFieldSuggestions", path="/dep", query="fin")
    assert requests == ["https://api.test/departements?q=fin&size=5"]
    assert '- [0] Finistère (29) — value="29"' in answer
    form.call("getFieldSuggestions", path="/dep")
    assert requests[-1] == "https://api.test/departements?size=5", "without a query the search parameter goes"
    form.call("setFieldValue", path="/dep", suggestionIndex=3)
    assert form.data("/dep") == "35"


def test_a_url_list_without_a_fetcher_says_what_to_do():
    message = Form(FLAGS, {}).error("getFieldSuggestions", path="/remote")
    assert "https://api.test/things" in message and "setFieldValue" in message


def test_suggestion_keys_are_printed_only_when_they_say_something():
    schema = {
        "type": "object",
        "properties": {
            "insee": {"type": "string", "layout": {"items": [{"key": "75056", "title": "Paris", "value": "75056"}]}},
            "obj": {"type": "object", "layout": {"getItems": {"expr": '[{"title": "One", "value": {"a": 1}}]'}}},
        },
    }
    form = Form(schema, {})
    assert '- [0] Paris (75056) — value="75056"' in form.call("getFieldSuggestions", path="/insee")
    obj = form.call("getFieldSuggestions", path="/obj")
    assert "[object" not in obj and "- [0] One" in obj


def test_a_list_has_no_options_of_its_own():
    schema = {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "object"}}}}
    message = Form(schema, {}).error("getFieldSuggestions", path="/rows")
    assert "is a list" in message and "editArray" in message


def test_a_list_waiting_for_the_context_does_not_name_a_field():
    schema = {
        "type": "object",
        "properties": {
            "owner": {
                "type": "string",
                "layout": {"getItems": {"url": {"type": "js-tpl", "expr": "/api/${context.owner.type}/members"}}},
            }
        },
    }
    form = Form(schema, {}, fetcher=lambda request: [])
    assert "suggestions once the context has context.owner.type" in form.line("/owner")
    answer = form.call("getFieldSuggestions", path="/owner")
    assert "context.owner.type: a value of the context this session was opened with, not a field" in answer
    assert "Set that field" not in answer
    with_context = Form(schema, {}, fetcher=lambda request: [{"value": "ann"}], context={"owner": {"type": "org"}})
    assert "[0] ann" in with_context.call("getFieldSuggestions", path="/owner")
