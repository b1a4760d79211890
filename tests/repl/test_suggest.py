"""Completion: the pure suggestion function over catalogs built from a real form state and a real
document (commands, field paths with array indices and variant paths, block ids with their text,
comment and change ids, suggestion indices), the prompt_toolkit completer over it, and Tab at
the prompt."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.cli.repl import commands, form_view, review_view
from deskcheck.cli.repl.suggest import Candidate, Catalog, match, suggest
from deskcheck.engine.forms import FormState, compile_form, form_toolset
from tests.docx.tracked_contract import build_review_document
from tests.helpers import run_cli
from tests.repl.test_form_repl import SCHEMA

FORM_COMMANDS = [c.info() for c in commands.table("form")]
REVIEW_COMMANDS = [c.info() for c in commands.table("review")]


@pytest.fixture(scope="module")
def form_catalog() -> Catalog:
    schema = json.loads(json.dumps(SCHEMA))
    schema["properties"]["first name"] = {"type": "string"}
    state = FormState(
        compile_form(schema),
        {"name": "Kick-off", "speakers": [{"name": "Ada"}, {"name": "Grace", "minutes": 5}], "venue": {"kind": "hall"}},
        base={"name": "Kick-off"},
    )
    values, dependent = form_view.field_candidates(state)
    listing = form_toolset(state, title="event").call("form_getFieldSuggestions", {"path": "/colour"}).value
    values["pick"] = form_view.suggestion_listing(listing).options
    return Catalog(FORM_COMMANDS, values, dependent)


@pytest.fixture(scope="module")
def review_catalog(tmp_path_factory) -> Catalog:
    path = build_review_document(tmp_path_factory.mktemp("review") / "agreement.docx")
    blocks = run_cli("docx", "read-document", str(path)).json["result"]["blocks"]
    comments = run_cli("docx", "read-comments", str(path)).json["result"]["comments"]
    changes = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    values = {
        "block": review_view.block_candidates(blocks),
        "comment": review_view.comment_candidates(comments),
        "change": review_view.change_candidates(changes),
        "place": [Candidate("after"), Candidate("before")],
        "tool": [Candidate("read_document"), Candidate("find_text")],
    }
    return Catalog(REVIEW_COMMANDS, values, {})


def texts(found) -> list[str]:
    return [s.text for s in found]


def test_command_names_complete_from_the_table(form_catalog, review_catalog):
    assert texts(suggest("", form_catalog)) == [c.name for c in FORM_COMMANDS]
    assert texts(suggest("sh", form_catalog)) == ["show"]
    assert texts(suggest("s", form_catalog)) == ["status", "show", "set", "suggest", "save"]
    assert texts(suggest("re", review_catalog)) == ["replace", "reply", "resolve", "reject", "revert"]
    [status] = suggest("stat", form_catalog)
    assert status.start == -4 and status.meta.startswith("Print what is open")
    assert texts(suggest("help su", form_catalog)) == ["suggest"], "help completes command names"
    assert suggest("frobnicate /", form_catalog) == [], "nothing after an unknown command"


def test_field_paths_with_array_indices_and_variant_paths(form_catalog):
    assert texts(suggest("set /sp", form_catalog)) == [
        "/speakers",
        "/speakers/0",
        "/speakers/0/name",
        "/speakers/0/minutes",
        "/speakers/1",
        "/speakers/1/name",
        "/speakers/1/minutes",
    ]
    [name] = suggest("get /speakers/1/n", form_catalog)
    assert (
        name.text == "/speakers/1/name" and name.meta == 'name (text) = "Grace"' and name.start == -len("/speakers/1/n")
    )
    venue = texts(suggest("show /venue", form_catalog))
    assert venue == [
        "/venue",
        "/venue/$oneOf",
        "/venue/$oneOf/1/kind",
        "/venue/kind",
        "/venue/$oneOf/1/room",
        "/venue/room",
    ], "layout and data paths (a variant's constant is a field: checked, offered, written when chosen)"
    assert texts(suggest("variant /ve", form_catalog)) == ["/venue/$oneOf"], "variant offers selectors only"
    assert [(s.text, s.meta) for s in suggest("variant /venue/$oneOf ", form_catalog)] == [
        ("0", "Online"),
        ("1", "Hall"),
    ]
    assert texts(suggest("remove /sp", form_catalog)) == ["/speakers"], "remove offers lists"
    assert [(s.text, s.meta) for s in suggest("remove /speakers ", form_catalog)] == [
        ("0", "[0] Ada"),
        ("1", "[1] Grace"),
    ]
    assert texts(suggest("suggest /c", form_catalog)) == ["/colour"], "suggest offers fields with options"
    assert texts(suggest("set sea", form_catalog)) == ["/seats"], "the leading slash may be left out"
    assert texts(suggest("set /SEA", form_catalog)) == ["/seats"], "case is ignored when nothing matches exactly"
    assert suggest("set /seats ", form_catalog) == [], "no completion inside a value"


def test_a_path_with_blanks_is_inserted_quoted(form_catalog):
    [first] = suggest("set /fir", form_catalog)
    assert first.text == '"/first name"' and first.display == "/first name"
    [again] = suggest('set "/first', form_catalog)
    assert again.text == '"/first name"' and again.start == -len('"/first')


def test_pick_offers_the_last_suggestions_with_their_titles(form_catalog):
    assert [(s.text, s.meta) for s in suggest("pick ", form_catalog)] == [("0", "red"), ("1", "green"), ("2", "blue")]


def test_block_ids_with_their_text_comment_and_change_ids(review_catalog):
    [block] = suggest("replace 4D9E", review_catalog)
    assert block.text == "4D9EF6F2" and block.meta.startswith("#84 9.3 Subject to clause 9.1, each party's total")
    assert texts(suggest("replace subcontractors", review_catalog)) == ["5F151F28"], "words of a block find its id"
    assert texts(suggest("insert ", review_catalog)) == ["after", "before"]
    assert texts(suggest("insert after 4D9E", review_catalog)) == ["4D9EF6F2"]
    assert suggest("insert after 4D9EF6F2 ", review_catalog) == [], "the text is free"
    assert [(s.text, s.meta) for s in suggest("reply ", review_catalog)] == [
        ("1", "Cleo Client: Which rate is meant?"),
        ("2", "Cleo Client: Agreed with finance?"),
    ]
    changes = texts(suggest("accept ", review_catalog))
    assert changes[:3] == ["all", "216", "215"] and len(changes) == 20
    assert changes[-3:] == ["header:rIdHeader1/222", "footnote:1/220", "footnote:1/221"], "other stories qualified"
    assert texts(suggest("accept 20", review_catalog)) == ["204", "205", "206", "207", "208", "201", "202", "203"]
    assert texts(suggest("accept 201 20", review_catalog)) == ["204", "205", "206", "207", "208", "201", "202", "203"]
    [deletion] = suggest("reject 201", review_catalog)
    assert deletion.meta == "deletion: thirty (30)"
    assert texts(suggest("accept foot", review_catalog)) == ["footnote:1/220", "footnote:1/221"]
    assert texts(suggest("call find", review_catalog)) == ["find_text"]


def test_completer_yields_prompt_toolkit_completions(form_catalog):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from deskcheck.cli.repl.completer import ReplCompleter

    completer = ReplCompleter(lambda: form_catalog)
    found = list(completer.get_completions(Document("unset /speakers/0/m"), CompleteEvent()))
    assert [(c.text, c.start_position, c.display_meta_text) for c in found] == [
        ("/speakers/0/minutes", -len("/speakers/0/m"), "minutes (number) = unset")
    ]
    # The cursor in the middle of the line: what is before it counts.
    middle = Document("set /sp 12", cursor_position=len("set /sp"))
    assert next(c.text for c in completer.get_completions(middle, CompleteEvent())) == "/speakers"


@given(st.lists(st.text(alphabet="abc/$01 ", min_size=1, max_size=12), min_size=1, max_size=8, unique=True), st.data())
def test_every_prefix_of_a_candidate_offers_it(paths, data):
    candidates = [Candidate(p) for p in paths]
    chosen = data.draw(st.sampled_from(paths))
    prefix = chosen[: data.draw(st.integers(0, len(chosen)))]
    assert chosen in [c.text for c in match(prefix, candidates)]


def test_tab_at_the_prompt_completes_a_command(tmp_path):
    from deskcheck.cli.context import ContextOptions
    from tests.repl.support import drive

    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{"name": "Kick-off"}')
    # Keys come as a person types them: the Tab after the word; Enter takes the completion chosen
    # in the menu, a second Enter runs the line.
    keys = ["stat", "\t", "\n", "\n", "get /na", "\t", "\n", "\n\x04"]
    run = drive(ContextOptions(schema=schema, data=data), keys)
    assert 'form "d.json" · ready · valid' in run.output, "stat + Tab ran status"
    assert '"Kick-off"' in run.output, "get /na + Tab read /name"
