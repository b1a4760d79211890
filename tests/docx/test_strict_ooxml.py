"""Strict Open XML documents (issue 19, item 5): every read tool works on them, through the
translation to the transitional names on load; every tool that would write one refuses with a
clear message (strictReadOnly, exit 2) and leaves the file as it was.

The documents are Word-made Strict files from docx2python and the Open XML SDK
(tests/fixtures/docx/SOURCES.md).
"""

from __future__ import annotations

import shutil

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.package.docx_package import RT, DocxPackage
from deskcheck.engine.docx.package.strict_ooxml import relationship_type
from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import lo_texts
from tests.docx.views import normalise, paragraph_stream
from tests.helpers import run_cli
from tests.libreoffice import read_views

FIXTURES = REPO / "tests" / "fixtures" / "docx"
LISTS = FIXTURES / "docx2python-strict.docx"
COMMENTED = FIXTURES / "openxmlsdk-strict-CommentRangeStart.docx"
TRACKED = FIXTURES / "openxmlsdk-strict-customXmlDelRangeStart.docx"
STRICT_FILES = (LISTS, COMMENTED, TRACKED)


@pytest.fixture
def copies(tmp_path):
    return {path.name: shutil.copy(path, tmp_path / path.name) for path in STRICT_FILES}


def test_relationship_types_translate():
    strict = "http://purl.oclc.org/ooxml/officeDocument/relationships/"
    assert relationship_type(strict + "styles") == RT.STYLES
    assert relationship_type(strict + "comments") == RT.COMMENTS
    assert relationship_type(strict + "extendedProperties").endswith("/extended-properties")
    assert relationship_type(RT.STYLES) == RT.STYLES


def test_a_strict_document_reads_as_blocks_with_lists():
    package = DocxPackage.open(LISTS)
    assert package.strict and not DocxPackage.open(FIXTURES / "poi-delins.docx").strict
    blocks = docx_toolset(LISTS).call("read_document", {}).value["blocks"]
    listed = [(b["text"], b.get("displayLabel")) for b in blocks if b["text"]]
    assert listed[:4] == [("Bullet1", "\u2022"), ("Bullet2", "\u2022"), ("Number1", "1."), ("Number2", "2.")]
    assert {b["styleId"] for b in blocks if b["text"].startswith(("Bullet", "Number"))} == {"ListParagraph"}


def test_comments_changes_and_stories_of_strict_documents():
    tools = docx_toolset(COMMENTED)
    comments = tools.call("read_comments", {}).value["comments"]
    assert [(c["author"], c["text"], c["quote"]) for c in comments] == [
        ("Terminal Server Users", "some test comment", "text")
    ]
    changes = docx_toolset(TRACKED).call("read_changes", {}).value["changes"]
    assert {c["type"] for c in changes} >= {"deletion", "paragraphMarkDeleted"}
    assert {c["author"] for c in changes} == {"Arman Aghaei"}
    for path in STRICT_FILES:
        tools = docx_toolset(path)
        for name, args in (("list_stories", {}), ("get_document_outline", {}), ("find_text", {"query": "e"})):
            assert tools.call(name, args).ok, (path.name, name)


def test_the_version_is_the_files_own():
    """Translation happens in memory: an unedited Strict package saves as its own bytes."""
    doc = DocxDocument.open(LISTS)
    assert doc.blocks
    assert doc.package.to_bytes() == LISTS.read_bytes()
    assert docx_toolset(LISTS).call("read_document", {}).value["documentVersion"] == DocxPackage.open(LISTS).version


def test_compare_reads_strict_versions():
    result = docx_toolset(TRACKED).call("compare_versions", {"previous": str(LISTS), "format": "json"})
    assert result.ok, result.error


EDITS = {
    "suggest_changes": lambda block: {"operations": [{"type": "insertAfterBlock", "blockId": block, "text": "New"}]},
    "add_comment": lambda block: {"blockId": block, "text": "Note"},
    "reply_comment": lambda block: {"commentId": "1", "text": "Reply"},
    "resolve_comment": lambda block: {"commentId": "1"},
    "accept_change": lambda block: {"changeIds": ["1"]},
    "reject_change": lambda block: {"changeIds": ["1"]},
}


@pytest.mark.parametrize("tool", sorted(EDITS))
@pytest.mark.parametrize("dry_run", [False, True])
def test_editing_a_strict_document_is_refused_clearly(copies, tool, dry_run):
    path = copies[COMMENTED.name if "comment" in tool else TRACKED.name]
    before = path.read_bytes()
    block = docx_toolset(path).call("read_document", {}).value["blocks"][0]["blockId"]
    result = docx_toolset(path, DocxOptions(dry_run=dry_run)).call(tool, EDITS[tool](block))
    assert not result.ok and result.input_error and result.code == "strictReadOnly", result
    assert "Strict Open XML" in result.error and "regular Word Document" in result.error
    assert path.read_bytes() == before


def test_the_cli_refuses_strict_writes_with_exit_2(copies, tmp_path):
    path = copies[TRACKED.name]
    before = path.read_bytes()
    run_cli("docx", "read-document", str(path))
    for verb in ("accept-all", "reject-all"):
        refused = run_cli("docx", verb, str(path), expect=2)
        assert "Strict Open XML" in refused.json["error"]
    assert path.read_bytes() == before
    transitional = make_docx(tmp_path / "plain.docx", p("Bullet1"))
    refused = run_cli("docx", "redline", str(path), str(transitional), "-o", str(tmp_path / "r.docx"), expect=2)
    assert "redline" in refused.json["error"]
    assert not (tmp_path / "r.docx").exists()
    # A Strict current version is only read: its content goes into the transitional previous one.
    made = run_cli("docx", "redline", str(transitional), str(LISTS), "-o", str(tmp_path / "ok.docx"))
    assert made.json["ok"]
    texts = [b["text"] for b in docx_toolset(tmp_path / "ok.docx").call("read_document", {}).value["blocks"]]
    assert "Number2" in texts


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
def test_libreoffice_reads_the_same_paragraphs():
    views = ("accept", "reject")
    for view, seen in zip(views, read_views([(view, STRICT_FILES) for view in views]), strict=True):
        for path in STRICT_FILES:
            ours = [normalise(t) for t in paragraph_stream(DocxDocument.open(path), view)]
            assert lo_texts(seen[str(path)]) == ours, (path.name, view)
