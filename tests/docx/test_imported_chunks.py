"""Imported chunks (``w:altChunk``): the agent reads what Word shows there (issue 26, item 1).

Word shows the content of a part related as ``aFChunk`` (a .docx, HTML, plain text, MHT...) where
the ``w:altChunk`` stands. Every read tool reads it as blocks marked ``imported``, compare sees
its changes, edits to it are refused (``importedContent``), and what cannot be read is listed
as ``unread`` in every result, with where it stands.
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.package import limits
from deskcheck.engine.docx.package.docx_package import DocxPackage
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.versions.compare import compare_versions, read_version
from deskcheck.engine.docx.versions.redline import redline_files
from tests.docx.builders import add_chunk, make_docx, p, rewrite_parts
from tests.docx.edit_helpers import resolved_texts, suggest
from tests.helpers import run_cli

DOCX_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
CHUNK = '<w:altChunk r:id="rIdChunk"/>'


def chunk_document(path, name: str, content_type: str, data: bytes, *, body: str | None = None):
    """'Before', the chunk, 'After' (or ``body``, holding the chunk), the chunk's part added."""
    make_docx(path, body or (p("Before", para_id="0B000001") + CHUNK + p("After", para_id="0B000002")))
    return rewrite_parts(path, lambda parts: add_chunk(parts, "rIdChunk", name, content_type, data))


def docx_bytes(tmp_path, body: str, name: str = "inner.docx") -> bytes:
    return make_docx(tmp_path / name, body).read_bytes()


def read(path) -> dict:
    result = docx_toolset(path).call("read_document", {})
    assert result.ok, result.error
    return result.value


def texts(path) -> list[str]:
    return [block["text"] for block in read(path)["blocks"]]


def test_a_docx_chunk_is_read_as_imported_blocks(tmp_path):
    inner = docx_bytes(tmp_path, p("The price is EUR 1,000,000.") + p("Second imported paragraph."))
    path = chunk_document(tmp_path / "outer.docx", "word/chunk1.docx", DOCX_CT, inner)
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == [
        "Before", "The price is EUR 1,000,000.", "Second imported paragraph.", "After",
    ]  # fmt: skip
    imported = value["blocks"][1]
    assert imported["imported"] == {"format": "docx", "part": "word/chunk1.docx"}
    assert "imported" not in value["blocks"][0] and "unread" not in value


def test_find_text_and_sections_see_the_chunk(tmp_path):
    inner = docx_bytes(tmp_path, p("Payment", ppr='<w:outlineLvl w:val="0"/>') + p("The price is EUR 1,000,000."))
    path = chunk_document(tmp_path / "outer.docx", "word/chunk1.docx", DOCX_CT, inner)
    tools = docx_toolset(path)
    found = tools.call("find_text", {"query": "EUR 1,000,000"}).value
    assert found["totalMatches"] == 1
    assert found["matches"][0]["imported"]["part"] == "word/chunk1.docx"
    outline = tools.call("get_document_outline", {}).value["sections"]
    assert [entry["text"] for entry in outline] == ["Payment"]
    section = tools.call("read_section", {"handle": outline[0]["handle"]}).value
    assert [b["text"] for b in section["blocks"]] == ["Payment", "The price is EUR 1,000,000.", "After"]
    assert "EUR 1,000,000" in tools.call("read_story", {"handle": {"type": "main"}}).value["text"]


def test_html_xhtml_text_and_mht_chunks(tmp_path):
    html = (
        b"<html><head><title>T</title><style>p{}</style></head><body><h2>Fees</h2>"
        b"<p>The fee is <b>EUR   500</b>\n per month.</p><script>var hidden = 1;</script>"
        b"<p style='display:none'>A hidden clause.</p><div hidden>Also hidden.</div>"
        b"<ul><li>One</li><li>Two</li></ul><table><tr><td>Cell A</td><td>Cell B</td></tr></table></body></html>"
    )
    expected = ["Fees", "The fee is EUR 500 per month.", "One", "Two", "Cell A", "Cell B"]
    html_doc = chunk_document(tmp_path / "html.docx", "word/chunk.html", "text/html", html)
    assert texts(html_doc)[1:-1] == expected
    assert read(html_doc)["blocks"][1]["kind"] == "heading"
    # XHTML that is not well-formed XML: Word reads it as HTML, and the document is not refused.
    xhtml_doc = chunk_document(tmp_path / "x.docx", "word/chunk.xhtml", "application/xhtml+xml", b"<p>Unclosed <b>text")
    assert texts(xhtml_doc) == ["Before", "Unclosed text", "After"]
    text_doc = chunk_document(tmp_path / "t.docx", "word/chunk.txt", "text/plain", "Line one\r\nLine ü two\n".encode())
    assert texts(text_doc) == ["Before", "Line one", "Line ü two", "After"]
    mht = (
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=XX\r\n\r\n--XX\r\n"
        b"Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"<html><body><p>Web archive =E2=82=AC 7</p></body></html>\r\n--XX--\r\n"
    )
    mht_doc = chunk_document(tmp_path / "m.docx", "word/chunk.mht", "message/rfc822", mht)
    assert texts(mht_doc) == ["Before", "Web archive € 7", "After"]


@pytest.mark.parametrize(
    ("name", "content_type", "data", "reason"),
    [
        ("word/chunk.rtf", "application/rtf", rb"{\rtf1\ansi Hidden RTF clause\par}", "RTF"),
        ("word/chunk.bin", "application/octet-stream", b"\x00\x01", "content type"),
        ("word/chunk.docx", DOCX_CT, b"PK\x03\x04 not a zip", "not a Word document"),
        ("word/chunk.xml", "application/xml", b"<w:wordDocument/>", "Flat OPC"),
    ],
)
def test_content_that_cannot_be_read_is_reported_unread_in_every_result(tmp_path, name, content_type, data, reason):
    path = chunk_document(tmp_path / "outer.docx", name, content_type, data)
    tools = docx_toolset(path)
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == ["Before", "After"]
    [entry] = value["unread"]
    assert entry["story"] == {"type": "main"} and entry["afterBlockId"] == "0B000001"
    assert entry["kind"] == "altChunk" and entry["part"] == name and reason in entry["reason"]
    assert len(entry["contentHash"]) == 16
    calls = {
        "find_text": {"query": "Before"},
        "get_document_outline": {},
        "list_stories": {},
        "read_story": {"handle": {"type": "main"}},
        "read_comments": {},
        "read_changes": {},
    }
    for tool, args in calls.items():
        result = tools.call(tool, args)
        assert result.ok and result.value["unread"] == [entry], tool


def test_the_cli_view_says_what_was_left_unread(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    path = chunk_document(tmp_path / "outer.docx", "word/chunk.rtf", "application/rtf", rb"{\rtf1 x}")
    run = run_cli("docx", "read-document", str(path), terminal=True, monkeypatch=monkeypatch)
    shown = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", run.stdout).split())
    assert "left unread: altChunk word/chunk.rtf (rtf) after [0B000001]: deskcheck does not read RTF" in shown


def test_a_chunk_in_a_header_is_read_and_reported_there(tmp_path):
    header = CHUNK.replace("rIdChunk", "rIdH") + p("Header text")
    path = make_docx(tmp_path / "h.docx", p("Body") + '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/>'
                     "</w:sectPr>", header=header)  # fmt: skip

    def edit(parts):
        parts["word/hchunk.txt"] = b"Header chunk line"
        parts["word/_rels/header1.xml.rels"] = (
            b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            b'<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            b'aFChunk" Target="hchunk.txt"/></Relationships>'
        )
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b"</Types>", b'<Override PartName="/word/hchunk.txt" ContentType="text/plain"/></Types>'
        )

    rewrite_parts(path, edit)
    stories = docx_toolset(path).call("list_stories", {}).value["stories"]
    header_story = next(s for s in stories if s["handle"]["type"] == "header")
    assert header_story["text"] == "Header chunk line Header text"


def test_edits_to_imported_blocks_are_refused_and_change_nothing(tmp_path):
    inner = docx_bytes(tmp_path, p("The price is EUR 1,000,000."))
    path = chunk_document(tmp_path / "outer.docx", "word/chunk1.docx", DOCX_CT, inner)
    imported = read(path)["blocks"][1]["blockId"]
    before = path.read_bytes()
    operations = [
        {"type": "replaceInBlock", "blockId": imported, "find": "1,000,000", "replace": "9"},
        {"type": "replaceBlock", "blockId": imported, "text": "Other."},
        {"type": "deleteBlock", "blockId": imported},
        {"type": "insertAfterBlock", "blockId": imported, "text": "New."},
        {"type": "commentOnBlock", "blockId": imported, "comment": "Why?"},
        {"type": "formatRange", "range": docx_toolset(path).call("find_text", {"query": "price"}).value["matches"][0][
            "range"], "formatting": {"bold": True}},
    ]  # fmt: skip
    types = tuple(sorted({op["type"] for op in operations}))
    result = suggest(path, operations, operation_types=types)
    assert [s["code"] for s in result.value["skipped"]] == ["importedContent"] * len(operations)
    reason = result.value["skipped"][0]["reason"]
    assert "word/chunk1.docx" in reason and "imported" in reason
    assert path.read_bytes() == before
    comment = docx_toolset(path).call("add_comment", {"blockId": imported, "text": "Why?"})
    assert comment.value["skipped"][0]["code"] == "importedContent" and not comment.value["applied"]
    assert path.read_bytes() == before


def test_imported_ids_hold_while_the_document_around_them_changes(tmp_path):
    inner = docx_bytes(tmp_path, p("Imported one.") + p("Imported two."))
    path = chunk_document(tmp_path / "outer.docx", "word/chunk1.docx", DOCX_CT, inner)
    ids = [b["blockId"] for b in read(path)["blocks"]]
    result = suggest(path, [{"type": "insertBeforeBlock", "blockId": "0B000001", "text": "A new first paragraph."}])
    assert not result.value["skipped"]
    assert [b["blockId"] for b in read(path)["blocks"]][1:] == ids


def test_one_part_imported_twice_gives_two_sets_of_blocks(tmp_path):
    body = p("A") + CHUNK + p("B") + CHUNK
    path = chunk_document(tmp_path / "twice.docx", "word/c.txt", "text/plain", b"Same line", body=body)
    blocks = read(path)["blocks"]
    assert [b["text"] for b in blocks] == ["A", "Same line", "B", "Same line"]
    assert len({b["blockId"] for b in blocks}) == 4


def test_compare_reports_a_change_inside_a_chunk(tmp_path):
    old = chunk_document(tmp_path / "old.docx", "word/chunk1.docx", DOCX_CT,
                         docx_bytes(tmp_path, p("The price is EUR 1,000,000."), "a.docx"))  # fmt: skip
    new = chunk_document(tmp_path / "new.docx", "word/chunk1.docx", DOCX_CT,
                         docx_bytes(tmp_path, p("The price is EUR 9,000,000."), "b.docx"))  # fmt: skip
    diff = compare_versions(old, new)
    assert diff["summaryCounts"]["modified"] == 1
    [change] = diff["changes"]
    assert {"type": "del", "text": "1,000,000."} in change["segments"]
    assert {"type": "ins", "text": "9,000,000."} in change["segments"]
    assert change["previousBlockId"] == read(old)["blocks"][1]["blockId"]
    assert change["currentBlockId"] == read(new)["blocks"][1]["blockId"]
    # The redline shows it too: accepting gives the new text, rejecting the old.
    out = redline_files(old, new, tmp_path / "redline.docx")
    assert out["summaryCounts"]["modified"] == 1
    assert resolved_texts(tmp_path / "redline.docx", "accept")[1] == "The price is EUR 9,000,000."
    assert resolved_texts(tmp_path / "redline.docx", "reject")[1] == "The price is EUR 1,000,000."


def test_compare_says_when_unread_content_changed(tmp_path):
    old = chunk_document(tmp_path / "old.docx", "word/c.rtf", "application/rtf", rb"{\rtf1 EUR 1,000,000}")
    new = chunk_document(tmp_path / "new.docx", "word/c.rtf", "application/rtf", rb"{\rtf1 EUR 9,000,000}")
    diff = compare_versions(old, new)
    assert diff["previous"]["unread"][0]["part"] == "word/c.rtf"
    assert diff["current"]["unread"][0]["part"] == "word/c.rtf"
    assert [change["part"] for change in diff["unreadChanges"]] == ["word/c.rtf"]
    text = docx_toolset(new).call("compare_versions", {"previous": str(old)}).value["diff"]
    assert "Left unread in the current version: altChunk word/c.rtf (rtf)" in text
    assert "Unread content changed: word/c.rtf" in text
    assert compare_versions(old, old).get("unreadChanges") is None
    out = redline_files(old, new, tmp_path / "r.docx")
    assert out["unread"]["current"][0]["part"] == "word/c.rtf"


def _nested(tmp_path, depth: int) -> bytes:
    """A .docx holding ``depth`` levels of .docx chunks, each level's text naming it."""
    data = docx_bytes(tmp_path, p(f"Level {depth}."), f"level{depth}.docx")
    for level in range(depth - 1, 0, -1):
        outer = chunk_document(tmp_path / f"level{level}.docx", "word/inner.docx", DOCX_CT, data,
                               body=p(f"Level {level}.") + CHUNK)  # fmt: skip
        data = outer.read_bytes()
    return data


def test_nested_chunks_are_read_to_a_bounded_depth(tmp_path):
    path = chunk_document(tmp_path / "outer.docx", "word/chunk.docx", DOCX_CT, _nested(tmp_path, 6))
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == ["Before", "Level 1.", "Level 2.", "Level 3.", "After"]
    [entry] = value["unread"]
    assert "nested more than 3 levels" in entry["reason"]


def test_a_chunk_over_the_size_limits_is_unread_and_the_document_still_reads(tmp_path, monkeypatch):
    lines = b"\n".join(b"line %d" % n for n in range(500))
    path = chunk_document(tmp_path / "big.docx", "word/c.txt", "text/plain", lines)
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 100)
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == ["Before", "After"]
    assert "size limits" in value["unread"][0]["reason"] and "MAX_PARAGRAPHS" in value["unread"][0]["reason"]


def test_a_chunk_that_is_a_zip_bomb_is_refused_like_any_package(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "RATIO_CHECK_FROM_BYTES", 1000)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"<" + b"a" * 5_000_000 + b"/>")
    path = chunk_document(tmp_path / "bomb.docx", "word/c.docx", DOCX_CT, buffer.getvalue())
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == ["Before", "After"]
    assert "compressed more than" in value["unread"][0]["reason"]


def test_compare_reads_exactly_what_read_document_reads(tmp_path):
    """The compare path writes the chunk's paragraphs into a private copy; the blocks it then reads
    are the ones read_document gives for the file (texts and ids)."""
    inner = docx_bytes(tmp_path, p("One.") + p("") + p("Two.", ppr='<w:outlineLvl w:val="1"/>'))
    body = p("A", para_id="0B000001") + CHUNK + f"<w:tbl><w:tr><w:tc>{p('cell')}{CHUNK}</w:tc></w:tr></w:tbl>"
    path = chunk_document(tmp_path / "doc.docx", "word/c.docx", DOCX_CT, inner, body=body)
    live = [(b.id, b.text, b.kind) for b in DocxDocument.open(path).blocks]
    shown = [(b.id, b.text, b.kind) for b in read_version(path).doc.blocks]
    assert shown == live
    assert [text for _, text, _ in live] == ["A", "One.", "", "Two.", "cell", "One.", "", "Two."]


def test_a_document_whose_chunk_main_refused_reads_now(tmp_path):
    """A .docx chunk is a zip, not XML: the document around it used to be refused as damaged."""
    inner = docx_bytes(tmp_path, p("Inside."))
    path = chunk_document(tmp_path / "outer.docx", "word/chunk1.docx", DOCX_CT, inner)
    copy = shutil.copy(path, tmp_path / "copy.docx")
    run = run_cli("docx", "read-document", str(copy), "--json")
    assert run.json["ok"] and [b["text"] for b in run.json["result"]["blocks"]][1] == "Inside."


def test_hostile_chunks_stay_bounded(tmp_path, monkeypatch):
    """HTML nested past the parser's limit is unread, not half read; many references to one
    chunk are counted each time, so they cannot multiply what the file may cost."""
    deep = b"<html><body>" + b"<div>" * 5000 + b"Deep clause." + b"</div>" * 5000 + b"</body></html>"
    path = chunk_document(tmp_path / "deep.docx", "word/c.html", "text/html", deep)
    value = read(path)
    assert [b["text"] for b in value["blocks"]] == ["Before", "After"]
    assert "parser's limits" in value["unread"][0]["reason"]
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 1_000)
    lines = b"\n".join(b"line %d" % n for n in range(300))
    path = chunk_document(tmp_path / "many.docx", "word/c.txt", "text/plain", lines, body=CHUNK * 50)
    value = read(path)
    assert len(value["blocks"]) == 900  # three references fit in the budget of 1,000 paragraphs
    assert len(value["unread"]) == 47 and all("MAX_PARAGRAPHS" in e["reason"] for e in value["unread"])


def test_a_long_unread_list_is_cut_and_says_how_long_it_was(tmp_path):
    path = chunk_document(tmp_path / "many.docx", "word/c.rtf", "application/rtf", rb"{\rtf1 x}", body=CHUNK * 250)
    value = read(path)
    assert len(value["unread"]) == 200 and value["totalUnread"] == 250


def test_a_chunk_bigger_than_the_budget_is_not_even_unpacked(tmp_path, monkeypatch):
    path = chunk_document(tmp_path / "big.docx", "word/c.txt", "text/plain", b"x" * 5_000)
    monkeypatch.setattr(limits, "MAX_XML_BYTES", 4_000)
    read_bytes = DocxPackage.read_bytes
    monkeypatch.setattr(DocxPackage, "read_bytes", lambda self, name: pytest.fail("unpacked") if name == "word/c.txt"
                        else read_bytes(self, name))  # fmt: skip
    [entry] = read(path)["unread"]
    assert "5,000 bytes" in entry["reason"] and "contentHash" not in entry


def test_what_a_chunk_left_unread_counts_at_each_reference(tmp_path, monkeypatch):
    """Red team of issue 26 item 1: a .docx chunk holding 150 references to an unreadable part,
    itself referenced 150 times, listed 22,500 entries (3,000 of each: 9 million, 4.6 GB, past
    120 s, from a 5 KB file). The inner entries count against the budget like paragraphs; past
    it, a reference is one entry of its own."""
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 1_000)
    inner = chunk_document(tmp_path / "inner.docx", "word/c.rtf", "application/rtf", rb"{\rtf1 x}", body=CHUNK * 150)
    path = chunk_document(tmp_path / "outer.docx", "word/inner.docx", DOCX_CT, inner.read_bytes(), body=CHUNK * 150)
    value = read(path)
    assert 150 <= value["totalUnread"] <= 1_000 + 150  # every reference reported, in a bounded list
    assert "deskcheck does not read RTF" in value["unread"][0]["reason"]
