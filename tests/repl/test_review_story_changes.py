"""The review REPL on changes outside the main text: `changes` names a change of a header or note
as STORY/ID, `accept` / `reject` take that name (a bare id two stories share is refused), and
`comments` says which story a comment is anchored in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deskcheck.cli.context import ContextOptions
from deskcheck.cli.repl.review_view import change_ref, parse_change_ref
from tests.docx.test_story_changes import (
    FOOTNOTE_RUN,
    call,
    comments_document,
    contract_with,
    header_insertion,
    ins,
    second_footnote,
)
from tests.repl.support import drive, has_row, lines, section


def test_changes_of_notes_and_headers_are_named_and_resolved_by_story(tmp_path):
    path = contract_with(
        tmp_path / "shared.docx",
        document=[("</w:p>", ins(7, " (main)") + "</w:p>")],
        footnotes=[(FOOTNOTE_RUN, ins(7, " New:") + FOOTNOTE_RUN), second_footnote(7)],
        header1=[header_insertion(8)],
    )
    run = drive(
        ContextOptions(docx=path, author="Reviewer"),
        lines("changes", "accept 7", "accept main/7 footnote:1/7", "reject footnote:2/7", "accept header:rIdHeader1/8",
              "save"),
    )  # fmt: skip
    out = run.output
    assert run.code == 0, out
    changes = section(out, "Ann Reviewer")
    assert has_row(changes, "header:rIdHeader1/8", "insertion", "header:rIdHeader1", "Draft:")
    assert has_row(changes, "footnote:1/7", "insertion", "footnote:1", " New:")
    assert has_row(changes, "footnote:2/7", "insertion", "footnote:2", "added")
    assert "is pending in more than one story" in out
    assert "changes of one story at a time" in out
    assert has_row(run.after("Rejected 1 tracked change"), "footnote:2/7", "insertion", "added")
    assert has_row(run.after("Accepted 1 tracked change: 1 insertion"), "header:rIdHeader1/8", "insertion", "Draft:")
    left = call(path, "read_changes").value["changes"]
    assert [(c["id"], c.get("story")) for c in left] == [("7", None), ("7", {"type": "footnote", "noteId": 1})]


def test_comments_name_the_story_they_are_anchored_in(tmp_path):
    path = comments_document(tmp_path / "comments.docx")
    out = drive(ContextOptions(docx=path), lines("comments")).output
    assert has_row(out, "open", "footnote:1", "“noted words”")
    assert has_row(out, "open", "header:rId3", "“Header line”")


STORIES = st.one_of(
    st.none(),
    st.builds(lambda kind, note: {"type": kind, "noteId": note}, st.sampled_from(["footnote", "endnote"]),
              st.integers(-1, 10**6)),
    st.builds(lambda kind, rel: {"type": kind, "relationshipId": rel}, st.sampled_from(["header", "footer"]),
              st.from_regex(r"rId[A-Za-z0-9]{1,8}", fullmatch=True)),
)  # fmt: skip


@given(story=STORIES, change_id=st.integers(0, 2**31 - 1).map(str))
def test_a_change_name_reads_back_as_its_story_and_id(story, change_id):
    change = {"id": change_id, **({"story": story} if story else {})}
    assert parse_change_ref(change_ref(change)) == (story, change_id)
