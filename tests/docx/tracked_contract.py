"""The project's own document with someone else's pending changes: samples/contract.docx with the
tracked changes of two reviewers written into it the way Word writes them. Accept/reject, the
per-change tools and read_changes are tested on it, and on Word's and other tools' files from the
corpus when that is there (tests/corpus.py).

What it holds, by change id:
- Ann Reviewer: a replacement (201 deletion, 202 insertion) in clause 5.2; a formatting change
  (203, italics) in clause 8.2; an inserted table row (204, its cells' text 205-208); a replacement
  in footnote 1 (220 deletion, 221 insertion).
- Ben Counsel: a whole paragraph deleted with its mark (210, mark 211); a paragraph inserted with
  its mark (212, mark 213); a paragraph moved (ranges 214/217, text 215/218, marks 216/219); an
  insertion in the header (222).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.conftest import REPO

CONTRACT = REPO / "samples" / "contract.docx"
ANN = 'w:author="Ann Reviewer" w:date="2024-05-01T10:00:00Z"'
BEN = 'w:author="Ben Counsel" w:date="2024-05-02T09:30:00Z"'
CLAUSE_PPR = '<w:pStyle w:val="Clause"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr>'
MOVED = "Clause headings do not affect the interpretation of this Agreement."
INSERTED = "References to a clause are to a clause of this Agreement."
REMOVED = (
    "The Supplier may increase the hosting and support fee once a year, on the anniversary of the "
    "Effective Date, by no more than the annual change in the Consumer Prices Index."
)
ROW_CELLS = ("4", "Hosting and support, each quarter", "Quarterly in advance", "9,500")


def _t(text: str) -> str:
    return f'<w:t xml:space="preserve">{text}</w:t>'


def _clause(para_id: str, mark: str, content: str) -> str:
    ppr = f"<w:pPr>{CLAUSE_PPR}<w:rPr>{mark}</w:rPr></w:pPr>"
    return f'<w:p w14:paraId="{para_id}" w14:textId="77777777">{ppr}{content}</w:p>'


def _moved_to() -> str:
    return _clause(
        "7D000002",
        f'<w:moveTo w:id="219" {BEN}/>',
        f'<w:moveToRangeStart w:id="217" {BEN} w:name="move1"/>'
        f'<w:moveTo w:id="218" {BEN}><w:r>{_t(MOVED)}</w:r></w:moveTo><w:moveToRangeEnd w:id="217"/>',
    )


def _inserted() -> str:
    return _clause(
        "7D000001", f'<w:ins w:id="212" {BEN}/>', f'<w:ins w:id="213" {BEN}><w:r>{_t(INSERTED)}</w:r></w:ins>'
    )


DOCUMENT_EDITS = [
    # 201/202: "thirty (30)" replaced by "forty-five (45)".
    (
        f"<w:r>{_t('The Customer shall pay each undisputed invoice within thirty (30) days of receiving it.')}</w:r>",
        f"<w:r>{_t('The Customer shall pay each undisputed invoice within ')}</w:r>"
        f'<w:del w:id="201" {ANN}><w:r><w:delText xml:space="preserve">thirty (30)</w:delText></w:r></w:del>'
        f'<w:ins w:id="202" {ANN}><w:r>{_t("forty-five (45)")}</w:r></w:ins>'
        f"<w:r>{_t(' days of receiving it.')}</w:r>",
    ),
    # 203: clause 8.2 put in italics.
    (
        '<w:r><w:t xml:space="preserve">The Customer may terminate this Agreement for convenience',
        f'<w:r><w:rPr><w:i/><w:rPrChange w:id="203" {ANN}><w:rPr/></w:rPrChange></w:rPr>'
        '<w:t xml:space="preserve">The Customer may terminate this Agreement for convenience',
    ),
    # 210/211: the price-index clause deleted, paragraph mark and all.
    (
        f'<w:p w14:paraId="464D8DE6" w14:textId="77777777"><w:pPr>{CLAUSE_PPR}</w:pPr><w:r>{_t(REMOVED)}</w:r></w:p>',
        _clause(
            "464D8DE6",
            f'<w:del w:id="211" {BEN}/>',
            f'<w:del w:id="210" {BEN}><w:r><w:delText xml:space="preserve">{REMOVED}</w:delText></w:r></w:del>',
        ),
    ),
    # 214-216: clause 2.2 moved away from here...
    (
        f'<w:p w14:paraId="14818E3A" w14:textId="77777777"><w:pPr>{CLAUSE_PPR}</w:pPr><w:r>{_t(MOVED)}</w:r></w:p>',
        _clause(
            "14818E3A",
            f'<w:moveFrom w:id="216" {BEN}/>',
            f'<w:moveFromRangeStart w:id="214" {BEN} w:name="move1"/>'
            f'<w:moveFrom w:id="215" {BEN}><w:r>{_t(MOVED)}</w:r></w:moveFrom><w:moveFromRangeEnd w:id="214"/>',
        ),
    ),
    # ... to after clause 2.3 (217-219), followed by an inserted paragraph (212/213).
    (
        "Words in the singular include the plural, and the other way round.</w:t></w:r></w:p>",
        "Words in the singular include the plural, and the other way round.</w:t></w:r></w:p>"
        + _moved_to()
        + _inserted(),
    ),
]
TABLE_ROW = (
    '<w:trPr><w:cantSplit/></w:trPr><w:tc><w:tcPr><w:tcW w:w="1150" w:type="dxa"/></w:tcPr><w:p w14:paraId="22A85CAB"'
)
FOOTNOTE_RUN = '<w:r><w:t xml:space="preserve"> The statutory rate'
HEADER_RUN = '<w:r><w:t xml:space="preserve">Software Services Agreement ·'


def _row_insertion(xml: str) -> str:
    """Row 4 of the milestone table (204) and the text of its cells (205-208) marked inserted."""
    start = xml.index(TABLE_ROW)
    end = xml.index("</w:tr>", start)
    row = xml[start:end].replace(
        "<w:trPr><w:cantSplit/></w:trPr>", f'<w:trPr><w:cantSplit/><w:ins w:id="204" {ANN}/></w:trPr>'
    )
    for number, text in enumerate(ROW_CELLS, start=205):
        run = f"<w:r>{_t(text)}</w:r>"
        assert run in row, text
        row = row.replace(run, f'<w:ins w:id="{number}" {ANN}>{run}</w:ins>', 1)
    return xml[:start] + row + xml[end:]


def _edit(part: str, xml: str) -> str:
    if part == "document":
        for old, new in DOCUMENT_EDITS:
            assert xml.count(old) == 1, old
            xml = xml.replace(old, new)
        return _row_insertion(xml)
    if part == "footnotes":
        assert FOOTNOTE_RUN in xml
        return xml.replace(
            FOOTNOTE_RUN,
            f'<w:del w:id="220" {ANN}><w:r><w:delText xml:space="preserve"> The statutory</w:delText></w:r></w:del>'
            f'<w:ins w:id="221" {ANN}><w:r>{_t(" The legal")}</w:r></w:ins><w:r><w:t xml:space="preserve"> rate',
        )
    if part == "header1":
        assert HEADER_RUN in xml
        return xml.replace(HEADER_RUN, f'<w:ins w:id="222" {BEN}><w:r>{_t("Draft: ")}</w:r></w:ins>{HEADER_RUN}')
    return xml


def build_tracked_contract(path: Path) -> Path:
    """Write the contract with the two reviewers' pending changes to ``path``."""
    with zipfile.ZipFile(CONTRACT) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.startswith("word/") and info.filename.endswith(".xml"):
                part = info.filename.removeprefix("word/").removesuffix(".xml")
                data = _edit(part, data.decode("utf-8")).encode("utf-8")
            target.writestr(info, data)
    return path


def build_review_document(path: Path) -> Path:
    """The tracked contract with two comments of a client, Cleo Client, anchored in its text:
    comment 1 on "statutory rate" in clause 5.3 (09B3BCA4), comment 2 on "forty-five (45)" in
    clause 5.2 (2B165965). For the review REPL's tests."""
    from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset

    build_tracked_contract(path)
    tools = docx_toolset(path, DocxOptions(author="Cleo Client"))
    for comment in (
        {"blockId": "09B3BCA4", "quote": "statutory rate", "text": "Which rate is meant?"},
        {"blockId": "2B165965", "quote": "forty-five (45)", "text": "Agreed with finance?"},
    ):
        result = tools.call("add_comment", comment)
        assert result.ok, result.error
    return path
