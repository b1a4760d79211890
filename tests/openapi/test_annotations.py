"""x-agent annotations become the tools they describe, on documents written for these tests
(tests/fixtures/openapi): profiles and their includes, renamed, fixed, capped and excluded
parameters, response projections, skills and tag guides in each locale, views, name prefixes.
test_fixtures.py checks the same on the reference's own documents when the corpus is there."""

from __future__ import annotations

import pytest

from deskcheck.engine.openapi.document.problems import SpecUsageError
from deskcheck.engine.openapi.tools.load import load_openapi
from deskcheck.engine.providers import SHAPES, export_tools, subset_violations
from tests.conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "openapi"
SHELF = str(FIXTURES / "shelf.json")
NOTICES = str(FIXTURES / "notices.json")


@pytest.mark.parametrize(
    ("path", "profiles", "tools"),
    [
        (SHELF, None, ["shelf_list_books", "shelf_get_book"]),
        (SHELF, ["browse"], ["shelf_list_books", "shelf_get_book"]),
        (SHELF, ["lend"], ["shelf_add_book"]),
        (SHELF, ["browse", "lend"], ["shelf_list_books", "shelf_add_book", "shelf_get_book"]),
        (NOTICES, None, ["nb_list_notices"]),
        (NOTICES, ["editor"], ["nb_edit_notice"]),
        (NOTICES, ["publisher"], ["nb_edit_notice", "nb_schedule_notice"]),
        (NOTICES, ["owner"], ["nb_edit_notice", "nb_schedule_notice"]),  # includes, transitively
    ],
)
def test_profiles_select_the_tools_and_every_export_stays_in_the_subset(path, profiles, tools):
    loaded = load_openapi(path, profiles=profiles)
    assert [t.name for t in loaded.tools] == tools
    for shape in SHAPES:
        for definition in export_tools(loaded.tools, shape):
            schema = definition.get("inputSchema") or definition.get("input_schema")
            schema = schema or definition["function"]["parameters"]
            assert subset_violations(schema) == [], definition.get("name", definition)


def test_the_first_declared_profile_is_the_default_and_unknown_ones_are_refused():
    assert load_openapi(SHELF).profiles == ["browse"]
    with pytest.raises(SpecUsageError, match=r'unknown profile "nope" \(declared: browse, lend\)'):
        load_openapi(SHELF, profiles=["nope"])
    with pytest.raises(SpecUsageError, match="at least one profile"):
        load_openapi(SHELF, profiles=[])


def test_a_list_tool_has_renamed_capped_defaulted_and_no_excluded_or_fixed_parameters():
    loaded = load_openapi(SHELF)
    tool = loaded.toolset.get("shelf_list_books")
    assert tool.description == "List books. Search titles with q."
    assert tool.annotations.read_only and not tool.annotations.destructive
    schema = tool.input_schema
    # q renamed to search, trace excluded, select fixed (and replaced by fields), limit capped.
    assert list(schema["properties"]) == ["search", "limit", "filters", "fields", "response_format"]
    assert schema["properties"]["search"] == {"type": "string", "description": "Words to find in titles"}
    assert schema["properties"]["limit"] == {"type": "integer", "default": 10, "maximum": 50}
    # Excluded properties of the rows cannot be asked for.
    assert schema["properties"]["fields"]["items"]["enum"] == ["id", "title", "topics", "borrower"]
    assert schema["properties"]["response_format"]["enum"] == ["concise", "detailed"]
    assert schema["additionalProperties"] is False and "required" not in schema
    assert loaded.examples() == {"shelf_list_books": [{"search": "dune", "limit": 3}]}


def test_a_path_parameter_is_renamed_and_a_body_is_flattened():
    get = load_openapi(SHELF).toolset.get("shelf_get_book")
    assert get.input_schema == {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "A book id from list_books"}},
        "additionalProperties": False,
        "required": ["id"],
    }
    assert get.description == "getBook"  # no description, summary or x-agent text: the operationId
    add = load_openapi(SHELF, profiles=["lend"]).toolset.get("shelf_add_book")
    assert list(add.input_schema["properties"]) == ["id", "title", "topics", "borrower", "shelfMark"]
    assert not add.annotations.read_only


def test_instructions_hold_the_selected_skills_then_the_tag_guides_in_the_locale():
    assert load_openapi(SHELF).instructions == (
        "## catalogue\n\nFind books with list_books, then read one with get_book.\n\n"
        "## Books\n\nA book has an id and a title."
    )
    french = load_openapi(SHELF, profiles=["lend"], locale="fr")
    assert french.instructions.startswith("## catalogue\n\nCherchez avec list_books.\n\n## lending\n\n")
    assert [s.name for s in french.skills] == ["catalogue", "lending"]
    assert load_openapi(SHELF, locale="fr").toolset.get("shelf_list_books").description == "Lister les livres."
    assert [s.name for s in load_openapi(NOTICES, profiles=["owner"]).skills] == ["pinning"]
    assert load_openapi(NOTICES).skills == []


def test_views_of_one_operation_are_tools_with_their_own_fields_and_hints():
    loaded = load_openapi(NOTICES, profiles=["publisher"])
    edit = loaded.toolset.get("nb_edit_notice")
    schedule = loaded.toolset.get("nb_schedule_notice")
    assert edit.description == "Change the heading and the body of a notice."
    assert list(edit.input_schema["properties"]) == ["id", "heading", "body"]
    assert edit.input_schema["required"] == ["id", "heading"]
    assert list(schedule.input_schema["properties"]) == ["id", "boards"]
    assert schedule.annotations.idempotent and not schedule.annotations.read_only


def test_the_name_prefix_can_be_replaced_or_removed():
    assert [t.name for t in load_openapi(SHELF, name_prefix="").tools] == ["list_books", "get_book"]
    assert [t.name for t in load_openapi(SHELF, name_prefix="lib_").tools] == ["lib_list_books", "lib_get_book"]
