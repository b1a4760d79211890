"""read_comments on Word-made comment fixtures and a built thread; read_changes on pandoc's and
folio's tracked-change files."""

from __future__ import annotations

from collections import Counter

import pytest

from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p


def call(path, tool, args=None):
    result = docx_toolset(path).call(tool, args or {})
    assert result.ok, result.error
    return result.value


@pytest.mark.corpus
def test_python_docx_comment_fixture():
    doc = CORPUS / "python-docx" / "comments-rich-para.docx"
    comments = call(doc, "read_comments")["comments"]
    blocks = {b["blockId"]: b["text"] for b in call(doc, "read_document")["blocks"]}
    assert [c["id"] for c in comments] == ["0", "1", "2", "4"]
    first = comments[0]
    assert (first["author"], first["initials"], first["date"]) == ("Steve Canny", "SJC", "2025-06-07T11:20:00Z")
    assert first["text"] == "Text with hyperlink https://google.com embedded."
    assert first["quote"] == "Some text worthy of note."
    assert first["quote"] in blocks[first["blockId"]]
    assert all(c["resolved"] is False and c["replies"] == [] for c in comments)


@pytest.mark.corpus
def test_pandoc_comments_across_paragraphs_and_nested():
    comments = call(CORPUS / "pandoc" / "comments.docx", "read_comments")["comments"]
    by_id = {c["id"]: c for c in comments}
    assert by_id["1"]["quote"] == "a new paragraph.\nAnd so"
    assert by_id["3"]["quote"] == by_id["4"]["quote"] == "comment in a comment"


def test_a_quote_reads_as_accepted_with_the_rejected_reading_beside_it(tmp_path):
    """A comment made with a replacement (suggest_changes on the sample contract) quotes the new
    wording, as the reader will see it, and gives the old wording as originalQuote, never the two
    run together; a deleted paragraph mark inside a range joins the lines of the accepted quote."""
    import shutil

    from tests.conftest import REPO

    path = tmp_path / "contract.docx"
    shutil.copy(REPO / "samples" / "contract.docx", path)
    toolset = docx_toolset(path)
    [match] = toolset.call("find_text", {"query": "thirty (30) days of receiving"}).value["matches"]
    op = {
        "type": "replaceInBlock",
        "blockId": match["blockId"],
        "find": "thirty (30)",
        "replace": "sixty",
        "comment": "Longer terms.",
    }
    assert toolset.call("suggest_changes", {"operations": [op]}).value["applied"]
    [thread] = [c for c in call(path, "read_comments")["comments"] if c["text"] == "Longer terms."]
    assert (thread["quote"], thread["originalQuote"]) == ("sixty", "thirty (30)")

    joined = (
        '<w:p><w:pPr><w:rPr><w:del w:id="7" w:author="A"/></w:rPr></w:pPr><w:commentRangeStart w:id="1"/>'
        "<w:r><w:t>first</w:t></w:r></w:p>"
        '<w:p><w:r><w:t xml:space="preserve"> second</w:t></w:r><w:commentRangeEnd w:id="1"/>'
        '<w:r><w:commentReference w:id="1"/></w:r></w:p>'
    )
    comment = '<w:comment w:id="1" w:author="Ann"><w:p><w:r><w:t>Joined?</w:t></w:r></w:p></w:comment>'
    [thread] = call(make_docx(tmp_path / "j.docx", joined, comments=comment), "read_comments")["comments"]
    assert (thread["quote"], thread["originalQuote"]) == ("first second", "first\n second")


COMMENT_BODY = (
    p(runs='<w:commentRangeStart w:id="1"/><w:r><w:t>Pay within 30 days</w:t></w:r><w:commentRangeEnd w:id="1"/>'
      '<w:r><w:commentReference w:id="1"/></w:r>')
    + p(runs='<w:r><w:t xml:space="preserve">Second </w:t></w:r><w:commentRangeStart w:id="4"/>'
        '<w:del w:id="9" w:author="A"><w:r><w:delText>old</w:delText></w:r></w:del><w:ins w:id="10" w:author="A">'
        '<w:r><w:t>new</w:t></w:r></w:ins><w:commentRangeEnd w:id="4"/><w:r><w:commentReference w:id="4"/></w:r>')
)  # fmt: skip
COMMENTS = (
    '<w:comment w:id="1" w:author="Ann" w:initials="A" w:date="2026-01-02T10:00:00Z">'
    '<w:p w14:paraId="11111111"><w:r><w:t>Why 30?</w:t></w:r></w:p></w:comment>'
    '<w:comment w:id="2" w:author="Bob" w:date="2026-01-02T11:00:00Z">'
    '<w:p><w:r><w:t>Standard terms.</w:t></w:r></w:p><w:p w14:paraId="22222222"><w:r><w:t>See annex.</w:t></w:r></w:p>'
    "</w:comment>"
    '<w:comment w:id="3" w:author="Ann" w:date="2026-01-02T12:00:00Z">'
    '<w:p w14:paraId="33333333"><w:r><w:t>Fine.</w:t></w:r></w:p></w:comment>'
    '<w:comment w:id="4" w:author="Cy" w:date="2026-01-03T09:00:00Z">'
    '<w:p w14:paraId="44444444"><w:r><w:t>Done already.</w:t></w:r></w:p></w:comment>'
)
EXTENDED = (
    '<w15:commentEx w15:paraId="11111111" w15:done="0"/>'
    '<w15:commentEx w15:paraId="22222222" w15:paraIdParent="11111111" w15:done="0"/>'
    '<w15:commentEx w15:paraId="33333333" w15:paraIdParent="22222222" w15:done="0"/>'
    '<w15:commentEx w15:paraId="44444444" w15:done="1"/>'
)


def test_threads_replies_and_resolved_state(tmp_path):
    path = make_docx(tmp_path / "c.docx", COMMENT_BODY, comments=COMMENTS, comments_extended=EXTENDED)
    comments = call(path, "read_comments")["comments"]
    assert [c["id"] for c in comments] == ["1", "4"]
    thread = comments[0]
    assert thread["quote"] == "Pay within 30 days" and thread["resolved"] is False
    # a reply to a reply belongs to the thread's root
    assert [(r["id"], r["author"], r["text"]) for r in thread["replies"]] == [
        ("2", "Bob", "Standard terms.\nSee annex."),
        ("3", "Ann", "Fine."),
    ]
    resolved = comments[1]
    # The quote reads as accepted (what read_document shows), the rejected reading beside it.
    assert resolved["resolved"] is True and (resolved["quote"], resolved["originalQuote"]) == ("new", "old")
    assert "originalQuote" not in thread
    blocks = call(path, "read_document")["blocks"]
    assert thread["blockId"] == blocks[0]["blockId"] and resolved["blockId"] == blocks[1]["blockId"]
    assert [c["id"] for c in call(path, "read_comments", {"filter": "open"})["comments"]] == ["1"]
    assert [c["id"] for c in call(path, "read_comments", {"filter": "resolved"})["comments"]] == ["4"]
    bad = docx_toolset(path).call("read_comments", {"filter": "closed"})
    assert not bad.ok and "filter" in bad.error


@pytest.mark.corpus
def test_pandoc_tracked_changes():
    insertion = call(CORPUS / "pandoc" / "track_changes_insertion.docx", "read_changes")["changes"]
    assert [(c["type"], c["author"], c["text"]) for c in insertion] == [("insertion", "eng-dept", "two exciting ")]
    assert insertion[0]["date"] == "2014-06-25T10:40:00Z"
    deletion = call(CORPUS / "pandoc" / "track_changes_deletion.docx", "read_changes")["changes"]
    assert [(c["type"], c["text"]) for c in deletion] == [("deletion", "n excessively modified")]
    moves = call(CORPUS / "pandoc" / "track_changes_move.docx", "read_changes")["changes"]
    assert [c["type"] for c in moves] == ["movedTo", "movedFrom"]
    assert moves[0]["text"] == moves[1]["text"] == "Here is the text to be moved."
    marks = call(CORPUS / "pandoc" / "paragraph_insertion_deletion.docx", "read_changes")["changes"]
    assert [c["type"] for c in marks] == ["paragraphMarkInserted", "paragraphMarkDeleted"]
    blocks = {b["blockId"] for b in call(CORPUS / "pandoc" / "track_changes_move.docx", "read_document")["blocks"]}
    assert {c["blockId"] for c in moves} <= blocks


@pytest.mark.corpus
def test_a_real_contract_with_hundreds_of_changes():
    doc = CORPUS / "folio" / "podily-bps.docx"
    changes = call(doc, "read_changes")["changes"]
    kinds = Counter(c["type"] for c in changes)
    assert kinds["insertion"] == 73 and kinds["deletion"] == 74
    assert kinds["paragraphMarkDeleted"] == 9 and kinds["paragraphMarkInserted"] == 4
    assert kinds["cellPropertiesChanged"] and kinds["rowPropertiesChanged"]
    assert Counter(c["author"] for c in changes).most_common(1)[0][0] == "Damian Struk"
    blocks = {b["blockId"]: b for b in call(doc, "read_document")["blocks"]}
    for change in changes:
        assert change["blockId"] in blocks
        if change["type"] == "insertion":
            assert change["text"] in blocks[change["blockId"]]["text"]


def test_row_and_formatting_changes(tmp_path):
    body = (
        p(runs='<w:r><w:rPr><w:b/><w:rPrChange w:id="5" w:author="F" w:date="2026-01-01T00:00:00Z"><w:rPr/>'
          '</w:rPrChange></w:rPr><w:t>bolded</w:t></w:r>')
        + '<w:tbl><w:tr><w:trPr><w:ins w:id="6" w:author="R"/></w:trPr><w:tc>' + p("X1") + "</w:tc><w:tc>"
        + p("X2") + '</w:tc></w:tr><w:tr><w:trPr><w:del w:id="7" w:author="R"/></w:trPr><w:tc>' + p("Y1")
        + "</w:tc></w:tr></w:tbl>"
    )  # fmt: skip
    path = make_docx(tmp_path / "t.docx", body)
    changes = call(path, "read_changes")["changes"]
    assert [(c["type"], c["text"], c["author"]) for c in changes] == [
        ("formatting", "bolded", "F"),
        ("rowInserted", "X1X2", "R"),
        ("rowDeleted", "Y1", "R"),
    ]
    blocks = call(path, "read_document")["blocks"]
    assert changes[1]["blockId"] == blocks[1]["blockId"]
