"""Idempotent replay by operation id (across processes: the record lives in the .docx), and the
host-managed review queue (`--queue`, `docx queue apply`, `docx queue list`)."""

from __future__ import annotations

import json
import os
import zipfile

import pytest

from deskcheck.engine.docx.edit.replay import NAMESPACE
from deskcheck.engine.docx.model.document import DocxDocument
from tests.docx.edit_helpers import ORIGINAL_TEXTS, block_texts, build_document, new_schema_errors, suggest
from tests.helpers import run_cli, run_process

OPS = [
    {"id": "fix-1", "type": "replaceInBlock", "blockId": "0A000009", "find": "Last", "replace": "Final"},
    {"id": "fix-2", "type": "insertAfterBlock", "blockId": "0A000001", "text": "Added"},
    {"id": "fix-3", "type": "deleteBlock", "blockId": "NOPE0000"},
]


@pytest.fixture
def rich(tmp_path):
    return build_document(tmp_path / "rich.docx")


@pytest.mark.slow
def test_resending_a_call_replays_instead_of_applying_twice_across_processes(rich):
    args = json.dumps({"operations": OPS})
    # fix-3 is skipped: done in part, exit 3, the envelope keeps the whole result.
    first = run_process("docx", "suggest-changes", str(rich), args, expect=3).json["result"]
    assert [a["id"] for a in first["applied"]] == ["fix-1", "fix-2"] and first["skipped"][0]["id"] == "fix-3"
    texts = block_texts(rich)
    second = run_process("docx", "suggest-changes", str(rich), args, expect=3).json["result"]
    assert second["applied"] == [] and [r["id"] for r in second["replayed"]] == ["fix-1", "fix-2"]
    assert second["skipped"][0]["id"] == "fix-3"  # never applied, so tried again (and skipped again)
    assert block_texts(rich) == texts
    assert second["output"] is None and second["documentVersion"] == first["documentVersion"]


def test_the_record_is_a_custom_xml_part(rich):
    suggest(rich, OPS[:1])
    with zipfile.ZipFile(rich) as archive:
        names = archive.namelist()
        items = [n for n in names if n.startswith("customXml/item") and "Props" not in n]
        assert items and any(n.startswith("customXml/itemProps") for n in names)
        record = archive.read(items[0]).decode()
        assert NAMESPACE in record and 'id="fix-1"' in record
        assert "customXml" in archive.read("word/_rels/document.xml.rels").decode()


def test_reusing_an_id_for_a_different_operation_fails_the_call(rich):
    suggest(rich, OPS[:1])
    before = rich.read_bytes()
    changed = dict(OPS[0], replace="Closing")
    result = suggest(rich, [changed, OPS[1]])
    assert not result.ok and "fix-1" in result.error and "new id" in result.error
    assert rich.read_bytes() == before


def test_generated_ids_are_fresh_every_call(rich):
    op = {"type": "insertAfterBlock", "blockId": "0A000001", "text": "Again"}
    first = suggest(rich, [op]).value["applied"][0]["id"]
    second = suggest(rich, [op]).value["applied"][0]["id"]
    assert first != second and first.startswith("op-")
    assert block_texts(rich).count("Again") == 2


def test_replay_survives_a_documentVersion_moving_on(rich):
    version = DocxDocument.open(rich).version
    args = {"operations": OPS[:2], "documentVersion": version}
    assert len(suggest(rich, args).value["applied"]) == 2
    again = suggest(rich, args).value  # the same call, its version now stale
    assert [r["id"] for r in again["replayed"]] == ["fix-1", "fix-2"] and again["skipped"] == []
    stale = suggest(rich, {"operations": [dict(OPS[1], id="fix-9")], "documentVersion": version}).value
    assert stale["skipped"][0]["code"] == "documentVersionMismatch"


# -- the review queue ----------------------------------------------------------------------------


def queue_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_queue_parks_and_applies_what_was_approved(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    before = rich.read_bytes()
    ops = [
        {"id": "q1", "type": "replaceInBlock", "blockId": "0A000009", "find": "Last", "replace": "Final"},
        {"id": "q2", "type": "deleteBlock", "blockId": "0A000005", "severity": "high", "area": "scope"},
        {"id": "q3", "type": "insertAfterBlock", "blockId": "0A000001", "text": "Parked"},
        {"id": "q4", "type": "deleteBlock", "blockId": "NOPE0000"},
    ]
    # q4 is skipped while the others are parked: done in part (exit 3).
    run = run_cli(
        "docx", "suggest-changes", str(rich), json.dumps({"operations": ops}), "--queue", str(queue), expect=3
    )
    result = run.json["result"]
    assert result["status"] == "queued" and [q["id"] for q in result["queued"]] == ["q1", "q2", "q3"]
    assert [s["id"] for s in result["skipped"]] == ["q4"] and len(result["receipts"]) == 3
    assert rich.read_bytes() == before  # nothing applied yet
    entry = queue_lines(queue)[0]
    assert entry["status"] == "queued" and [o["id"] for o in entry["operations"]] == ["q1", "q2", "q3"]
    assert entry["operations"][0]["stampedBlockTextHash"] == DocxDocument.open(rich).block("0A000009").hash

    listed = run_cli("docx", "queue", "list", str(queue)).json["result"]["batches"][0]
    assert [(o["id"], o["status"]) for o in listed["operations"]] == [("q1", "pending"), ("q2", "pending"),
                                                                       ("q3", "pending")]  # fmt: skip
    assert listed["sealed"] is True
    applied = run_cli("docx", "queue", "apply", str(queue), str(rich), "--only", "q1", "--only", "q2").json["result"]
    assert [a["id"] for a in applied["applied"]] == ["q1", "q2"]
    assert applied["receipts"][1]["severity"] == "high"
    texts = block_texts(rich)
    assert texts[-1] == "Final paragraph." and "Parked" not in texts
    assert new_schema_errors(tmp_path / "rich.docx", rich) == set()
    statuses = queue_lines(queue)[0]["results"]
    assert statuses == {"q1": {"status": "applied"}, "q2": {"status": "applied"}}
    assert queue_lines(queue)[0]["status"] == "queued"  # q3 still pending

    rest = run_cli("docx", "queue", "apply", str(queue), str(rich)).json["result"]
    assert [a["id"] for a in rest["applied"]] == ["q3"]
    assert queue_lines(queue)[0]["status"] == "applied"
    run_cli("docx", "queue", "apply", str(queue), str(rich), expect=1)  # nothing left


def test_queued_operations_on_a_block_that_changed_are_skipped(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    op = {"id": "late", "type": "replaceInBlock", "blockId": "0A000002", "find": "thirty", "replace": "sixty"}
    run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": [op]}), "--queue", str(queue))
    suggest(rich, [{"type": "replaceInBlock", "blockId": "0A000002", "find": "goods", "replace": "items"}])
    # Every queued operation skipped: nothing applied, exit 1 (the envelope keeps the result).
    result = run_cli("docx", "queue", "apply", str(queue), str(rich), expect=1).json["result"]
    assert result["applied"] == [] and result["skipped"][0]["code"] == "changedBlock"
    assert "queued" in result["skipped"][0]["reason"]
    assert queue_lines(queue)[0]["results"]["late"]["status"] == "skipped"


def test_queue_apply_errors(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "queue", "apply", str(queue), str(rich), expect=2)  # no queue file
    queue.write_text("{not json\n")
    run = run_cli("docx", "queue", "apply", str(queue), str(rich), expect=2)
    assert "line 1" in run.json["error"]
    queue.write_text("")
    run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": [OPS[0]]}), "--queue", str(queue))
    run = run_cli("docx", "queue", "apply", str(queue), str(rich), "--only", "nope", expect=1)
    assert "nope" in run.json["error"]
    dry = run_cli("docx", "queue", "apply", str(queue), str(rich), "--dry-run").json["result"]
    assert dry["status"] == "previewed" and block_texts(rich) == ORIGINAL_TEXTS
    assert "results" not in queue_lines(queue)[0] or not queue_lines(queue)[0]["results"]


def test_a_dry_run_parks_nothing(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    args = json.dumps({"operations": [OPS[0]]})
    result = run_cli("docx", "suggest-changes", str(rich), args, "--queue", str(queue), "--dry-run").json["result"]
    assert result["status"] == "previewed" and not queue.exists()


def test_replay_applies_to_queued_operations_too(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": [OPS[0]]}), "--queue", str(queue))
    suggest(rich, [OPS[0]])  # the same operation sent directly meanwhile
    result = run_cli("docx", "queue", "apply", str(queue), str(rich)).json["result"]
    assert [r["id"] for r in result["replayed"]] == ["fix-1"] and result["applied"] == []
    assert queue_lines(queue)[0]["status"] == "applied"


def _edited(queue, change) -> None:
    entries = queue_lines(queue)
    change(entries[0])
    queue.write_text("".join(json.dumps(entry) + "\n" for entry in entries))


@pytest.mark.parametrize(
    "change",
    [
        lambda entry: entry.update(mode="direct"),  # the reviewer asked for tracked changes
        lambda entry: entry["operations"].append({**entry["operations"][0], "id": "injected", "replace": "nothing"}),
        lambda entry: entry.update(author="Someone Else"),
        lambda entry: entry.pop("seal"),
    ],
    ids=["mode switched to direct", "operation injected", "author changed", "seal removed"],
)
def test_a_queue_edited_by_hand_is_refused_not_applied(tmp_path, rich, change):
    """Issue 26 item 4c: a queue is checked like any input; its batches were applied as written."""
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": [OPS[0]]}), "--queue", str(queue))
    _edited(queue, change)
    before = rich.read_bytes()
    run = run_cli("docx", "queue", "apply", str(queue), str(rich), expect=1)
    assert "changed since it was queued" in run.json["error"] and queue_lines(queue)[0]["batchId"] in run.json["error"]
    assert rich.read_bytes() == before
    # The listing says so before anyone tries to apply it.
    assert run_cli("docx", "queue", "list", str(queue)).json["result"]["batches"][0]["sealed"] is False


def test_a_queue_whose_results_were_written_by_apply_still_applies(tmp_path, rich):
    queue = tmp_path / "queue.jsonl"
    run_cli(
        "docx", "suggest-changes", str(rich), json.dumps({"operations": OPS[:2]}), "--queue", str(queue), expect=None
    )
    first = queue_lines(queue)[0]["operations"][0]["id"]
    run_cli("docx", "queue", "apply", str(queue), str(rich), "--only", first)
    rest = run_cli("docx", "queue", "apply", str(queue), str(rich), expect=None).json
    assert "changed since it was queued" not in json.dumps(rest)


def _forged_under_an_empty_key(queue) -> None:
    """The batch with an operation injected and sealed again under the empty key."""
    import hashlib
    import hmac

    from deskcheck.engine.docx.edit.queue_seal import SEALED

    def forge(entry) -> None:
        entry["operations"].append({**entry["operations"][0], "id": "injected", "replace": "nothing"})
        content = json.dumps({name: entry.get(name) for name in SEALED}, sort_keys=True, ensure_ascii=False)
        entry["seal"] = hmac.new(b"", content.encode(), hashlib.sha256).hexdigest()

    _edited(queue, forge)


@pytest.mark.parametrize(
    ("key_state", "why"),
    [
        (lambda key: key.write_bytes(b""), "0 bytes"),
        (lambda key: key.write_bytes(bytes(64)), "more than 32 bytes"),
        (lambda key: key.mkdir(), "not a regular file"),
        (lambda key: os.mkfifo(key), "not a regular file"),
    ],
    ids=["empty (seals anyone can compute)", "too long", "a directory", "a FIFO"],
)
@pytest.mark.slow
def test_a_queue_key_deskcheck_did_not_make_is_refused(tmp_path, rich, isolated_state, key_state, why):
    """An empty key sealed a forged batch anyone could compute; a directory there was a traceback, a
    FIFO hung both commands. Each is refused, naming the key and how to get a new one."""
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": [OPS[0]]}), "--queue", str(queue))
    key = isolated_state / "queue.key"
    key.unlink()
    key_state(key)
    _forged_under_an_empty_key(queue)
    before = rich.read_bytes()
    for args in (
        ("docx", "queue", "apply", str(queue), str(rich)),
        ("docx", "suggest-changes", str(rich), json.dumps({"operations": [OPS[1]]}), "--queue", str(queue)),
    ):
        run = run_process(*args, expect=2, timeout=30)
        error = json.loads(run.stdout)["error"]
        assert f"{key} cannot be used" in error and why in error and "Remove it" in error
    assert rich.read_bytes() == before
