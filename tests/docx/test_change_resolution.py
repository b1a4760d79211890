"""accept_change / reject_change: resolving tracked changes one at a time by their read_changes id
leaves the others pending, and in any order composes to the same text as resolving them all; the
tools check the ids first and write nothing when one is unknown."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.changes import read_changes
from deskcheck.engine.docx.review.revisions import resolve_changes
from tests.conftest import CORPUS
from tests.docx.test_revisions import TRACKED, tracked_source
from tests.docx.tracked_contract import build_tracked_contract
from tests.docx.views import normalise, paragraph_stream
from tests.helpers import run_cli
from tests.hypothesis_profiles import examples


def view(doc, which):
    return [normalise(text) for text in paragraph_stream(doc, which)]


def ids_of(doc) -> list[str]:
    """The main text's change ids (those of headers and notes are resolved in their own story:
    test_story_changes.py)."""
    return [change["id"] for change in read_changes(doc) if "story" not in change]


@pytest.mark.parametrize("name", TRACKED)
@pytest.mark.parametrize("mode", ["accept", "reject"])
@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_change_at_a_time_composes_to_resolving_all(tmp_path, name, mode, data):
    source = tracked_source(name, tmp_path)
    expected = view(DocxDocument.open(source), mode)
    doc = DocxDocument.open(source)
    all_ids = list(dict.fromkeys(ids_of(doc)))
    chosen = data.draw(st.lists(st.sampled_from(all_ids), unique=True, max_size=min(len(all_ids), 12)), label="ids")
    for change_id in chosen:
        if change_id not in ids_of(doc):
            continue  # gone with a change resolved before it (the text of a rejected inserted row)
        counts = resolve_changes(doc, [change_id], mode)
        assert counts, f"change {change_id} resolved nothing"
    left = ids_of(doc)
    assert not set(chosen) & set(left), "a resolved change is still listed"
    # Only the chosen changes went, and those nested in them (a deletion inside a rejected
    # insertion goes with it, and so does the text of a rejected inserted row).
    assert set(left) <= set(all_ids) - set(chosen)
    kinds = {change["id"]: change["type"] for change in read_changes(DocxDocument.open(source))}
    rejected_row = mode == "reject" and any(kinds[change_id] == "rowInserted" for change_id in chosen)
    if name != "folio/podily-bps.docx" and not rejected_row:
        assert set(left) == set(all_ids) - set(chosen)
    # The rest at once: the text is the fully resolved view.
    if left:
        resolve_changes(doc, left, mode)
    assert ids_of(doc) == []
    assert view(doc, "accept") == expected


@pytest.mark.parametrize("source", ["owned", pytest.param("folio/docx-editor-demo.docx", marks=pytest.mark.corpus)])
def test_tools_resolve_by_id_and_refuse_unknown_ids_without_writing(tmp_path, source):
    path = tmp_path / "demo.docx"
    if source == "owned":
        build_tracked_contract(path)
    else:
        shutil.copy(CORPUS / source, path)
    changes = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    # The first replacement: a deletion directly followed by its insertion.
    first = next(i for i, c in enumerate(changes) if c["type"] == "deletion" and changes[i + 1]["type"] == "insertion")
    deletion, insertion = changes[first], changes[first + 1]
    before = path.read_bytes()
    refused = run_cli("docx", "accept-change", str(path), '{"changeIds": ["nope"]}', expect=1).json
    assert (
        "'nope'" in refused["error"]
        and deletion["id"] in refused["error"]
        and "Nothing was changed" in (refused["error"])
    )
    assert path.read_bytes() == before
    bad = run_cli("docx", "reject-change", str(path), '{"changeIds": []}', expect=1).json
    assert "non-empty list" in bad["error"]

    result = run_cli("docx", "accept-change", str(path), f'{{"changeIds": ["{deletion["id"]}"]}}').json["result"]
    assert result["mode"] == "accept" and result["output"] == str(path)
    assert [r["id"] for r in result["resolved"]] == [deletion["id"]] and result["byKind"] == {"deletion": 1}
    assert result["remaining"] == len(changes) - 1
    after = run_cli("docx", "read-changes", str(path)).json["result"]
    assert after["documentVersion"] == result["documentVersion"]
    others = [c for c in changes if c is not deletion]
    assert [c["id"] for c in after["changes"]] == [c["id"] for c in others]
    # Blocks keep the ids the first read reported, though their text changed.
    assert [c["blockId"] for c in after["changes"]] == [c["blockId"] for c in others]

    # Rejecting the insertion of the pair, given as a number, removes its text.
    rejected = run_cli("docx", "reject-change", str(path), f'{{"changeIds": [{int(insertion["id"])}]}}').json
    block = insertion["blockId"]
    text = next(
        b["text"] for b in run_cli("docx", "read-document", str(path)).json["result"]["blocks"] if b["blockId"] == block
    )
    assert rejected["result"]["resolved"][0]["type"] == "insertion" and insertion["text"] not in text


def test_dry_run_and_output_follow_the_write_rules(tmp_path):
    path = build_tracked_contract(tmp_path / "tracked.docx")
    before = path.read_bytes()
    changes = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    args = json.dumps({"changeIds": [change["id"] for change in changes]})
    dry = run_cli("docx", "accept-change", str(path), args, "--dry-run").json["result"]
    assert dry["output"] is None and path.read_bytes() == before
    out = tmp_path / "out.docx"
    done = run_cli("docx", "accept-change", str(path), args, "-o", str(out)).json["result"]
    assert done["output"] == str(out) and path.read_bytes() == before
    assert read_changes(DocxDocument.open(out)) == []
    assert done["documentVersion"] == dry["documentVersion"]
