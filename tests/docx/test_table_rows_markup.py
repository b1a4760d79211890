"""``tableRevisions: "rows"``: tracked column insertions and deletions, merges and splits written
as row replacements (each changed row first as it was, marked deleted, then as it becomes, marked
inserted). On the built table document and corpus tables:

- the markup: old rows deleted before new rows inserted, only the rows from the first changed
  to the last replaced, fresh paragraph, revision, drawing and content-control ids in the copies,
  the grid's earlier columns in ``w:tblGridChange``;
- our accept-all gives the direct-mode result and our reject-all the input (texts and table
  layouts), with no new schema error;
- the structures only rows mode records in tracked mode, and what it refuses (unsupportedBlock,
  leaving the file byte-identical);
- the option from the CLI (suggest-changes, call, tools --capabilities, the review queue).

LibreOffice checks the same outputs in test_table_ops_libreoffice.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.wml.ns import qn
from deskcheck.engine.docx.wml.revisions import MAX_ID
from tests.conftest import CORPUS
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import applied, block_texts, new_schema_errors, resolved_texts, suggest
from tests.docx.test_table_ops import (
    ALL_TYPES,
    CORPUS_CASES,
    ORIGINAL,
    STYLES,
    _cell,
    _table,
    build_tables,
    document_xml,
    table_layouts,
    tables_of,
)
from tests.helpers import run_cli

ROWS = "rows"
REPLACED = ("insertTableColumn", "deleteTableColumn", "mergeTableCells", "splitTableCell")
W14_PARAID = "{http://schemas.microsoft.com/office/word/2010/wordml}paraId"
REVISION_TAGS = tuple(
    qn("w:" + name)
    for name in ("ins", "del", "rPrChange", "pPrChange", "tblPrChange", "trPrChange", "tcPrChange", "tblGridChange")
)

# Batches on the built document (the four types, and what tracked mode records only with rows).
BATCHES = {
    "insertTableColumn": [
        {"type": "insertTableColumn", "blockId": "0C000222", "cellTexts": ["a", "b", "c"]},
        {"type": "insertTableColumn", "blockId": "0C000221", "position": "before", "cellTexts": ["x"]},
        {"type": "insertTableColumn", "blockId": "0C000113", "cellTexts": ["e1", "e2", "e3"], "comment": "More."},
    ],
    "deleteTableColumn": [
        {"type": "deleteTableColumn", "blockId": "0C000312", "comment": "Xs go."},
        {"type": "deleteTableColumn", "blockId": "0C000111"},
        {"type": "deleteTableColumn", "blockId": "0C000511"},
    ],
    "mergeTableCells": [{"type": "mergeTableCells", "blockId": "0C000311", "rowCount": 3, "comment": "One."}],
    "mergeTableCells two rows": [{"type": "mergeTableCells", "blockId": "0C000121", "rowCount": 2}],
    "splitTableCell": [{"type": "splitTableCell", "blockId": "0C000222"}],
    "mixed with text": [
        {"type": "replaceInBlock", "blockId": "0C000112", "find": "B1", "replace": "Bee"},
        {"type": "insertTableColumn", "blockId": "0C000111", "cellTexts": ["n1", "n2", "n3"]},
        {"type": "deleteBlock", "blockId": "0C000001"},
    ],
}  # fmt: skip
ROWS_ONLY = {
    "mergeTableCells rectangle": [{"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122"}],
    "mergeTableCells with text below": [{"type": "mergeTableCells", "blockId": "0C000112", "rowCount": 3}],
    "splitTableCell across": [{"type": "splitTableCell", "blockId": "0C000212"}],
    "deleteTableColumn across a merge": [{"type": "deleteTableColumn", "blockId": "0C000212"}],
}


@pytest.fixture
def tables(tmp_path):
    return build_tables(tmp_path / "tables.docx")


def rows_and_direct(tmp_path: Path, source: Path, ops: list[dict], stem: str = "out") -> tuple[Path, Path, dict]:
    """``ops`` in tracked mode with row replacements and in direct mode; checks accept == direct,
    reject == input (texts and table layouts) and no new schema error. Returns (tracked, direct,
    the tracked result)."""
    tracked, direct = tmp_path / f"{stem}-rows.docx", tmp_path / f"{stem}-direct.docx"
    shutil.copy(source, tracked)
    shutil.copy(source, direct)
    result = applied(tracked, ops, mode="tracked-changes", table_revisions=ROWS, operation_types=ALL_TYPES)
    applied(direct, ops, mode="direct", operation_types=ALL_TYPES)
    assert resolved_texts(tracked, "accept") == resolved_texts(direct, "accept")
    assert resolved_texts(tracked, "reject") == resolved_texts(source, "reject")
    assert table_layouts(tracked, "accept") == table_layouts(direct, "accept")
    assert table_layouts(tracked, "reject") == table_layouts(source, "reject")
    assert new_schema_errors(source, tracked) == set()
    return tracked, direct, result


def rows_of(tbl) -> list:
    return tbl.findall(qn("w:tr"))


def row_marks(tbl) -> list[str | None]:
    """Each row's revision mark: "ins", "del" or None."""
    out = []
    for tr in rows_of(tbl):
        trpr = tr.find(qn("w:trPr"))
        marks = [tag for tag in ("ins", "del") if trpr is not None and trpr.find(qn("w:" + tag)) is not None]
        out.append(marks[0] if marks else None)
    return out


def row_text(tr) -> str:
    return "".join(t.text or "" for t in tr.iter(qn("w:t"), qn("w:delText")))


def para_ids(element) -> list[str]:
    return [e.get(W14_PARAID) for e in element.iter() if isinstance(e.tag, str) and e.get(W14_PARAID)]


def revision_ids(root) -> list[int]:
    return [int(e.get(qn("w:id"))) for e in root.iter(*REVISION_TAGS)]


# -- markup -------------------------------------------------------------------------------------


def test_a_column_insertion_writes_every_row_as_it_was_then_as_it_becomes(tmp_path, tables):
    tracked, _, _ = rows_and_direct(tmp_path, tables, [{"type": "insertTableColumn", "blockId": "0C000112",
                                                         "cellTexts": ["n1", "n2", "n3"]}])  # fmt: skip
    tbl = tables_of(tracked)[0]
    assert row_marks(tbl) == ["del"] * 3 + ["ins"] * 3
    assert [row_text(tr) for tr in rows_of(tbl)] == ["A1B1C1", "A2B2C2", "A3B3C3", "A1B1n1C1", "A2B2n2C2", "A3B3n3C3"]
    assert [len(tr.findall(qn("w:tc"))) for tr in rows_of(tbl)] == [3, 3, 3, 4, 4, 4]
    old, new = rows_of(tbl)[:3], rows_of(tbl)[3:]
    # The new rows keep the block ids read_document gave; the copies get fresh ones.
    assert {"0C000111", "0C000112", "0C000133"} <= set(para_ids(new[0]) + para_ids(new[2]))
    assert not set(p for tr in old for p in para_ids(tr)) & set(ORIGINAL_IDS)
    everything = para_ids(document_xml(tracked))
    assert len(everything) == len(set(everything))
    # Old rows: text and paragraph marks deleted; new rows: inserted.
    for tr in old:
        assert tr.find(f".//{qn('w:t')}") is None
        assert all(p.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:del')}") is not None for p in tr.iter(qn("w:p")))
    for tr in new:
        assert all(r.getparent().tag == qn("w:ins") for r in tr.iter(qn("w:r")))
        assert all(p.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None for p in tr.iter(qn("w:p")))
    # The grid is the new one, the earlier one kept for rejecting.
    grid = tbl.find(qn("w:tblGrid"))
    assert len(grid.findall(qn("w:gridCol"))) == 4
    change = grid.find(qn("w:tblGridChange"))
    assert len(change.find(qn("w:tblGrid")).findall(qn("w:gridCol"))) == 3
    # No cell revisions: the change is recorded in rows only.
    assert not list(tbl.iter(qn("w:cellIns"), qn("w:cellDel"), qn("w:cellMerge")))
    # Under the new grid the old rows' cells go by grid columns: their widths are kept for
    # rejecting only (LibreOffice misplaces merged cells of rows that do not fit the grid).
    for tr in old:
        for tcpr in tr.iter(qn("w:tcPr")):
            if tcpr.getparent().tag == qn("w:tc"):
                assert tcpr.find(qn("w:tcW")) is None
                assert tcpr.find(f"{qn('w:tcPrChange')}/{qn('w:tcPr')}/{qn('w:tcW')}").get(qn("w:w")) == "1500"
    assert all(tcpr.find(qn("w:tcW")) is not None for tr in new for tcpr in tr.iter(qn("w:tcPr")))


ORIGINAL_IDS = [f"0C0001{row}{col}" for row in (1, 2, 3) for col in (1, 2, 3)]


def test_only_the_rows_from_the_first_change_to_the_last_are_replaced(tmp_path, tables):
    tracked, _, _ = rows_and_direct(tmp_path, tables, BATCHES["mergeTableCells two rows"])
    tbl = tables_of(tracked)[0]
    assert row_marks(tbl) == [None, "del", "del", "ins", "ins"]
    assert row_text(rows_of(tbl)[0]) == "A1B1C1"
    assert tbl.find(f"{qn('w:tblGrid')}/{qn('w:tblGridChange')}") is None  # the grid did not change
    assert tbl.find(f"{qn('w:tblPr')}/{qn('w:tblPrChange')}") is None
    # The other tables are untouched.
    assert all(mark is None for other in tables_of(tracked)[1:] for mark in row_marks(other))


def test_the_call_s_own_text_changes_in_replaced_rows_go_into_the_inserted_rows(tmp_path, tables):
    ops = [
        {"type": "replaceInBlock", "blockId": "0C000122", "find": "B2", "replace": "Bee", "comment": "Why."},
        {"type": "mergeTableCells", "blockId": "0C000112", "rowCount": 3},
    ]
    tracked, _, _ = rows_and_direct(tmp_path, tables, ops)
    tbl = tables_of(tracked)[0]
    assert row_marks(tbl) == ["del"] * 3 + ["ins"] * 3
    old, new = rows_of(tbl)[:3], rows_of(tbl)[3:]
    assert row_text(old[1]) == "A2B2C2"  # as the call found it
    assert "Bee" in row_text(new[0]) and "B2" not in row_text(new[0])
    assert not [d for tr in new for d in tr.iter(qn("w:del")) if d.getparent().tag != qn("w:rPr")]
    # The comment stays, as a point comment (its range would keep the row in LibreOffice).
    root = document_xml(tracked)
    assert not list(root.iter(qn("w:commentRangeStart"))) and len(list(root.iter(qn("w:commentReference")))) == 1
    comments = docx_toolset(tracked).call("read_comments", {}).value["comments"]
    assert [(c["text"], c["blockId"] is not None) for c in comments] == [("Why.", True)]


@pytest.mark.parametrize(
    "outer",
    [
        {"type": "deleteTableRow", "blockId": "0C000413"},
        {"type": "deleteTable", "blockId": "0C000411"},
    ],
)
@pytest.mark.parametrize(
    "inner",
    [
        {"type": "insertTableColumn", "blockId": "0C000511"},
        {"type": "mergeTableCells", "blockId": "0C000511", "rowCount": 2},
    ],
)
def test_replacing_rows_of_a_nested_table_the_call_also_deletes_keeps_it(tmp_path, tables, outer, inner):
    """The nested table's new rows carry the outer deletion's own row marks: they are inserted
    and deleted, not taken out with it (rejecting gave the outer row without its nested table)."""
    tracked, _, result = rows_and_direct(tmp_path, tables, [outer, inner])
    assert len(result["applied"]) == 2
    texts = (qn("w:t"), qn("w:delText"))
    tables = [tbl for tbl in document_xml(tracked).iter(qn("w:tbl")) if any(t.text == "In1" for t in tbl.iter(*texts))]
    nested = tables[-1]  # the innermost table holding "In1": its old and new rows, all marked
    assert len(rows_of(nested)) == 4 and None not in row_marks(nested)


def test_revision_ids_stay_unique_when_rows_holding_pending_changes_are_copied(tmp_path):
    pending = (
        '<w:ins w:id="901" w:author="Other" w:date="2025-01-01T00:00:00Z"><w:r><w:t>new</w:t></w:r></w:ins>'
        '<w:del w:id="902" w:author="Other" w:date="2025-01-01T00:00:00Z"><w:r><w:delText>old</w:delText></w:r>'
        '</w:del><w:r><w:t xml:space="preserve"> kept</w:t></w:r>'
    )
    body = _table(2, (
        "<w:tr>" + _cell("A1", "0D000011") + '<w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr>'
        + p(runs=pending, para_id="0D000012") + "</w:tc></w:tr>"
        + "<w:tr>" + _cell("A2", "0D000021") + _cell("B2", "0D000022") + "</w:tr>"
    )) + p("After", para_id="0D000099")  # fmt: skip
    source = make_docx(tmp_path / "pending.docx", body, styles=STYLES)
    ops = [
        {"type": "insertTableColumn", "blockId": "0D000011", "cellTexts": ["x", "y"]},
        {"type": "replaceInBlock", "blockId": "0D000021", "find": "A2", "replace": "Ay"},
    ]
    tracked, _, _ = rows_and_direct(tmp_path, source, ops)
    root = document_xml(tracked)
    ids = revision_ids(root)
    assert len(ids) == len(set(ids))
    assert all(0 < value <= MAX_ID for value in ids)
    # Someone else's changes appear in both copies of the row, under different ids.
    authored = [e.get(qn("w:id")) for e in root.iter(qn("w:ins"), qn("w:del")) if e.get(qn("w:author")) == "Other"]
    assert len(authored) == 4 and {"901", "902"} <= set(authored)
    assert resolved_texts(tracked, "accept")[:3] == ["A1", "x", "new kept"]


def test_copies_get_fresh_drawing_and_content_control_ids(tmp_path):
    wp = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    drawing = (
        f'<w:r><w:drawing><wp:inline xmlns:wp="{wp}"><wp:extent cx="9525" cy="9525"/>'
        '<wp:docPr id="5" name="Picture 5"/>'
        f'<a:graphic xmlns:a="{a}"><a:graphicData uri="urn:none"/></a:graphic></wp:inline></w:drawing></w:r>'
    )
    control = (
        '<w:sdt><w:sdtPr><w:id w:val="77"/></w:sdtPr><w:sdtContent><w:r><w:t>Field</w:t></w:r></w:sdtContent></w:sdt>'
    )
    body = _table(2, (
        "<w:tr>" + '<w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr>' + p(runs=drawing, para_id="0E000011")
        + "</w:tc>" + '<w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr>' + p(runs=control, para_id="0E000012")
        + "</w:tc></w:tr>"
    )) + p("After", para_id="0E000099")  # fmt: skip
    source = make_docx(tmp_path / "objects.docx", body, styles=STYLES)
    tracked, _, _ = rows_and_direct(tmp_path, source, [{"type": "insertTableColumn", "blockId": "0E000012"}])
    root = document_xml(tracked)
    drawings = [e.get("id") for e in root.iter(f"{{{wp}}}docPr")]
    controls = [e.find(qn("w:id")).get(qn("w:val")) for e in root.iter(qn("w:sdtPr"))]
    assert len(drawings) == 2 and len(set(drawings)) == 2 and "5" in drawings
    assert len(controls) == 2 and len(set(controls)) == 2 and "77" in controls


# -- accept = direct, reject = input ------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(BATCHES))
def test_built_batches_accept_to_direct_and_reject_to_the_input(tmp_path, tables, label):
    tracked, _, result = rows_and_direct(tmp_path, tables, BATCHES[label])
    assert len(result["applied"]) == len(BATCHES[label])
    assert not list(document_xml(tracked).iter(qn("w:cellIns"), qn("w:cellDel"), qn("w:cellMerge")))


# The corpus cases (CORPUS_CASES: name, operation index) of the four types.
CORPUS_ROWS = [
    ("folio/upstream-with-tables.docx", 0),
    ("folio/upstream-with-tables.docx", 1),
    ("pandoc/table_gridbefore.docx", 0),
    ("pandoc/table_header_rowspan.docx", 2),
    ("pandoc/table_variable_width.docx", 0),
    ("pandoc/tables.docx", 2),
    ("pandoc/tables.docx", 3),
    ("python-docx/tbl-having-tables.docx", 0),
]


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "number"), CORPUS_ROWS)
def test_corpus_tables(tmp_path, name, number):
    source = tmp_path / Path(name).name
    shutil.copy(CORPUS / name, source)
    op = CORPUS_CASES[name](source)[number]
    assert op["type"] in REPLACED
    tracked, _, _ = rows_and_direct(tmp_path, source, [op])
    marks = [mark for tbl in tables_of(tracked) for mark in row_marks(tbl)]
    assert "del" in marks and "ins" in marks


@pytest.mark.corpus
def test_every_corpus_case_of_the_four_types_is_covered():
    found = [
        (name, number)
        for name, make in sorted(CORPUS_CASES.items())
        for number, op in enumerate(make(CORPUS / name))
        if op["type"] in REPLACED
    ]
    assert found == CORPUS_ROWS


# -- what only rows mode records ------------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(ROWS_ONLY))
def test_structures_cells_mode_refuses_are_recorded_as_rows(tmp_path, tables, label):
    ops = ROWS_ONLY[label]
    cells = tmp_path / "cells.docx"
    shutil.copy(tables, cells)
    refused = suggest(cells, ops, mode="tracked-changes", operation_types=ALL_TYPES).value
    assert [s["code"] for s in refused["skipped"]] == ["unsupportedBlock"]
    assert cells.read_bytes() == tables.read_bytes()
    rows_and_direct(tmp_path, tables, ops)


def test_a_merge_moves_text_from_the_cells_below(tmp_path, tables):
    _, direct, _ = rows_and_direct(tmp_path, tables, ROWS_ONLY["mergeTableCells with text below"])
    assert block_texts(direct)[1:7] == ["A1", "B1", "B2", "B3", "C1", "A2"]


def test_deleting_every_column_deletes_the_table_as_it_was(tmp_path, tables):
    # The inner table of the nested one has one column.
    tracked, _, result = rows_and_direct(tmp_path, tables, [{"type": "deleteTableColumn", "blockId": "0C000511"}])
    assert result["receipts"][0]["affected"][0]["tableDeleted"] is True
    inner = tables_of(tracked)[-1]
    assert row_marks(inner) == ["del", "del"]
    assert [row_text(tr) for tr in rows_of(inner)] == ["In1", "In2"]


def test_deleting_every_column_in_several_operations(tmp_path, tables):
    ops = [
        {"type": "deleteTableColumn", "blockId": "0C000311", "comment": "First."},
        {"type": "deleteTableColumn", "blockId": "0C000312", "comment": "Second."},
    ]
    tracked, direct, _ = rows_and_direct(tmp_path, tables, ops)
    assert len(tables_of(direct)) == len(tables_of(tables)) - 1
    emptied = tables_of(tracked)[2]
    assert row_marks(emptied) == ["del"] * 3
    assert [row_text(tr) for tr in rows_of(emptied)] == ["TopX1", "X2", "X3"]  # as it was, both columns
    # Both comments keep an anchor, the one written before the table went as a whole included.
    comments = docx_toolset(tracked).call("read_comments", {}).value["comments"]
    assert sorted((c["text"], c["blockId"] is not None) for c in comments) == [("First.", True), ("Second.", True)]


# -- what rows mode refuses -----------------------------------------------------------------------


def _skip(path: Path, ops: list[dict]) -> dict:
    before = path.read_bytes()
    value = suggest(path, ops, mode="tracked-changes", table_revisions=ROWS, operation_types=ALL_TYPES).value
    assert value["applied"] == [] and len(value["skipped"]) == 1, value
    assert path.read_bytes() == before  # nothing applied, nothing written
    return value["skipped"][0]


def test_a_comment_in_a_rewritten_row_is_not_duplicated(tmp_path, tables):
    assert docx_toolset(tables).call("add_comment", {"blockId": "0C000122", "text": "Check."}).ok
    skip = _skip(tables, [{"type": "insertTableColumn", "blockId": "0C000111"}])
    assert skip["code"] == "unsupportedBlock"
    assert "comment" in skip["reason"] and 'tableRevisions "cells"' in skip["reason"]
    # Cell revisions record it.
    applied(tables, [{"type": "insertTableColumn", "blockId": "0C000111"}], operation_types=ALL_TYPES)


def test_a_comment_only_in_a_deleted_column_is_not_in_the_way(tmp_path, tables):
    assert docx_toolset(tables).call("add_comment", {"blockId": "0C000122", "text": "Check."}).ok
    tracked, _, _ = rows_and_direct(tmp_path, tables, [{"type": "deleteTableColumn", "blockId": "0C000112"}])
    starts = [e.get(qn("w:id")) for e in document_xml(tracked).iter(qn("w:commentRangeStart"))]
    assert len(starts) == 1  # in the old row only


def test_a_bookmark_is_not_duplicated_but_word_s_edit_marker_is_dropped_from_the_copy(tmp_path):
    def marked(name: str, number: int, para_id: str) -> str:
        runs = (f'<w:bookmarkStart w:id="{number}" w:name="{name}"/><w:r><w:t>{name}</w:t></w:r>'
                f'<w:bookmarkEnd w:id="{number}"/>')  # fmt: skip
        return '<w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr>' + p(runs=runs, para_id=para_id) + "</w:tc>"

    body = (
        _table(2, "<w:tr>" + marked("Clause", 1, "0F000011") + _cell("b", "0F000012") + "</w:tr>")
        + p("Between", para_id="0F000001")
        + _table(2, "<w:tr>" + marked("_GoBack", 2, "0F000021") + _cell("d", "0F000022") + "</w:tr>")
    )
    source = make_docx(tmp_path / "bookmarks.docx", body, styles=STYLES)
    skip = _skip(source, [{"type": "insertTableColumn", "blockId": "0F000012"}])
    assert "bookmark 'Clause'" in skip["reason"]
    tracked, _, _ = rows_and_direct(tmp_path, source, [{"type": "insertTableColumn", "blockId": "0F000022"}])
    names = [e.get(qn("w:name")) for e in document_xml(tracked).iter(qn("w:bookmarkStart"))]
    assert names == ["Clause", "_GoBack"]
    assert len(list(document_xml(tracked).iter(qn("w:bookmarkEnd")))) == 2


def test_a_row_with_a_pending_row_revision_is_refused(tmp_path, tables):
    applied(tables, [{"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["new"]}],
            operation_types=ALL_TYPES)  # fmt: skip
    skip = _skip(tables, [{"type": "insertTableColumn", "blockId": "0C000111"}])
    assert "pending tracked row or cell change" in skip["reason"]


def test_a_table_and_a_table_nested_in_it_are_not_both_replaced_in_one_call(tmp_path, tables):
    ops = [
        {"type": "insertTableColumn", "blockId": "0C000413"},
        {"type": "insertTableColumn", "blockId": "0C000511"},
    ]
    value = suggest(tables, ops, mode="tracked-changes", table_revisions=ROWS, operation_types=ALL_TYPES).value
    assert [s["code"] for s in value["skipped"]] == ["unsupportedBlock"]
    assert "nested" in value["skipped"][0]["reason"]
    assert len(value["applied"]) == 1


def test_cells_mode_is_the_default_and_unchanged(tmp_path, tables):
    default, explicit = tmp_path / "default.docx", tmp_path / "explicit.docx"
    shutil.copy(tables, default)
    shutil.copy(tables, explicit)
    ops = [{"type": "insertTableColumn", "blockId": "0C000112"}]
    applied(default, ops, operation_types=ALL_TYPES)
    applied(explicit, ops, operation_types=ALL_TYPES, table_revisions="cells")
    assert list(document_xml(default).iter(qn("w:cellIns")))
    assert row_marks(tables_of(default)[0]) == [None] * 3
    assert block_texts(default) == block_texts(explicit)


def test_read_tools_see_the_new_rows_under_their_old_ids(tmp_path, tables):
    applied(tables, [{"type": "mergeTableCells", "blockId": "0C000121", "rowCount": 2}],
            mode="tracked-changes", table_revisions=ROWS, operation_types=ALL_TYPES)  # fmt: skip
    tools = docx_toolset(tables)
    blocks = {b["blockId"]: b["text"] for b in tools.call("read_document", {}).value["blocks"]}
    assert (blocks["0C000121"], blocks["0C000131"]) == ("A2", "A3")  # A3 moved into the merged cell
    kinds = {change["type"] for change in tools.call("read_changes", {}).value["changes"]}
    assert {"rowInserted", "rowDeleted"} <= kinds


# -- the option from the CLI ----------------------------------------------------------------------


def _ops_json(ops: list[dict]) -> str:
    return json.dumps({"operations": ops})


COLUMN = [{"type": "insertTableColumn", "blockId": "0C000112", "cellTexts": ["n"]}]
TYPES = ",".join(ALL_TYPES)


def test_the_cli_flag(tables):
    run_cli("docx", "suggest-changes", str(tables), _ops_json(COLUMN), "--table-revisions", "rows",
            "--operation-types", TYPES)  # fmt: skip
    assert row_marks(tables_of(tables)[0]) == ["del"] * 3 + ["ins"] * 3


def test_the_cli_flag_on_call(tables):
    run_cli("call", "--docx", str(tables), "--table-revisions", "rows", "--operation-types", TYPES,
            "suggest_changes", _ops_json(COLUMN))  # fmt: skip
    assert row_marks(tables_of(tables)[0]) == ["del"] * 3 + ["ins"] * 3


def test_a_bad_value_is_a_usage_error_and_writes_nothing(tables):
    before = tables.read_bytes()
    run = run_cli("docx", "suggest-changes", str(tables), _ops_json(COLUMN), "--table-revisions", "diagonal",
                  expect=2)  # fmt: skip
    assert "--table-revisions" in run.stderr + run.stdout
    assert tables.read_bytes() == before


def test_capabilities_say_what_each_choice_writes():
    rows = run_cli("docx", "tools", "--capabilities", "--table-revisions", "rows").stdout
    cells = run_cli("docx", "tools", "--capabilities").stdout
    assert "recorded row by row" in rows and "LibreOffice" in rows
    assert "cell revisions" in cells and "recorded row by row" not in cells
    direct = run_cli("docx", "tools", "--capabilities", "--mode", "direct", "--table-revisions", "rows").stdout
    assert "recorded row by row" not in direct and "cell revisions" not in direct


def test_a_queued_batch_applies_with_the_option_it_was_queued_with(tmp_path, tables):
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "suggest-changes", str(tables), _ops_json(COLUMN), "--queue", str(queue),
            "--table-revisions", "rows", "--operation-types", TYPES)  # fmt: skip
    listed = run_cli("docx", "queue", "list", str(queue)).json["result"]["batches"][0]
    assert listed["tableRevisions"] == "rows"
    run_cli("docx", "queue", "apply", str(queue), str(tables))
    assert row_marks(tables_of(tables)[0]) == ["del"] * 3 + ["ins"] * 3
    assert resolved_texts(tables, "reject") == ORIGINAL


def test_the_repl_passes_the_option_on(tables):
    script = f"call suggest_changes {_ops_json(COLUMN)}\nsave\n"
    run_cli("repl", "--docx", str(tables), "--table-revisions", "rows", "--operation-types", TYPES, stdin=script)
    assert row_marks(tables_of(tables)[0]) == ["del"] * 3 + ["ins"] * 3


def test_a_bad_value_from_python_is_refused_and_writes_nothing(tables):
    before = tables.read_bytes()
    result = suggest(tables, COLUMN, table_revisions="diagonal", operation_types=ALL_TYPES)
    assert not result.ok and "tableRevisions must be one of cells, rows" in result.error
    assert tables.read_bytes() == before
