"""The reference's fixtures (test corpus) load with the profiles they declare, and petstore gives the reference
tool names, input schemas, descriptions, annotations and instructions."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.openapi.document.problems import SpecUsageError
from deskcheck.engine.openapi.tools.editors import FORM_VERBS
from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.engine.providers import SHAPES, export_tools, subset_violations

from .conftest import DATA_FAIR, DATA_FAIR_ANNOTATED, PETSTORE, VETSTORE, VIEWS

# The reference's own fixtures and its answers on them: the whole module reads the corpus.
pytestmark = pytest.mark.corpus("openapi")

DECLARED = [
    (PETSTORE, None, ["pets_list_pets", "pets_get_pet"], []),
    (PETSTORE, ["explore"], ["pets_list_pets", "pets_get_pet"], []),
    (PETSTORE, ["edit"], ["pets_create_pet"], []),
    (PETSTORE, ["explore", "edit"], ["pets_list_pets", "pets_create_pet", "pets_get_pet"], []),
    (VETSTORE, None, ["vets_list_vets"], []),
    (VETSTORE, ["edit_appointments"], ["vets_create_appointment"], []),
    (VETSTORE, ["edit"], ["vets_create_appointment"], []),
    (VIEWS, None, ["t_update_thing"], []),
    (VIEWS, ["manage"], ["t_update_thing", "t_publish_thing"], []),
    (DATA_FAIR, None, [], []),
    (
        DATA_FAIR_ANNOTATED,
        None,
        [
            "datafair_list_datasets",
            "datafair_describe_dataset",
            "datafair_search_data",
            "datafair_get_field_values",
            "datafair_aggregate_data",
            "datafair_calculate_metric",
        ],
        [],
    ),
    (
        DATA_FAIR_ANNOTATED,
        ["write"],
        [
            "datafair_list_datasets",
            "datafair_describe_dataset",
            "datafair_search_data",
            # An editor group's eight form tools stand where its write operation is.
            *[f"datafair_dataset_new_line_{verb}" for verb in FORM_VERBS],
            "datafair_get_field_values",
            "datafair_aggregate_data",
            "datafair_calculate_metric",
            *[f"datafair_dataset_line_{verb}" for verb in FORM_VERBS],
        ],
        ["datafair_dataset_new_line", "datafair_dataset_line"],
    ),
]


@pytest.mark.parametrize(("path", "profiles", "tools", "editors"), DECLARED)
def test_fixtures_load_with_their_profiles(path, profiles, tools, editors):
    loaded = load_openapi(str(path), profiles=profiles)
    assert [t.name for t in loaded.tools] == tools
    assert [g.name for g in loaded.editor_groups] == editors
    for shape in SHAPES:
        for definition in export_tools(loaded.tools, shape):
            schema = definition.get("inputSchema") or definition.get("input_schema")
            schema = schema or definition["function"]["parameters"]
            assert subset_violations(schema) == [], definition.get("name", definition)


def test_the_default_profile_is_the_first_declared():
    assert load_openapi(str(PETSTORE)).profiles == ["explore"]
    assert load_openapi(str(DATA_FAIR)).profiles == ["default"]


def test_undeclared_and_empty_profiles_are_refused():
    with pytest.raises(SpecUsageError, match=r'unknown profile "nope" \(declared: explore, edit\)'):
        load_openapi(str(PETSTORE), profiles=["nope"])
    with pytest.raises(SpecUsageError, match="at least one profile"):
        load_openapi(str(PETSTORE), profiles=[])


def test_petstore_list_tool_matches_the_reference():
    loaded = load_openapi(str(PETSTORE))
    tool = loaded.toolset.get("pets_list_pets")
    assert tool.description == "List pets. Use q for text search."
    assert tool.annotations.read_only and not tool.annotations.destructive
    schema = tool.input_schema
    # q renamed to query, debug excluded, select fixed (and the selectParam), size capped and defaulted.
    assert list(schema["properties"]) == ["query", "size", "filters", "fields", "response_format"]
    assert schema["properties"]["query"] == {"type": "string", "description": "Full text search"}
    assert schema["properties"]["size"] == {"type": "integer", "default": 10, "maximum": 100}
    assert schema["properties"]["fields"]["items"]["enum"] == ["id", "name", "tags", "owner"]
    assert schema["properties"]["response_format"]["enum"] == ["concise", "detailed"]
    assert schema["additionalProperties"] is False and "required" not in schema
    assert loaded.examples() == {"pets_list_pets": [{"query": "rex", "size": 5}]}


def test_petstore_get_tool_renames_the_path_parameter():
    tool = load_openapi(str(PETSTORE)).toolset.get("pets_get_pet")
    assert tool.input_schema == {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "The pet id from list_pets"}},
        "additionalProperties": False,
        "required": ["id"],
    }
    assert tool.description == "getPet"  # no description, summary or x-agent text: the operationId


def test_petstore_create_tool_flattens_the_body():
    tool = load_openapi(str(PETSTORE), profiles=["edit"]).toolset.get("pets_create_pet")
    assert list(tool.input_schema["properties"]) == ["id", "name", "tags", "owner", "internalCode"]
    assert not tool.annotations.read_only


def test_instructions_hold_the_selected_skills_then_the_tag_guides():
    assert load_openapi(str(PETSTORE)).instructions == (
        "## workflow\n\nStart with list_pets, then get_pet.\n\n## Pets\n\nPets have an id and a name."
    )
    french = load_openapi(str(PETSTORE), profiles=["edit"], locale="fr")
    assert french.instructions.startswith("## workflow\n\nCommencez par list_pets.\n\n## editing\n\n")
    assert [s.name for s in french.skills] == ["workflow", "editing"]
    assert french.toolset.get("pets_create_pet").description == "createPet"
    assert load_openapi(str(PETSTORE), locale="fr").toolset.get("pets_list_pets").description == "Lister les animaux."


def test_vetstore_includes_expand_transitively():
    loaded = load_openapi(str(VETSTORE), profiles=["edit"])
    assert [s.name for s in loaded.skills] == ["booking"]
    assert loaded.instructions == "## booking\n\nBook with create_appointment after list_vets."
    assert load_openapi(str(VETSTORE)).skills == []


def test_views_become_separate_tools_with_their_own_settings():
    loaded = load_openapi(str(VIEWS), profiles=["manage"])
    update = loaded.toolset.get("t_update_thing")
    publish = loaded.toolset.get("t_publish_thing")
    assert update.description == "Edit the title and description of a thing."
    assert list(update.input_schema["properties"]) == ["id", "title", "description"]
    assert update.input_schema["required"] == ["id", "title"]
    assert list(publish.input_schema["properties"]) == ["id", "publicationSites"]
    assert publish.annotations.idempotent and not publish.annotations.read_only


def test_name_prefix_can_be_overridden_or_removed():
    assert [t.name for t in load_openapi(str(PETSTORE), name_prefix="").tools] == ["list_pets", "get_pet"]
    assert [t.name for t in load_openapi(str(PETSTORE), name_prefix="x_").tools] == ["x_list_pets", "x_get_pet"]


def test_data_fair_tools_keep_their_filters_and_stay_small():
    loaded = load_openapi(str(DATA_FAIR_ANNOTATED))
    search = loaded.toolset.get("datafair_search_data")
    assert search.input_schema["required"] == ["datasetId"]
    assert "patternProperties" in search.input_schema["properties"]["filters"]
    assert all(len(t.description) > 40 for t in loaded.tools)
    assert loaded.instructions.startswith("## workflow\n\nYou are querying French open data")
    exported = json.dumps(export_tools(loaded.tools, "json"), ensure_ascii=False)
    assert len(exported.encode("utf-8")) < 30000


def test_data_fair_editor_groups_are_resolved_without_requests():
    loaded = load_openapi(str(DATA_FAIR_ANNOTATED), profiles=["write"], base_url="http://127.0.0.1:9/never")
    line, new_line = loaded.editor_groups[1], loaded.editor_groups[0]
    assert line.as_dict()["write"] == {
        "operationId": "updateLine",
        "method": "PUT",
        "path": "/datasets/{id}/lines/{lineId}",
        "pathParameters": ["id", "lineId"],
    }
    assert line.title == "Edit a dataset record" and not line.create_mode
    assert line.schema_source == "operation" and line.schema_operation.operation_id == "readSchema"
    assert line.schema_params == {"mimeType": "application/schema+json", "extension": "true"}
    assert line.read.operation_id == "readLine"
    assert [p.name for p in line.path_parameters] == ["id", "lineId"]
    assert line.tool_names[2] == "datafair_dataset_line_describeState" and len(line.tool_names) == 8
    assert new_line.create_mode and [p.name for p in new_line.path_parameters] == ["id"]
    assert new_line.declared_schema["properties"]["_action"]["enum"][0] == "create"
    # Loading sent nothing: the first request is the form tool's own, here to a closed port.
    result = loaded.toolset.call("datafair_dataset_line_describeState", {"id": "x", "lineId": "y"})
    assert not result.ok and "127.0.0.1:9/never/datasets/x/schema" in result.error
