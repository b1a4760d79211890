"""Editor groups loaded from an annotated document give eight form tools each: nothing is sent,
compiled or opened at load; every tool takes the write operation's path parameters; sessions are
keyed by them (and the identity); a declared body schema (editor: true) works too."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.forms.schema.compile import clear_compile_cache, compile_stats
from deskcheck.engine.forms.tools.session_tools import SessionGroup
from deskcheck.engine.http.client import Credentials
from deskcheck.engine.openapi.document.problems import SpecLoadError
from deskcheck.engine.openapi.tools.editors import FORM_ARGUMENTS, FORM_VERBS
from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.engine.providers import SHAPES, export_tools, subset_violations
from deskcheck.samples.records_api import openapi_path
from tests.forms.http_sessions import RecordingClient

from .conftest import DATA_FAIR_ANNOTATED
from .test_editor_source import NOTES

LINE = {"id": "associations", "lineId": "asso-001"}
GROUPS = {"sample_dataset_line": ["id", "lineId"], "sample_dataset_new_line": ["id"]}


def load(api=None, *, client=None, token=None, **options):
    return load_openapi(
        str(openapi_path()),
        profiles=["write"],
        base_url=api.base_url if api is not None else "http://127.0.0.1:9/api/v1",
        client=client,
        credentials=Credentials.from_options((), token) if token else None,
        **options,
    )


def test_loading_sends_nothing_compiles_nothing_and_opens_no_store(isolated_state):
    clear_compile_cache()
    client = RecordingClient()
    loaded = load(client=client)
    assert sorted(loaded.editor_sessions) == sorted(GROUPS)
    for name in GROUPS:
        assert [t for t in loaded.toolset.names if t.startswith(name + "_")] == [f"{name}_{v}" for v in FORM_VERBS]
    assert client.sent == []
    assert compile_stats()["compiles"] == 0 and compile_stats()["restored"] == 0
    assert not any(isolated_state.iterdir()), "the session store is created by the first session, not the load"


@pytest.mark.corpus("openapi")
def test_the_data_fair_groups_load_without_requests():
    client = RecordingClient()
    data_fair = load_openapi(str(DATA_FAIR_ANNOTATED), profiles=["write"], client=client)
    assert len(data_fair.editor_sessions) == 2 and client.sent == []


def test_every_tool_takes_the_path_parameters_first_and_exports_within_the_subset():
    loaded = load()
    editor_tools = [t for t in loaded.toolset if any(t.name.startswith(g + "_") for g in GROUPS)]
    assert len(editor_tools) == 16
    for tool in editor_tools:
        group = next(g for g in GROUPS if tool.name.startswith(g + "_") and tool.name[len(g) + 1 :] in FORM_VERBS)
        path = GROUPS[group]
        schema = tool.input_schema
        assert list(schema["properties"])[: len(path)] == path, tool.name
        assert schema["required"][: len(path)] == path
        assert schema["properties"]["id"] == {"type": "string", "description": "The dataset's id."}
        title = "Edit a dataset record" if group == "sample_dataset_line" else "Add a dataset record"
        assert f'"{title}"' in tool.description, tool.name
    for shape in SHAPES:
        for definition in export_tools(editor_tools, shape):
            schema = definition.get("inputSchema") or definition.get("input_schema")
            schema = schema or definition["function"]["parameters"]
            assert subset_violations(schema) == [], definition
    described = loaded.toolset.get("sample_dataset_line_describeState")
    assert (
        described.annotations.read_only and not loaded.toolset.get("sample_dataset_line_saveForm").annotations.read_only
    )


def test_the_instructions_carry_one_skill_per_editor_group():
    loaded = load()
    skills = {skill.id: skill for skill in loaded.skills}
    skill = skills["sample-dataset-line"]
    assert skill.tools == tuple(f"sample_dataset_line_{v}" for v in FORM_VERBS)
    assert skill.profiles == ("write",)
    assert skill.description.startswith("Edit a dataset record: how to use the sample_dataset_line_* form tools")
    assert "`sample_dataset_line_describeState`" in skill.body and "## Saving" in skill.body
    assert "## sample-dataset-line" in loaded.instructions and "## sample-dataset-new-line" in loaded.instructions
    assert loaded.toolset.instructions == loaded.instructions


def test_a_missing_path_parameter_is_refused_before_any_request():
    client = RecordingClient()
    tools = load(client=client).toolset
    result = tools.call("sample_dataset_line_setFieldValue", {"id": "associations", "path": "/nom", "value": "x"})
    assert not result.ok and result.error == 'Missing required parameter "lineId".'
    unknown = tools.call("sample_dataset_line_saveForm", {**LINE, "path": "/nom"})
    assert not unknown.ok and "does not take path" in unknown.error
    assert client.sent == []


def test_the_form_arguments_list_matches_the_form_tools():
    own = set()
    group = SessionGroup(name="x", title="x", source_for=lambda _params: None)  # type: ignore[arg-type,return-value]
    for tool in group.tools():  # the six form tools, saveForm and reloadForm
        own |= set(tool.input_schema["properties"])
    assert own == set(FORM_ARGUMENTS)


def test_a_path_parameter_named_like_a_form_argument_is_a_load_error():
    doc = json.loads(json.dumps(NOTES))
    item = doc["paths"].pop("/notes/{noteId}")
    item["parameters"][0]["name"] = "path"
    doc["paths"]["/notes/{path}"] = item
    with pytest.raises(SpecLoadError) as raised:
        load_openapi(doc)
    [problem] = raised.value.problems
    assert problem.rule == "editor-path-parameter-clash"
    assert problem.pointer == "/paths/~1notes~1{path}/put/x-agent/editor"
    assert 'the path parameter "path" has the name of an argument of the form tools' in problem.message


def test_two_lines_of_one_dataset_compile_the_schema_once_and_two_identities_stay_apart(fresh_sample_api):
    api = fresh_sample_api
    clear_compile_cache()
    client = RecordingClient()
    alice = load(api, client=client, identity="alice").toolset
    assert alice.call("sample_dataset_line_setFieldValue", {**LINE, "path": "/nom", "value": "Brest"}).ok
    other = {"id": "associations", "lineId": "asso-002"}
    assert alice.call("sample_dataset_line_describeState", other).ok
    stats = compile_stats()
    assert stats["compiles"] + stats["restored"] == 1, stats
    schema_statuses = [status for request, status in client.requests("GET") if "/schema" in request.url]
    assert schema_statuses == [200, 304]

    bob = load(api, identity="bob").toolset
    seen_by_bob = json.loads(bob.call("sample_dataset_line_getData", {**LINE, "path": "/nom"}).value)
    assert seen_by_bob["data"] == "Les Voiles de l'Iroise"
    seen_by_alice = json.loads(alice.call("sample_dataset_line_getData", {**LINE, "path": "/nom"}).value)
    assert seen_by_alice["data"] == "Brest"


def test_sessions_are_keyed_by_group_path_values_and_api(tmp_path):
    loaded = load()
    line = loaded.editor_sessions["sample_dataset_line"]
    created = loaded.editor_sessions["sample_dataset_new_line"]
    api = ("api", "http://127.0.0.1:9/api/v1")
    assert line.key({"lineId": "a", "id": "d"}).params == (("id", "d"), ("lineId", "a"), api)
    # Create mode: the dataset only, so a second "add a record" finds the first draft.
    assert created.key({"id": "d"}).params == (("id", "d"), api)
    assert created.key({"id": "d"}) == created.key({"id": "d"}) != line.key({"id": "d", "lineId": "a"})


def test_a_group_over_a_declared_schema_loads_the_record_and_saves_it_whole(scripted_server):
    doc = json.loads(json.dumps(NOTES))
    tools = load_openapi(doc, base_url=scripted_server.url).toolset
    note = {"noteId": "n 1"}
    scripted_server.answer(200, {"title": "Groceries", "children": [{"title": "Milk"}], "_id": "n 1"})
    described = tools.call("note_describeState", note)
    assert described.ok, described.error
    # The recursive body schema stays recursive: a child note has the fields of a note.
    assert '/children/0/title (text, required, minLength=1) label="title" value="Milk"' in described.value
    [load_request] = scripted_server.received
    assert load_request.method == "GET" and load_request.path == "/api/notes/n%201"
    assert tools.call("note_setFieldValue", {**note, "path": "/children/0/title", "value": "Oat milk"}).ok
    scripted_server.answer(200, {"ok": True})
    saved = tools.call("note_saveForm", note)
    assert saved.ok, saved.error
    put = scripted_server.received[-1]
    assert put.method == "PUT" and put.path == "/api/notes/n%201"
    assert json.loads(put.body) == {"title": "Groceries", "children": [{"title": "Oat milk"}], "_id": "n 1"}
    assert "if-match" not in put.headers, "the record came without a version, so nothing is claimed"


def test_a_failed_save_is_a_result_with_the_apis_message(scripted_server):
    tools = load_openapi(json.loads(json.dumps(NOTES)), base_url=scripted_server.url).toolset
    scripted_server.answer(200, {"title": "Groceries"}, content_type="application/json")
    assert tools.call("note_setFieldValue", {"noteId": "n1", "path": "/title", "value": "Shopping"}).ok
    scripted_server.answer(422, {"message": "Titles are unique: Shopping exists."})
    failed = tools.call("note_saveForm", {"noteId": "n1"})
    assert not failed.ok
    assert (
        "422: Titles are unique: Shopping exists" in failed.error and "edits are still in the session" in failed.error
    )
    kept = tools.call("note_getData", {"noteId": "n1", "path": "/title"})
    assert json.loads(kept.value)["data"] == "Shopping"


def test_without_a_base_url_a_tool_says_to_pass_one():
    doc = json.loads(json.dumps(NOTES))
    del doc["servers"]
    result = load_openapi(doc).toolset.call("note_describeState", {"noteId": "n1"})
    assert not result.ok and "declares no server; pass --base-url" in result.error
