"""redline: a new .docx whose tracked changes turn the previous version into the current one,
checked with our own accept-all / reject-all on every corpus version pair (LibreOffice's are in
test_redline_libreoffice.py), plus authorship, metadata, unmatched stories and the CLI verb."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.package.docx_package import DocxPackage
from deskcheck.engine.docx.package.privacy import TRANSFORMS, metadata_report
from deskcheck.engine.docx.versions.redline import redline_files
from deskcheck.engine.docx.wml.ns import qn
from deskcheck.engine.errors import DeskcheckError, InputError
from tests import corpus
from tests.conftest import REPO
from tests.docx.builders import add_relationship, make_docx, p, rewrite_parts
from tests.docx.edit_helpers import schema_errors
from tests.docx.version_pairs import (
    WC,
    accepted,
    corpus_pairs,
    note_texts,
    owned_versions,
    pair_id,
    resolved,
    texts,
    with_word_metadata,
)
from tests.helpers import run_cli

REVISION_TAGS = tuple(qn(f"w:{name}") for name in ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange"))
TABLE_RECORDS = tuple(qn(f"w:{name}") for name in ("tblPrChange", "tblGridChange", "trPrChange", "tcPrChange"))
DATE = "2026-02-03T04:05:06Z"


def revisions_in(path: Path, tags: tuple = REVISION_TAGS) -> list:
    doc = DocxDocument.open(path)
    from deskcheck.engine.docx.review.revisions import story_parts

    return [element for part in story_parts(doc) for element in doc.package.xml(part).iter(*tags)]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def schema_cache():
    return {}


# -- every corpus pair -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("pair", corpus.params(corpus_pairs()), ids=pair_id)
def test_accepting_gives_the_current_version_and_rejecting_the_previous_one(pair, tmp_path, schema_cache):
    previous, current = pair
    before = digest(previous), digest(current)
    out = tmp_path / "redline.docx"
    report = redline_files(previous, current, out, date=DATE)
    assert (digest(previous), digest(current)) == before  # inputs untouched
    for mode, expected in (("accept", accepted(current)), ("reject", accepted(previous))):
        view = resolved(out, mode)
        assert texts(view) == texts(expected), mode
        assert note_texts(view) == note_texts(expected), mode
    # Nothing the inputs did not already have is wrong with the output's WordprocessingML.
    for source in (previous, current):
        if source not in schema_cache:
            schema_cache[source] = schema_errors(source)
    assert schema_errors(out) - schema_cache[previous] - schema_cache[current] == set()
    assert report["output"] == str(out) and report["documentVersion"] == DocxDocument.open(out).version


def header_texts(doc: DocxDocument) -> list[str]:
    from deskcheck.engine.docx.model.stories import list_stories, story_text

    return [story_text(doc, story) for story in list_stories(doc) if story.handle["type"] == "header"]


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_the_owned_versions_redline_into_each_other(tmp_path, direction):
    """Every kind of change between the project's own two versions (tests/docx/version_pairs.py),
    both ways: accepting gives the current version, rejecting the previous one, notes and the
    header included, and the markup stays valid."""
    first, second = owned_versions(tmp_path)
    previous, current = (first, second) if direction == "forward" else (second, first)
    out = tmp_path / "redline.docx"
    report = redline_files(previous, current, out, date=DATE)
    for mode, expected in (("accept", accepted(current)), ("reject", accepted(previous))):
        view = resolved(out, mode)
        assert texts(view) == texts(expected), mode
        assert note_texts(view) == note_texts(expected), mode
        assert header_texts(view) == header_texts(expected), mode
    assert schema_errors(out) - schema_errors(previous) - schema_errors(current) == set()
    assert report["summaryCounts"]["moved"] == 1 and report["summaryCounts"]["formatChanged"] == 1


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus.params(sorted(WC.glob("WC0[0-2]*.docx"))[:12]), ids=lambda path: path.stem)
def test_identical_versions_give_a_redline_without_changes(path, tmp_path):
    out = tmp_path / "same.docx"
    report = redline_files(path, path, out)
    counts = report["summaryCounts"]
    assert counts["added"] == counts["deleted"] == counts["modified"] == counts["moved"] == 0
    assert revisions_in(out, REVISION_TAGS + TABLE_RECORDS) == []
    assert texts(DocxDocument.open(out)) == texts(accepted(path))


# -- built versions ---------------------------------------------------------------------------------


def test_word_changes_moves_and_formatting_in_one_redline(tmp_path):
    moved = "This sentence travels to the end."
    previous = make_docx(
        tmp_path / "a.docx",
        p(moved) + p("The Supplier shall deliver within thirty days.") + p("Plain words") + p("Closing line."),
    )
    current = make_docx(
        tmp_path / "b.docx",
        p("The Supplier must deliver within ten days.")
        + "<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Plain words</w:t></w:r></w:p>"
        + p("Closing line.")
        + p(moved),
    )
    out = tmp_path / "r.docx"
    report = redline_files(previous, current, out, author="Reviewer", date=DATE)
    assert report["summaryCounts"] == {"added": 0, "deleted": 0, "modified": 1, "formatChanged": 1, "moved": 1,
                                       "unchanged": 1}  # fmt: skip
    body = DocxDocument.open(out).body
    deleted = ["".join(t.text for t in d.iter(qn("w:delText"))) for d in body.iter(qn("w:del"))]
    inserted = ["".join(t.text for t in i.iter(qn("w:t"))) for i in body.iter(qn("w:ins"))]
    assert [d for d in deleted if d] == ["shall", "thirty"] and [i for i in inserted if i] == ["must", "ten"]
    assert [m.get(qn("w:name")) for m in body.iter(qn("w:moveFromRangeStart"), qn("w:moveToRangeStart"))] == [
        "move1", "move1"]  # fmt: skip
    (change,) = body.iter(qn("w:rPrChange"))
    assert change.getparent().find(qn("w:b")) is not None and change.find(qn("w:rPr")).find(qn("w:b")) is None
    for element in revisions_in(out):
        assert element.get(qn("w:author")) == "Reviewer"
        assert element.get(qn("w:date")) in (DATE, None)
    assert texts(resolved(out, "accept")) == texts(accepted(current))
    assert texts(resolved(out, "reject")) == texts(accepted(previous))
    bold = resolved(out, "accept").body.iter(qn("w:b"))
    assert next(bold, None) is not None and next(resolved(out, "reject").body.iter(qn("w:b")), None) is None


def test_paragraph_properties_changes_are_recorded(tmp_path):
    styles = (
        '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
    )
    previous = make_docx(tmp_path / "a.docx", p("Title") + p("Body text."), styles=styles)
    current = make_docx(tmp_path / "b.docx", p("Title", ppr='<w:pStyle w:val="Heading1"/>') + p("Body text."),
                        styles=styles)  # fmt: skip
    out = tmp_path / "r.docx"
    redline_files(previous, current, out)
    (change,) = DocxDocument.open(out).body.iter(qn("w:pPrChange"))
    assert change.find(qn("w:pPr")).find(qn("w:pStyle")) is None
    assert [b.style_id for b in resolved(out, "accept").blocks] == ["Heading1", None]
    assert [b.style_id for b in resolved(out, "reject").blocks] == [None, None]


def _png() -> bytes:
    """A 1x1 PNG."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0\xff\x00\x00"))
        + chunk(b"IEND", b"")
    )


PICTURE_RUN = (
    '<w:r><w:drawing xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
    '<wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="914400" cy="914400"/>'
    '<wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
    '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr>'
    '<pic:cNvPr id="0" name="seal.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdSeal"/>'
    '<a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/>'
    '<a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>'
    "</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
)
PLAIN_STYLES = '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
STAMP_STYLE = (
    '<w:style w:type="paragraph" w:styleId="CompanyStamp"><w:name w:val="Company Stamp"/>'
    '<w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/></w:pPr></w:style>'
)


def _with_picture(path: Path) -> Path:
    """``path`` with the seal image part, its relationship and the png content type added."""

    def add_picture(parts: dict[str, bytes]) -> None:
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b'<Default Extension="xml"', b'<Default Extension="png" ContentType="image/png"/><Default Extension="xml"'
        )
        add_relationship(parts, "rIdSeal", "image", "media/seal.png")
        parts["word/media/seal.png"] = _png()

    return rewrite_parts(path, add_picture)


def test_a_new_style_and_a_new_picture_come_with_the_inserted_paragraphs(tmp_path):
    """The current version adds a paragraph in a style the previous one lacks and a picture: the
    redline carries the style definition and the image part, so accepting shows both."""
    body = p("Signed in London.", para_id="0C000001")
    previous = make_docx(tmp_path / "v1.docx", body, styles=PLAIN_STYLES)
    added = p(
        ppr='<w:pStyle w:val="CompanyStamp"/>', para_id="0C000002", runs=PICTURE_RUN + "<w:r><w:t>Seal</w:t></w:r>"
    )
    current = _with_picture(make_docx(tmp_path / "v2.docx", body + added, styles=PLAIN_STYLES + STAMP_STYLE))
    out = tmp_path / "r.docx"
    redline_files(previous, current, out)
    doc = resolved(out, "accept")
    (stamp,) = [block for block in doc.blocks if block.text == "Seal"]
    assert stamp.style_id == "CompanyStamp" and doc.styles.has_paragraph_style("CompanyStamp")
    package = DocxPackage.open(out)
    embeds = [blip.get(qn("r:embed")) for blip in package.xml(package.main_part).iter(
        "{http://schemas.openxmlformats.org/drawingml/2006/main}blip")]  # fmt: skip
    assert len(embeds) == 1
    target = package.resolve_target(package.main_part, embeds[0])
    assert package.read_bytes(target) == _png() and package.content_type(target) == "image/png"
    assert [block.text for block in resolved(out, "reject").blocks] == ["Signed in London."]
    assert schema_errors(out) - schema_errors(current) == set()


@pytest.mark.corpus
def test_a_style_the_previous_version_lacks_comes_with_the_inserted_paragraph(tmp_path):
    out = tmp_path / "r.docx"
    redline_files(WC / "WC061-Style-Added.docx", WC / "WC061-Style-Added-Mod.docx", out)
    doc = resolved(out, "accept")
    (added,) = [block for block in doc.blocks if block.text == "New paragraph with new style."]
    assert added.style_id and doc.styles.has_paragraph_style(added.style_id)


@pytest.mark.corpus
def test_pictures_of_inserted_content_are_copied_into_the_package(tmp_path):
    out = tmp_path / "r.docx"
    redline_files(WC / "WC016-Para-Image-Para-w-Deleted-Image.docx", WC / "WC016-Para-Image-Para.docx", out)
    package = DocxPackage.open(out)
    embeds = [blip.get(qn("r:embed")) for blip in package.xml(package.main_part).iter(
        "{http://schemas.openxmlformats.org/drawingml/2006/main}blip")]  # fmt: skip
    assert embeds
    for rel_id in embeds:
        target = package.resolve_target(package.main_part, rel_id)
        assert target and package.has_part(target) and package.read_bytes(target)
        assert package.content_type(target).startswith("image/")


def test_a_story_in_one_version_only_is_listed_unmatched(tmp_path):
    header = "<w:p><w:r><w:t>Header text</w:t></w:r></w:p>"
    section = '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>'
    with_header = make_docx(tmp_path / "a.docx", p("Body.") + section, header=header)
    without = make_docx(tmp_path / "b.docx", p("Body."))
    report = redline_files(with_header, without, tmp_path / "r1.docx")
    assert report["unmatchedStories"] == [
        {"previousStory": {"type": "header", "relationshipId": "rId1"}, "currentStory": None,
         "reason": "missing-current-story"}]  # fmt: skip
    report = redline_files(without, with_header, tmp_path / "r2.docx")
    assert report["unmatchedStories"][0]["reason"] == "missing-previous-story"


def test_paired_headers_are_redlined(tmp_path):
    section = '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>'
    previous = make_docx(tmp_path / "a.docx", p("Body.") + section, header=p("Draft header"))
    current = make_docx(tmp_path / "b.docx", p("Body.") + section, header=p("Final header"))
    out = tmp_path / "r.docx"
    redline_files(previous, current, out)
    from deskcheck.engine.docx.model.stories import list_stories, story_text

    for mode, expected in (("accept", "Final header"), ("reject", "Draft header")):
        doc = resolved(out, mode)
        (header,) = list_stories(doc)
        assert story_text(doc, header) == expected


# -- metadata ------------------------------------------------------------------------------------------


def test_metadata_is_reported_kept_by_default_and_scrubbed_on_request(tmp_path):
    previous, current = owned_versions(tmp_path)
    kept = redline_files(previous, current, tmp_path / "r.docx")["privacyReport"]
    assert kept["appliedTransforms"] == [] and kept["removed"] == []
    found = {item["item"]: item for item in kept["kept"]}
    assert found["creator"]["value"] == "deskcheck samples" and found["creator"]["category"] == "remove-attribution"
    assert metadata_report(DocxPackage.open(tmp_path / "r.docx"))["kept"] == kept["kept"]
    chosen = redline_files(previous, current, tmp_path / "c.docx", privacy=["remove-timestamps", "remove-attribution"])
    privacy = chosen["privacyReport"]
    assert privacy["appliedTransforms"] == ["remove-attribution", "remove-timestamps"]
    assert [item["item"] for item in privacy["removed"]] == ["creator", "lastModifiedBy", "created", "modified"]
    assert [item["item"] for item in privacy["kept"]] == ["title", "subject", "revision"]
    scrubbed = redline_files(previous, current, tmp_path / "s.docx", privacy=list(TRANSFORMS))["privacyReport"]
    assert scrubbed["kept"] == [] and len(scrubbed["removed"]) == 7
    core = zipfile.ZipFile(tmp_path / "s.docx").read("docProps/core.xml").decode()
    assert "deskcheck samples" not in core and "2024-03-04" not in core and "Software Services" not in core
    assert texts(resolved(tmp_path / "s.docx", "accept")) == texts(accepted(current)), "the text is untouched"


def test_what_word_saves_is_reported_and_scrubbed(tmp_path):
    """Session ids (in the settings and on paragraphs), the document id, the attached template,
    application properties and custom properties, as Word saves them (version_pairs.WORD_METADATA)."""
    previous, current = (with_word_metadata(path) for path in owned_versions(tmp_path))
    kept = redline_files(previous, current, tmp_path / "r.docx")["privacyReport"]["kept"]
    found = {item["item"]: item for item in kept}
    assert {name: found[name]["category"] for name in ("rsids", "docId", "rsidAttributes", "attachedTemplate")} == {
        "rsids": "remove-revision-ids",
        "docId": "remove-revision-ids",
        "rsidAttributes": "remove-revision-ids",
        "attachedTemplate": "remove-template",
    }
    assert found["custom:MatterNumber"]["value"] == "HL-2024-017" and found["Company"]["value"] == "Halyard Legal"
    out = tmp_path / "s.docx"
    report = redline_files(previous, current, out, privacy=list(TRANSFORMS))["privacyReport"]
    assert report["kept"] == [] and {item["item"] for item in report["removed"]} == set(found)
    with zipfile.ZipFile(out) as archive:
        settings = archive.read("word/settings.xml").decode()
        settings_rels = archive.read("word/_rels/settings.xml.rels").decode()
        app = archive.read("docProps/app.xml").decode()
        custom = archive.read("docProps/custom.xml").decode()
        document = archive.read("word/document.xml").decode()
    assert "w:rsids" not in settings and "docId" not in settings and "attachedTemplate" not in settings
    assert "priya" not in settings_rels and "w:rsid" not in document
    assert "Halyard Legal" not in app and "TotalTime" not in app and "Contract.dotm" not in app
    assert "MatterNumber" not in custom
    assert texts(resolved(out, "accept")) == texts(accepted(current)) and schema_errors(out) == set()


@pytest.mark.corpus
def test_metadata_is_reported_and_kept_by_default(tmp_path):
    report = redline_files(WC / "WC001-Digits.docx", WC / "WC001-Digits-Mod.docx", tmp_path / "r.docx")
    privacy = report["privacyReport"]
    assert privacy["appliedTransforms"] == [] and privacy["removed"] == []
    kept = {item["item"]: item for item in privacy["kept"]}
    assert kept["creator"]["value"] == "Eric White" and kept["creator"]["category"] == "remove-attribution"
    assert kept["rsids"]["category"] == "remove-revision-ids"
    assert metadata_report(DocxPackage.open(tmp_path / "r.docx"))["kept"] == privacy["kept"]


@pytest.mark.corpus
def test_scrubbing_removes_names_dates_session_ids_and_the_template_path(tmp_path):
    out = tmp_path / "r.docx"
    report = redline_files(WC / "WC004-Large-Mod.docx", WC / "WC004-Large.docx", out, privacy=list(TRANSFORMS))
    privacy = report["privacyReport"]
    assert privacy["appliedTransforms"] == list(TRANSFORMS) and privacy["kept"] == []
    removed = {item["item"] for item in privacy["removed"]}
    assert {
        "creator",
        "lastModifiedBy",
        "created",
        "modified",
        "rsids",
        "rsidAttributes",
        "attachedTemplate",
    } <= removed
    with zipfile.ZipFile(out) as archive:
        core = archive.read("docProps/core.xml").decode()
        settings = archive.read("word/settings.xml").decode()
        settings_rels = archive.read("word/_rels/settings.xml.rels").decode()
        document = archive.read("word/document.xml").decode()
    assert "Eric" not in core and "<cp:lastModifiedBy" not in core and "dcterms:created" not in core
    assert "w:rsids" not in settings and "attachedTemplate" not in settings and "Eric" not in settings_rels
    assert "w:rsid" not in document
    assert texts(resolved(out, "accept")) == texts(accepted(WC / "WC004-Large.docx"))


@pytest.mark.corpus
def test_transforms_can_be_chosen_one_by_one(tmp_path):
    report = redline_files(WC / "WC001-Digits.docx", WC / "WC001-Digits-Mod.docx", tmp_path / "r.docx",
                           privacy=["remove-timestamps", "remove-attribution"])  # fmt: skip
    privacy = report["privacyReport"]
    assert privacy["appliedTransforms"] == ["remove-attribution", "remove-timestamps"]
    assert [item["item"] for item in privacy["removed"]] == ["creator", "lastModifiedBy", "created", "modified",
                                                             "TotalTime"]  # fmt: skip
    assert "revision" in {item["item"] for item in privacy["kept"]}
    with pytest.raises(DeskcheckError, match="unknown privacy transform"):
        redline_files(WC / "WC001-Digits.docx", WC / "WC001-Digits.docx", tmp_path / "x.docx", privacy=["hide-all"])


# -- errors --------------------------------------------------------------------------------------------


def test_bad_inputs_and_outputs_write_nothing(tmp_path):
    good = REPO / "samples" / "contract.docx"
    with pytest.raises(InputError, match="does not exist"):
        redline_files(tmp_path / "missing.docx", good, tmp_path / "out.docx")
    with pytest.raises(InputError, match="folder"):
        redline_files(good, good, tmp_path / "nowhere" / "out.docx")
    with pytest.raises(DeskcheckError, match="one of the inputs"):
        redline_files(good, good, good)
    assert not (tmp_path / "out.docx").exists() and list(tmp_path.iterdir()) == []


def test_an_existing_output_is_replaced_whole(tmp_path):
    folder = tmp_path / "versions"
    folder.mkdir()
    previous, current = owned_versions(folder)
    out = tmp_path / "r.docx"
    out.write_bytes(b"old content")
    redline_files(previous, current, out)
    assert DocxDocument.open(out).blocks and [f.name for f in tmp_path.iterdir()] == ["r.docx", "versions"]


# -- the CLI ------------------------------------------------------------------------------------------


def test_redline_verb_writes_the_document_and_reports(tmp_path):
    previous, current = owned_versions(tmp_path)
    out = tmp_path / "redline.docx"
    run = run_cli("docx", "redline", str(previous), str(current), "-o", str(out), "--author", "Legal team")
    result = run.json["result"]
    assert result["output"] == str(out) and result["author"] == "Legal team"
    assert result["summaryCounts"]["modified"] == 3
    assert {element.get(qn("w:author")) for element in revisions_in(out)} == {"Legal team"}


def test_redline_verb_scrubs_metadata_on_request(tmp_path):
    previous, current = owned_versions(tmp_path)
    out = tmp_path / "redline.docx"
    run = run_cli("docx", "redline", str(previous), str(current), "-o", str(out), "--scrub-metadata")
    assert run.json["result"]["privacyReport"]["appliedTransforms"] == list(TRANSFORMS)
    assert "deskcheck samples" not in zipfile.ZipFile(out).read("docProps/core.xml").decode()


def test_redline_verb_exits_2_for_unreadable_inputs_and_unusable_outputs(tmp_path):
    good = str(REPO / "samples" / "contract.docx")
    broken = tmp_path / "broken.docx"
    broken.write_text("not a zip")
    run = run_cli("docx", "redline", good, str(broken), "-o", str(tmp_path / "o.docx"), expect=2)
    assert "not a Word document" in run.json["error"]
    run_cli("docx", "redline", good, good, "-o", str(tmp_path / "no" / "o.docx"), expect=2)
    run_cli("docx", "redline", good, good, "-o", good, expect=2)
    run_cli("docx", "redline", good, good, expect=2)  # -o is required
    assert sorted(f.name for f in tmp_path.iterdir()) == ["broken.docx"]


def _hyperlinked(path: Path, before: str, link: str, after: str) -> Path:
    runs = (
        f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r>'
        f'<w:hyperlink r:id="rIdL"><w:r><w:t xml:space="preserve">{link}</w:t></w:r></w:hyperlink>'
        f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>'
    )
    make_docx(path, p(runs=runs))
    return rewrite_parts(
        path, lambda parts: add_relationship(parts, "rIdL", "hyperlink", "https://example.com/", external=True)
    )


def _linked_text(doc: DocxDocument) -> list[str]:
    body = doc.body
    return ["".join(t.text for t in link.iter(qn("w:t"))) for link in body.iter(qn("w:hyperlink"))]


def test_text_typed_beside_a_link_stays_out_of_it_and_text_inside_stays_in(tmp_path):
    previous = _hyperlinked(tmp_path / "a.docx", "See ", "the site", "")
    beside = _hyperlinked(tmp_path / "b.docx", "See ", "the site", " today.")
    out = tmp_path / "r1.docx"
    redline_files(previous, beside, out)
    assert _linked_text(resolved(out, "accept")) == ["the site"]
    assert texts(resolved(out, "accept")) == ["See the site today."]
    inside = _hyperlinked(tmp_path / "c.docx", "See ", "the site map", "")
    out = tmp_path / "r2.docx"
    redline_files(previous, inside, out)
    assert _linked_text(resolved(out, "accept")) == ["the site map"]
    assert _linked_text(resolved(out, "reject")) == ["the site"]


def test_an_inserted_paragraph_keeps_its_hyperlink_target(tmp_path):
    previous = make_docx(tmp_path / "a.docx", p("Only paragraph."))
    current = _hyperlinked(tmp_path / "b.docx", "Read ", "the guide", ".")
    out = tmp_path / "r.docx"
    redline_files(previous, current, out)
    doc = resolved(out, "accept")
    (link,) = doc.body.iter(qn("w:hyperlink"))
    (rel,) = [r for r in doc.package.relationships(doc.main_part) if r.id == link.get(qn("r:id"))]
    assert rel.external and rel.target == "https://example.com/"


def test_section_breaks_are_kept_as_the_previous_version_has_them(tmp_path):
    """A section break lives in a paragraph mark; accepting or rejecting its removal would merge
    two sections, so the redline never marks such a mark: a section break only in the current
    version is left out (its text comes in), one only in the previous version stays (its text
    goes)."""
    section = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
    plain = make_docx(tmp_path / "a.docx", p("First part.") + p("Second part."))
    sectioned = make_docx(tmp_path / "b.docx", p("First part.") + p("Section end.", ppr=section) + p("Second part."))
    out = tmp_path / "r1.docx"
    redline_files(plain, sectioned, out)
    assert texts(resolved(out, "accept")) == texts(accepted(sectioned))
    assert texts(resolved(out, "reject")) == texts(accepted(plain))
    body = DocxDocument.open(out).body
    assert not any(ppr.find(qn("w:sectPr")) is not None for ppr in body.iter(qn("w:pPr")))
    out = tmp_path / "r2.docx"
    redline_files(sectioned, plain, out)
    assert texts(resolved(out, "reject")) == texts(accepted(sectioned))
    assert texts(resolved(out, "accept")) == ["First part.", "", "Second part."]


def _table(*rows: str) -> str:
    return ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/>'
            f"</w:tblGrid>{''.join(rows)}</w:tbl>")  # fmt: skip


def _row(content: str) -> str:
    return f'<w:tr><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{content}</w:tc></w:tr>'


@pytest.mark.parametrize("direction", ["inserted", "deleted"])
def test_a_row_holding_a_nested_table_comes_or_goes_with_the_nested_rows(tmp_path, direction):
    """A row that comes or goes marks the rows of a table nested in it as well, as Word does:
    an editor resolving rows one by one (LibreOffice) then takes the nested table along."""
    nested = _row(p("Outer") + _table(_row(p("In1")), _row(p("In2"))) + p(""))
    short = make_docx(tmp_path / "short.docx", p("Before") + _table(_row(p("Kept"))) + p("After"))
    long = make_docx(tmp_path / "long.docx", p("Before") + _table(_row(p("Kept")), nested) + p("After"))
    previous, current = (short, long) if direction == "inserted" else (long, short)
    out = tmp_path / "r.docx"
    redline_files(previous, current, out)
    kind = "ins" if direction == "inserted" else "del"
    outer = next(DocxDocument.open(out).body.iter(qn("w:tbl")))
    rows = list(outer.iter(qn("w:tr")))
    marks = [tr.find(f"{qn('w:trPr')}/{qn('w:' + kind)}") is not None for tr in rows]
    assert marks == [False, True, True, True]  # the kept row; the row that changes and its two nested rows
    assert texts(resolved(out, "accept")) == texts(accepted(current))
    assert texts(resolved(out, "reject")) == texts(accepted(previous))
