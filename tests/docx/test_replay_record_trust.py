"""The applied-operations record inside a .docx is believed only as far as the document bears it
out (issue 26 item 4a): its fingerprint is a plain hash anyone can compute, so a received document
could claim an operation was applied (it was then reported ``replayed``, exit 0, with nothing
applied) or hold a wrong fingerprint for an id (that id was then refused forever)."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.docx.builders import make_docx, p
from tests.helpers import run_cli

BLOCK = "0A000001"
REPLACE = {"id": "op-1", "type": "replaceInBlock", "blockId": BLOCK, "find": "goods", "replace": "wares"}


def batch(*operations: dict) -> str:
    return json.dumps({"operations": list(operations)})


def contract(path: Path, **parts: str) -> Path:
    return make_docx(
        path, p("The Supplier shall deliver the goods.", para_id=BLOCK) + p("Payment in 30 days."), **parts
    )


def forged(tmp_path: Path, edit=lambda record: record, *, in_header=None) -> Path:
    """The contract as it was, carrying the record an application of REPLACE wrote (``edit``
    changes the record's XML first): what a counterparty can send. With ``in_header``, the
    contract has a header, and ``in_header(record)`` is XML added to its paragraph."""
    original = contract(tmp_path / "original.docx", **({"header": p("Contract")} if in_header else {}))
    applied = shutil.copy(original, tmp_path / "applied.docx")
    run_cli("docx", "suggest-changes", str(applied), batch(REPLACE))
    out = tmp_path / "forged.docx"
    with (
        zipfile.ZipFile(applied) as source,
        zipfile.ZipFile(original) as before,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        parts = {name: source.read(name) for name in source.namelist()}
        record = next(
            data for name, data in parts.items() if name.startswith("customXml/item") and b"appliedOperations" in data
        )
        for name, data in parts.items():
            if name == "word/document.xml":
                data = before.read(name)
            elif data is record:
                data = edit(data)
            elif name == "word/header1.xml" and in_header:
                data = data.replace(b"</w:p>", in_header(record).encode() + b"</w:p>", 1)
            target.writestr(name, data)
    return out


def text_of(path: Path) -> str:
    return run_cli("docx", "read-document", str(path)).json["result"]["blocks"][0]["text"]


@pytest.mark.parametrize(
    "edit",
    [lambda record: record, lambda record: re.sub(rb' marks="[^"]*"', b"", record)],
    ids=["the applier's record", "a record without evidence"],
)
def test_a_record_the_document_does_not_bear_out_is_not_reported_replayed(tmp_path, edit):
    path = forged(tmp_path, edit)
    run = run_cli("docx", "suggest-changes", str(path), batch(REPLACE), expect=None)
    assert run.exit_code != 0
    result = run.json["result"]
    assert result["replayed"] == [] and [s["code"] for s in result["skipped"]] == ["replayUnverified"]
    assert "neither applied again nor reported as done" in result["skipped"][0]["reason"]
    assert text_of(path) == "The Supplier shall deliver the goods."


def test_a_wrong_fingerprint_does_not_refuse_the_id_forever(tmp_path):
    path = forged(
        tmp_path, lambda record: re.sub(rb'fingerprint="[0-9a-f]+"', b'fingerprint="' + b"0" * 32 + b'"', record)
    )
    run = run_cli("docx", "suggest-changes", str(path), batch(REPLACE))
    assert run.json["result"]["applied"] == [{"id": "op-1"}]
    again = run_cli("docx", "suggest-changes", str(path), batch(REPLACE))
    assert again.json["result"]["replayed"] == [{"id": "op-1"}] and again.json["result"]["applied"] == []


@pytest.mark.parametrize("mode", ["tracked-changes", "direct"])
def test_a_real_application_is_still_replayed(tmp_path, mode):
    path = contract(tmp_path / "contract.docx")
    commented = {**REPLACE, "id": "op-2", "replace": "products", "comment": "Wider."}
    run_cli("docx", "suggest-changes", str(path), batch(commented), "--mode", mode)
    after = path.read_bytes()
    again = run_cli("docx", "suggest-changes", str(path), batch(commented), "--mode", mode)
    assert again.json["result"]["replayed"] == [{"id": "op-2"}]
    assert path.read_bytes() == after


def test_a_change_accepted_since_is_not_replayed_nor_applied_twice(tmp_path):
    path = contract(tmp_path / "contract.docx")
    insert = {"id": "op-3", "type": "insertAfterBlock", "blockId": BLOCK, "text": "Delivery is free."}
    run_cli("docx", "suggest-changes", str(path), batch(insert))
    run_cli("docx", "accept-all", str(path))
    run = run_cli("docx", "suggest-changes", str(path), batch(insert), expect=None)
    assert [s["code"] for s in run.json["result"]["skipped"]] == ["replayUnverified"]
    texts = [b["text"] for b in run_cli("docx", "read-document", str(path)).json["result"]["blocks"]]
    assert texts.count("Delivery is free.") == 1


def test_marks_in_another_story_do_not_bear_out_an_operation_on_the_main_text(tmp_path):
    """Operations edit the main text, so their evidence is looked for there: a header holding a
    tracked change with the recorded id and date (anyone can read both from the record) made a
    forged record believed."""

    def decoys(record: bytes) -> str:
        marks = re.findall(r"r:(\d+)", re.search(rb' marks="([^"]*)"', record).group(1).decode())
        date = re.search(rb' at="([^"]+)"', record).group(1).decode()
        assert marks, record
        return "".join(
            f'<w:ins w:id="{mark}" w:author="Someone" w:date="{date}"><w:r><w:t>x</w:t></w:r></w:ins>' for mark in marks
        )

    out = forged(tmp_path, in_header=decoys)
    run = run_cli("docx", "suggest-changes", str(out), batch(REPLACE), expect=None)
    result = run.json["result"]
    assert result["replayed"] == [] and [s["code"] for s in result["skipped"]] == ["replayUnverified"]
    assert text_of(out) == "The Supplier shall deliver the goods."
