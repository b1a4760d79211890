"""Package I/O: refusing what is not a usable .docx, limits, atomic saving, part preservation."""

from __future__ import annotations

import os
import zipfile

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.package import limits
from deskcheck.engine.docx.package.docx_package import RT, DocxPackage
from deskcheck.engine.errors import InputError
from tests.conftest import CORPUS, REPO
from tests.docx.builders import encrypted_file, make_docx, p, rewrite_parts
from tests.docx.tracked_contract import build_tracked_contract
from tests.helpers import run_cli

ENCRYPTED = CORPUS / "folio" / "encrypted-agile-example.docx"
# Word documents whose bytes the tests compare: the project's sample contract, and a file Word
# wrote (corpus).
SAMPLES = [REPO / "samples" / "contract.docx", pytest.param(CORPUS / "folio" / "sample.docx", marks=pytest.mark.corpus)]


def refusal(path) -> InputError:
    with pytest.raises(InputError) as info:
        DocxPackage.open(path)
    return info.value


@pytest.mark.parametrize("source", ["built", pytest.param("corpus", marks=pytest.mark.corpus)])
def test_encrypted_file_is_refused_with_a_way_forward(tmp_path, source):
    error = refusal(ENCRYPTED if source == "corpus" else encrypted_file(tmp_path / "enc.docx"))
    assert error.code == "encrypted"
    assert "password" in error.message and "Remove the password" in error.message


def test_missing_file_and_directory_are_refused(tmp_path):
    assert refusal(tmp_path / "nope.docx").code == "missingFile"
    assert refusal(tmp_path).code == "notDocx"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"hello, I am plain text", "not a zip"),
        (b"{\\rtf1\\ansi hello}", "RTF"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "Word 97-2003"),
        (b"PK\x03\x04garbage that is not really a zip", "damaged"),
    ],
)
def test_non_word_files_are_refused(tmp_path, content, words):
    path = tmp_path / "x.docx"
    path.write_bytes(content)
    assert words in refusal(path).message


def test_a_zip_without_a_main_document_is_refused(tmp_path):
    path = tmp_path / "x.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert "package relationships" in refusal(path).message


def test_a_workbook_is_named_as_such(tmp_path):
    path = make_docx(tmp_path / "x.docx", p("x"))

    def as_workbook(parts: dict[str, bytes]) -> None:
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b"wordprocessingml.document.main+xml", b"spreadsheetml.sheet.main+xml"
        )

    rewrite_parts(path, as_workbook)
    assert "Excel workbook" in refusal(path).message


def test_missing_main_part_is_refused(tmp_path):
    path = rewrite_parts(make_docx(tmp_path / "x.docx", p("x")), lambda parts: parts.pop("word/document.xml"))
    assert "main document part word/document.xml is missing" in refusal(path).message


def test_compression_bombs_and_member_floods_are_refused(tmp_path, monkeypatch):
    bomb = tmp_path / "bomb.docx"
    make_docx(bomb, p("x" * 10))
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/media/zeros.bin", b"\0" * (limits.RATIO_CHECK_FROM_BYTES + 1024))
    assert "zip bombs" in refusal(bomb).message
    monkeypatch.setattr(limits, "MAX_MEMBERS", 3)
    assert "zip members" in refusal(bomb).message


def test_entities_are_refused_not_expanded(tmp_path):
    path = make_docx(tmp_path / "x.docx", p("x"))

    def with_entity(parts: dict[str, bytes]) -> None:
        parts["word/document.xml"] = parts["word/document.xml"].replace(
            b"<w:document", b'<!DOCTYPE w:document [<!ENTITY boom "boom">]><w:document', 1
        )

    rewrite_parts(path, with_entity)
    with pytest.raises(InputError) as info:
        DocxDocument.open(path).blocks  # noqa: B018 - parsing happens on access
    assert "DTD or entities" in info.value.message


@pytest.mark.parametrize("sample", SAMPLES)
def test_unchanged_save_returns_the_original_bytes(sample):
    package = DocxPackage.open(sample)
    assert package.to_bytes() == sample.read_bytes()


@pytest.mark.parametrize("sample", SAMPLES)
def test_edited_save_keeps_untouched_parts_byte_identical(tmp_path, sample):
    package = DocxPackage.open(sample)
    before = {name: package.read_bytes(name) for name in package.part_names()}
    root = package.xml(package.main_part)
    root.find(".//{*}t").text = "Changed"
    package.mark_dirty(package.main_part)
    out = package.save(tmp_path / "out.docx")
    reopened = DocxPackage.open(out)
    assert reopened.part_names() == package.part_names()
    for name, data in before.items():
        if name != package.main_part:
            assert reopened.read_bytes(name) == data, name
    assert b"Changed" in reopened.read_bytes(package.main_part)


def test_added_part_gets_content_type_and_relationship(tmp_path):
    package = DocxPackage.open(REPO / "samples" / "contract.docx")
    from lxml import etree

    root = etree.fromstring(b'<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>')
    content_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
    rel_id = package.add_part(
        "word/comments.xml", content_type, root=root, source=package.main_part, rel_type=RT.COMMENTS
    )
    out = package.save(tmp_path / "out.docx")
    reopened = DocxPackage.open(out)
    assert reopened.content_type("word/comments.xml") == content_type
    assert reopened.related_part(reopened.main_part, RT.COMMENTS) == "word/comments.xml"
    assert rel_id in {rel.id for rel in reopened.relationships(reopened.main_part)}


@pytest.mark.parametrize("sample", SAMPLES)
def test_version_changes_with_any_part_and_only_then(sample):
    package = DocxPackage.open(sample)
    again = DocxPackage.open(sample)
    assert package.version == again.version
    assert len(package.version) == 16
    styles = package.related_part(package.main_part, RT.STYLES)
    package.set_bytes(styles, package.read_bytes(styles) + b" ")
    assert package.version != again.version


def test_a_failed_write_leaves_the_input_byte_identical(tmp_path, monkeypatch):
    path = build_tracked_contract(tmp_path / "in.docx")
    original = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    result = run_cli("docx", "accept-all", str(path), expect=1)
    assert "No space left on device" in result.json["error"]
    assert path.read_bytes() == original
    assert sorted(os.listdir(tmp_path)) == ["in.docx"]  # no temporary file left behind


def test_writing_into_a_missing_folder_is_bad_input(tmp_path):
    path = build_tracked_contract(tmp_path / "in.docx")
    original = path.read_bytes()
    result = run_cli("docx", "reject-all", str(path), "-o", str(tmp_path / "no" / "out.docx"), expect=2)
    assert "does not exist" in result.json["error"]
    assert path.read_bytes() == original
