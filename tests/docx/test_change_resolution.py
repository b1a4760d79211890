"""accept_change / reject_change: resolving tracked changes one at a time by their read_changes id
leaves the others pending, and in any order composes to the same text as resolving them all; the
tools check the ids first and write nothing when one is unknown."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.changes import read_changes
from deskcheck.engine.docx.document import DocxDocument
from deskcheck.engine.docx.revisions import resolve_changes
from tests.conftest import CORPUS
from tests.docx.test_revisions import TRACKED
from tests.docx.views import normalise, paragraph_stream
from tests.helpers import run_cli


def view(doc, which):
    return [normalise(text) for text in paragraph_stream(doc, which)]


def ids_of(doc) -> list[str]:
    return [change["id"] for change in read_changes(doc)]


@pytest.mark.corpus
@pytest.mark.parametrize("name", TRACKED)
@pytest.mark.parametrize("mode", ["accept", "reject"])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_change_at_a_time_composes_to_resolving_all(name, mode, data):
    source = CORPUS / name
    expected = view(DocxDocument.open(source), mode)
    doc = DocxDocument.open(source)
    all_ids = list(dict.fromkeys(ids_of(doc)))
    chosen = data.draw(st.lists(st.sampled_from(all_ids), unique=True, max_size=min(len(all_ids), 12)), label="ids")
    for change_id in chosen:
        counts = resolve_changes(doc, [change_id], mode)
        assert counts, f"change {change_id} resolved nothing"
    left = ids_of(doc)
    assert not set(chosen) & set(left), "a resolved change is still listed"
    # Only the chosen changes went, and those nested in them (a deletion inside a rejected
    # insertion goes with it).
    assert set(left) <= set(all_ids) - set(chosen)
    if name != "folio/podily-bps.docx":
        assert set(left) == set(all_ids) - set(chosen)
    # The rest at once: the text is the fully resolved view.
    if left:
        resolve_changes(doc, left, mode)
    assert ids_of(doc) == []
    assert view(doc, "accept") == expected


@pytest.mark.corpus
def test_tools_resolve_by_id_and_refuse_unknown_ids_without_writing(tmp_path):
    path = tmp_path / "demo.docx"
    shutil.copy(CORPUS / "folio" / "docx-editor-demo.docx", path)
    changes = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    deletion, insertion = changes[0], changes[1]
    assert (deletion["type"], insertion["type"]) == ("deletion", "insertion")
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
    assert [c["id"] for c in after["changes"]] == [c["id"] for c in changes[1:]]
    # Blocks keep the ids the first read reported, though their text changed.
    assert [c["blockId"] for c in after["changes"]] == [c["blockId"] for c in changes[1:]]

    # Rejecting the insertion of the pair, given as a number, removes its text.
    rejected = run_cli("docx", "reject-change", str(path), f'{{"changeIds": [{int(insertion["id"])}]}}').json
    block = insertion["blockId"]
    text = next(
        b["text"] for b in run_cli("docx", "read-document", str(path)).json["result"]["blocks"] if b["blockId"] == block
    )
    assert rejected["result"]["resolved"][0]["type"] == "insertion" and insertion["text"] not in text


@pytest.mark.corpus
def test_dry_run_and_output_follow_the_write_rules(tmp_path):
    path = tmp_path / "ins.docx"
    shutil.copy(CORPUS / "pandoc" / "track_changes_insertion.docx", path)
    before = path.read_bytes()
    [change] = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    args = f'{{"changeIds": ["{change["id"]}"]}}'
    dry = run_cli("docx", "accept-change", str(path), args, "--dry-run").json["result"]
    assert dry["output"] is None and path.read_bytes() == before
    out = tmp_path / "out.docx"
    done = run_cli("docx", "accept-change", str(path), args, "-o", str(out)).json["result"]
    assert done["output"] == str(out) and path.read_bytes() == before
    assert read_changes(DocxDocument.open(out)) == []
    assert done["documentVersion"] == dry["documentVersion"]
