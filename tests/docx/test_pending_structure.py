"""Deleted table rows and cells, and deleted paragraph marks, as the reads show them (issue 19,
items 2 and 3).

A block that accepting removes reads blank with ``pendingDeletion`` (its row or cell is
deleted, whether or not its text and mark are marked too, and through nested tables); a block
whose mark is deleted has ``joinsNext``. From read_document alone a reader rebuilds the
as-accepted paragraphs (drop blank pending deletions, run a joinsNext block into the next one),
and that rebuild must equal accept-all, ours and LibreOffice's.
"""

from __future__ import annotations

import shutil

import pytest

from deskcheck.cli.context import ContextOptions
from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.docx.edit_helpers import resolved_texts, suggest
from tests.libreoffice import read_paragraphs
from tests.repl.support import drive, lines

FIXTURES = REPO / "tests" / "fixtures" / "docx"
_REV = 'w:author="Counterparty" w:date="2024-05-01T09:00:00Z"'
HEADING = '<w:pStyle w:val="Heading1"/>'
STYLES = (
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
    '<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>'
)


def _cell(*paragraphs: str, props: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>{props}</w:tcPr>{"".join(paragraphs)}</w:tc>'


def _row(*cells: str, props: str = "") -> str:
    return f"<w:tr>{f'<w:trPr>{props}</w:trPr>' if props else ''}{''.join(cells)}</w:tr>"


def _table(*rows: str) -> str:
    grid = '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
    return f'<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr>{grid}{"".join(rows)}</w:tbl>'


def _nested() -> str:
    inner = _table(_row(_cell(p("Nested fee")), _cell(p("90"))))
    return _cell(p("Holder"), inner + p(""))


def fee_table_document(path):
    """A fee schedule the counterparty edited: a row deleted by its row mark only (the text and
    marks left as they were, as some editors write it), a cell deleted (w:cellDel), a row deleted
    holding a nested table, an inserted row, and a kept row."""
    body = (
        p("Fees", ppr=HEADING, para_id="0B000001")
        + _table(
            _row(_cell(p("Service", para_id="0B000011")), _cell(p("Price", para_id="0B000012"))),
            _row(
                _cell(p("Setup fee", para_id="0B000021")),
                _cell(p("100", para_id="0B000022")),
                props=f'<w:del w:id="31" {_REV}/>',
            ),
            _row(
                _cell(p("Hosting", para_id="0B000031")),
                _cell(p("Monthly 20", para_id="0B000032"), props=f'<w:cellDel w:id="32" {_REV}/>'),
            ),
            _row(_cell(p("Legacy", para_id="0B000041")), _nested(), props=f'<w:del w:id="33" {_REV}/>'),
            _row(
                _cell(p("Support", para_id="0B000051")),
                _cell(p("50", para_id="0B000052")),
                props=f'<w:ins w:id="34" {_REV}/>',
            ),
        )
        + p("After the table.", para_id="0B000002")
    )
    return make_docx(path, body, styles=STYLES)


def joined_document(path):
    """A paragraph whose mark the counterparty deleted (it joins the next one on accept), one
    deleted whole, and a deleted mark right before a table (which cannot join it)."""
    deleted_mark = f'<w:rPr><w:del w:id="41" {_REV}/></w:rPr>'
    body = (
        p("Payment is due ", ppr=deleted_mark, para_id="0C000001")
        + p("within thirty days.", para_id="0C000002")
        + p(
            para_id="0C000003",
            ppr=f'<w:rPr><w:del w:id="42" {_REV}/></w:rPr>',
            runs=f'<w:del w:id="43" {_REV}><w:r><w:delText>Dropped clause.</w:delText></w:r></w:del>',
        )
        + p("Kept clause.", para_id="0C000004")
        + p("Before a table.", ppr=f'<w:rPr><w:del w:id="44" {_REV}/></w:rPr>', para_id="0C000005")
        + _table(_row(_cell(p("A")), _cell(p("B"))))
        + p("End.", para_id="0C000006")
    )
    return make_docx(path, body)


def read_blocks(path) -> list[dict]:
    result = docx_toolset(path).call("read_document", {})
    assert result.ok, result.error
    return result.value["blocks"]


def rebuilt(blocks: list[dict]) -> list[str]:
    """The as-accepted paragraphs a reader rebuilds from read_document's flags alone."""
    out: list[str] = []
    carried = ""
    for block in blocks:
        if block.get("joinsNext"):
            carried += block["text"]
            continue
        if block.get("pendingDeletion"):
            continue
        out.append(carried + block["text"])
        carried = ""
    return out


def test_deleted_rows_and_cells_read_as_pending_deletions(tmp_path):
    path = fee_table_document(tmp_path / "fees.docx")
    by_id = {block["blockId"]: block for block in read_blocks(path)}
    gone = ["0B000021", "0B000022", "0B000032", "0B000041"]
    for block_id in gone:
        assert by_id[block_id]["text"] == "" and by_id[block_id]["pendingDeletion"] is True, by_id[block_id]
    nested = [b for b in by_id.values() if b.get("table", {}).get("index") == 1]
    assert nested and all(b["pendingDeletion"] and b["text"] == "" for b in nested)
    for block_id in ("0B000011", "0B000031", "0B000051", "0B000052"):
        assert "pendingDeletion" not in by_id[block_id], by_id[block_id]
    # accept-all removes exactly those blocks: the rebuild from read_document is accept-all.
    assert rebuilt(list(by_id.values())) == resolved_texts(path, "accept")


def test_find_text_and_read_section_agree_with_read_document(tmp_path):
    path = fee_table_document(tmp_path / "fees.docx")
    tools = docx_toolset(path)
    for deleted in ("Setup fee", "Monthly 20", "Nested fee"):
        assert tools.call("find_text", {"query": deleted}).value["totalMatches"] == 0, deleted
    assert tools.call("find_text", {"query": "Support"}).value["totalMatches"] == 1
    handle = tools.call("get_document_outline", {}).value["sections"][0]["handle"]
    section = tools.call("read_section", {"handle": handle}).value["blocks"]
    assert section == read_blocks(path)[: len(section)]
    assert {b["blockId"] for b in section if b.get("pendingDeletion")} >= {"0B000021", "0B000022", "0B000032"}


def test_the_tool_descriptions_say_so():
    tools = docx_toolset(None)
    descriptions = {name: tools.get(name).description for name in ("read_document", "find_text", "read_section")}
    assert "pendingDeletion" in descriptions["read_document"] and "table row or cell" in descriptions["read_document"]
    assert "joinsNext" in descriptions["read_document"]
    assert "pendingDeletion" in descriptions["read_section"]
    assert "rows and cells pending deletion" in descriptions["find_text"]


def test_a_new_paragraph_is_not_put_into_a_deleted_row(tmp_path):
    path = fee_table_document(tmp_path / "fees.docx")
    before = path.read_bytes()
    result = suggest(path, [{"type": "insertAfterBlock", "blockId": "0B000021", "text": "Discount"}])
    assert result.ok and [s["code"] for s in result.value["skipped"]] == ["pendingDeletion"]
    assert "table row or cell is deleted" in result.value["skipped"][0]["reason"]
    assert path.read_bytes() == before


def test_a_deleted_paragraph_mark_joins_the_next_block(tmp_path):
    path = joined_document(tmp_path / "joined.docx")
    blocks = {block["blockId"]: block for block in read_blocks(path)}
    assert blocks["0C000001"]["joinsNext"] is True and "pendingDeletion" not in blocks["0C000001"]
    assert blocks["0C000003"]["pendingDeletion"] is True and blocks["0C000003"]["joinsNext"] is True
    assert "joinsNext" not in blocks["0C000005"]  # a table follows: accepting cannot join them
    assert "joinsNext" not in blocks["0C000002"]
    assert rebuilt(list(blocks.values())) == resolved_texts(path, "accept")
    assert resolved_texts(path, "accept")[0] == "Payment is due within thirty days."
    match = docx_toolset(path).call("find_text", {"query": "due"}).value["matches"][0]
    assert match["joinsNext"] is True


@pytest.mark.parametrize("name", ["poi-delins.docx", "openxmlsdk-Comment020.docx"])
def test_real_documents_rebuild_as_accepted(name):
    path = FIXTURES / name
    assert rebuilt(read_blocks(path)) == resolved_texts(path, "accept")


def test_the_repl_shows_the_flags(tmp_path):
    path = fee_table_document(tmp_path / "fees.docx")
    out = drive(ContextOptions(docx=path, author="Reviewer"), lines("blocks")).output
    row = next(line for line in out.splitlines() if "0B000021" in line)
    assert "pending deletion" in row and "(blank)" in row
    joined = joined_document(tmp_path / "joined.docx")
    out = drive(ContextOptions(docx=joined, author="Reviewer"), lines("blocks", "find due")).output
    flagged = [line for line in out.splitlines() if "0C000001" in line]
    assert len(flagged) == 2 and all("joins next" in line for line in flagged), out  # the block, the match


def word_style_table_document(path):
    """Rows deleted and inserted as Word writes them: the row mark, and every run and paragraph
    mark in the row marked too (LibreOffice 7.4 reads this form; a row mark alone, or a cell
    deletion, it does not act on, so the document above is checked against our accept-all)."""
    deleted = f'<w:rPr><w:del w:id="{{}}" {_REV}/></w:rPr>'
    inserted = f'<w:rPr><w:ins w:id="{{}}" {_REV}/></w:rPr>'

    def marked(text: str, number: int, kind: str) -> str:
        wrapper = "del" if kind == "del" else "ins"
        tag = "w:delText" if kind == "del" else "w:t"
        mark = (deleted if kind == "del" else inserted).format(number)
        return p(
            ppr=mark, runs=f'<w:{wrapper} w:id="{number + 1}" {_REV}><w:r><{tag}>{text}</{tag}></w:r></w:{wrapper}>'
        )

    body = (
        p("Fees")
        + _table(
            _row(_cell(p("Service")), _cell(p("Price"))),
            _row(
                _cell(marked("Setup fee", 50, "del")),
                _cell(marked("100", 52, "del")),
                props=f'<w:del w:id="54" {_REV}/>',
            ),
            _row(
                _cell(marked("Support", 60, "ins")), _cell(marked("50", 62, "ins")), props=f'<w:ins w:id="64" {_REV}/>'
            ),
        )
        + p("After the table.")
    )
    return make_docx(path, body)


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
def test_libreoffice_accepts_the_same_paragraphs(tmp_path):
    paths = [
        word_style_table_document(tmp_path / "fees.docx"),
        joined_document(tmp_path / "joined.docx"),
        shutil.copy(FIXTURES / "poi-delins.docx", tmp_path / "delins.docx"),
    ]
    accepted = read_paragraphs("accept", paths)
    for path in paths:
        blocks = read_blocks(path)
        assert any(b.get("pendingDeletion") or b.get("joinsNext") for b in blocks), path.name
        row = accepted[str(path)]
        assert row["ok"], row
        assert [t.strip() for t in row["paragraphs"]] == [t.strip() for t in rebuilt(blocks)], path.name
