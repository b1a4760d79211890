"""LibreOffice as the outside judge of editing next to other authors' revisions (issue 19,
item 1): rejecting only the other author's changes leaves our clause as a paragraph of its own,
rejecting only ours gives the document back, on the issue's shape, on a Word-made document with
one reviewer's inserted paragraphs (Apache POI's delins.docx) and on documents drawn from
``authored_model`` (two other authors, every kind of revision in the body), where LibreOffice,
our reading and the model must agree for every author rejected or accepted first.

Tables are left out of the drawn documents: LibreOffice 7.4 keeps a table row whose insertion is
rejected when it holds anyone else's text (our new paragraph in someone's inserted row), and it
cannot take back the last paragraph of a cell or a paragraph before a table; the engine's
property test covers them against the model.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from tests.conftest import REPO
from tests.docx import authored_model as model
from tests.docx.edit_helpers import applied, lo_texts
from tests.docx.test_other_authors import US, counterparty_document, texts_after
from tests.docx.views import normalise
from tests.libreoffice import read_views

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("needs_libreoffice")]

DELINS = REPO / "tests" / "fixtures" / "docx" / "poi-delins.docx"


def _lo(requests):
    """LibreOffice's normalised paragraphs for each (action, paths) request, in one start."""
    return [{Path(name): lo_texts(row) for name, row in rows.items()} for rows in read_views(requests)]


def test_rejecting_the_counterparty_keeps_our_clause_a_paragraph(tmp_path):
    after = counterparty_document(tmp_path / "after.docx")
    applied(after, [{"type": "insertAfterBlock", "blockId": "0A000002", "text": "Our clause."}], author=US)
    before = counterparty_document(tmp_path / "before.docx")
    applied(before, [{"type": "insertBeforeBlock", "blockId": "0A000003", "text": "Our clause."}], author=US)
    paths = [after, before]
    expected = {
        ("reject", "Counterparty"): ["Intro.", "Our clause.", "Last."],
        ("reject", US): ["Intro.", "Their clause.", "Last."],
        "accept": ["Intro.", "Their clause.", "Our clause.", "Last."],
        "reject": ["Intro.", "Last."],
    }
    for (action, texts), seen in zip(expected.items(), _lo([(action, paths) for action in expected]), strict=True):
        for path in paths:
            assert seen[path] == texts, (path.name, action)
    for path in paths:
        assert texts_after(path, {"Counterparty": False}) == expected[("reject", "Counterparty")]


def test_a_word_reviewers_inserted_paragraphs(tmp_path):
    source = shutil.copy(DELINS, tmp_path / "source.docx")
    output = shutil.copy(DELINS, tmp_path / "output.docx")
    blocks = DocxDocument.open(source).blocks
    inserted = [b for b in blocks if b.mark & 1 and b.text]  # scan.INS: marks pavel inserted
    assert len(inserted) >= 5
    operations = [
        {"type": "insertAfterBlock", "blockId": block.id, "text": f"Our note {number}."}
        for number, block in enumerate(inserted)
    ]
    applied(output, operations, author=US)
    ours = [f"Our note {number}." for number in range(len(inserted))]
    requests = [(("reject", "pavel"), [output]), (("reject", US), [output]), ("asis", [source]), ("accept", [output])]
    # One file a request: the texts come in the requests' order.
    rejected, ours_rejected, original, accepted = (texts for rows in _lo(requests) for texts in rows.values())
    assert all(rejected.count(note) == 1 for note in ours), rejected
    assert rejected == [normalise(t) for t in texts_after(output, {"pavel": False})]
    assert ours_rejected == original
    assert all(accepted.count(note) == 1 for note in ours)


def drawn_documents(folder, count: int = 10, seed: int = 19):
    """Body-only documents from the model with two of our insertions each (fixed draws)."""
    rnd = random.Random(seed)
    kinds = [kind for kind in model.KINDS if kind not in ("table", "rowMarkOnly")]
    cases = []
    for number in range(count):
        words = model.Words()
        items: list = []
        for _ in range(rnd.randint(2, 5)):
            author = rnd.choice(("Alice", "Bob"))
            other = "Bob" if author == "Alice" else "Alice"
            items.extend(model.paragraph_of(rnd.choice(kinds), author, other, words))
        items.append(model.Para([model.Piece(words(2))]))
        source = model.build(folder / f"drawn{number}.docx", items)
        blocks = DocxDocument.open(source).blocks
        located = model.paragraphs(items)
        operations, planned = [], []
        for index in rnd.sample(range(len(blocks)), 2):
            after = rnd.random() < 0.5
            text = f"Ours {number}.{index}"
            kind = "insertAfterBlock" if after else "insertBeforeBlock"
            operations.append({"type": kind, "blockId": blocks[index].id, "text": text})
            planned.append((located[index][0], text, after))
        value = applied(source, operations, author=US)
        assert len(value["receipts"]) == 2
        for para, text, after in planned:
            model.insert_paragraph(items, para, text, after, US)
        cases.append((source, items))
    return cases


def test_libreoffice_our_reading_and_the_model_agree(tmp_path):
    cases = drawn_documents(tmp_path)
    paths = [path for path, _ in cases]
    orders = [(first, accept) for first in ("Alice", "Bob", US) for accept in (False, True)]
    requests = [([("accept" if accept else "reject", first), "accept"], paths) for first, accept in orders]
    for (first, accept), seen in zip(orders, _lo(requests), strict=True):
        for path, items in cases:
            decisions = {first: accept, **{a: True for a in ("Alice", "Bob", US) if a != first}}
            expected = [normalise(t) for t in model.resolve(items, decisions)]
            assert seen[path] == expected, (path.name, first, accept)
            assert [normalise(t) for t in texts_after(path, decisions)] == expected, (path.name, first, accept)
