"""Editor-group sources without a session: the schema preparation (the reference's prepareSchema
on its own fixture), the requests built from a group's operations, schema versions and keys."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine.forms.schema.compile import compile_prepared
from deskcheck.engine.forms.sources.sources import SchemaTag, SourceError
from deskcheck.engine.http.client import ApiCaller
from deskcheck.engine.openapi.tools.editor_source import (
    SCHEMA_VARIANT,
    EditorEndpoint,
    EditorSource,
    hidden_columns,
    hide_unfillable_columns,
    prepare_editor_schema,
)
from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.samples.records_api import openapi_path
from tests.conftest import OPENAPI_FIXTURES, REPO
from tests.forms.http_sessions import RecordingClient

DATASET_LINE_SCHEMA = OPENAPI_FIXTURES / "dataset-line-schema.json"
API = "http://api.test/v1"


def groups(base_url: str | None = API, spec=None):
    loaded = load_openapi(spec or str(openapi_path()), profiles=["write"], base_url=base_url)
    return {g.name: g for g in loaded.editor_groups}, loaded


def source_of(name: str, values: dict, *, base_url: str | None = API, client=None, spec=None) -> EditorSource:
    found, loaded = groups(base_url, spec)
    caller = ApiCaller(base_url, client=client or RecordingClient())
    endpoint = EditorEndpoint(caller, base_url, "pass --base-url with the API's address.", loaded.analysis.document)
    return EditorSource(found[name], values, endpoint)


# -- prepareSchema -------------------------------------------------------------------------------


# The reference's own fixture (corpus) and one written for these tests, with the columns that
# play each part: (file, lookup, its URL, items property, item key, textarea, attachment, computed, plain).
V2_SCHEMAS = [
    pytest.param(
        DATASET_LINE_SCHEMA,
        ("departement", "https://example.com/departements", "results", "code"),
        ("note", "piece_jointe", "population_calculee", "code_commune"),
        marks=pytest.mark.corpus("openapi"),
        id="reference-fixture",
    ),
    pytest.param(
        REPO / "tests" / "fixtures" / "forms" / "v2-record-schema.json",
        ("region", "https://example.org/regions", "items", "id"),
        ("remarks", "scan", "area_computed", "reference"),
        id="v2-record",
    ),
]


@pytest.mark.parametrize(("path", "lookup", "columns"), V2_SCHEMAS)
def test_a_v2_schema_is_prepared_as_the_reference_prepares_it(path, lookup, columns):
    lookup_column, url, items_prop, key = lookup
    textarea, attachment, computed, plain = columns
    schema = json.loads(path.read_text(encoding="utf-8"))
    before = copy.deepcopy(schema)
    prepared = prepare_editor_schema(schema)
    assert schema == before, "the input is never modified"
    columns = prepared["properties"]
    # The lookup became a picker: x-fromUrl translated into layout.getItems.
    assert "x-fromUrl" not in columns[lookup_column]
    items = columns[lookup_column]["layout"]["getItems"]
    assert items["url"]["expr"] == url
    assert items["itemsResults"] == f'data["{items_prop}"]' and items["itemKey"] == f'data["{key}"]'
    assert columns[textarea]["layout"] == {"comp": "textarea"}
    assert columns[attachment]["layout"]["comp"] == "none"
    assert columns[computed]["layout"]["comp"] == "none"
    assert columns[plain] == schema["properties"][plain]
    assert hidden_columns(prepared) == [attachment, computed]
    # The forms engine accepts the result, and the smallest schema too.
    compile_prepared(prepared, "test:reference-fixture").warm()
    compile_prepared(prepare_editor_schema({"type": "object"}), "test:empty-object").warm()


def test_an_attachment_already_a_text_field_is_left_editable():
    schema = {
        "type": "object",
        "properties": {
            "file": {"type": "string", "x-refersTo": "http://schema.org/DigitalDocument", "layout": "text-field"},
            "doc": {
                "type": "string",
                "x-refersTo": "https://schema.org/DigitalDocument",
                "layout": {"comp": "textarea", "cols": 6},
            },
            "label": {"type": "string", "x-refersTo": "http://www.w3.org/2000/01/rdf-schema#label"},
        },
    }
    prepared = prepare_editor_schema(schema)
    assert prepared["properties"]["file"]["layout"] == {"comp": "text-field"}
    # Hidden, with the rest of its layout kept.
    assert prepared["properties"]["doc"]["layout"] == {"comp": "none", "cols": 6}
    assert "layout" not in prepared["properties"]["label"]


def test_a_schema_without_columns_to_hide_is_returned_as_it_is():
    prepared = prepare_editor_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    assert hide_unfillable_columns(prepared) is prepared
    assert hide_unfillable_columns({"type": "array"}) == {"type": "array"}


COLUMN = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "number", "object"])},
    optional={
        "x-refersTo": st.sampled_from(["http://schema.org/DigitalDocument", "https://schema.org/email"]),
        "x-extension": st.text(max_size=5),
        "layout": st.one_of(
            st.sampled_from(["text-field", "textarea", "none"]),
            st.fixed_dictionaries(
                {}, optional={"comp": st.sampled_from(["text-field", "textarea"]), "cols": st.integers(1, 12)}
            ),
        ),
    },
)


@given(st.dictionaries(st.text(min_size=1, max_size=8), COLUMN, max_size=6))
def test_hiding_hides_exactly_the_unfillable_columns_and_is_idempotent(columns):
    prepared = prepare_editor_schema({"type": "object", "properties": columns})
    snapshot = copy.deepcopy(prepared)
    hidden = hide_unfillable_columns(prepared)
    assert prepared == snapshot
    for name, column in columns.items():
        layout = prepared["properties"][name].get("layout")
        component = layout.get("comp") if isinstance(layout, dict) else None
        attachment = column.get("x-refersTo") == "http://schema.org/DigitalDocument" and component != "text-field"
        should_hide = "x-extension" in column or attachment
        assert (hidden["properties"][name].get("layout", {}).get("comp") == "none") == (
            should_hide or component == "none"
        )
        assert (name in hidden_columns(prepared)) == should_hide
    assert hide_unfillable_columns(hidden) == hidden


# -- requests --------------------------------------------------------------------------------------


def test_requests_are_built_from_the_groups_operations_with_encoded_path_values():
    line = source_of("sample_dataset_line", {"id": "a b;c", "lineId": "x?1"}).http
    assert line.read.method == "GET" and line.read.url == f"{API}/datasets/a%20b%3Bc/lines/x%3F1"
    assert line.write.method == "PUT" and line.write.url == line.read.url
    # schemaParams are sent as query parameters although readSchema does not declare extension.
    assert (
        line.schema_request.url
        == f"{API}/datasets/a%20b%3Bc/schema?mimeType=application%2Fschema%2Bjson&extension=true"
    )
    assert "arrays" not in line.schema_request.url
    new_line = source_of("sample_dataset_new_line", {"id": "associations"})
    assert new_line.creates and new_line.http.read is None
    assert new_line.http.write.method == "POST" and new_line.http.write.url == f"{API}/datasets/associations/lines"


def test_sessions_of_one_dataset_share_a_schema_key_and_other_datasets_or_servers_do_not():
    first = source_of("sample_dataset_line", {"id": "associations", "lineId": "asso-001"})
    second = source_of("sample_dataset_line", {"id": "associations", "lineId": "asso-002"})
    created = source_of("sample_dataset_new_line", {"id": "associations"})
    other = source_of("sample_dataset_line", {"id": "bibliotheques", "lineId": "asso-001"})
    elsewhere = source_of("sample_dataset_line", {"id": "associations", "lineId": "asso-001"}, base_url="http://b.test")
    assert first.schema_key == second.schema_key == created.schema_key
    assert len({first.schema_key, other.schema_key, elsewhere.schema_key}) == 3
    assert first.schema_key.startswith(SCHEMA_VARIANT)


def test_without_a_base_url_nothing_is_sent_and_the_error_says_what_to_pass():
    client = RecordingClient()
    source = source_of(
        "sample_dataset_line", {"id": "associations", "lineId": "asso-001"}, base_url=None, client=client
    )
    with pytest.raises(SourceError, match="pass --base-url"):
        source.load()
    with pytest.raises(SourceError, match="pass --base-url"):
        source.schema(None)
    # Create mode loads an empty record without a request.
    assert source_of("sample_dataset_new_line", {"id": "associations"}, base_url=None).load().data == {}
    assert client.sent == []


# -- schema versions against the sample API ----------------------------------------------------------


def test_a_fetched_schema_is_versioned_by_a_hash_of_its_body_and_asked_for_conditionally(sample_api):
    client = RecordingClient()
    source = source_of(
        "sample_dataset_line", {"id": "associations", "lineId": "asso-001"}, base_url=sample_api.base_url, client=client
    )
    fetched = source.schema(None)
    request, status = client.sent[-1]
    assert status == 200 and request.headers["accept"].startswith("application/schema+json")
    import httpx

    body = httpx.get(request.url).text
    assert fetched.version == f"{SCHEMA_VARIANT}:sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()
    assert fetched.schema["title"] == "Association" and fetched.etag
    again = source.schema(SchemaTag(fetched.version, fetched.etag))
    assert again.unchanged and again.version == fetched.version
    assert client.sent[-1][1] == 304 and client.sent[-1][0].headers["if-none-match"] == fetched.etag


def test_a_changed_schema_gets_a_new_version(fresh_sample_api):
    api = fresh_sample_api
    source = source_of("sample_dataset_line", {"id": "associations", "lineId": "asso-001"}, base_url=api.base_url)
    before = source.schema(None)
    schema = api.dataset_schema("associations")
    schema["properties"]["nom"]["maxLength"] = 80
    api.set_schema("associations", schema)
    after = source.schema(SchemaTag(before.version, before.etag))
    assert not after.unchanged and after.version != before.version
    assert after.schema["properties"]["nom"]["maxLength"] == 80


# -- a declared schema (editor: true) ---------------------------------------------------------------

NOTES = {
    "openapi": "3.1.0",
    "info": {"title": "Notes", "version": "1"},
    "servers": [{"url": "https://notes.test/api"}],
    "paths": {
        "/notes/{noteId}": {
            "parameters": [{"in": "path", "name": "noteId", "required": True, "schema": {"type": "string"}}],
            "get": {"operationId": "readNote", "responses": {"200": {"description": "ok"}}},
            "put": {
                "operationId": "updateNote",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/note"}}}},
                "x-agent": {"name": "note", "title": "Edit a note", "editor": {"readOperation": "readNote"}},
                "responses": {"200": {"description": "ok"}},
            },
        }
    },
    "components": {
        "schemas": {
            "note": {
                "type": "object",
                "required": ["title"],
                "properties": {
                    "title": {"type": "string", "minLength": 1},
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/note"}},
                },
            }
        }
    },
}


def test_a_declared_schema_is_bundled_from_the_document_and_versioned_by_its_operation():
    client = RecordingClient()
    source = source_of("note", {"noteId": "n1"}, base_url="https://notes.test/api", client=client, spec=NOTES)
    fetched = source.schema(None)
    assert fetched.version.startswith(f"{SCHEMA_VARIANT}:updateNote:")
    assert source.schema(SchemaTag(fetched.version)).unchanged
    prepared = prepare_editor_schema(fetched.schema, document=fetched.document)
    # The recursion survives: children's items still refer to the note schema.
    assert prepared["properties"]["children"]["items"] == {"$ref": "#/components/schemas/note"}
    assert prepared["components"]["schemas"]["note"]["required"] == ["title"]
    compile_prepared(prepared, fetched.version).warm()
    assert client.sent == [], "a declared schema needs no request"
    # Another document (edited) gives another version: prepared schemas are stored by version.
    edited = copy.deepcopy(NOTES)
    edited["components"]["schemas"]["note"]["properties"]["title"]["maxLength"] = 5
    other = source_of("note", {"noteId": "n1"}, base_url="https://notes.test/api", spec=edited).schema(None)
    assert other.version != fetched.version
