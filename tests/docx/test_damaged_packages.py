"""A package with a damaged part is refused by every tool alike (issue 19, item 4).

read_comments used to answer ok with no comments for a file whose document.xml is not XML,
while read_document refused it: a CI check for "no open comments" passed a corrupt file. Now
every tool, reading or editing, refuses such a package (corruptPackage, exit 2 at the CLI) and
leaves the file as it was.
"""

from __future__ import annotations

import zipfile

import pytest

from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.docx.builders import make_docx, p, rewrite_parts
from tests.helpers import run_cli

COMMENT = '<w:comment w:id="1" w:author="A"><w:p><w:r><w:t>Check.</w:t></w:r></w:p></w:comment>'
HEADER = "<w:p><w:r><w:t>Header</w:t></w:r></w:p>"
CALLS = {
    "read_document": {},
    "get_document_outline": {},
    "list_stories": {},
    "read_story": {"handle": {"type": "main"}},
    "find_text": {"query": "Hello"},
    "read_comments": {},
    "read_changes": {},
    "suggest_changes": {"operations": [{"type": "insertAfterBlock", "blockId": "0D000001", "text": "x"}]},
    "add_comment": {"blockId": "0D000001", "text": "Note"},
    "reply_comment": {"commentId": "1", "text": "Reply"},
    "resolve_comment": {"commentId": "1"},
    "accept_change": {"changeIds": ["1"]},
    "reject_change": {"changeIds": ["1"]},
}


def _replace_part(path, part: str, data: bytes, *, crc_damage: bool = False):
    # Stored, not deflated: the damage below finds the part's bytes in the file.
    rewrite_parts(path, lambda parts: parts.update({part: data}), compression=zipfile.ZIP_STORED)
    if crc_damage:  # flip one stored byte of the part: its CRC no longer matches
        raw = bytearray(path.read_bytes())
        position = raw.index(data) + len(data) // 2
        raw[position] ^= 0x20
        path.write_bytes(bytes(raw))
    return path


def damaged(tmp_path, case: str):
    path = tmp_path / f"{case}.docx"
    parts = {"comments": COMMENT} if case != "no-comments" else {}
    make_docx(path, p("Hello", para_id="0D000001"), header=HEADER, styles="", **parts)
    broken = b"<w:document><w:body><w:p>"
    if case in ("document", "no-comments"):
        return _replace_part(path, "word/document.xml", broken)
    if case == "comments":
        return _replace_part(path, "word/comments.xml", b"<w:comments xmlns:w='x'><w:comment>")
    if case == "header":
        return _replace_part(path, "word/header1.xml", b"<w:hdr")
    if case == "styles":
        return _replace_part(path, "word/styles.xml", b"not xml at all")
    if case == "crc":
        namespace = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
        styles = f'<w:styles xmlns:w="{namespace}">{"<!-- padding -->" * 20}</w:styles>'
        return _replace_part(path, "word/styles.xml", styles.encode(), crc_damage=True)
    raise ValueError(case)


CASES = ("no-comments", "document", "comments", "header", "styles", "crc")


@pytest.mark.parametrize("case", CASES)
def test_every_tool_refuses_a_damaged_package(tmp_path, case):
    path = damaged(tmp_path, case)
    before = path.read_bytes()
    tools = docx_toolset(path)
    for name, args in CALLS.items():
        result = tools.call(name, args)
        assert not result.ok and result.input_error and result.code == "corruptPackage", (name, result)
        assert "damaged" in result.error
    assert path.read_bytes() == before


def test_read_comments_on_a_corrupt_main_part_exits_2(tmp_path):
    """The issue's case: no comments part, a document.xml that is not XML."""
    path = damaged(tmp_path, "no-comments")
    result = run_cli("docx", "read-comments", str(path), expect=2)
    assert result.json["ok"] is False and "word/document.xml" in result.json["error"]
    run_cli("call", "--docx", str(path), "read_comments", '{"filter": "open"}', expect=2)


def test_an_intact_package_still_reads(tmp_path):
    path = make_docx(tmp_path / "fine.docx", p("Hello", para_id="0D000001"), header=HEADER, comments=COMMENT)
    tools = docx_toolset(path)
    assert tools.call("read_comments", {}).value["comments"][0]["text"] == "Check."
    assert tools.call("read_document", {}).ok


def test_a_part_spelled_twice_in_two_cases_is_refused(tmp_path):
    """Red team of issue 26 item 1: a second document.xml whose name differs only in case was
    ignored (the first was read) while another reader may show that one; part names do not
    differ by case, so the package is damaged."""
    path = make_docx(tmp_path / "case.docx", p("Hello", para_id="0D000001"))
    rewrite_parts(
        path, lambda parts: parts.update({"word/DOCUMENT.xml": parts["word/document.xml"].replace(b"Hello", b"Other")})
    )
    result = docx_toolset(path).call("read_document", {})
    assert not result.ok and result.input_error and result.code == "corruptPackage"
    assert "word/document.xml twice, also spelled word/DOCUMENT.xml" in result.error


def test_a_package_naming_two_main_parts_is_refused(tmp_path):
    """Red team of issue 26 item 1: a second officeDocument relationship, listed first, made
    deskcheck read another document part than the one the file was built around; which one
    another reader opens is not said anywhere, so the package is damaged."""
    path = make_docx(tmp_path / "two.docx", p("Hello", para_id="0D000001"))
    kind = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"

    def second_main(parts) -> None:
        parts["word/other.xml"] = parts["word/document.xml"].replace(b"Hello", b"Other")
        first = f'<Relationship Id="rIdOther" Type="{kind}" Target="word/other.xml"/><Relationship '
        parts["_rels/.rels"] = parts["_rels/.rels"].replace(b"<Relationship ", first.encode(), 1)
        override = f'<Override PartName="/word/other.xml" ContentType="{main}"/></Types>'
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>", override.encode())

    rewrite_parts(path, second_main)
    result = docx_toolset(path).call("read_document", {})
    assert not result.ok and result.input_error and result.code == "corruptPackage"
    assert "2 main document parts (word/other.xml, word/document.xml)" in result.error
