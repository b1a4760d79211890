"""Property test: random valid batches over a corpus document (hypothesis draws the operation
types, targets, ranges and texts; operations of one batch may overlap, and the later ones are
then skipped). For every batch:

- both modes apply the same operations;
- our accept-all of the tracked output reads as the direct output, our reject-all as the input;
- neither output has an OOXML schema error (wml.xsd, after unwrapping Markup Compatibility) that
  the input did not have;
- and, in one LibreOffice call per view for all the batches: LibreOffice opens the outputs, its
  reject-all gives the input and its accept-all gives the direct output.
"""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.model.document import DocxDocument
from tests.conftest import CORPUS
from tests.docx.edit_batches import TYPES, random_batch
from tests.docx.edit_helpers import build_document, lo_texts, new_schema_errors, resolved_texts, suggest
from tests.libreoffice import read_views

DOCUMENT = CORPUS / "folio" / "contract-stella-style.docx"
EXAMPLES = 25


def _apply_both(source, folder, number: int, ops):
    outputs = {}
    results = {}
    for mode in ("tracked-changes", "direct"):
        target = folder / f"batch{number}-{mode}.docx"
        shutil.copy(source, target)
        result = suggest(target, ops, mode=mode, operation_types=TYPES)
        assert result.ok, result.error
        outputs[mode], results[mode] = target, result.value
    return outputs["tracked-changes"], outputs["direct"], results


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
@pytest.mark.parametrize("document", ["rich", pytest.param("contract", marks=pytest.mark.corpus)])
def test_random_batches(tmp_path, document):
    """On the rich built document, and on a real contract from the corpus."""
    if document == "rich":
        source = build_document(tmp_path / "rich.docx")
    else:
        source = tmp_path / DOCUMENT.name
        shutil.copy(DOCUMENT, source)
    original = resolved_texts(source, "reject")
    produced: list[tuple[object, object, list]] = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
    @given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 12))
    def check(seed, size):
        ops = random_batch(DocxDocument.open(source), random.Random(seed), size)
        tracked, direct, results = _apply_both(source, tmp_path, len(produced), ops)
        applied = {mode: [a["id"] for a in value["applied"]] for mode, value in results.items()}
        assert len(applied["tracked-changes"]) == len(applied["direct"])
        assert resolved_texts(tracked, "accept") == resolved_texts(direct, "accept")
        assert resolved_texts(tracked, "reject") == original
        assert new_schema_errors(source, tracked) == set()
        assert new_schema_errors(source, direct) == set()
        produced.append((tracked, direct, ops))

    check()
    assert len(produced) >= EXAMPLES
    accepted, rejected = read_views(
        [("accept", [p for t, d, _ in produced for p in (t, d)]), ("reject", [t for t, _, _ in produced] + [source])]
    )
    expected = lo_texts(rejected[str(source)])
    failures = []
    for tracked, direct, ops in produced:
        rows = (accepted[str(tracked)], accepted[str(direct)], rejected[str(tracked)])
        if not all(row["ok"] for row in rows):
            failures.append(("does not open", ops))
        elif lo_texts(rows[2]) != expected:
            failures.append(("reject differs from the input", ops))
        elif lo_texts(rows[0]) != lo_texts(rows[1]):
            failures.append(("accept differs from direct", ops))
    assert failures == []
