"""What LibreOffice 7.4 cannot do with tracked changes, shown on the smallest documents that hold
the only markup OOXML has for each case, so that no producer could write it otherwise.

The LibreOffice tests of the editing and redline modules tolerate these differences (blank
paragraphs only); this module pins them down. Each case asserts deskcheck's own accept-all and
reject-all views (exact) and LibreOffice's (exact, plus the one known difference). If a newer
LibreOffice does better, the LibreOffice assertion fails: then drop the matching tolerance in
test_table_ops_libreoffice.py / test_redline_libreoffice.py.

- A paragraph removed together with the table right after it. A paragraph goes away only by
  marking its paragraph mark (``w:pPr/w:rPr/w:del`` or ``w:ins``), which joins it to what follows;
  here that is a table, and LibreOffice keeps the paragraph, empty. When the paragraph opens the
  story (the powertools pair WC010) or a new table is followed by a separator paragraph at the
  end of a cell or of the document (insertTable), no other paragraph mark can carry the change.
- A deleted row whose cell holds a nested table: LibreOffice removes a tracked row only when one
  deletion covers all of its text, which a nested table interrupts; the row stays, empty.
- Cell revisions (``w:cellIns``, ``w:cellDel``): LibreOffice 7.4 does not read them, so a
  rejected inserted cell stays (empty). ``tableRevisions: "rows"`` avoids them.
"""

from __future__ import annotations

import pytest

from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import lo_texts, resolved_texts
from tests.libreoffice import read_views

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("needs_libreoffice")]

STAMP = 'w:author="Reviewer" w:date="2026-01-01T00:00:00Z"'


def _mark(kind: str, number: int) -> str:
    return f'<w:{kind} w:id="{number}" {STAMP}/>'


def _text(kind: str, number: int, text: str) -> str:
    tag = "w:delText" if kind == "del" else "w:t"
    return f'<w:{kind} w:id="{number}" {STAMP}><w:r><{tag} xml:space="preserve">{text}</{tag}></w:r></w:{kind}>'


def _changed_paragraph(kind: str, number: int, text: str) -> str:
    """A paragraph whose text and mark are both inserted or deleted (ids number, number + 1)."""
    return p(ppr=f"<w:rPr>{_mark(kind, number + 1)}</w:rPr>", runs=_text(kind, number, text))


def _cell(content: str, tcpr: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/>{tcpr}</w:tcPr>{content}</w:tc>'


def _table(rows: str, columns: int = 1) -> str:
    grid = '<w:gridCol w:w="2000"/>' * columns
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>'


def _row(kind: str | None, number: int, cells: str) -> str:
    props = f"<w:trPr>{_mark(kind, number)}</w:trPr>" if kind else ""
    return f"<w:tr>{props}{cells}</w:tr>"


# name -> (body, our accept view, our reject view, LibreOffice's view that differs, and which)
CASES = {
    "deleted paragraph opening the story, before a deleted table": (
        _changed_paragraph("del", 1, "Gone")
        + _table(_row("del", 3, _cell(_changed_paragraph("del", 4, "Cell"))))
        + p("Stays"),
        ["Stays"],
        ["Gone", "Cell", "Stays"],
        ("accept", ["", "Stays"]),
    ),
    "inserted paragraph opening the story, before an inserted table": (
        _changed_paragraph("ins", 1, "New")
        + _table(_row("ins", 3, _cell(_changed_paragraph("ins", 4, "Cell"))))
        + p("Stays"),
        ["New", "Cell", "Stays"],
        ["Stays"],
        ("reject", ["", "Stays"]),
    ),
    "inserted table with its separator paragraph at the end of the document": (
        p("Anchor")
        + _table(_row("ins", 1, _cell(_changed_paragraph("ins", 2, "T"))))
        + p(ppr=f"<w:rPr>{_mark('ins', 4)}</w:rPr>"),
        ["Anchor", "T", ""],
        ["Anchor"],
        ("reject", ["Anchor", ""]),
    ),
    "deleted row holding a nested table": (
        p("Before")
        + _table(
            _row(
                "del",
                1,
                _cell(
                    _changed_paragraph("del", 2, "Outer")
                    + _table(_row("del", 4, _cell(_changed_paragraph("del", 5, "Inner"))))
                    + p(ppr=f"<w:rPr>{_mark('del', 7)}</w:rPr>")
                ),
            )
            + _row(None, 0, _cell(p("Kept")))
        )
        + p("After"),
        ["Before", "Kept", "After"],
        ["Before", "Outer", "Inner", "", "Kept", "After"],
        ("accept", ["Before", "", "", "Kept", "After"]),
    ),
    "inserted cell (w:cellIns)": (
        _table(
            _row(None, 0, _cell(p("A1")) + _cell(_changed_paragraph("ins", 2, "New"), tcpr=_mark("cellIns", 1))),
            columns=2,
        )
        + p("After"),
        ["A1", "New", "After"],
        ["A1", "After"],
        ("reject", ["A1", "", "After"]),
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lo-limits")
    return {
        name: make_docx(folder / f"case{number}.docx", body) for number, (name, (body, *_)) in enumerate(CASES.items())
    }


@pytest.fixture(scope="module")
def libreoffice(files):
    paths = list(files.values())
    accepted, rejected = read_views([("accept", paths), ("reject", paths)])
    return {"accept": accepted, "reject": rejected}


@pytest.mark.parametrize("name", CASES)
def test_our_views_are_exact(files, name):
    _, accepted, rejected, _ = CASES[name]
    assert resolved_texts(files[name], "accept") == accepted
    assert resolved_texts(files[name], "reject") == rejected


@pytest.mark.parametrize("name", CASES)
def test_libreoffice_differs_by_the_known_blank_only(files, libreoffice, name):
    _, accepted, rejected, (view, theirs) = CASES[name]
    expected = {"accept": accepted, "reject": rejected}
    rows = {mode: libreoffice[mode][str(files[name])] for mode in expected}
    assert all(row["ok"] for row in rows.values()), rows
    got = {mode: [t.replace("\u200d", "") for t in lo_texts(row)] for mode, row in rows.items()}
    other = "reject" if view == "accept" else "accept"
    assert got[other] == expected[other]
    assert got[view] == theirs
    assert [t for t in theirs if t] == [t for t in expected[view] if t]
