"""Formatting changes of paired tables, rows and cells: redline records them as property revisions
(w:tblPrChange, w:tblGridChange, w:trPrChange, w:tcPrChange) that accept to the current version's
properties and reject to the previous version's; compare names them on the cell's first paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.docx.versions.object_keys import canonical
from deskcheck.engine.docx.versions.redline import redline_files
from deskcheck.engine.docx.wml.ns import qn
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import lo_texts
from tests.docx.version_pairs import resolved, texts
from tests.helpers import run_cli
from tests.libreoffice import read_views

STYLES = (
    '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="table" w:styleId="Plain"><w:name w:val="Plain"/></w:style>'
)
FANCY = '<w:style w:type="table" w:styleId="Fancy"><w:name w:val="Fancy Grid"/></w:style>'


def _table(tblpr: str, widths: tuple[int, int], trpr: str, first_tcpr: str, texts: tuple[str, str]) -> str:
    grid = "".join(f'<w:gridCol w:w="{w}"/>' for w in widths)
    cells = (
        f"<w:tc><w:tcPr>{first_tcpr}</w:tcPr>{p(texts[0])}</w:tc>"
        f'<w:tc><w:tcPr><w:tcW w:w="{widths[1]}" w:type="dxa"/></w:tcPr>{p(texts[1])}</w:tc>'
    )
    return f"<w:tbl><w:tblPr>{tblpr}</w:tblPr><w:tblGrid>{grid}</w:tblGrid><w:tr>{trpr}{cells}</w:tr></w:tbl>"


PREVIOUS = p("Alpha") + _table(
    '<w:tblStyle w:val="Plain"/><w:tblW w:w="0" w:type="auto"/>', (2000, 2000), "",
    '<w:tcW w:w="2000" w:type="dxa"/>', ("Cell A", "Cell B"),
) + p("Omega")  # fmt: skip
CURRENT = p("Alpha") + _table(
    '<w:tblStyle w:val="Fancy"/><w:tblW w:w="5000" w:type="dxa"/><w:jc w:val="center"/>', (3000, 2000),
    "<w:trPr><w:tblHeader/></w:trPr>",
    '<w:tcW w:w="3000" w:type="dxa"/><w:shd w:val="clear" w:color="auto" w:fill="FFFF00"/>', ("Cell A", "Cell B"),
) + p("Omega")  # fmt: skip


@pytest.fixture
def pair(tmp_path) -> tuple[Path, Path, Path]:
    previous = make_docx(tmp_path / "previous.docx", PREVIOUS, styles=STYLES)
    current = make_docx(tmp_path / "current.docx", CURRENT, styles=STYLES + FANCY)
    out = tmp_path / "redline.docx"
    redline_files(previous, current, out)
    return previous, current, out


def _properties(doc: DocxDocument) -> dict[str, tuple]:
    """The table's, its row's and its first cell's properties, revision records left out."""
    (tbl,) = doc.body.iter(qn("w:tbl"))
    tr = tbl.find(qn("w:tr"))
    tc = tr.find(qn("w:tc"))
    records = {qn(f"w:{name}") for name in ("tblPrChange", "tblGridChange", "trPrChange", "tcPrChange")}

    def plain(element):
        return () if element is None else tuple(canonical(c) for c in element if c.tag not in records)

    return {
        "table": plain(tbl.find(qn("w:tblPr"))),
        "grid": plain(tbl.find(qn("w:tblGrid"))),
        "row": plain(tr.find(qn("w:trPr"))),
        "cell": plain(tc.find(qn("w:tcPr"))),
    }


def test_each_property_change_is_recorded_where_it_happened(pair):
    _, _, out = pair
    doc = DocxDocument.open(out)
    changes = run_cli("call", "--docx", str(out), "read_changes").json["result"]["changes"]
    assert [(c["type"], c["text"]) for c in changes] == [
        ("tablePropertiesChanged", ""),  # w:tblPrChange
        ("tablePropertiesChanged", ""),  # w:tblGridChange
        ("rowPropertiesChanged", "Cell ACell B"),
        ("cellPropertiesChanged", "Cell A"),  # the second cell did not change
    ]
    (old_table,) = doc.body.iter(qn("w:tblPrChange"))
    assert old_table.get(qn("w:author")) == "deskcheck compare"
    assert old_table.find(f"{qn('w:tblPr')}/{qn('w:tblStyle')}").get(qn("w:val")) == "Plain"
    (old_grid,) = doc.body.iter(qn("w:tblGridChange"))
    assert [c.get(qn("w:w")) for c in old_grid.iter(qn("w:gridCol"))] == ["2000", "2000"]
    (old_cell,) = doc.body.iter(qn("w:tcPrChange"))
    assert old_cell.find(f"{qn('w:tcPr')}/{qn('w:shd')}") is None


def test_accepting_gives_the_current_properties_and_rejecting_the_previous_ones(pair):
    previous, current, out = pair
    assert _properties(resolved(out, "accept")) == _properties(DocxDocument.open(current))
    assert _properties(resolved(out, "reject")) == _properties(DocxDocument.open(previous))
    for mode in ("accept", "reject"):
        assert texts(resolved(out, mode)) == ["Alpha", "Cell A", "Cell B", "Omega"]


def test_a_table_style_only_the_current_version_has_comes_along(pair):
    _, _, out = pair
    doc = resolved(out, "accept")
    styles = doc.package.xml("word/styles.xml")
    assert [s.get(qn("w:styleId")) for s in styles.iter(qn("w:style"))] == ["Normal", "Plain", "Fancy"]


def test_equal_properties_record_nothing(tmp_path):
    previous = make_docx(tmp_path / "previous.docx", PREVIOUS, styles=STYLES)
    current = make_docx(tmp_path / "current.docx", PREVIOUS.replace("Cell B", "Cell C"), styles=STYLES)
    out = tmp_path / "redline.docx"
    redline_files(previous, current, out)
    changes = run_cli("call", "--docx", str(out), "read_changes").json["result"]["changes"]
    assert [c["type"] for c in changes] == ["deletion", "insertion"]


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
def test_libreoffice_opens_it_and_reads_the_same_texts_both_ways(pair):
    _, _, out = pair
    for rows in read_views([("accept", [out]), ("reject", [out])]):
        assert lo_texts(rows[str(out)]) == ["Alpha", "Cell A", "Cell B", "Omega"]


# -- compare reports the same differences ------------------------------------------------------------


def test_compare_names_them_on_the_first_paragraph_of_the_cell(pair):
    previous, current, _ = pair
    diff = run_cli("docx", "compare", str(previous), str(current)).json["result"]
    assert diff["summaryCounts"] == {"added": 0, "deleted": 0, "modified": 0, "formatChanged": 1, "moved": 0,
                                     "unchanged": 3}  # fmt: skip
    (change,) = diff["changes"]
    assert (change["type"], change["text"], change["currentTable"]) == (
        "formatChanged", "Cell A", {"index": 0, "row": 0, "column": 0}
    )  # fmt: skip
    assert change["changedProperties"] == ["tableProperties", "tableGrid", "rowProperties", "cellProperties"]


def test_compare_joins_them_to_a_text_change_of_that_paragraph(tmp_path):
    previous = make_docx(tmp_path / "previous.docx", PREVIOUS, styles=STYLES)
    current = make_docx(tmp_path / "current.docx", CURRENT.replace("Cell B", "Cell C"), styles=STYLES + FANCY)
    diff = run_cli("docx", "compare", str(previous), str(current)).json["result"]
    first, second = diff["changes"]
    assert first["type"] == "formatChanged" and first["text"] == "Cell A"
    assert first["changedProperties"] == ["tableProperties", "tableGrid", "rowProperties", "cellProperties"]
    assert second["type"] == "modified" and "changedProperties" not in second
    edited = make_docx(tmp_path / "edited.docx", CURRENT.replace("Cell A", "Cell Z"), styles=STYLES + FANCY)
    diff = run_cli("docx", "compare", str(previous), str(edited)).json["result"]
    (change,) = diff["changes"]
    assert change["type"] == "modified" and change["changedProperties"][-1] == "cellProperties"
    text = run_cli("docx", "compare", str(previous), str(edited), "--format", "text").stdout
    assert "modified (format changed too: tableProperties, tableGrid, rowProperties, cellProperties)" in text


def test_compare_leaves_them_out_when_formatting_is_not_asked_for(pair):
    previous, current, _ = pair
    diff = compare_versions(previous, current, include=["text"])
    assert diff["changes"] == [] and diff["summaryCounts"]["unchanged"] == 4
    diff = compare_versions(previous, current, include=["formatting"])
    assert [c["changedProperties"] for c in diff["changes"]] == [
        ["tableProperties", "tableGrid", "rowProperties", "cellProperties"]
    ]


def test_compare_keeps_a_table_change_when_no_row_pairs(tmp_path):
    """Every row changed shape (a column went): the table's own change still has an entry."""
    previous = make_docx(tmp_path / "previous.docx", PREVIOUS, styles=STYLES)
    one_column = CURRENT.replace('<w:gridCol w:w="2000"/>', "").replace(
        '<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>' + p("Cell B") + "</w:tc>", ""
    )
    current = make_docx(tmp_path / "current.docx", one_column, styles=STYLES + FANCY)
    diff = compare_versions(previous, current)
    assert {"tableProperties", "tableGrid"} <= {
        name for c in diff["changes"] for name in c.get("changedProperties", [])
    }
