"""The read tools through the tool set and the CLI: shapes, paging, finding, stories, errors."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p
from tests.helpers import run_cli

STYLES = (
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/>'
    "</w:pPr></w:style>"
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/>'
    "</w:pPr></w:style>"
)


@pytest.fixture
def outline_doc(tmp_path):
    body = (
        p("Intro", ppr='<w:pStyle w:val="Heading1"/>')
        + p("intro text")
        + p("Details", ppr='<w:pStyle w:val="Heading2"/>')
        + p("detail one")
        + p("detail two")
        + p("Deeper", ppr='<w:outlineLvl w:val="3"/>')
        + p("Next", ppr='<w:pStyle w:val="Heading1"/>')
        + p("repeat repeat REPEAT")
        + p("žaloba předžaloba ŽALOBA")
        + p("a😀b😀c")
    )
    return make_docx(tmp_path / "outline.docx", body, styles=STYLES)


def call(path, tool, args=None):
    return docx_toolset(path).call(tool, args or {})


def test_read_document_pages(outline_doc):
    whole = call(outline_doc, "read_document").value
    assert whole["totalBlocks"] == 10 and whole["nextAfterBlockId"] is None
    assert whole["blocks"][0] == {
        "blockId": whole["blocks"][0]["blockId"],
        "kind": "heading",
        "text": "Intro",
        "blockTextHash": whole["blocks"][0]["blockTextHash"],
        "headingLevel": 1,
        "styleId": "Heading1",
    }
    ids, after = [], None
    while True:
        args = {"maxBlocks": 3} | ({"afterBlockId": after} if after else {})
        page = call(outline_doc, "read_document", args).value
        ids += [b["blockId"] for b in page["blocks"]]
        after = page["nextAfterBlockId"]
        assert page["documentVersion"] == whole["documentVersion"]
        if after is None:
            break
    assert ids == [b["blockId"] for b in whole["blocks"]]
    bad = call(outline_doc, "read_document", {"afterBlockId": "NOPE"})
    assert not bad.ok and "nextAfterBlockId" in bad.error
    assert "maxBlocks" in call(outline_doc, "read_document", {"maxBlocks": 0}).error
    assert "does not take" in call(outline_doc, "read_document", {"page": 2}).error


def test_outline_and_sections(outline_doc):
    outline = call(outline_doc, "get_document_outline").value
    assert [(s["text"], s["level"]) for s in outline["sections"]] == [("Intro", 1), ("Details", 2), ("Next", 1)]
    assert outline["totalSections"] == 4 and outline["truncated"] is True
    details = outline["sections"][1]
    assert details["parentHandle"] == outline["sections"][0]["handle"]
    deep = call(outline_doc, "get_document_outline", {"maxDepth": 9}).value
    assert deep["truncated"] is False
    section = call(outline_doc, "read_section", {"handle": outline["sections"][0]["handle"], "maxBlocks": 2}).value
    assert [b["text"] for b in section["blocks"]] == ["Intro", "intro text"]
    assert section["totalBlocks"] == 6 and section["truncated"] is True
    rest = call(
        outline_doc,
        "read_section",
        {"handle": outline["sections"][0]["handle"], "afterBlockId": section["nextAfterBlockId"]},
    ).value
    assert [b["text"] for b in rest["blocks"]] == ["Details", "detail one", "detail two", "Deeper"]
    assert "nextAfterBlockId" not in rest
    stale = dict(details["handle"], headingTextHash="h0")
    assert "changed" in call(outline_doc, "read_section", {"handle": stale}).error
    gone = dict(details["handle"], headingBlockId="0000AAAA")
    assert "no longer exists" in call(outline_doc, "read_section", {"handle": gone}).error


def test_a_section_is_read_by_its_heading_s_block_id(outline_doc):
    """The id the terminal outline shows is enough; the 5-key handle is not needed."""
    outline = call(outline_doc, "get_document_outline", {"maxDepth": 9}).value
    details = outline["sections"][1]
    by_id = call(outline_doc, "read_section", {"headingBlockId": details["headingBlockId"]}).value
    assert by_id == call(outline_doc, "read_section", {"handle": details["handle"]}).value
    assert by_id["handle"] == details["handle"]
    first_text = call(outline_doc, "read_document").value["blocks"][1]
    assert first_text["kind"] != "heading"
    not_heading = call(outline_doc, "read_section", {"headingBlockId": first_text["blockId"]})
    assert not not_heading.ok and "is not a heading" in not_heading.error
    assert "no block 0000AAAA" in call(outline_doc, "read_section", {"headingBlockId": "0000AAAA"}).error
    both = call(outline_doc, "read_section", {"handle": details["handle"], "headingBlockId": "x"})
    neither = call(outline_doc, "read_section", {})
    assert "either a section `handle`" in both.error and "either a section `handle`" in neither.error


@pytest.mark.corpus
def test_numbered_headings_read_as_headings_everywhere():
    """A numbered heading (pandoc's enumerated_headings.docx) is a heading in read_document, in the
    outline (with its number), in read_section and section-scoped find_text, and in the main
    story's text."""
    from deskcheck.cli.render.docx import blocks_table
    from deskcheck.cli.render.draw import Styler, draw

    path = CORPUS / "pandoc" / "enumerated_headings.docx"
    blocks = call(path, "read_document").value["blocks"]
    assert [(b["kind"], b.get("headingLevel"), b.get("displayLabel")) for b in blocks[:3]] == [
        ("heading", 1, "1"),
        ("heading", 2, "1.1"),
        ("heading", 3, "1.1.1"),
    ]
    sections = call(path, "get_document_outline").value["sections"]
    assert [(s["level"], s.get("displayLabel"), s["text"]) for s in sections] == [
        (1, "1", "H1"),
        (2, "1.1", "H2"),
        (3, "1.1.1", "H3"),
    ]
    section = call(path, "read_section", {"handle": sections[1]["handle"]}).value
    assert [b["text"] for b in section["blocks"]] == ["H2", "H3", "And some text"]
    found = call(path, "find_text", {"query": "H3", "scope": {"type": "section", "handle": sections[1]["handle"]}})
    assert found.value["totalMatches"] == 1
    main = call(path, "list_stories").value["stories"][0]["text"]
    assert f"[{blocks[1]['blockId']}] (h2) 1.1 H2" in main
    table = draw([blocks_table(blocks[:1], 1)], 80, Styler(None))
    assert table[1] == f"1  {blocks[0]['blockId']}  heading 1  1 H1", "the REPL's and the CLI's table"


def test_find_text(outline_doc):
    found = call(outline_doc, "find_text", {"query": "repeat"}).value
    assert [(m["range"]["startOffset"], m["range"]["endOffset"]) for m in found["matches"]] == [
        (0, 6),
        (7, 13),
        (14, 20),
    ]
    assert [m["occurrenceInBlock"] for m in found["matches"]] == [0, 1, 2]
    assert found["matches"][0]["context"] == "repeat repeat REPEAT"
    assert call(outline_doc, "find_text", {"query": "repeat", "matchCase": True}).value["totalMatches"] == 2
    words = call(outline_doc, "find_text", {"query": "žaloba", "wholeWord": True}).value
    assert words["totalMatches"] == 2
    astral = call(outline_doc, "find_text", {"query": "c"}).value["matches"][-1]["range"]
    assert (astral["startOffset"], astral["endOffset"]) == (6, 7)  # each emoji counts two units
    section = call(outline_doc, "get_document_outline").value["sections"][1]["handle"]
    scoped = call(outline_doc, "find_text", {"query": "detail", "scope": {"type": "section", "handle": section}})
    assert scoped.value["totalMatches"] == 3  # the heading "Details" and its two paragraphs
    assert "1,000-character limit" in call(outline_doc, "find_text", {"query": "x" * 1001}).error
    assert "no pages" in call(outline_doc, "find_text", {"query": "x", "scope": {"type": "page"}}).error


def test_find_text_caps_matches(tmp_path):
    path = make_docx(tmp_path / "many.docx", "".join(p("hit " * 50) for _ in range(5)))
    found = call(path, "find_text", {"query": "hit"}).value
    assert len(found["matches"]) == 200 and found["totalMatches"] == 250 and found["truncated"] is True


def test_stories_of_the_tracked_contract_read_as_accepted(tmp_path):
    """list_stories and read_story on the project's own document with pending changes in its
    header and footnote (tests/docx/tracked_contract.py): texts read as accepted, a story-scoped
    find_text, and a handle that is not there."""
    from tests.docx.tracked_contract import build_tracked_contract

    path = build_tracked_contract(tmp_path / "tracked.docx")
    stories = call(path, "list_stories").value["stories"]
    assert [s["handle"] for s in stories] == [
        {"type": "main"},
        {"type": "header", "relationshipId": "rIdHeader1"},
        {"type": "footer", "relationshipId": "rIdFooter1"},
        {"type": "footnote", "noteId": 1},
    ]
    assert stories[0]["text"].startswith("[6605812C] Software Services Agreement\n")
    for story in stories[1:]:
        read = call(path, "read_story", {"handle": story["handle"]}).value
        assert read["text"] == story["text"] and read["handle"] == story["handle"]
    assert stories[1]["text"].startswith("Draft: Software Services Agreement")  # the pending insertion
    assert stories[3]["text"].startswith("The legal rate for late payment")  # "statutory" deleted
    hit = call(path, "find_text", {"query": "Draft", "scope": {"type": "story", "handle": stories[1]["handle"]}})
    assert [(m["type"], m["startOffset"], m["endOffset"]) for m in hit.value["matches"]] == [("story", 0, 5)]
    missing = call(path, "read_story", {"handle": {"type": "header", "relationshipId": "rId999"}})
    assert not missing.ok and "list_stories" in missing.error


@pytest.mark.corpus
def test_stories_headers_footers_and_notes():
    stories = call(CORPUS / "pandoc" / "notes.docx", "list_stories").value["stories"]
    kinds = [s["handle"]["type"] for s in stories]
    assert kinds[0] == "main" and "footnote" in kinds and "endnote" in kinds
    footnote = next(s for s in stories if s["handle"]["type"] == "footnote")
    assert (
        call(CORPUS / "pandoc" / "notes.docx", "read_story", {"handle": footnote["handle"]}).value["text"]
        == footnote["text"]
    )
    header_doc = CORPUS / "folio" / "header-vml-emf.docx"
    header = next(s for s in call(header_doc, "list_stories").value["stories"] if s["handle"]["type"] == "header")
    word = header["text"].split()[0]
    hit = call(header_doc, "find_text", {"query": word, "scope": {"type": "story", "handle": header["handle"]}})
    assert hit.value["matches"][0]["type"] == "story" and hit.value["matches"][0]["startOffset"] == 0
    missing = call(header_doc, "read_story", {"handle": {"type": "header", "relationshipId": "rId999"}})
    assert "list_stories" in missing.error


def test_live_editor_tools_explain_themselves(outline_doc):
    toolset = docx_toolset(outline_doc)
    for name in ("read_page", "read_selection", "scroll_to_block", "show_in_document"):
        result = toolset.call(name, {})
        assert not result.ok and not result.input_error and ".docx file" in result.error
        assert name not in toolset.names


def test_cli_verbs_and_exit_codes(outline_doc, tmp_path):
    page = run_cli("docx", "read-document", str(outline_doc), '{"maxBlocks": 1}').json
    assert page["ok"] and len(page["result"]["blocks"]) == 1
    same = run_cli("call", "--docx", str(outline_doc), "read_document", '{"maxBlocks": 1}').json
    assert same == page
    assert run_cli("docx", "find-text", str(outline_doc), '{"query": ""}', expect=1).json["ok"] is False
    assert run_cli("docx", "read-document", str(tmp_path / "missing.docx"), expect=2).json["ok"] is False
    assert run_cli("call", "--docx", str(outline_doc), "no_such_tool", expect=2).json["ok"] is False
    exported = json.loads(run_cli("docx", "tools", "--format", "openai").stdout)
    assert [t["function"]["name"] for t in exported][:2] == ["read_document", "get_document_outline"]
    refused = run_cli("docx", "tools", "--format", "xml", expect=2)
    assert refused.stdout == "" and "'xml' is not one of json, anthropic, openai, mcp" in refused.stderr


def test_batch_answers_each_line_even_for_a_missing_file(tmp_path):
    lines = "\n".join(json.dumps({"id": n, "tool": "read_document", "args": {}}) for n in (1, 2))
    result = run_cli("batch", "--docx", str(tmp_path / "missing.docx"), stdin=lines, expect=1)
    answers = result.json_lines
    assert [a["id"] for a in answers] == [1, 2]
    assert all(not a["ok"] and "does not exist" in a["error"] for a in answers)


def test_the_cached_document_is_refreshed_when_the_file_changes(tmp_path):
    path = make_docx(tmp_path / "x.docx", p("first"))
    toolset = docx_toolset(path)
    first = toolset.call("read_document", {}).value
    make_docx(path, p("second version"))
    second = toolset.call("read_document", {}).value
    assert second["blocks"][0]["text"] == "second version"
    assert second["documentVersion"] != first["documentVersion"]


@pytest.mark.corpus
def test_results_match_the_reference_system_on_its_fixtures():
    sample = call(CORPUS / "folio" / "sample.docx", "read_document", {"maxBlocks": 4}).value["blocks"]
    assert (sample[0]["blockId"], sample[0]["kind"], sample[0]["blockTextHash"]) == ("707312A4", "heading", "h4txu05")
    assert (sample[3]["blockId"], sample[3]["kind"], sample[3]["blockTextHash"]) == ("7CD29739", "listItem", "heg2hv6")
    found = call(CORPUS / "folio" / "authored-empty-paragraph.docx", "find_text", {"query": "paragraph"}).value
    assert found["matches"][0]["range"] == {
        "type": "textRange",
        "story": "main",
        "blockId": "0304003A",
        "startOffset": 8,
        "endOffset": 17,
        "selectedTextHash": "hag8vsi",
    }
    assert found["matches"][0]["blockTextHash"] == "hnoenbg"
