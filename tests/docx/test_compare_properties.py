"""Property tests: random paragraph-level edits (insertions, deletions, word changes, moves) of a
generated document are reported as such by compare_versions, and the redline of the two versions
gives back each of them under our own accept-all and reject-all (LibreOffice checks a fixed sample
of the same generator in test_redline_libreoffice.py)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.docx.versions.redline import redline_files
from tests.docx.version_pairs import edited_versions, resolved, texts
from tests.hypothesis_profiles import examples

EDITS = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "size": st.integers(1, 30),
        "deletions": st.integers(0, 4),
        "insertions": st.integers(0, 4),
        "modifications": st.integers(0, 4),
        "moves": st.integers(0, 3),
    }
)


def _old(change: dict) -> str:
    return "".join(segment["text"] for segment in change["segments"] if segment["type"] != "ins")


def _new(change: dict) -> str:
    return "".join(segment["text"] for segment in change["segments"] if segment["type"] != "del")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_random_edits_are_reported_and_redlined(edits):
    versions = edited_versions(random.Random(edits.pop("seed")), **edits)
    with tempfile.TemporaryDirectory() as folder:
        previous, current = versions.write(Path(folder))
        diff = compare_versions(previous, current)
        changes = diff["changes"]
        by_type: dict[str, list[dict]] = {}
        for change in changes:
            by_type.setdefault(change["type"], []).append(change)
        assert sorted(c["text"] for c in by_type.get("added", [])) == sorted(versions.inserted)
        assert sorted(c["text"] for c in by_type.get("deleted", [])) == sorted(versions.deleted)
        # A changed paragraph is modified in place, or a move carrying its word diff when other
        # moves displaced it (then it is one paragraph moved and changed).
        moved_to = by_type.get("movedTo", [])
        changed = {_old(c): _new(c) for c in by_type.get("modified", []) + [c for c in moved_to if "segments" in c]}
        assert changed == versions.modified
        assert "formatChanged" not in by_type
        # An unchanged move may be told the other way round (moving A after B is moving B
        # before A), but it is always a pair of equal untouched texts, never more than moves made.
        plain = sorted(c["text"] for c in moved_to if "segments" not in c)
        moved_away = [c for c in by_type.get("movedFrom", [])]
        assert len(moved_away) == len(moved_to)
        untouched = set(versions.previous) - set(versions.deleted) - set(versions.modified)
        assert set(plain) <= untouched and len(plain) <= len(versions.moved)
        counts = diff["summaryCounts"]
        assert counts["moved"] == len(moved_to)
        assert counts["unchanged"] == len(untouched) - len(plain)

        out = Path(folder) / "redline.docx"
        redline_files(previous, current, out)
        assert texts(resolved(out, "accept")) == versions.current
        assert texts(resolved(out, "reject")) == versions.previous
