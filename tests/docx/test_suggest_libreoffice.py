"""LibreOffice as the outside judge of suggest_changes, for every non-table operation type, on the
document the tests build and on corpus documents nobody here wrote:

- LibreOffice opens every output (tracked and direct);
- rejecting all changes in LibreOffice gives exactly the input's paragraphs (as LibreOffice
  rejects the input: corpus documents carry other authors' changes too);
- accepting all gives the same paragraphs as the same batch applied in direct mode;
- our own accept-all / reject-all views agree with LibreOffice's.

All files go through two oracle calls (accept, reject). Documents are chosen where LibreOffice
7.4 reads tracked changes as Word does; the known exceptions, found while building this, are:
revisions inside block-level content controls (LibreOffice drops them), a split of a paragraph
anchoring a floating drawing (LibreOffice does not rejoin it on reject) and cross-reference
fields (LibreOffice recomputes them when numbering moves). One presentation difference is
normalised: with comments present, LibreOffice shows a blank paragraph before a table that
starts the document, so blank paragraphs before the first text of such a document are not
compared.
"""

from __future__ import annotations

import random

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.wml.ns import W_BODY, W_TBL
from tests import corpus
from tests.conftest import CORPUS
from tests.docx.edit_batches import TYPES, operation_for
from tests.docx.edit_helpers import build_document, lo_texts, our_stream, tracked_and_direct
from tests.docx.test_suggest_operations import find_range
from tests.libreoffice import read_views

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("needs_libreoffice")]

CORPUS_DOCUMENTS = [
    "folio/contract-stella-style.docx",
    "folio/sample.docx",
    "folio/docx-editor-demo.docx",
    "folio/upstream-with-tables.docx",
    "python-docx/par-hlink-frags.docx",
    "pandoc/track_changes_move.docx",
    "powertools-wc/WC053-Text-in-Cell-Mod.docx",
]


def rich_batches(path) -> dict[str, list[dict]]:
    """One batch per operation type on the built document, touching its awkward places."""
    return {
        "replaceInBlock": [
            {"type": "replaceInBlock", "blockId": "0A000002", "find": "shall deliver", "replace": "delivers",
             "comment": "Simpler."},
            {"type": "replaceInBlock", "blockId": "0A000006", "find": "inserted words and", "replace": "text and"},
        ],
        "replaceRange": [{"type": "replaceRange", "range": find_range(path, "a link"), "replace": "one link"}],
        "commentOnRange": [{"type": "commentOnRange", "range": find_range(path, "\U0001f600 and"), "comment": "?"}],
        "formatRange": [{"type": "formatRange", "range": find_range(path, "goods within"),
                         "formatting": {"bold": True, "italic": False}}],
        "insertAfterBlock": [
            {"type": "insertAfterBlock", "blockId": "0A000004", "text": "Third item"},
            {"type": "insertAfterBlock", "blockId": "0A000011", "text": "In the cell"},
            {"type": "insertAfterBlock", "blockId": "0A000009", "text": "The very end"},
        ],
        "insertBeforeBlock": [
            {"type": "insertBeforeBlock", "blockId": "0A000001", "text": "Preface", "styleId": "Normal"},
            {"type": "insertBeforeBlock", "blockId": "0A000022", "text": ""},
        ],
        "replaceBlock": [
            {"type": "replaceBlock", "blockId": "0A000007", "text": "Emoji \U0001f601 and tea here."},
            {"type": "replaceBlock", "blockId": "0A000008", "text": "Filled."},
        ],
        "deleteBlock": [
            {"type": "deleteBlock", "blockId": "0A000005", "comment": "Drop it."},
            {"type": "deleteBlock", "blockId": "0A000006"},
            {"type": "deleteBlock", "blockId": "0A000012"},
            {"type": "deleteBlock", "blockId": "0A000009"},
        ],
        "splitBlock": [
            {"type": "splitBlock", "blockId": "0A000002", "offset": 13},
            {"type": "splitBlock", "blockId": "0A000005", "offset": 14},
            {"type": "splitBlock", "blockId": "0A000021", "offset": 1},
        ],
        "mergeBlockWithNext": [
            {"type": "mergeBlockWithNext", "blockId": "0A000003"},
            {"type": "mergeBlockWithNext", "blockId": "0A000001"},
        ],
        "setBlockParagraphProperties": [
            {"type": "setBlockParagraphProperties", "blockId": "0A000002", "styleId": "Heading1",
             "alignment": "center"},
            {"type": "setBlockParagraphProperties", "blockId": "0A000003", "numbering": {"kind": "none"}},
            {"type": "setBlockParagraphProperties", "blockId": "0A000007",
             "numbering": {"kind": "newList", "format": "numbered"}},
        ],
        "commentOnBlock": [{"type": "commentOnBlock", "blockId": "0A000002", "quote": "Supplier", "comment": "Who?"}],
    }  # fmt: skip


# A paragraph deleted next to one inserted by the same call, on contract-stella-style.docx: clause
# 275E59D9, then heading 0AB80A36. A new paragraph's mark must not go on the deleted paragraph
# (Word's "Enter at the end of the paragraph before" form), or LibreOffice, which reads a mark
# both inserted and deleted as deleted only, keeps an empty paragraph when rejecting.
NEIGHBOUR_SOURCE = "folio/contract-stella-style.docx"
_DELETE = {"type": "deleteBlock", "blockId": "275E59D9"}
NEIGHBOUR_BATCHES = {
    "delete-then-insert-before-next": [_DELETE, {"type": "insertBeforeBlock", "blockId": "0AB80A36", "text": "New"}],
    "insert-before-next-then-delete": [{"type": "insertBeforeBlock", "blockId": "0AB80A36", "text": "New"}, _DELETE],
    "delete-and-insert-after-it": [_DELETE, {"type": "insertAfterBlock", "blockId": "275E59D9", "text": "After"}],
    "delete-and-insert-blank-after-it": [_DELETE, {"type": "insertAfterBlock", "blockId": "275E59D9", "text": ""}],
    "delete-and-insert-before-it": [_DELETE, {"type": "insertBeforeBlock", "blockId": "275E59D9", "text": "Before"}],
    # Text inserted at the end of one paragraph, then a paragraph with no text whose inserted
    # mark opens the next: LibreOffice would merge the two insertions and the break between them
    # (touching_insertions). 46856986 is "MERIDIAN STUDIO LTD", 14CB8EEC the empty paragraph
    # after it, before the key terms table.
    "insertions-touching-across-a-break": [
        {"type": "insertAfterBlock", "blockId": "46856986", "text": "ščř x"},
        {"type": "splitBlock", "blockId": "14CB8EEC", "offset": 0},
    ],
}


# Empty paragraphs added next to empty paragraphs (pandoc/track_changes_move.docx ends with the
# empty 583AD4A3 and 63FC637B; 242DE2B2 is empty too): the inserted marks of two new paragraphs
# with a kept empty paragraph between them touch across its break (touching_insertions).
EMPTY_SOURCE = "pandoc/track_changes_move.docx"
EMPTY_BATCHES = {
    "split-two-empty-paragraphs-at-0": [
        {"type": "splitBlock", "blockId": "63FC637B", "offset": 0},
        {"type": "splitBlock", "blockId": "583AD4A3", "offset": 0},
    ],
    "insert-empty-after-and-split-the-next": [
        {"type": "insertAfterBlock", "blockId": "583AD4A3", "text": ""},
        {"type": "splitBlock", "blockId": "63FC637B", "offset": 0},
    ],
    "insert-empty-before-and-split-it": [
        {"type": "insertBeforeBlock", "blockId": "242DE2B2", "text": ""},
        {"type": "splitBlock", "blockId": "242DE2B2", "offset": 0},
    ],
}


def _starts_with_table(path) -> bool:
    body = DocxDocument.open(path).package.xml("word/document.xml").find(W_BODY)
    first = next((child for child in body), None)
    return first is not None and first.tag == W_TBL


def _normalised(texts: list[str] | dict, path) -> list[str]:
    """LibreOffice's paragraphs (or ours), without the blank paragraphs before the first text of
    a document that starts with a table (LibreOffice adds one there when comments exist)."""
    texts = lo_texts(texts) if isinstance(texts, dict) else list(texts)
    if _starts_with_table(path):
        while texts and texts[0] == "":
            texts = texts[1:]
    return texts


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """(label, source, tracked output, direct output) for every operation type and document."""
    folder = tmp_path_factory.mktemp("suggest-lo")
    rich = build_document(folder / "rich.docx")
    out = []

    def both(label, source, ops):
        tracked, direct = tracked_and_direct(folder, label, source, ops, TYPES)
        out.append((label, source, tracked, direct))

    for kind, ops in rich_batches(rich).items():
        both(f"rich-{kind}", rich, ops)
    if corpus.missing() is not None:
        return out  # the rich document only: test_corpus_documents_are_covered says what is missing
    for label, ops in NEIGHBOUR_BATCHES.items():
        both(f"neighbours-{label}", CORPUS / NEIGHBOUR_SOURCE, ops)
    for label, ops in EMPTY_BATCHES.items():
        both(f"empty-{label}", CORPUS / EMPTY_SOURCE, ops)
    for number, name in enumerate(CORPUS_DOCUMENTS):
        source = CORPUS / name
        doc = DocxDocument.open(source)
        rnd = random.Random(number)
        for kind in TYPES:
            op = operation_for(doc, kind, rnd)
            if op is not None:
                both(f"{source.stem}-{kind}", source, [op])
    return out


@pytest.fixture(scope="module")
def views(cases):
    tracked = [c[2] for c in cases]
    direct = [c[3] for c in cases]
    sources = sorted({c[1] for c in cases})
    accepted, rejected = read_views([("accept", tracked + direct), ("reject", tracked + sources)])
    return {"accept": accepted, "reject": rejected}


def test_every_type_is_covered(cases):
    covered = {label.split("-")[-1] for label, *_ in cases if label.startswith("rich-")}
    assert covered == set(TYPES)


@pytest.mark.corpus
def test_corpus_documents_are_covered(cases):
    for name in CORPUS_DOCUMENTS:
        stem = name.split("/")[-1].removesuffix(".docx")
        assert len([c for c in cases if c[0].startswith(stem + "-")]) >= 10


def test_libreoffice_opens_every_output(cases, views):
    failures = [
        (label, row.get("error"))
        for label, _, tracked, direct in cases
        for row in (views["accept"][str(tracked)], views["accept"][str(direct)], views["reject"][str(tracked)])
        if not row["ok"]
    ]
    assert failures == []


def test_rejecting_in_libreoffice_gives_the_input(cases, views):
    mismatches = [
        label
        for label, source, tracked, _ in cases
        if _normalised(views["reject"][str(tracked)], tracked) != _normalised(views["reject"][str(source)], source)
    ]
    assert mismatches == []


def test_accepting_in_libreoffice_gives_the_direct_result(cases, views):
    mismatches = [
        label
        for label, _, tracked, direct in cases
        if _normalised(views["accept"][str(tracked)], tracked) != _normalised(views["accept"][str(direct)], direct)
    ]
    assert mismatches == []


@pytest.mark.parametrize("view", ["accept", "reject"])
def test_our_views_agree_with_libreoffice(cases, views, view):
    mismatches = [
        label
        for label, _, tracked, _ in cases
        if _normalised(our_stream(tracked, view), tracked) != _normalised(views[view][str(tracked)], tracked)
    ]
    assert mismatches == []
