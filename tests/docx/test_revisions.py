"""accept-all / reject-all: the result reads as the view it resolves to, nothing is left pending,
one author's changes can be resolved alone, and the write rules hold."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.changes import read_changes
from tests.conftest import CORPUS
from tests.docx.builders import encrypted_file
from tests.docx.tracked_contract import build_tracked_contract
from tests.docx.views import normalise, paragraph_stream
from tests.helpers import run_cli

OWNED = "owned/tracked-contract.docx"  # tests/docx/tracked_contract.py
CORPUS_TRACKED = [
    "folio/docx-editor-demo.docx",
    "folio/podily-bps.docx",
    "pandoc/paragraph_insertion_deletion.docx",
    "pandoc/track_changes_deletion.docx",
    "pandoc/track_changes_insertion.docx",
    "pandoc/track_changes_move.docx",
    "powertools-wc/WC053-Text-in-Cell-Mod.docx",
    "powertools-wc/WC057-Table-Merged-Cell-Mod.docx",
]
TRACKED = [OWNED, *(pytest.param(name, marks=pytest.mark.corpus) for name in CORPUS_TRACKED)]


def tracked_source(name: str, folder: Path) -> Path:
    """The document ``name`` of TRACKED: built into ``folder`` for OWNED, else the corpus file."""
    return build_tracked_contract(folder / "tracked-contract.docx") if name == OWNED else CORPUS / name


def stream(path, view):
    return [normalise(text) for text in paragraph_stream(DocxDocument.open(path), view)]


@pytest.mark.parametrize("name", TRACKED)
@pytest.mark.parametrize("mode", ["accept", "reject"])
def test_resolving_gives_the_view(tmp_path, name, mode):
    source = tracked_source(name, tmp_path)
    out = tmp_path / "out.docx"
    result = run_cli("docx", f"{mode}-all", str(source), "-o", str(out)).json["result"]
    assert result["resolved"] > 0 and result["output"] == str(out)
    resolved = DocxDocument.open(out)
    assert read_changes(resolved) == []
    assert stream(out, "accept") == stream(source, mode)


def test_one_authors_changes_only(tmp_path):
    path = build_tracked_contract(tmp_path / "contract.docx")
    result = run_cli("docx", "accept-all", str(path), "--author", "Ben Counsel").json["result"]
    left = read_changes(DocxDocument.open(path))
    assert {c["author"] for c in left} == {"Ann Reviewer"}
    assert result["resolved"] > 0 and len(left) == 10  # Ann's ten, the footnote's two included


@pytest.mark.corpus
def test_one_authors_changes_only_in_a_real_contract(tmp_path):
    path = tmp_path / "contract.docx"
    shutil.copy(CORPUS / "folio" / "podily-bps.docx", path)
    run_cli("docx", "accept-all", str(path), "--author", "Jan Kubica")
    authors = {c["author"] for c in read_changes(DocxDocument.open(path))}
    assert "Jan Kubica" not in authors and "Damian Struk" in authors


def test_dry_run_writes_nothing_and_in_place_is_the_default(tmp_path):
    path = build_tracked_contract(tmp_path / "doc.docx")
    original = path.read_bytes()
    dry = run_cli("docx", "reject-all", str(path), "--dry-run").json["result"]
    assert dry["dryRun"] is True and dry["output"] is None and dry["resolved"] == 15
    assert path.read_bytes() == original
    done = run_cli("docx", "reject-all", str(path)).json["result"]
    assert done["output"] == str(path) and done["documentVersion"] == dry["documentVersion"]
    assert path.read_bytes() != original
    assert read_changes(DocxDocument.open(path)) == []
    again = run_cli("docx", "reject-all", str(path)).json["result"]
    assert again["resolved"] == 0 and again["output"] is None


@pytest.mark.parametrize("source", ["built", pytest.param("corpus", marks=pytest.mark.corpus)])
def test_bad_input_is_exit_2_and_untouched(tmp_path, source):
    path = tmp_path / "enc.docx"
    if source == "corpus":
        shutil.copy(CORPUS / "folio" / "encrypted-agile-example.docx", path)
    else:
        encrypted_file(path)
    original = path.read_bytes()
    assert "encrypted" in run_cli("docx", "accept-all", str(path), expect=2).json["error"]
    assert path.read_bytes() == original
    assert run_cli("docx", "accept-all", str(tmp_path / "missing.docx"), expect=2).json["ok"] is False


@pytest.mark.parametrize("name", TRACKED)
@pytest.mark.parametrize("mode", ["accept", "reject"])
def test_blocks_keep_their_ids_through_accept_all_and_reject_all(tmp_path, name, mode):
    """A paragraph without a stored id gets one minted from its content and position; resolving
    changes its content, so the ids are written into the paragraphs first and every block that
    survives keeps the id a read of the file gave it (in memory and in the written file)."""
    from deskcheck.engine.docx.review.revisions import resolve_all

    source = tracked_source(name, tmp_path)
    before = [block.id for block in DocxDocument.open(source).blocks]
    doc = DocxDocument.open(source)
    resolve_all(doc, mode)
    kept = [block.id for block in doc.blocks]
    assert set(kept) <= set(before) and kept == [i for i in before if i in set(kept)]
    out = tmp_path / "out.docx"
    run_cli("docx", f"{mode}-all", str(source), "-o", str(out))
    assert [block.id for block in DocxDocument.open(out).blocks] == kept


@pytest.mark.slow
def test_libreoffice_resolves_the_owned_document_as_we_do(tmp_path, needs_libreoffice):
    """LibreOffice's accept-all and reject-all of the tracked contract read as our views of it, and
    our accept-all and reject-all outputs open in LibreOffice reading the same."""
    from deskcheck.engine.docx.review.revisions import resolve_file
    from tests.docx.edit_helpers import lo_texts
    from tests.libreoffice import read_views

    source = build_tracked_contract(tmp_path / "tracked.docx")
    outputs = {mode: resolve_file(source, mode, output=tmp_path / f"{mode}.docx") and tmp_path / f"{mode}.docx"
               for mode in ("accept", "reject")}  # fmt: skip
    opened, *resolved = read_views([("asis", outputs.values()), *((mode, [source]) for mode in outputs)])
    for (mode, output), rows in zip(outputs.items(), resolved, strict=True):
        theirs = rows[str(source)]
        assert theirs["ok"] and opened[str(output)]["ok"], (theirs, opened[str(output)])
        assert lo_texts(theirs) == stream(source, mode), f"LibreOffice's {mode}-all differs from our view"
        assert lo_texts(opened[str(output)]) == lo_texts(theirs), f"our {mode}-all output reads differently"
