"""The table operations of suggest_changes, in tracked and direct mode, on a document the test
builds with the table shapes edits meet (a plain grid, a header row, horizontal and vertical
merges, a row with w:gridBefore, empty cells, a nested table) and on corpus tables: the tracked
output reads as the direct output once accepted and as the input once rejected (our accept-all /
reject-all; LibreOffice checks the same in test_table_ops_libreoffice), the markup is what Word
writes for table revisions, and no schema error appears that the input did not have."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from deskcheck.engine.docx.edit.table_grid import Grid
from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.changes import read_changes
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.wml.ns import NS, qn
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import applied, block_texts, new_schema_errors, resolved_texts, suggest

W = NS["w"]
ALL_TYPES = (
    "insertTable", "deleteTable", "insertTableRow", "deleteTableRow", "insertTableColumn", "deleteTableColumn",
    "mergeTableCells", "splitTableCell", "insertSignatureTable", "replaceInBlock", "insertAfterBlock", "deleteBlock",
    "mergeBlockWithNext",
)  # fmt: skip
STYLES = (
    '<w:style w:type="paragraph" w:styleId="Normal" w:default="1"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>'
)


def _cell(text: str, para_id: str, tcpr: str = "", width: int = 1500) -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/>{tcpr}</w:tcPr>{p(text, para_id=para_id)}</w:tc>'


def _table(grid: int, rows: str, width: int = 1500) -> str:
    cols = "".join(f'<w:gridCol w:w="{width}"/>' for _ in range(grid))
    return (
        '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
        f"<w:tblGrid>{cols}</w:tblGrid>{rows}</w:tbl>"
    )


SPAN2 = '<w:gridSpan w:val="2"/>'
RESTART = '<w:vMerge w:val="restart"/>'
CONTINUE = "<w:vMerge/>"
GRID_BEFORE_ROW = '<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>' + _cell("V", "0C000242")

PLAIN = _table(3, "".join(
    "<w:tr>" + "".join(_cell(f"{col}{row}", f"0C0001{row}{n}") for n, col in enumerate("ABC", start=1)) + "</w:tr>"
    for row in (1, 2, 3)
))  # fmt: skip
MERGED = _table(4, (
    '<w:tr><w:trPr><w:tblHeader/></w:trPr>'
    + _cell("H1", "0C000211") + _cell("H2", "0C000212", SPAN2, 3000) + _cell("H3", "0C000214") + "</w:tr>"
    + "<w:tr>" + _cell("P", "0C000221") + _cell("Tall", "0C000222", RESTART) + _cell("Q", "0C000223")
    + _cell("R", "0C000224") + "</w:tr>"
    + "<w:tr>" + _cell("S", "0C000231") + _cell("", "0C000232", CONTINUE) + _cell("T", "0C000233")
    + _cell("U", "0C000234") + "</w:tr>"
    + GRID_BEFORE_ROW
    + _cell("W", "0C000243", SPAN2, 3000) + "</w:tr>"
))  # fmt: skip
EMPTIES = _table(2, "".join(
    "<w:tr>" + _cell(first, f"0C0003{row}1") + _cell(f"X{row}", f"0C0003{row}2") + "</w:tr>"
    for row, first in ((1, "Top"), (2, ""), (3, ""))
))  # fmt: skip
NESTED = _table(2, (
    "<w:tr><w:tc><w:tcPr><w:tcW w:w=\"3000\" w:type=\"dxa\"/></w:tcPr>" + p("Outer", para_id="0C000411")
    + _table(1, "<w:tr>" + _cell("In1", "0C000511") + "</w:tr><w:tr>" + _cell("In2", "0C000521") + "</w:tr>")
    + p("", para_id="0C000412") + "</w:tc>" + _cell("Side", "0C000413") + "</w:tr>"
))  # fmt: skip
BODY = (
    p("Intro", para_id="0C000001") + PLAIN + p("Between", para_id="0C000002") + MERGED
    + p("After tables", para_id="0C000003") + EMPTIES + p("Nested next", para_id="0C000004") + NESTED
    + p("Last", para_id="0C000009") + '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/>'
    '<w:pgMar w:left="1440" w:right="1440" w:top="1440" w:bottom="1440"/></w:sectPr>'
)  # fmt: skip
ORIGINAL = [
    "Intro", "A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3", "Between",
    "H1", "H2", "H3", "P", "Tall", "Q", "R", "S", "T", "U", "V", "W",
    "After tables", "Top", "X1", "", "X2", "", "X3", "Nested next", "Outer", "In1", "In2", "", "Side", "Last",
]  # fmt: skip


def build_tables(path: Path, *, grid_before: bool = True) -> Path:
    """The table document (see ORIGINAL for its blocks). Without ``grid_before`` the last row of
    the merged table starts with "V" spanning two columns instead of one empty grid column (for
    LibreOffice, which shows that empty grid space as a cell of its own)."""
    body = BODY
    if not grid_before:
        body = body.replace(GRID_BEFORE_ROW, "<w:tr>" + _cell("V", "0C000242", SPAN2, 3000))
    return make_docx(path, body, styles=STYLES)


@pytest.fixture
def tables(tmp_path):
    return build_tables(tmp_path / "tables.docx")


def both(tmp_path, source, ops, expected=None, stem="out"):
    """Apply ``ops`` in both modes; check accept == direct, reject == input, no new schema errors.
    Returns (tracked path, direct path, tracked result, direct result)."""
    tracked, direct = tmp_path / f"{stem}-tracked.docx", tmp_path / f"{stem}-direct.docx"
    shutil.copy(source, tracked)
    shutil.copy(source, direct)
    tracked_result = applied(tracked, ops, mode="tracked-changes", operation_types=ALL_TYPES)
    direct_result = applied(direct, ops, mode="direct", operation_types=ALL_TYPES)
    if expected is not None:
        assert block_texts(direct) == expected
    assert resolved_texts(tracked, "accept") == resolved_texts(direct, "accept")
    assert resolved_texts(tracked, "reject") == resolved_texts(source, "reject")
    # The tables too: the same grid, cells on the same grid columns.
    assert table_layouts(tracked, "accept") == table_layouts(direct, "accept")
    assert table_layouts(tracked, "reject") == table_layouts(source, "reject")
    assert new_schema_errors(source, tracked) == set()
    assert new_schema_errors(source, direct) == set()
    return tracked, direct, tracked_result, direct_result


def table_layouts(path, mode: str) -> list:
    """Every table's grid column widths and the grid columns of its cells, row by row, after our
    accept-all or reject-all."""
    from deskcheck.engine.docx.review.revisions import resolve_all

    doc = DocxDocument.open(path)
    resolve_all(doc, mode)
    return [
        (grid_widths(tbl), [[cell[:2] for cell in row] for row in shape(tbl)]) for tbl in doc.body.iter(qn("w:tbl"))
    ]


def document_xml(path) -> etree._Element:
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read("word/document.xml"))


def tables_of(path) -> list:
    return list(document_xml(path).iter(qn("w:tbl")))


def shape(tbl) -> list[list[tuple[int, int, str | None, str]]]:
    """Each row's cells as (first grid column, span, vertical merge, text)."""
    grid = Grid(tbl)
    return [
        [(cell.start, cell.span, cell.merge, "".join(cell.tc.itertext())) for cell in row.cells] for row in grid.rows
    ]


def with_texts(*replacements: tuple[int, int, list[str]]) -> list[str]:
    """ORIGINAL with slices replaced: (start, stop, new texts)."""
    texts = list(ORIGINAL)
    for start, stop, new in sorted(replacements, reverse=True):
        texts[start:stop] = new
    return texts


def block_at(path, table: int, row: int, column: int) -> str:
    """The id of the first block in a cell, by the (table, row, grid column) read_document gives."""
    return next(b.id for b in DocxDocument.open(path).blocks if b.cell == (table, row, column))


def test_the_built_document_reads_as_planned(tables):
    assert block_texts(tables) == ORIGINAL
    assert new_schema_errors(tables, tables) == set()


# -- insertTableRow ----------------------------------------------------------------------------


def test_insert_row_fills_cells_in_order_and_marks_everything_inserted(tmp_path, tables):
    ops = [{"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["N1", "N2"], "comment": "New row."}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((4, 4, ["N1", "N2", ""])))
    target = result["receipts"][0]["affected"][0]
    assert {k: target[k] for k in ("type", "anchorBlockId", "position", "content")} == {
        "type": "insertion", "anchorBlockId": "0C000111", "position": "after", "content": "tableRow"
    }  # fmt: skip
    assert len(target["blockIds"]) == 3 and result["receipts"][0]["affected"][1]["type"] == "comment"
    row = tables_of(tracked)[0].findall(qn("w:tr"))[1]
    assert row.find(f"{qn('w:trPr')}/{qn('w:ins')}") is not None
    paragraphs = row.findall(f".//{qn('w:p')}")
    assert all(p.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None for p in paragraphs)
    assert [r.getparent().tag for r in row.iter(qn("w:r")) if r.find(qn("w:t")) is not None] == [qn("w:ins")] * 2
    # The new cells copy the width of the cells they sit under; the new blocks carry the ids given.
    assert [c.find(f"{qn('w:tcPr')}/{qn('w:tcW')}").get(qn("w:w")) for c in row.findall(qn("w:tc"))] == ["1500"] * 3
    ids = [b.id for b in DocxDocument.open(direct).blocks if b.cell and b.cell[:2] == (0, 1)]
    assert len(ids) == 3
    changes = [c for c in read_changes(DocxDocument.open(tracked)) if c["author"] == "deskcheck"]
    assert changes and all(c["type"] != "deletion" for c in changes)


def test_insert_row_at_the_top_and_position_before(tmp_path, tables):
    ops = [{"type": "insertTableRow", "blockId": "0C000111", "position": "before", "cellTexts": ["Top"]}]
    both(tmp_path, tables, ops, with_texts((1, 1, ["Top", "", ""])))


def test_insert_row_through_a_vertical_merge_grows_the_merge(tmp_path, tables):
    ops = [{"type": "insertTableRow", "blockId": "0C000221", "cellTexts": ["n0", "n2", "n3"]}]
    tracked, direct, _, _ = both(tmp_path, tables, ops, with_texts((18, 18, ["n0", "n2", "n3"])))
    rows = shape(tables_of(direct)[1])
    assert rows[2] == [(0, 1, None, "n0"), (1, 1, "continue", ""), (2, 1, None, "n2"), (3, 1, None, "n3")]
    grid = Grid(tables_of(direct)[1])
    region = grid.region_of(grid.rows[1].cells[1].tc)
    assert (region.top, region.bottom) == (1, 3)  # "Tall" now spans three rows
    assert shape(tables_of(tracked)[1])[2][1] == (1, 1, "continue", "")


def test_insert_row_under_a_header_row_copies_a_body_row(tmp_path, tables):
    ops = [{"type": "insertTableRow", "blockId": "0C000211", "cellTexts": ["a", "b", "c", "d"]}]
    _, direct, _, _ = both(tmp_path, tables, ops, with_texts((14, 14, ["a", "b", "c", "d"])))
    row = tables_of(direct)[1].findall(qn("w:tr"))[1]
    assert row.find(f"{qn('w:trPr')}/{qn('w:tblHeader')}") is None
    assert [(c[0], c[1]) for c in shape(tables_of(direct)[1])[1]] == [(0, 1), (1, 1), (2, 1), (3, 1)]


def test_insert_row_keeps_grid_before(tmp_path, tables):
    ops = [{"type": "insertTableRow", "blockId": "0C000242", "cellTexts": ["v", "w"]}]
    _, direct, _, _ = both(tmp_path, tables, ops, with_texts((23, 23, ["v", "w"])))
    assert [(c[0], c[1]) for c in shape(tables_of(direct)[1])[4]] == [(1, 1), (2, 2)]


# -- deleteTableRow ----------------------------------------------------------------------------


def test_delete_row_marks_the_row_and_its_content_deleted(tmp_path, tables):
    ops = [{"type": "deleteTableRow", "blockId": "0C000122", "comment": "Not needed."}]
    tracked, _, result, _ = both(tmp_path, tables, ops, with_texts((4, 7, [])))
    assert result["receipts"][0]["affected"][0] == {
        "type": "tableRow", "story": "main", "anchorBlockId": "0C000122", "effect": "deleted"
    }  # fmt: skip
    row = tables_of(tracked)[0].findall(qn("w:tr"))[1]
    assert row.find(f"{qn('w:trPr')}/{qn('w:del')}") is not None
    assert [t.text for t in row.iter(qn("w:delText"))] == ["A2", "B2", "C2"]
    assert row.find(f".//{qn('w:t')}") is None
    blocks = {b.id: b for b in DocxDocument.open(tracked).blocks}
    assert blocks["0C000122"].pending_deletion


def test_deleting_the_top_of_a_vertical_merge_moves_its_content_down(tmp_path, tables):
    ops = [{"type": "deleteTableRow", "blockId": "0C000221"}]
    result = applied(tables, ops, mode="direct", operation_types=ALL_TYPES)
    assert result["receipts"][0]["affected"][0]["effect"] == "deleted"
    assert block_texts(tables) == with_texts((14, 18, ["S", "Tall", "T", "U"]), (18, 21, []))
    assert shape(tables_of(tables)[1])[1] == [(0, 1, None, "S"), (1, 1, None, "Tall"), (2, 1, None, "T"),
                                              (3, 1, None, "U")]  # fmt: skip


def test_deleting_a_row_inside_a_vertical_merge_shortens_it(tmp_path, tables):
    ops = [{"type": "deleteTableRow", "blockId": "0C000231"}]
    _, direct, _, _ = both(tmp_path, tables, ops, with_texts((18, 21, [])))
    assert shape(tables_of(direct)[1])[1][1] == (1, 1, "restart", "Tall")


@pytest.mark.parametrize("delete_first", [False, True])
def test_a_row_inserted_through_a_merge_whose_last_row_the_call_deletes_still_continues_it(
    tmp_path, tables, delete_first
):
    # "Tall" spans rows 1-2; a row goes in between and row 2 goes. The operations address the
    # document as read, so the new row continues "Tall" whichever applies first.
    insert = {"type": "insertTableRow", "blockId": "0C000223", "cellTexts": ["n0", "n2", "n3"]}
    delete = {"type": "deleteTableRow", "blockId": "0C000233"}
    ops = [delete, insert] if delete_first else [insert, delete]
    _, direct, _, _ = both(tmp_path, tables, ops, with_texts((18, 21, ["n0", "n2", "n3"])))
    rows = shape(tables_of(direct)[1])
    assert rows[1][1] == (1, 1, "restart", "Tall")
    assert rows[2] == [(0, 1, None, "n0"), (1, 1, "continue", ""), (2, 1, None, "n2"), (3, 1, None, "n3")]


@pytest.mark.corpus
@pytest.mark.parametrize("delete_first", [False, True])
def test_a_row_inserted_next_to_a_row_the_call_deletes_copies_the_row_that_stays(tmp_path, delete_first):
    """pandoc/table_header_rowspan.docx: row 1 continues the header's vertical merges and has
    three cells under "E"; a row goes in before row 2 while row 1 goes. The new row copies the
    nearest row that stays, row 0, in both modes and whichever operation applies first (it used
    to copy row 1 when it was still there: in tracked mode, where it stays until accepted, and in
    direct mode when the insertion applied first)."""
    source = CORPUS / "pandoc" / "table_header_rowspan.docx"
    insert = {"type": "insertTableRow", "blockId": block_at(source, 0, 2, 2), "position": "before",
              "cellTexts": ["a", "b", "c", "d"]}  # fmt: skip
    delete = {"type": "deleteTableRow", "blockId": block_at(source, 0, 1, 4)}
    ops = [delete, insert] if delete_first else [insert, delete]
    _, direct, _, _ = both(tmp_path, source, ops)
    new_row = shape(tables_of(direct)[0])[1]
    assert [cell[:2] for cell in new_row] == [(0, 1), (1, 1), (2, 1), (3, 1), (4, 3), (7, 1)]
    assert [cell[3] for cell in new_row] == ["a", "b", "c", "d", "", ""]


def test_deleting_the_only_row_deletes_the_table(tmp_path, tables):
    ops = [{"type": "deleteTableRow", "blockId": "0C000413"}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((31, 36, [])))
    assert result["receipts"][0]["affected"][0]["tableDeleted"] is True
    assert len(tables_of(direct)) == 3  # the outer table and the one nested in it are gone
    assert len(tables_of(tracked)) == 5


# -- insertTableColumn -------------------------------------------------------------------------


def test_insert_column_adds_a_cell_per_row_and_a_grid_column(tmp_path, tables):
    ops = [{"type": "insertTableColumn", "blockId": "0C000111", "cellTexts": ["n1", "n2", "n3"]}]
    expected = ["Intro", "A1", "n1", "B1", "C1", "A2", "n2", "B2", "C2", "A3", "n3", "B3", "C3", *ORIGINAL[10:]]
    tracked, direct, result, _ = both(tmp_path, tables, ops, expected)
    assert result["receipts"][0]["affected"][0]["content"] == "tableColumn"
    assert len(tables_of(direct)[0].findall(f"{qn('w:tblGrid')}/{qn('w:gridCol')}")) == 4
    tbl = tables_of(tracked)[0]
    new_cells = [row.findall(qn("w:tc"))[1] for row in tbl.findall(qn("w:tr"))]
    assert all(c.find(f"{qn('w:tcPr')}/{qn('w:cellIns')}") is not None for c in new_cells)
    assert all(c.find(f".//{qn('w:ins')}/{qn('w:r')}") is not None for c in new_cells)
    change = tbl.find(f"{qn('w:tblGrid')}/{qn('w:tblGridChange')}")
    assert change is not None and len(change.find(qn("w:tblGrid"))) == 3
    # Rejecting takes the cells and the grid column back.
    doc = DocxDocument.open(tracked)
    from deskcheck.engine.docx.review.revisions import resolve_all

    resolve_all(doc, "reject")
    grid = doc.body.find(qn("w:tbl")).find(qn("w:tblGrid"))
    assert len(grid.findall(qn("w:gridCol"))) == 3 and grid.find(qn("w:tblGridChange")) is None


def test_insert_column_across_a_horizontal_merge_widens_it_and_gridbefore_grows(tmp_path, tables):
    # After "Tall" (grid column 1): the header's "H2" spans columns 1-2 and grows to 3.
    ops = [{"type": "insertTableColumn", "blockId": "0C000222", "cellTexts": ["a", "b", "c"]}]
    tracked, direct, _, _ = both(tmp_path, tables, ops, with_texts((16, 16, ["a"]), (19, 19, ["b"]), (22, 22, ["c"])))
    rows = shape(tables_of(direct)[1])
    assert rows[0] == [(0, 1, None, "H1"), (1, 3, None, "H2"), (4, 1, None, "H3")]
    assert rows[3] == [(1, 1, None, "V"), (2, 1, None, "c"), (3, 2, None, "W")]
    header = tables_of(tracked)[1].findall(qn("w:tr"))[0].findall(qn("w:tc"))[1]
    assert header.find(f"{qn('w:tcPr')}/{qn('w:tcPrChange')}") is not None
    # Before the first column: the row that starts one column in keeps its place.
    ops = [{"type": "insertTableColumn", "blockId": "0C000221", "position": "before", "cellTexts": ["x", "y", "z"]}]
    _, direct, _, _ = both(tmp_path, tables, ops, stem="before")
    rows = shape(tables_of(direct)[1])
    assert rows[3][0][:2] == (2, 1)  # gridBefore grew from 1 to 2
    assert [r[0][3] for r in rows[:3]] == ["x", "y", "z"]


# -- deleteTableColumn -------------------------------------------------------------------------


def test_delete_column_marks_cells_deleted(tmp_path, tables):
    ops = [{"type": "deleteTableColumn", "blockId": "0C000122", "comment": "Column B goes."}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((2, 3, []), (5, 6, []), (8, 9, [])))
    assert result["receipts"][0]["affected"][0] == {
        "type": "tableColumn", "story": "main", "anchorBlockId": "0C000122", "effect": "deleted"
    }  # fmt: skip
    assert len(tables_of(direct)[0].findall(f"{qn('w:tblGrid')}/{qn('w:gridCol')}")) == 2
    deleted = [tc for tc in tables_of(tracked)[0].iter(qn("w:tc")) if tc.find(f"{qn('w:tcPr')}/{qn('w:cellDel')}")
               is not None]  # fmt: skip
    assert ["".join(tc.itertext()) for tc in deleted] == ["B1", "B2", "B3"]
    assert all(tc.find(f".//{qn('w:t')}") is None for tc in deleted)  # the text is deleted too
    # The comment's reference run is deleted with the cells it comments on.
    reference = next(tables_of(tracked)[0].iter(qn("w:commentReference")))
    assert reference.getparent().getparent().tag == qn("w:del")


def grid_widths(tbl) -> list[str]:
    return [col.get(qn("w:w")) for col in tbl.findall(f"{qn('w:tblGrid')}/{qn('w:gridCol')}")]


def test_accepting_a_tracked_column_deletion_takes_the_grid_column_too(tmp_path, tables):
    """Accepting the cell deletions of a tracked deleteTableColumn removes the cells and their grid
    column (and the width a fixed-width table loses), so the accepted table is the one direct mode
    gives; rejecting keeps the grid as it was. Likewise for a tracked insertTableColumn."""
    from deskcheck.engine.docx.review.revisions import resolve_all

    def resolved_table(path, mode, index):
        doc = DocxDocument.open(path)
        resolve_all(doc, mode)
        return list(doc.body.iter(qn("w:tbl")))[index]

    fixed = tmp_path / "fixed.docx"
    make_docx(fixed, BODY.replace('<w:tblW w:w="0" w:type="auto"/>', '<w:tblW w:w="4500" w:type="dxa"/>', 1),
              styles=STYLES)  # fmt: skip
    for source in (tables, fixed):
        ops = [{"type": "deleteTableColumn", "blockId": "0C000122"}]
        tracked, direct, _, _ = both(tmp_path, source, ops, stem=f"delete-{source.stem}")
        accepted = resolved_table(tracked, "accept", 0)
        expected = tables_of(direct)[0]
        assert grid_widths(accepted) == grid_widths(expected) == ["1500", "1500"]
        assert shape(accepted) == shape(expected)
        width = f"{qn('w:tblPr')}/{qn('w:tblW')}"
        assert accepted.find(width).attrib == expected.find(width).attrib
        rejected = resolved_table(tracked, "reject", 0)
        assert grid_widths(rejected) == ["1500"] * 3 and shape(rejected) == shape(tables_of(source)[0])
        assert rejected.find(width).attrib == tables_of(source)[0].find(width).attrib
    # An inserted column, then the column next to it deleted, in two tracked calls.
    path = tmp_path / "both.docx"
    shutil.copy(tables, path)
    applied(path, [{"type": "insertTableColumn", "blockId": "0C000111", "cellTexts": ["n1", "n2", "n3"]}],
            operation_types=ALL_TYPES)  # fmt: skip
    applied(path, [{"type": "deleteTableColumn", "blockId": "0C000111"}], operation_types=ALL_TYPES)
    assert [[c[3] for c in row] for row in shape(resolved_table(path, "accept", 0))] == [
        ["n1", "B1", "C1"], ["n2", "B2", "C2"], ["n3", "B3", "C3"]
    ]  # fmt: skip
    assert grid_widths(resolved_table(path, "accept", 0)) == ["1500"] * 3
    assert shape(resolved_table(path, "reject", 0)) == shape(tables_of(tables)[0])
    assert grid_widths(resolved_table(path, "reject", 0)) == ["1500"] * 3


def test_deleting_columns_a_merged_cell_spans_narrows_it_in_direct_mode(tables):
    ops = [{"type": "deleteTableColumn", "blockId": "0C000212"}]  # "H2" spans columns 1-2
    applied(tables, ops, mode="direct", operation_types=ALL_TYPES)
    assert block_texts(tables) == with_texts((12, 13, []), (15, 17, []), (19, 20, []), (21, 22, []))
    assert shape(tables_of(tables)[1]) == [
        [(0, 1, None, "H1"), (1, 1, None, "H3")],
        [(0, 1, None, "P"), (1, 1, None, "R")],
        [(0, 1, None, "S"), (1, 1, None, "U")],
        [(1, 1, None, "W")],  # gridBefore 1 stays; "W" lost one of its two columns
    ]
    assert len(tables_of(tables)[1].findall(f"{qn('w:tblGrid')}/{qn('w:gridCol')}")) == 2
    w = tables_of(tables)[1].findall(qn("w:tr"))[3].find(qn("w:tc"))
    assert w.find(f"{qn('w:tcPr')}/{qn('w:tcW')}").get(qn("w:w")) == "1500"


def test_deleting_the_only_column_deletes_the_table(tmp_path, tables):
    ops = [{"type": "deleteTableColumn", "blockId": "0C000511"}]
    _, direct, result, _ = both(tmp_path, tables, ops, with_texts((32, 34, [])))
    assert result["receipts"][0]["affected"][0]["tableDeleted"] is True
    assert len(tables_of(direct)) == 4


# -- mergeTableCells and splitTableCell -------------------------------------------------------------


def test_merging_a_rectangle_in_direct_mode_keeps_every_text(tmp_path, tables):
    ops = [{"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122"}]
    result = applied(tables, ops, mode="direct", operation_types=ALL_TYPES)
    assert result["receipts"][0]["affected"][0] == {
        "type": "tableCells", "story": "main", "anchorBlockId": "0C000111", "endAnchorBlockId": "0C000122",
        "effect": "merged",
    }  # fmt: skip
    assert block_texts(tables)[:7] == ["Intro", "A1", "B1", "A2", "B2", "C1", "C2"]
    rows = shape(tables_of(tables)[0])
    assert rows[0] == [(0, 2, "restart", "A1B1A2B2"), (2, 1, None, "C1")]
    assert rows[1] == [(0, 2, "continue", ""), (2, 1, None, "C2")]
    assert new_schema_errors(tables, tables) == set()


def test_merging_cells_stacked_in_one_column_is_tracked_with_cell_merge(tmp_path, tables):
    ops = [{"type": "mergeTableCells", "blockId": "0C000311", "rowCount": 3}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((26, 27, []), (28, 29, [])))
    assert result["receipts"][0]["affected"][0]["rowCount"] == 3
    cells = [row.findall(qn("w:tc"))[0] for row in tables_of(tracked)[2].findall(qn("w:tr"))]
    merges = [c.find(f"{qn('w:tcPr')}/{qn('w:cellMerge')}") for c in cells]
    assert merges[0] is None and all(m.get(qn("w:vMerge")) == "cont" for m in merges[1:])
    assert cells[0].find(f"{qn('w:tcPr')}/{qn('w:tcPrChange')}") is not None
    assert shape(tables_of(direct)[2])[2][0] == (0, 1, "continue", "")


def test_splitting_a_vertical_merge_in_both_modes(tmp_path, tables):
    ops = [{"type": "splitTableCell", "blockId": "0C000222"}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((19, 19, [""])))
    target = result["receipts"][0]["affected"][0]
    assert target["effect"] == "split" and target["type"] == "tableCell" and len(target["blockIds"]) == 1
    assert shape(tables_of(direct)[1])[2][1] == (1, 1, None, "")
    marker = (
        tables_of(tracked)[1].findall(qn("w:tr"))[2].findall(qn("w:tc"))[1].find(f"{qn('w:tcPr')}/{qn('w:cellMerge')}")
    )
    assert marker.get(qn("w:vMergeOrig")) == "cont" and marker.get(qn("w:vMerge")) is None


def test_splitting_a_horizontal_merge_in_direct_mode(tmp_path, tables):
    ops = [{"type": "splitTableCell", "blockId": "0C000212"}]
    result = applied(tables, ops, mode="direct", operation_types=ALL_TYPES)
    assert len(result["receipts"][0]["affected"][0]["blockIds"]) == 1
    assert shape(tables_of(tables)[1])[0] == [(0, 1, None, "H1"), (1, 1, None, "H2"), (2, 1, None, ""),
                                              (3, 1, None, "H3")]  # fmt: skip
    header = tables_of(tables)[1].find(qn("w:tr"))
    widths = [tc.find(f"{qn('w:tcPr')}/{qn('w:tcW')}").get(qn("w:w")) for tc in header.findall(qn("w:tc"))]
    assert widths == ["1500"] * 4


# -- insertTable and deleteTable ------------------------------------------------------------------


def test_insert_table_after_a_block_with_a_header_row(tmp_path, tables):
    ops = [{"type": "insertTable", "blockId": "0C000001", "rows": [["Term", "Meaning"], ["Buyer"]],
            "headerRow": True, "comment": "A glossary."}]  # fmt: skip
    expected = ["Intro", "Term", "Meaning", "Buyer", "", "", *ORIGINAL[1:]]
    tracked, _, result, _ = both(tmp_path, tables, ops, expected)
    target = result["receipts"][0]["affected"][0]
    assert target["content"] == "table" and len(target["blockIds"]) == 4
    tbl = tables_of(tracked)[0]
    assert tbl.find(f"{qn('w:tblPr')}/{qn('w:tblStyle')}").get(qn("w:val")) == "TableGrid"
    assert [g.get(qn("w:w")) for g in tbl.find(qn("w:tblGrid"))] == ["4680", "4680"]  # 12240 - 2 * 1440, halved
    rows = tbl.findall(qn("w:tr"))
    assert all(r.find(f"{qn('w:trPr')}/{qn('w:ins')}") is not None for r in rows)
    assert rows[0].find(f"{qn('w:trPr')}/{qn('w:tblHeader')}") is not None
    assert rows[0].find(f".//{qn('w:rPr')}/{qn('w:b')}") is not None
    # A table comes right after the anchor: an empty paragraph keeps the two tables apart.
    separator = tbl.getnext()
    assert separator.tag == qn("w:p") and separator.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None


def test_insert_table_inside_a_cell_and_at_the_end(tmp_path, tables):
    ops = [
        {"type": "insertTable", "blockId": "0C000413", "rows": [["in"]]},
        {"type": "insertTable", "blockId": "0C000009", "rows": [["end1", "end2"]], "position": "after"},
        {"type": "insertTable", "blockId": "0C000003", "rows": [["pre"]], "position": "before"},
    ]
    expected = with_texts((35, 37, ["Side", "in", "", "Last", "end1", "end2", ""]), (23, 23, ["", "pre"]))
    _, direct, _, _ = both(tmp_path, tables, ops, expected)
    nested = [b.cell for b in DocxDocument.open(direct).blocks if b.text == "in"]
    assert nested and nested[0][0] > 4  # a table inside the outer table's cell


def test_delete_table_in_both_modes(tmp_path, tables):
    ops = [{"type": "deleteTable", "blockId": "0C000233", "comment": "Whole table goes."}]
    tracked, direct, result, _ = both(tmp_path, tables, ops, with_texts((11, 23, [])))
    assert result["receipts"][0]["affected"][0] == {
        "type": "table", "story": "main", "anchorBlockId": "0C000233", "effect": "deleted"
    }  # fmt: skip
    rows = tables_of(tracked)[1].findall(qn("w:tr"))
    assert all(r.find(f"{qn('w:trPr')}/{qn('w:del')}") is not None for r in rows)
    # A nested table goes alone; its cell keeps a paragraph.
    ops = [{"type": "deleteTable", "blockId": "0C000521"}]
    _, direct, _, _ = both(tmp_path, tables, ops, with_texts((32, 34, [])), stem="nested")
    assert len(tables_of(direct)) == 4


def test_signature_table_is_direct_only(tmp_path, tables):
    ops = [{"type": "insertSignatureTable", "blockId": "0C000009", "parties": [
        {"name": "ACME Ltd", "signatory": "Jane Roe", "title": "Director"}, {"name": "Buyer GmbH"}]}]  # fmt: skip
    result = applied(tables, ops, mode="direct", operation_types=ALL_TYPES)
    assert result["receipts"][0]["affected"][0]["content"] == "signatureTable"
    line = "_" * 30
    assert block_texts(tables)[-12:] == [
        "Last", "ACME Ltd", "", "", line, "Jane Roe", "Director", "Buyer GmbH", "", "", line, "",
    ]  # fmt: skip
    assert new_schema_errors(tables, tables) == set()
    tracked = suggest(tables, ops, mode="tracked-changes", operation_types=ALL_TYPES).value
    assert tracked["skipped"][0]["code"] == "unsupportedMode"


def test_signature_table_is_not_a_default_type():
    from deskcheck.engine.docx.edit import registry

    assert "insertSignatureTable" not in registry.default_types()
    assert {"insertTable", "mergeTableCells", "splitTableCell"} <= set(registry.default_types())


# -- batches mixing table and text operations ---------------------------------------------------------


def test_a_batch_of_table_and_text_operations(tmp_path, tables):
    ops = [
        {"type": "replaceInBlock", "blockId": "0C000112", "find": "B1", "replace": "Bee"},
        {"type": "insertTableRow", "blockId": "0C000131", "cellTexts": ["r4"]},
        {"type": "insertTableRow", "blockId": "0C000131", "cellTexts": ["r5"]},
        {"type": "deleteTableRow", "blockId": "0C000121"},
        {"type": "insertTableColumn", "blockId": "0C000311", "position": "before", "cellTexts": ["c"]},
        {"type": "splitTableCell", "blockId": "0C000222"},
        {"type": "insertAfterBlock", "blockId": "0C000224", "text": "R second"},
    ]
    expected = with_texts(
        (2, 3, ["Bee"]), (4, 7, []), (10, 10, ["r4", "", "", "r5", "", ""]), (18, 18, ["R second"]),
        (19, 19, [""]), (24, 24, ["c"]), (26, 26, [""]), (28, 28, [""]),
    )  # fmt: skip
    both(tmp_path, tables, ops, expected)


def test_rows_inserted_around_deleted_rows_of_a_merge(tmp_path, tables):
    ops = [
        {"type": "deleteTableRow", "blockId": "0C000231"},
        {"type": "insertTableRow", "blockId": "0C000221", "cellTexts": ["a", "b", "c"]},
        {"type": "insertTableRow", "blockId": "0C000242", "position": "before", "cellTexts": ["d", "e", "f", "g"]},
    ]
    _, direct, _, _ = both(tmp_path, tables, ops)
    assert block_texts(direct)[14:25] == ["P", "Tall", "Q", "R", "a", "b", "c", "d", "e", "f", "g"]


# -- corpus tables ------------------------------------------------------------------------------


# Operations on corpus tables, each applied on its own.
CORPUS_CASES = {
    "pandoc/tables.docx": lambda path: [
        {"type": "insertTableRow", "blockId": block_at(path, 0, 1, 0), "cellTexts": ["LeBron", "Basketball"]},
        {"type": "deleteTableRow", "blockId": block_at(path, 0, 3, 0)},
        {"type": "deleteTableColumn", "blockId": block_at(path, 1, 0, 1)},
        {"type": "insertTableColumn", "blockId": block_at(path, 2, 0, 0), "position": "before", "cellTexts": ["x"]},
    ],
    "pandoc/table_header_rowspan.docx": lambda path: [
        {"type": "insertTableRow", "blockId": block_at(path, 0, 0, 0), "cellTexts": ["e"]},
        {"type": "deleteTableRow", "blockId": block_at(path, 0, 3, 0)},
        {"type": "splitTableCell", "blockId": block_at(path, 0, 0, 1)},
    ],
    "pandoc/table_gridbefore.docx": lambda path: [
        {"type": "insertTableColumn", "blockId": block_at(path, 0, 1, 1), "position": "before"},
    ],
    "pandoc/table_variable_width.docx": lambda path: [
        {"type": "insertTableColumn", "blockId": block_at(path, 0, 0, 2), "cellTexts": ["x", "y"]},
    ],
    "folio/upstream-with-tables.docx": lambda path: [
        {"type": "insertTableColumn", "blockId": block_at(path, 0, 0, 1), "cellTexts": ["n1", "n2", "n3"]},
        {"type": "deleteTableColumn", "blockId": block_at(path, 0, 0, 0)},
    ],
    "folio/performance-long-split-table.docx": lambda path: [
        {"type": "deleteTableRow", "blockId": block_at(path, 0, 5, 0)},
        {"type": "insertTableRow", "blockId": block_at(path, 0, 100, 1), "cellTexts": ["a", "b"]},
    ],
    "python-docx/tbl-having-tables.docx": lambda path: [
        {"type": "mergeTableCells", "blockId": block_at(path, 1, 0, 1), "rowCount": 3},
        {"type": "deleteTable", "blockId": block_at(path, 2, 0, 0)},
    ],
    "powertools-wc/WC006-Table.docx": lambda path: [
        {"type": "insertTable", "blockId": block_at(path, 0, 2, 1), "rows": [["new"]]},
        {"type": "deleteTableRow", "blockId": block_at(path, 0, 1, 0)},
    ],
}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_tables(tmp_path, name):
    source = tmp_path / Path(name).name
    shutil.copy(CORPUS / name, source)
    for number, op in enumerate(CORPUS_CASES[name](source)):
        _, _, tracked_result, direct_result = both(tmp_path, source, [op], stem=f"op{number}")
        assert len(tracked_result["applied"]) == 1 == len(direct_result["applied"])


def test_tools_read_the_result(tmp_path, tables):
    applied(tables, [{"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["x"]}])
    blocks = docx_toolset(tables).call("read_document", {}).value["blocks"]
    assert [b["text"] for b in blocks][:5] == ["Intro", "A1", "B1", "C1", "x"]


@pytest.mark.corpus
def test_a_row_operation_anchored_on_a_paragraph_another_operation_merges_away(tmp_path):
    # Direct mode removes the anchor paragraph when it joins the one before it; the row
    # operation then finds its table through the cell the paragraph was in, as tracked mode does.
    source = tmp_path / "list-cell.docx"
    shutil.copy(CORPUS / "pandoc" / "table_with_list_cell.docx", source)
    first, second = [b.id for b in DocxDocument.open(source).blocks if b.cell == (0, 1, 1)][:2]
    ops = [
        {"type": "insertTableRow", "blockId": second, "position": "before", "cellTexts": ["new"]},
        {"type": "mergeBlockWithNext", "blockId": first},
        {"type": "deleteTableColumn", "blockId": second},  # same table, another axis: skipped
    ]
    tracked = tmp_path / "tracked.docx"
    shutil.copy(source, tracked)
    value = suggest(tracked, ops, mode="tracked-changes", operation_types=ALL_TYPES).value
    assert [s["code"] for s in value["skipped"]] == ["overlappingOperation"]
    both(tmp_path, source, ops[:2])


@pytest.mark.corpus
def test_deleting_a_table_that_is_the_whole_document_leaves_one_empty_paragraph(tmp_path):
    source = tmp_path / "gridbefore.docx"
    shutil.copy(CORPUS / "pandoc" / "table_gridbefore.docx", source)
    assert DocxDocument.open(source).body[0].tag == qn("w:tbl")  # the body holds the table only
    anchor = block_at(source, 0, 1, 1)
    tracked, _, _, _ = both(tmp_path, source, [{"type": "deleteTable", "blockId": anchor}], [""])
    filler = tables_of(tracked)[0].getnext()
    assert filler.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None
