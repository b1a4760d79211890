"""Editing a document that already carries other authors' tracked changes (issue 19, item 1).

Our new paragraphs must be our own insertions, every revision id must stay unique in the
package, and accepting or rejecting by author must read as a reviewer expects: the model in
``authored_model`` says what each combination of decisions gives, for documents drawn from
every kind of revision two other authors leave (hypothesis) with our insertions, deletions and
replacements next to them.
"""

from __future__ import annotations

import collections
import itertools
import shutil

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.revisions import resolve_all, story_parts
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.wml.ns import W_ID, qn
from tests.docx import authored_model as model
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import applied, suggest
from tests.hypothesis_profiles import examples

US = "Reviewer"
AUTHORS = ("Alice", "Bob", US)
_REVISION_NAMES = (
    "ins del moveFrom moveTo rPrChange pPrChange sectPrChange tblPrChange trPrChange tcPrChange tblPrExChange "
    "tblGridChange numberingChange cellIns cellDel cellMerge moveFromRangeStart moveToRangeStart"
)
_REVISION_TAGS = tuple(qn("w:" + name) for name in _REVISION_NAMES.split())


def revision_ids(path) -> collections.Counter:
    """How often each revision id occurs in the package (range ends share their start's id and
    are not counted)."""
    doc = DocxDocument.open(path)
    return collections.Counter(
        element.get(W_ID)
        for part in story_parts(doc)
        for element in doc.package.xml(part).iter(*_REVISION_TAGS)
        if element.get(W_ID) is not None
    )


def assert_unique_ids(path) -> None:
    repeated = {value: n for value, n in revision_ids(path).items() if n > 1}
    assert not repeated, f"revision ids used more than once: {repeated}"


def texts_after(path, decisions: dict[str, bool]) -> list[str]:
    """Block texts once each author's changes are accepted (True) or rejected (False)."""
    doc = DocxDocument.open(path)
    for author, accept in decisions.items():
        resolve_all(doc, "accept" if accept else "reject", author)
    return [block.text for block in doc.blocks]


def every_decision(authors=AUTHORS):
    for choice in itertools.product((True, False), repeat=len(authors)):
        yield dict(zip(authors, choice, strict=True))


# -- the shape of the issue ------------------------------------------------------------------------

_INS = '<w:ins w:id="{}" w:author="Counterparty" w:date="2024-01-01T00:00:00Z"{}>'


def _their_paragraph(para_id: str, text: str, mark_id: int) -> str:
    return (
        f'<w:p w14:paraId="{para_id}"><w:pPr><w:rPr>{_INS.format(mark_id, "/")}</w:rPr></w:pPr>'
        f"{_INS.format(mark_id + 1, '')}<w:r><w:t>{text}</w:t></w:r></w:ins></w:p>"
    )


def counterparty_document(path):
    """An intro, a clause the counterparty inserted (text and paragraph mark), a last clause."""
    body = (
        p("Intro.", para_id="0A000001")
        + _their_paragraph("0A000002", "Their clause.", 5)
        + p("Last.", para_id="0A000003")
    )
    return make_docx(path, body)


def _changes(path) -> list[dict]:
    return docx_toolset(path).call("read_changes", {}).value["changes"]


def test_a_paragraph_after_their_inserted_paragraph_is_our_own_insertion(tmp_path):
    path = counterparty_document(tmp_path / "c.docx")
    result = applied(path, [{"type": "insertAfterBlock", "blockId": "0A000002", "text": "Our clause."}], author=US)
    new_id = result["receipts"][0]["affected"][0]["blockId"]
    changes = _changes(path)
    ids = [change["id"] for change in changes]
    assert len(ids) == len(set(ids))
    ours = [change for change in changes if change["blockId"] == new_id]
    assert {change["type"] for change in ours} == {"paragraphMarkInserted", "insertion"}
    assert {change["author"] for change in ours} == {US}
    assert_unique_ids(path)
    assert texts_after(path, {"Counterparty": False}) == ["Intro.", "Our clause.", "Last."]
    assert texts_after(path, {US: False}) == ["Intro.", "Their clause.", "Last."]
    assert texts_after(path, {"Counterparty": False, US: False}) == ["Intro.", "Last."]
    # Resolving their mark by id leaves our paragraph alone.
    their_mark = next(
        c["id"] for c in changes if c["author"] == "Counterparty" and c["type"] == "paragraphMarkInserted"
    )
    docx_toolset(path).call("reject_change", {"changeIds": [their_mark]})
    assert [c["author"] for c in _changes(path) if c["type"] == "paragraphMarkInserted"] == [US]


def test_a_paragraph_before_the_block_after_their_inserted_paragraph(tmp_path):
    path = counterparty_document(tmp_path / "c.docx")
    applied(path, [{"type": "insertBeforeBlock", "blockId": "0A000003", "text": "Our clause."}], author=US)
    assert_unique_ids(path)
    assert texts_after(path, {"Counterparty": False}) == ["Intro.", "Our clause.", "Last."]
    assert texts_after(path, {US: False}) == ["Intro.", "Their clause.", "Last."]
    assert texts_after(path, {"Counterparty": True, US: True}) == ["Intro.", "Their clause.", "Our clause.", "Last."]


def test_a_split_keeps_their_property_change_on_both_parts_under_fresh_ids(tmp_path):
    change = '<w:pPrChange w:id="7" w:author="Counterparty" w:date="2024-01-01T00:00:00Z"><w:pPr/></w:pPrChange>'
    mark = '<w:rPr><w:ins w:id="8" w:author="Counterparty" w:date="2024-01-01T00:00:00Z"/></w:rPr>'
    path = make_docx(
        tmp_path / "s.docx",
        p("First half. Second half.", para_id="0A000001", ppr=f'<w:jc w:val="center"/>{mark}{change}') + p("Next."),
    )
    applied(path, [{"type": "splitBlock", "blockId": "0A000001", "offset": 12}], author=US)
    assert_unique_ids(path)
    kinds = [(c["type"], c["author"]) for c in _changes(path)]
    assert kinds.count(("paragraphPropertiesChanged", "Counterparty")) == 2
    assert kinds.count(("paragraphMarkInserted", "Counterparty")) == 1  # their mark stays theirs, once
    assert texts_after(path, {US: False}) == ["First half. Second half.", "Next."]
    assert texts_after(path, {"Counterparty": False, US: True}) == ["First half. ", "Second half.Next."]


def test_a_comment_inside_their_insertion_cuts_it_under_a_fresh_id(tmp_path):
    path = counterparty_document(tmp_path / "c.docx")
    found = docx_toolset(path).call("find_text", {"query": "clause"}).value["matches"][0]
    applied(path, [{"type": "commentOnRange", "range": found["range"], "comment": "Why?"}], author=US)
    assert_unique_ids(path)
    assert texts_after(path, {"Counterparty": False}) == ["Intro.", "Last."]


# -- the property: any mix of other authors' revisions, our edits next to them ---------------------

OPERATIONS = ("insertAfterBlock", "insertBeforeBlock", "deleteBlock", "replaceInBlock")


@st.composite
def reviewed_documents(draw):
    words = model.Words()
    items: list = []
    for _ in range(draw(st.integers(2, 7))):
        kind = draw(st.sampled_from(model.KINDS))
        author = draw(st.sampled_from(("Alice", "Bob")))
        items.extend(model.paragraph_of(kind, author, "Bob" if author == "Alice" else "Alice", words))
    items.append(model.Para([model.Piece(words(2))]))
    count = len(model.paragraphs(items))
    targets = draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=3, unique=True))
    operations = [
        (index, draw(st.sampled_from(OPERATIONS)), draw(st.sampled_from(("New one", "", "Newer")))) for index in targets
    ]
    return items, operations


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=reviewed_documents())
def test_edits_next_to_other_authors_revisions(tmp_path_factory, drawn):
    items, drawn_operations = drawn
    folder = tmp_path_factory.mktemp("authored")
    source = model.build(folder / "source.docx", items)
    blocks = DocxDocument.open(source).blocks
    located = model.paragraphs(items)
    assert len(blocks) == len(located)
    for decisions in every_decision(("Alice", "Bob")):
        assert texts_after(source, decisions) == model.resolve(items, decisions), decisions
    operations, planned = [], []
    for index, kind, text in drawn_operations:
        block, para = blocks[index], located[index][0]
        if kind == "replaceInBlock":
            words = [w for w in model.live_words(para) if block.text.count(w) == 1]
            if not words:
                continue
            operations.append({"type": kind, "blockId": block.id, "find": words[0], "replace": text or "gone"})
            planned.append(lambda para=para, word=words[0], new=text or "gone": model.replace_word(para, word, new, US))
        elif kind == "deleteBlock":
            operations.append({"type": kind, "blockId": block.id})
            keep = not model.followed_by_paragraph(items, para)
            planned.append(lambda para=para, keep=keep: model.delete_paragraph(items, para, US, keep_mark=keep))
        else:
            after = kind == "insertAfterBlock"
            operations.append({"type": kind, "blockId": block.id, "text": text})
            planned.append(
                lambda para=para, text=text, after=after: model.insert_paragraph(items, para, text, after, US)
            )
    if not operations:
        return
    output = folder / "output.docx"
    shutil.copy(source, output)
    result = suggest(output, operations, author=US)
    assert result.ok, result.error
    for skipped in result.value["skipped"]:
        # Deleting what is already going, or adding to a table row that is going, is refused.
        assert skipped["code"] in ("noopOperation", "pendingDeletion"), skipped
    done = {receipt["operationIndex"] for receipt in result.value["receipts"]}
    for position, apply in enumerate(planned):
        if position in done:
            event(f"applied {operations[position]['type']}")
            apply()
        else:
            event(f"skipped {operations[position]['type']}")
    assert_unique_ids(output)
    for decisions in every_decision():
        assert texts_after(output, decisions) == model.resolve(items, decisions), decisions
