"""Every skip code the table operations produce, each with a reason the caller can act on; a
skipped operation changes nothing, the others of the call still apply, and a call that fails or
applies nothing leaves the file byte-identical."""

from __future__ import annotations

import shutil

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from tests.conftest import CORPUS
from tests.docx.edit_helpers import block_texts, suggest
from tests.docx.test_table_ops import ALL_TYPES, ORIGINAL, block_at, build_tables

GOOD = {"type": "insertAfterBlock", "blockId": "0C000001", "text": "Extra."}


@pytest.fixture
def tables(tmp_path):
    return build_tables(tmp_path / "tables.docx")


def call(path, ops, mode="tracked-changes"):
    result = suggest(path, ops, mode=mode, operation_types=ALL_TYPES)
    assert result.ok, result.error
    return result.value


def skipped_one(path, op: dict, mode: str = "tracked-changes") -> dict:
    """Send ``op`` with a good operation after it: ``op`` is skipped, the good one applies."""
    value = call(path, [op, GOOD], mode)
    assert len(value["applied"]) == 1 and len(value["skipped"]) == 1, value
    assert block_texts(path)[1] == "Extra."
    return value["skipped"][0]


MERGE_WIDE = {"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122"}

CASES = [
    # An anchor outside every table, for every type that needs a table.
    *[
        ("unsupportedBlock", "tracked-changes", {"type": kind, "blockId": "0C000002", **extra}, "not in a table")
        for kind, extra in (
            ("deleteTable", {}), ("insertTableRow", {}), ("deleteTableRow", {}), ("insertTableColumn", {}),
            ("deleteTableColumn", {}), ("mergeTableCells", {"rowCount": 2}), ("splitTableCell", {}),
        )
    ],
    ("unsupportedBlock", "tracked-changes", MERGE_WIDE, "one above the other"),
    ("unsupportedBlock", "tracked-changes", {"type": "mergeTableCells", "blockId": "0C000111", "rowCount": 2},
     "must be empty"),
    ("unsupportedBlock", "tracked-changes", {"type": "mergeTableCells", "blockId": "0C000222", "rowCount": 3},
     "already merged"),
    ("unsupportedBlock", "direct", {"type": "mergeTableCells", "blockId": "0C000212", "endBlockId": "0C000223"},
     "cut through a merged cell"),
    ("unsupportedBlock", "direct", {"type": "mergeTableCells", "blockId": "0C000221", "endBlockId": "0C000242"},
     "no cell at some of the grid columns"),
    ("unsupportedBlock", "direct", {"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000221"},
     "not in the same table"),
    ("unsupportedBlock", "direct", {"type": "mergeTableCells", "blockId": "0C000121", "rowCount": 5},
     "reaches past the table"),
    ("unsupportedBlock", "tracked-changes", {"type": "splitTableCell", "blockId": "0C000212"},
     "spans several columns"),
    ("unsupportedBlock", "tracked-changes", {"type": "deleteTableRow", "blockId": "0C000224"},
     "split the merged cell first"),
    ("unsupportedBlock", "tracked-changes", {"type": "deleteTableColumn", "blockId": "0C000223"},
     "reaches into the column"),
    ("unsupportedBlock", "tracked-changes", {"type": "deleteTableColumn", "blockId": "0C000221"},
     "empty grid space"),
    ("unsupportedMode", "tracked-changes", {"type": "insertSignatureTable", "blockId": "0C000001",
                                           "parties": [{"name": "ACME"}]}, "direct"),
    ("payloadDoesNotFit", "tracked-changes", {"type": "insertTableRow", "blockId": "0C000221",
                                             "cellTexts": ["a", "b", "c", "d"]}, "not fit: 'd'"),
    ("payloadDoesNotFit", "direct", {"type": "insertTableRow", "blockId": "0C000111",
                                    "cellTexts": ["a", "b", "c", "fourth", "fifth"]}, "'fourth', 'fifth'"),
    ("payloadDoesNotFit", "tracked-changes", {"type": "insertTableColumn", "blockId": "0C000222",
                                             "cellTexts": ["a", "b", "c", "d"]}, "grows instead"),
    ("noopOperation", "direct", {"type": "mergeTableCells", "blockId": "0C000222", "rowCount": 2},
     "already a single cell"),
    ("noopOperation", "direct", {"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000111"},
     "already a single cell"),
    ("noopOperation", "tracked-changes", {"type": "splitTableCell", "blockId": "0C000111"}, "not merged"),
    ("missingBlock", "direct", {"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0DEADBEE"},
     "0DEADBEE"),
    ("missingBlock", "direct", {"type": "deleteTableRow", "blockId": "0DEADBEE"}, "re-read"),
    ("preconditionFailed", "direct", {"type": "deleteTable", "blockId": "0C000111",
                                     "precondition": {"blockTextHash": "h1"}}, "blockTextHash"),
    ("invalidResult", "direct", {"type": "insertTable", "blockId": "0C000002", "rows": [["ok", "bad\x07"]]},
     "rows[0][1]"),
    ("invalidResult", "direct", {"type": "insertSignatureTable", "blockId": "0C000002",
                                "parties": [{"name": "A\x01"}]}, "parties[0].name"),
    ("invalidResult", "direct", {"type": "insertTableColumn", "blockId": "0C000111", "cellTexts": ["\x02"]},
     "cellTexts[0]"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "mode", "op", "hint"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_skip_codes(tables, code, mode, op, hint):
    skip = skipped_one(tables, op, mode)
    assert skip["code"] == code, skip
    assert hint in skip["reason"], skip["reason"]
    assert block_texts(tables) == [ORIGINAL[0], "Extra.", *ORIGINAL[1:]]


@pytest.mark.corpus
def test_a_merge_that_does_not_fit_a_corpus_table(tmp_path):
    # The header of this table merges cells vertically around a cell spanning three columns.
    source = tmp_path / "rowspan.docx"
    shutil.copy(CORPUS / "pandoc" / "table_header_rowspan.docx", source)
    before = source.read_bytes()
    op = {"type": "insertTableRow", "blockId": block_at(source, 0, 0, 0), "cellTexts": ["g", "h", "i"]}
    value = call(source, [op])
    assert value["skipped"][0]["code"] == "payloadDoesNotFit"
    assert "1 cells to fill (a vertically merged cell" in value["skipped"][0]["reason"]
    assert "'h', 'i'" in value["skipped"][0]["reason"]
    assert source.read_bytes() == before


# -- operations of one call on the same table ----------------------------------------------------


def codes(value) -> list[str]:
    return [s["code"] for s in value["skipped"]]


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ({"type": "deleteTableRow", "blockId": "0C000121"}, {"type": "deleteTableRow", "blockId": "0C000123"},
         "noopOperation"),
        ({"type": "deleteTableColumn", "blockId": "0C000112"}, {"type": "deleteTableColumn", "blockId": "0C000132"},
         "noopOperation"),
        ({"type": "deleteTable", "blockId": "0C000112"}, {"type": "deleteTable", "blockId": "0C000133"},
         "noopOperation"),
        ({"type": "splitTableCell", "blockId": "0C000222"}, {"type": "splitTableCell", "blockId": "0C000222"},
         "noopOperation"),
        ({"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122"},
         {"type": "mergeTableCells", "blockId": "0C000122", "endBlockId": "0C000111"}, "noopOperation"),
        ({"type": "deleteTableRow", "blockId": "0C000121"}, {"type": "insertTableColumn", "blockId": "0C000111"},
         "overlappingOperation"),
        ({"type": "insertTableColumn", "blockId": "0C000111"}, {"type": "mergeTableCells", "blockId": "0C000111",
                                                                 "rowCount": 2}, "overlappingOperation"),
        ({"type": "deleteTable", "blockId": "0C000111"}, {"type": "insertTableRow", "blockId": "0C000131"},
         "overlappingOperation"),
        ({"type": "deleteTableRow", "blockId": "0C000121"}, {"type": "insertTableRow", "blockId": "0C000122"},
         "overlappingOperation"),
        ({"type": "deleteTableColumn", "blockId": "0C000112"}, {"type": "insertTableColumn", "blockId": "0C000111"},
         "overlappingOperation"),
        ({"type": "deleteTableColumn", "blockId": "0C000212"}, {"type": "deleteTableColumn", "blockId": "0C000223"},
         "overlappingOperation"),
        ({"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122"},
         {"type": "mergeTableCells", "blockId": "0C000122", "endBlockId": "0C000133"}, "overlappingOperation"),
        ({"type": "replaceInBlock", "blockId": "0C000122", "find": "B2", "replace": "b"},
         {"type": "deleteTableRow", "blockId": "0C000121"}, "overlappingOperation"),
        ({"type": "deleteTableColumn", "blockId": "0C000112"},
         {"type": "insertAfterBlock", "blockId": "0C000122", "text": "x"}, "overlappingOperation"),
        ({"type": "deleteTable", "blockId": "0C000111"},
         {"type": "insertTable", "blockId": "0C000133", "rows": [["x"]]}, "overlappingOperation"),
    ],
)  # fmt: skip
def test_operations_on_one_table(tables, first, second, code):
    value = call(tables, [dict(first, id="first"), dict(second, id="second")], "direct")
    assert value["applied"] == [{"id": "first"}]
    assert codes(value) == [code]
    if code == "overlappingOperation":
        assert "operation first of this call" in value["skipped"][0]["reason"]


def test_row_operations_share_a_table_and_so_do_column_operations(tables):
    rows = [
        {"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["x"]},
        {"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["y"]},
        {"type": "deleteTableRow", "blockId": "0C000131"},
        {"type": "insertTableColumn", "blockId": "0C000222", "cellTexts": ["c"]},
        {"type": "insertTableColumn", "blockId": "0C000224", "cellTexts": ["d"]},
        {"type": "deleteTableColumn", "blockId": "0C000211"},
        {"type": "mergeTableCells", "blockId": "0C000311", "rowCount": 2},
        {"type": "splitTableCell", "blockId": "0C000411"},  # not merged: noop, the rest applies
    ]
    value = call(tables, rows, "direct")
    assert codes(value) == ["noopOperation"] and len(value["applied"]) == 7
    texts = block_texts(tables)
    assert texts[1:8] == ["A1", "B1", "C1", "x", "", "", "y"]
    assert "A3" not in texts and "H1" not in texts


def test_a_pending_row_deletion_is_not_deleted_twice(tables):
    call(tables, [{"type": "deleteTableRow", "blockId": "0C000121"}])
    again = call(tables, [{"type": "deleteTableRow", "blockId": "0C000121"}])
    assert codes(again) == ["noopOperation"] and "already pending deletion" in again["skipped"][0]["reason"]
    again = call(tables, [{"type": "deleteTable", "blockId": "0C000111"}])
    assert again["applied"]  # the other rows are not deleted yet
    again = call(tables, [{"type": "deleteTable", "blockId": "0C000111"}])
    assert codes(again) == ["noopOperation"]
    column = call(tables, [{"type": "deleteTableColumn", "blockId": "0C000311"}])
    assert column["applied"]
    again = call(tables, [{"type": "deleteTableColumn", "blockId": "0C000311"}])
    assert codes(again) == ["noopOperation"]


# -- calls that change nothing ----------------------------------------------------------------------


def test_a_call_that_applies_nothing_leaves_the_file_alone(tables):
    before = tables.read_bytes()
    value = call(tables, [{"type": "splitTableCell", "blockId": "0C000111"},
                          {"type": "deleteTableRow", "blockId": "0C000002"}])  # fmt: skip
    assert value["applied"] == [] and codes(value) == ["noopOperation", "unsupportedBlock"]
    assert tables.read_bytes() == before


@pytest.mark.parametrize(
    ("op", "fragment"),
    [
        ({"type": "mergeTableCells", "blockId": "0C000111"}, "exactly one of `endBlockId`"),
        ({"type": "mergeTableCells", "blockId": "0C000111", "endBlockId": "0C000122", "rowCount": 2},
         "exactly one of"),
        ({"type": "mergeTableCells", "blockId": "0C000111", "rowCount": 1}, "between 2"),
        ({"type": "insertTable", "blockId": "0C000001", "rows": []}, "non-empty array of rows"),
        ({"type": "insertTable", "blockId": "0C000001", "rows": [["a"], "b"]}, "rows[1]"),
        ({"type": "insertTable", "blockId": "0C000001", "rows": [["a", 3]]}, "rows[0][1] must be a string"),
        ({"type": "insertTable", "blockId": "0C000001", "rows": [["x"] * 64]}, "at most 63 columns"),
        ({"type": "insertTable", "blockId": "0C000001", "rows": [["a"]], "headerRow": "yes"}, "true or false"),
        ({"type": "insertSignatureTable", "blockId": "0C000001", "parties": []}, "non-empty array of parties"),
        ({"type": "insertSignatureTable", "blockId": "0C000001", "parties": [{"title": "CEO"}]}, "non-empty `name`"),
        ({"type": "insertTableRow", "blockId": "0C000111", "cellTexts": "a"}, "array of strings"),
        ({"type": "insertTableRow", "blockId": "0C000111", "cellTexts": ["a"] * 257}, "at most 256"),
        ({"type": "insertTableColumn", "blockId": "0C000111", "position": "left"}, "before, after"),
    ],
)  # fmt: skip
def test_malformed_table_operations_fail_the_call(tables, op, fragment):
    before = tables.read_bytes()
    result = suggest(tables, [op, GOOD], operation_types=ALL_TYPES, mode="direct")
    assert not result.ok
    assert fragment in result.error
    assert tables.read_bytes() == before


def test_a_signature_party_given_as_a_string_is_read_as_its_name(tables):
    op = {"type": "insertSignatureTable", "blockId": "0C000009", "parties": ["ACME Ltd"]}
    value = call(tables, [op], "direct")
    assert value["applied"] and value["normalizations"][0]["code"] == "partyName"
    assert "ACME Ltd" in block_texts(tables)


def test_hidden_rows_take_no_cell_texts(tmp_path):
    from tests.docx.builders import make_docx, p
    from tests.docx.test_table_ops import STYLES, _cell, _table

    rows = (
        "<w:tr>" + _cell("A1", "0D000011") + _cell("B1", "0D000012") + "</w:tr>"
        + '<w:tr><w:trPr><w:hidden/></w:trPr>' + _cell("Secret", "0D000021") + _cell("S2", "0D000022") + "</w:tr>"
        + "<w:tr>" + _cell("A3", "0D000031") + _cell("B3", "0D000032") + "</w:tr>"
    )  # fmt: skip
    path = make_docx(tmp_path / "hidden.docx", p("x", para_id="0D000001") + _table(2, rows) + p("y"), styles=STYLES)
    value = call(path, [{"type": "insertTableColumn", "blockId": "0D000012", "cellTexts": ["n1", "n3", "n4"]}])
    assert codes(value) == ["payloadDoesNotFit"]
    value = call(path, [{"type": "insertTableColumn", "blockId": "0D000012", "cellTexts": ["n1", "n3"]}], "direct")
    assert block_texts(path) == ["x", "A1", "B1", "n1", "A3", "B3", "n3", "y"]
    doc = DocxDocument.open(path)
    hidden_row = doc.body.find(".//{*}tbl").findall("{*}tr")[1]
    assert len(hidden_row.findall("{*}tc")) == 3  # the hidden row got an empty cell too
