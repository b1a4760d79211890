"""Tool answers that are text, drawn for a person (issue 29, item 5): a form tool's text coloured
as the docx views are, an API tool's Markdown tables as tables, long lines wrapped, never cut."""

from __future__ import annotations

import json
import re

from tests.helpers import run_cli

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RED, CYAN, GREEN = "\x1b[31m", "\x1b[36m", "\x1b[32m"


def _form(tmp_path):
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(
        json.dumps(
            {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string", "title": "Name"}, "email": {"type": "string"}},
            }
        ),
        encoding="utf-8",
    )
    data.write_text('{"email": "ann@example.org"}', encoding="utf-8")
    return ["--schema", str(schema), "--data", str(data)]


def test_form_text_is_coloured_on_a_terminal_and_plain_when_piped(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    context = _form(tmp_path)
    shown = run_cli("form", "describe-state", *context, terminal=True, expect=0).stdout
    assert "\x1b[1;31mfalse, 1 error(s)" in shown, "validity in red"
    assert f"{CYAN}/name\x1b[0m: {RED}required: give this field a value" in shown, "path cyan, error red"
    assert f"{CYAN}/email\x1b[0m" in shown
    piped = run_cli("form", "describe-state", *context).json["result"]
    assert "\x1b" not in piped and ANSI.sub("", shown).split() == piped.split()
    answer = run_cli("form", "set-field-value", *context, '{"path": "/name", "value": "Ann"}', terminal=True).stdout
    assert f"{CYAN}/name\x1b[0m" in answer and f"{GREEN}no errors here" in answer


def test_long_form_lines_wrap_under_their_field_at_60_columns(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    shown = ANSI.sub("", run_cli("form", "describe-state", *_form(tmp_path), terminal=True).stdout)
    lines = shown.splitlines()
    assert all(len(line) <= 60 for line in lines) and "…" not in shown
    assert " ".join(shown.split()).count("required: give this field a value") == 2, "nothing cut"


def test_markdown_tables_are_drawn_as_tables():
    from deskcheck.cli.render import view_of
    from deskcheck.cli.render.draw import Styler, draw
    from deskcheck.engine.openapi.tools.render import render

    text = render(
        {"total": 2, "results": [{"id": "a-1", "nom": "Chœur | Mosaïque"}, {"id": "b-2", "nom": "Club"}]},
        response={"rows": "/results", "hints": True},
    )
    assert "| id | nom |" in text and "\\|" in text
    lines = draw(view_of("markdown:text", text), 60, Styler(None))
    assert lines[0] == "- total: 2"
    header = next(line for line in lines if line.startswith("id"))
    assert header.split() == ["id", "nom"]
    assert any(line.split(None, 1) == ["a-1", "Chœur | Mosaïque"] for line in lines), "the escaped | is a |"
    assert not any(line.startswith("|") for line in lines)


def test_each_family_s_text_gets_its_view():
    from deskcheck.cli.tool_call import text_view

    assert text_view("docx", "read_document") == "docx:read_document"
    assert text_view("form", "form_describeState") == "form:text"
    assert text_view("form", "form_getData") == "form:getData"
    assert text_view("openapi", "sample_dataset_line_setFieldValue") == "form:text"
    assert text_view("openapi", "sample_search_records") == "markdown:text"


def test_an_api_tool_s_answer_is_a_table_on_a_terminal(sample_api, monkeypatch):
    from deskcheck.samples.records_api import openapi_path

    monkeypatch.setenv("COLUMNS", "120")
    args = json.dumps({"datasetId": "associations", "query": "choeur"})
    argv = ("call", "--spec", str(openapi_path()), "--base-url", sample_api.base_url, "sample_search_records", args)
    piped = run_cli(*argv).json["result"]
    assert re.search(r"^\| .* \|$", piped, re.MULTILINE), "a model gets Markdown"
    shown = ANSI.sub("", run_cli(*argv, terminal=True).stdout)
    assert not re.search(r"^\|", shown, re.MULTILINE) and "---" not in shown


def test_counts_of_changes_are_said_in_words_and_pluralised():
    from deskcheck.cli.render.docx import change_kind, kinds_text

    assert change_kind("deletion", 3) == "3 deletions" and change_kind("deletion", 1) == "1 deletion"
    assert change_kind("paragraphMarkDeleted", 2) == "2 paragraph joins"
    assert change_kind("paragraphMarkDeleted") == "paragraph join"
    assert change_kind("someNewKindChanged", 1) == "1 some new kind changed", "an unknown kind still reads as words"
    assert kinds_text({"insertion": 1, "propertyChange": 2}) == "1 insertion, 2 formatting changes"


def test_review_views_count_in_words(tmp_path, monkeypatch):
    import shutil

    from tests.conftest import REPO

    monkeypatch.setenv("COLUMNS", "60")
    docx = tmp_path / "c.docx"
    shutil.copy(REPO / "samples" / "contract.docx", docx)
    ops = [
        {"type": "replaceInBlock", "blockId": "2B165965", "find": "thirty (30)", "replace": "forty-five (45)"},
        {"type": "mergeBlockWithNext", "blockId": "464D8DE6"},
    ]
    run_cli("docx", "suggest-changes", str(docx), json.dumps({"operations": ops}))
    changes = ANSI.sub("", run_cli("docx", "read-changes", str(docx), terminal=True).stdout)
    assert "2 deletions, 2 insertions, 1 paragraph join" in " ".join(changes.split())
    assert "paragraphMarkDeleted" not in changes and "paragraph join" in changes
    accepted = ANSI.sub("", run_cli("docx", "accept-all", str(docx), "--dry-run", terminal=True).stdout)
    said = " ".join(accepted.split())
    assert "Would have accepted 5 tracked changes" in said and "2 deletions" in said and "…" not in accepted
    compared = ANSI.sub("", run_cli("docx", "compare", str(REPO / "samples" / "contract.docx"), str(docx),
                                     terminal=True).stdout)  # fmt: skip
    assert "Paragraphs of the main text, its tables, headers, footers and notes:" in " ".join(compared.split())
