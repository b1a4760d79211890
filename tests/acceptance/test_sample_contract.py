"""The sample contract that the demo and the README tour review: the committed file is what its
script builds, it reads cleanly with our tools, it is valid WordprocessingML, and LibreOffice
reads the same paragraphs."""

from __future__ import annotations

import importlib.util
from functools import cache

import pytest

from tests.conftest import REPO

CONTRACT = REPO / "samples" / "contract.docx"


@cache
def make_contract():
    spec = importlib.util.spec_from_file_location("make_contract", REPO / "samples" / "make_contract.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def blocks() -> list[dict]:
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    result = docx_toolset(CONTRACT).call("read_document", {})
    assert result.ok, result.error
    return result.value["blocks"]


def test_the_committed_file_is_what_the_script_builds(tmp_path):
    module = make_contract()
    assert module.build() == module.build(), "two builds differ: the output is not deterministic"
    assert CONTRACT.read_bytes() == module.build(), "run `python samples/make_contract.py` and commit the result"
    assert module.main([str(tmp_path / "again.docx")]) == 0
    assert (tmp_path / "again.docx").read_bytes() == CONTRACT.read_bytes()


def test_the_other_versions_are_what_the_script_builds_and_differ_as_documented(tmp_path):
    from deskcheck.engine.docx import compare_versions

    module = make_contract()
    assert (REPO / "samples" / "contract-v2.docx").read_bytes() == module.build(module.revised_text())
    assert (REPO / "samples" / "contract-long.docx").read_bytes() == module.build(module.long_text())
    assert module.main([str(tmp_path / "v1.docx"), str(tmp_path / "v2.docx")]) == 0
    assert (tmp_path / "v2.docx").read_bytes() == (REPO / "samples" / "contract-v2.docx").read_bytes()
    assert not (tmp_path / "contract-long.docx").exists()
    counts = compare_versions(CONTRACT, REPO / "samples" / "contract-v2.docx")["summaryCounts"]
    assert {kind: counts[kind] for kind in ("added", "deleted", "modified", "moved")} == {
        "added": 1,
        "deleted": 1,
        "modified": 3,
        "moved": 1,
    }


def test_the_clauses_read_with_their_numbers_and_kinds():
    labelled = [(b.get("displayLabel"), b["text"]) for b in blocks() if b.get("displayLabel")]
    assert labelled[:3] == [
        ("(1)", labelled[0][1]),
        ("(2)", labelled[1][1]),
        (
            "A.",
            "The Customer manages about 4,000 rented homes and wants its tenants to report repairs, pay rent "
            "and follow their requests online.",
        ),
    ]
    numbered_headings = [label for label, _ in labelled if label and label.endswith(".") and label[:-1].isdigit()]
    assert numbered_headings == [f"{n}." for n in range(1, 11)]
    # The clause headings are headings (level 1) with their number as label; clauses are list items.
    headings = [(b["headingLevel"], b.get("displayLabel")) for b in blocks() if b["kind"] == "heading"]
    assert headings == [(1, None)] + [(1, f"{n}.") for n in range(1, 11)]
    assert {b["kind"] for b in blocks() if b.get("displayLabel", "").startswith("(")} == {"listItem"}
    by_text = {text: label for label, text in labelled}
    assert by_text["Definitions and interpretation"] == "1."
    assert by_text["The Customer shall pay each undisputed invoice within thirty (30) days of receiving it."] == "5.3"
    assert by_text["becomes insolvent, enters into liquidation or makes an arrangement with its creditors."] == "(b)"
    clause_labels = [label for label, _ in labelled if label and label[0].isdigit() and "." in label[:-1]]
    assert "10.4" in clause_labels and len(clause_labels) == len(set(clause_labels))


def test_it_has_the_parts_a_review_meets():
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    tools = docx_toolset(CONTRACT)
    ids = [b["blockId"] for b in blocks()]
    assert len(ids) == len(set(ids)) == 98
    assert all(len(i) == 8 and int(i, 16) < 0x80000000 for i in ids), "block ids are the file's own paraIds"
    cells = [b for b in blocks() if "table" in b]
    assert {b["table"]["index"] for b in cells} == {0, 1}
    assert [b["text"] for b in cells if b["table"] == {"index": 0, "row": 0, "column": 3}] == ["Amount (GBP)"]
    outline = tools.call("get_document_outline", {}).value["sections"]
    assert [s["text"] for s in outline][:3] == ["Background", "Definitions and interpretation", "The Services"]
    stories = tools.call("list_stories", {}).value["stories"]
    footnote = next(s for s in stories if s["handle"]["type"] == "footnote")
    assert footnote["text"].startswith("The statutory rate for late payment")
    bold_terms = tools.call("find_text", {"query": "“Business Day”"}).value
    assert bold_terms["totalMatches"] == 1
    metadata = make_contract().core_xml()
    assert "<dc:creator>deskcheck samples</dc:creator>" in metadata


def test_it_is_valid_wordprocessingml():
    from tests.docx.edit_helpers import schema_errors

    assert schema_errors(CONTRACT) == set()


@pytest.mark.slow
def test_libreoffice_reads_the_same_paragraphs(needs_libreoffice):
    from tests.libreoffice import read_paragraphs

    [row] = read_paragraphs("asis", [CONTRACT]).values()
    assert row.get("ok", True), row
    # LibreOffice writes the footnote's number into its paragraph's text; our blocks leave notes out.
    ours = [b["text"].replace("statutory rate from", "statutory rate1 from") for b in blocks()]
    assert row["paragraphs"] == ours
