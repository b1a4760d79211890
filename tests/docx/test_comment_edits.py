"""add_comment, reply_comment and resolve_comment: comments.xml, commentsExtended.xml and
commentsIds.xml written as Word writes them (ranges and reference runs, paraIds of 8 hex digits
below 0x80000000 unique in the package, durable ids, threads flat at the root), on a built
document and on Word-made corpus documents; LibreOffice opens the results."""

from __future__ import annotations

import re
import shutil
import zipfile

import pytest
from lxml import etree

from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset
from deskcheck.engine.docx.wml.ns import NS
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import build_document, new_schema_errors
from tests.libreoffice import read_paragraphs

W15 = NS["w15"]
W16CID = NS["w16cid"]


@pytest.fixture
def rich(tmp_path):
    return build_document(tmp_path / "rich.docx")


def call(path, tool, args, **options):
    return docx_toolset(path, DocxOptions(**options)).call(tool, args)


def comments(path) -> list[dict]:
    return call(path, "read_comments", {}).value["comments"]


def part(path, name) -> etree._Element:
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read(name))


def test_add_comment_on_a_block_and_on_a_quote(rich):
    whole = call(rich, "add_comment", {"blockId": "0A000009", "text": "Whole block."}).value
    assert whole["receipts"][0]["affected"][0] == {"type": "block", "story": "main", "blockId": "0A000009",
                                                    "effect": "commented"}  # fmt: skip
    comment_id = whole["receipts"][0]["affected"][1]["commentId"]
    quoted = call(rich, "add_comment", {"blockId": "0A000002", "text": "Line one\nLine two", "quote": "Supplier"})
    assert quoted.ok and quoted.value["applied"]
    threads = {c["id"]: c for c in comments(rich)}
    assert threads[comment_id]["quote"] == "Last paragraph." and threads[comment_id]["blockId"] == "0A000009"
    other = next(c for c in threads.values() if c["id"] != comment_id)
    assert other["quote"] == "Supplier" and other["text"] == "Line one\nLine two" and other["resolved"] is False
    assert all(int(c["id"]) < 2**31 for c in threads.values())
    assert new_schema_errors(build_document(rich.with_name("fresh.docx")), rich) == set()


def test_add_comment_errors(rich):
    before = rich.read_bytes()
    for args, fragment in (
        ({"text": "x"}, "needs `blockId`"),
        ({"blockId": "0A000009"}, "needs `text`"),
        ({"blockId": "0A000009", "text": "   "}, "blank"),
        ({"blockId": "0A000009", "text": 5}, "must be a string"),
    ):
        result = call(rich, "add_comment", args)
        assert not result.ok and fragment in result.error
    skipped = call(rich, "add_comment", {"blockId": "0A000009", "text": "x", "quote": "Nowhere"}).value
    assert skipped["skipped"][0]["code"] == "missingFind"
    stale = call(rich, "add_comment", {"blockId": "0A000009", "text": "x", "precondition": {"blockTextHash": "h1"}})
    assert stale.value["skipped"][0]["code"] == "preconditionFailed"
    assert rich.read_bytes() == before


def test_companion_parts_ids_and_content_types(rich):
    first = call(rich, "add_comment", {"blockId": "0A000009", "text": "Root"}).value
    root_id = first["receipts"][0]["affected"][1]["commentId"]
    reply = call(rich, "reply_comment", {"commentId": root_id, "text": "A reply"}).value
    assert reply["replied"] and reply["threadId"] == root_id
    again = call(rich, "reply_comment", {"commentId": reply["commentId"], "text": "Reply to the reply"}).value
    assert again["threadId"] == root_id  # Word threads are flat
    thread = comments(rich)[0]
    assert [r["text"] for r in thread["replies"]] == ["A reply", "Reply to the reply"]

    with zipfile.ZipFile(rich) as archive:
        types = archive.read("[Content_Types].xml").decode()
        rels = archive.read("word/_rels/document.xml.rels").decode()
        names = archive.namelist()
    for name, suffix in (("comments", "comments"), ("commentsExtended", "commentsExtended"),
                         ("commentsIds", "commentsIds")):  # fmt: skip
        assert f"word/{name}.xml" in names
        assert f"wordprocessingml.{suffix}+xml" in types
    assert "relationships/commentsExtended" in rels and "relationships/commentsIds" in rels

    para_ids = []
    for name in ("word/document.xml", "word/comments.xml"):
        para_ids += [p.get(f"{{{NS['w14']}}}paraId") for p in part(rich, name).iter(f"{{{NS['w']}}}p")]
    assert all(re.fullmatch("[0-9A-F]{8}", pid) and int(pid, 16) < 0x80000000 for pid in para_ids)
    assert len(para_ids) == len(set(para_ids))

    extended = {e.get(f"{{{W15}}}paraId"): e for e in part(rich, "word/commentsExtended.xml")}
    last_paras = [
        c.findall(f"{{{NS['w']}}}p")[-1].get(f"{{{NS['w14']}}}paraId") for c in part(rich, "word/comments.xml")
    ]
    assert set(extended) == set(last_paras)
    root_para = last_paras[0]
    assert [extended[p].get(f"{{{W15}}}paraIdParent") for p in last_paras] == [None, root_para, root_para]
    durable = [e.get(f"{{{W16CID}}}durableId") for e in part(rich, "word/commentsIds.xml")]
    assert len(durable) == 3 == len(set(durable)) and all(int(d, 16) < 0x7FFFFFFF for d in durable)

    # Replies are anchored next to the root: their range markers and reference runs are in the text.
    document = etree.tostring(part(rich, "word/document.xml")).decode()
    for comment_id in (root_id, reply["commentId"], again["commentId"]):
        assert f'commentRangeStart w:id="{comment_id}"' in document
        assert f'commentReference w:id="{comment_id}"' in document


def test_resolve_and_reopen_touch_only_that_comment(rich):
    root = call(rich, "add_comment", {"blockId": "0A000009", "text": "Root"}).value["receipts"][0]["affected"][1]
    reply = call(rich, "reply_comment", {"commentId": root["commentId"], "text": "Reply"}).value
    done = call(rich, "resolve_comment", {"commentId": root["commentId"]}).value
    assert done["resolved"] is True and done["changed"] is True
    thread = comments(rich)[0]
    assert thread["resolved"] is True and thread["replies"][0]["resolved"] is False
    assert call(rich, "read_comments", {"filter": "resolved"}).value["comments"][0]["id"] == root["commentId"]
    unchanged = call(rich, "resolve_comment", {"commentId": root["commentId"]}).value
    assert unchanged["changed"] is False and unchanged["output"] is None
    reopened = call(rich, "resolve_comment", {"commentId": root["commentId"], "reopen": True}).value
    assert reopened["resolved"] is False and comments(rich)[0]["resolved"] is False
    call(rich, "resolve_comment", {"commentId": reply["commentId"]})
    assert comments(rich)[0]["replies"][0]["resolved"] is True and comments(rich)[0]["resolved"] is False


def test_comment_tool_errors(rich):
    call(rich, "add_comment", {"blockId": "0A000009", "text": "Root"})
    before = rich.read_bytes()
    missing = call(rich, "reply_comment", {"commentId": "999", "text": "x"})
    assert not missing.ok and "999" in missing.error and "comment ids: 1" in missing.error
    assert not call(rich, "reply_comment", {"commentId": "1abc", "text": "x"}).ok
    assert "needs `commentId`" in call(rich, "reply_comment", {"text": "x"}).error
    assert not call(rich, "reply_comment", {"commentId": "1", "text": " "}).ok
    assert "true or false" in call(rich, "resolve_comment", {"commentId": "1", "reopen": "yes"}).error
    assert rich.read_bytes() == before
    assert call(rich, "reply_comment", {"commentId": 1, "text": "numeric id"}).ok


def test_dry_run_and_output_for_comment_tools(tmp_path, rich):
    call(rich, "add_comment", {"blockId": "0A000009", "text": "Root"})
    before = rich.read_bytes()
    preview = call(rich, "reply_comment", {"commentId": "1", "text": "x"}, dry_run=True).value
    assert preview["output"] is None and rich.read_bytes() == before
    out = tmp_path / "out.docx"
    written = call(rich, "resolve_comment", {"commentId": "1"}, output=out).value
    assert written["output"] == str(out) and rich.read_bytes() == before and comments(out)[0]["resolved"]


WORD_STYLES = (
    '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="CommentText"><w:name w:val="annotation text"/></w:style>'
    '<w:style w:type="character" w:styleId="CommentReference"><w:name w:val="annotation reference"/>'
    '<w:rPr><w:sz w:val="16"/></w:rPr></w:style>'
)


def word_style_comments(path):
    """Comments as Word 2007 wrote them, before threads existed: reference runs in the
    CommentReference style, comment paragraphs without w14:paraId, no commentsExtended part; one
    comment (7) is anchored nowhere (its text was deleted)."""
    reference = '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="5"/></w:r>'
    body = p("Terms of delivery", para_id="0B000001") + p(
        para_id="0B000002",
        runs='<w:r><w:t xml:space="preserve">Goods ship within </w:t></w:r><w:commentRangeStart w:id="5"/>'
        '<w:r><w:t>ten days</w:t></w:r><w:commentRangeEnd w:id="5"/>' + reference,
    )
    note = (
        '<w:p><w:pPr><w:pStyle w:val="CommentText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="CommentReference"/>'
        "</w:rPr><w:annotationRef/></w:r><w:r><w:t>{}</w:t></w:r></w:p>"
    )
    notes = (
        f'<w:comment w:id="5" w:author="Dana Buyer" w:date="2023-06-01T08:00:00Z" w:initials="DB">'
        f"{note.format('Is ten days realistic?')}</w:comment>"
        f'<w:comment w:id="7" w:author="Dana Buyer" w:date="2023-06-01T08:05:00Z" w:initials="DB">'
        f"{note.format('About a sentence that is gone.')}</w:comment>"
    )
    return make_docx(path, body, styles=WORD_STYLES, comments=notes)


def test_threads_on_comments_written_before_threads_existed(tmp_path):
    path = word_style_comments(tmp_path / "word.docx")
    source = word_style_comments(tmp_path / "source.docx")
    assert [(c["id"], c["blockId"], c["quote"]) for c in comments(path)] == [
        ("5", "0B000002", "ten days"),
        ("7", None, ""),
    ]
    reply = call(path, "reply_comment", {"commentId": "5", "text": "Agreed."}).value
    orphan_reply = call(path, "reply_comment", {"commentId": "7", "text": "Kept for the record."}).value
    assert reply["threadId"] == "5" and orphan_reply["threadId"] == "7"
    assert int(reply["commentId"]) not in (5, 7) and reply["commentId"] != orphan_reply["commentId"]
    call(path, "resolve_comment", {"commentId": "5"})
    after = {c["id"]: c for c in comments(path)}
    assert [r["text"] for r in after["5"]["replies"]] == ["Agreed."] and after["5"]["resolved"] is True
    assert [r["text"] for r in after["7"]["replies"]] == ["Kept for the record."] and after["7"]["resolved"] is False
    with zipfile.ZipFile(path) as archive:
        body = archive.read("word/document.xml").decode()
        extended = archive.read("word/commentsExtended.xml").decode()
    # The new reference run takes the document's CommentReference style; the threads are declared.
    assert body.count('<w:rStyle w:val="CommentReference"/>') == 2
    assert extended.count("w15:commentEx ") == 4 and 'w15:done="1"' in extended
    assert new_schema_errors(source, path) == set()
    call(
        add_to := word_style_comments(tmp_path / "added.docx"), "add_comment", {"blockId": "0B000001", "text": "Title?"}
    )
    assert new_schema_errors(source, add_to) == set()


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["folio/docx-editor-demo.docx", "python-docx/comments-rich-para.docx"])
def test_threads_on_word_made_documents(tmp_path, name):
    path = tmp_path / "doc.docx"
    shutil.copy(CORPUS / name, path)
    existing = comments(path)
    target = next(c for c in existing if c["blockId"] is not None)
    result = call(path, "reply_comment", {"commentId": target["id"], "text": "Agreed."}).value
    assert result["threadId"] == target["id"]
    after = {c["id"]: c for c in comments(path)}
    assert after[target["id"]]["replies"][-1]["text"] == "Agreed."
    ids = {c["id"] for c in existing} | {r["id"] for c in existing for r in c["replies"]}
    assert result["commentId"] not in ids and 0 <= int(result["commentId"]) <= 0x7FFFFFFF
    call(path, "resolve_comment", {"commentId": target["id"]})
    assert {c["id"]: c for c in comments(path)}[target["id"]]["resolved"] is True
    assert new_schema_errors(CORPUS / name, path) == set()


@pytest.mark.corpus
def test_replies_and_resolving_work_on_comments_anchored_nowhere(tmp_path):
    """The demo document (folio/docx-editor-demo.docx, an early version of the docx-editor project's
    demo) keeps four comments (ids 0-3) that have no range, no reference mark and no thread link
    in any part: the text they were on is gone (upstream later deleted them as orphans). Nothing
    in the file makes one a reply to another, so they read as four threads with blockId null. A
    reply joins such a thread through commentsExtended.xml and is anchored nowhere, like its root;
    resolving works on the root and on the reply."""
    path = tmp_path / "demo.docx"
    shutil.copy(CORPUS / "folio" / "docx-editor-demo.docx", path)
    orphans = [c for c in comments(path) if c["blockId"] is None]
    assert [(c["id"], c["quote"], c["replies"]) for c in orphans] == [(i, "", []) for i in ("0", "3", "1", "2")]
    result = call(path, "reply_comment", {"commentId": "0", "text": "Agreed, kept."}).value
    assert result["threadId"] == "0"
    reply_to_reply = call(path, "reply_comment", {"commentId": result["commentId"], "text": "Thanks."}).value
    assert reply_to_reply["threadId"] == "0"
    after = {c["id"]: c for c in comments(path)}
    assert [r["text"] for r in after["0"]["replies"]] == ["Agreed, kept.", "Thanks."]
    assert after["0"]["blockId"] is None and {"3", "1", "2", "1772738031338"} <= set(after)
    with zipfile.ZipFile(path) as archive:
        body = archive.read("word/document.xml").decode()
    assert f'w:id="{result["commentId"]}"' not in body  # anchored nowhere, like its root
    call(path, "resolve_comment", {"commentId": "0"})
    call(path, "resolve_comment", {"commentId": result["commentId"]})
    after = {c["id"]: c for c in comments(path)}
    assert after["0"]["resolved"] is True and after["0"]["replies"][0]["resolved"] is True
    assert after["3"]["resolved"] is False
    assert new_schema_errors(CORPUS / "folio" / "docx-editor-demo.docx", path) == set()


def _comment_reply_and_resolve(path, orphan: str | None = None) -> None:
    block = next(b for b in docx_toolset(path).call("read_document", {}).value["blocks"] if b["text"])
    added = call(path, "add_comment", {"blockId": block["blockId"], "text": "New comment"}).value
    comment_id = added["receipts"][0]["affected"][1]["commentId"]
    reply = call(path, "reply_comment", {"commentId": comment_id, "text": "A reply"}).value
    call(path, "reply_comment", {"commentId": reply["commentId"], "text": "Another"})
    call(path, "resolve_comment", {"commentId": comment_id})
    if orphan is not None:  # a reply to a comment anchored nowhere
        call(path, "reply_comment", {"commentId": orphan, "text": "A reply to an orphan"})


OWNED_COMMENTED = {"rich": (build_document, None), "word-style": (word_style_comments, "7")}
CORPUS_COMMENTED = {
    "folio/docx-editor-demo.docx": "0",
    "folio/performance-1500-paragraphs.docx": None,
    "python-docx/comments-rich-para.docx": None,
    "folio/sample.docx": None,
}


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
@pytest.mark.parametrize("documents", ["owned", pytest.param("corpus", marks=pytest.mark.corpus)])
def test_libreoffice_opens_documents_with_new_comments_replies_and_resolved_threads(tmp_path, documents):
    files = []
    if documents == "owned":
        for name, (build, orphan) in OWNED_COMMENTED.items():
            files.append(build(tmp_path / f"{name}.docx"))
            _comment_reply_and_resolve(files[-1], orphan)
    else:
        for number, (name, orphan) in enumerate(CORPUS_COMMENTED.items()):
            files.append(tmp_path / f"{number}.docx")
            shutil.copy(CORPUS / name, files[-1])
            _comment_reply_and_resolve(files[-1], orphan)
    rows = read_paragraphs("asis", files)
    assert [rows[str(f)]["ok"] for f in files] == [True] * len(files)
