"""The LibreOffice judge itself (tests/libreoffice.py): what it reads for each kind of action, what
it reports for files it cannot read, that one call is one LibreOffice start, and that a crash or a
start that never ran the macro becomes rows (the later files read in a fresh start)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from tests import libreoffice
from tests.docx.builders import make_docx, p
from tests.libreoffice import read_paragraphs, read_views

DATE = 'w:date="2025-01-01T00:00:00Z"'


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _ins(number: int, author: str, text: str) -> str:
    return f'<w:ins w:id="{number}" w:author="{author}" {DATE}>{_run(text)}</w:ins>'


def _del(number: int, author: str, text: str) -> str:
    return (
        f'<w:del w:id="{number}" w:author="{author}" {DATE}>'
        f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'
    )


def two_authors(path: Path) -> Path:
    """Alice inserted and deleted a word, Bob inserted one, in one paragraph."""
    runs = (
        _run("Keep ") + _ins(1, "Alice", "alice ") + _ins(2, "Bob", "bob ") + _del(3, "Alice", "gone ") + _run("end.")
    )
    return make_docx(path, p(runs=runs) + p("Last."))


@pytest.fixture
def starts(monkeypatch):
    """How many times LibreOffice is started."""
    count = []
    real = libreoffice._start

    def counted(*args, **kwargs):
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(libreoffice, "_start", counted)
    return count


@pytest.mark.usefixtures("needs_libreoffice")
def test_every_kind_of_action_in_one_start(tmp_path, starts):
    path = str(two_authors(tmp_path / "two.docx"))
    actions = {
        "accept": "Keep alice bob end.",
        "reject": "Keep gone end.",
        ("reject", "Alice"): "Keep bob gone end.",  # Bob's insertion still pending, so shown
        ("accept", "Alice"): "Keep alice bob end.",
        ("reject", "Nobody"): "Keep alice bob gone end.",  # as loaded: pending text is shown
        "asis": "Keep alice bob gone end.",
        (("reject", "Bob"), "accept"): "Keep alice end.",
        (("accept", "Alice"), "reject"): "Keep alice end.",
        (("reject", "Alice"), ("accept", "Bob")): "Keep bob gone end.",
    }
    requests = [(list(action) if isinstance(action[0], tuple) else action, [path]) for action in actions]
    seen = read_views(requests)
    assert len(starts) == 1
    for (action, text), rows in zip(actions.items(), seen, strict=True):
        assert rows[path] == {"file": path, "ok": True, "paragraphs": [text, "Last."], "comments": []}, action


@pytest.mark.usefixtures("needs_libreoffice")
def test_files_it_cannot_read_are_rows_with_the_reason(tmp_path, starts):
    good = two_authors(tmp_path / "good.docx")
    text = tmp_path / "text.docx"
    text.write_text("Only words, no package.\n")
    broken = tmp_path / "broken.docx"
    broken.write_bytes(good.read_bytes()[:400])
    missing = tmp_path / "missing.docx"
    rows = read_paragraphs("accept", [text, broken, missing, good])
    assert len(starts) == 1
    assert "not read the file as a Word document" in rows[str(text)]["error"]
    assert rows[str(broken)]["ok"] is False and "LibreOffice" in rows[str(broken)]["error"]
    assert "cannot read the file" in rows[str(missing)]["error"]
    assert rows[str(good)]["paragraphs"] == ["Keep alice bob end.", "Last."]
    assert not list(tmp_path.glob(".~lock*")), "LibreOffice works on copies only"


@pytest.mark.usefixtures("needs_libreoffice")
def test_what_libreoffice_saves_after_the_action(tmp_path):
    path = two_authors(tmp_path / "two.docx")
    asis, rejected = read_views([("asis", [path]), (("reject", "Alice"), [path])], save_to=tmp_path / "saved")
    kept = DocxDocument.open(asis[str(path)]["saved"])
    assert [block.text for block in kept.blocks] == [block.text for block in DocxDocument.open(path).blocks]
    resolved = DocxDocument.open(rejected[str(path)]["saved"])
    assert [block.text for block in resolved.blocks] == ["Keep bob gone end.", "Last."]


@pytest.mark.parametrize("action", ["keep", ("asis", "Alice"), ("accept", ""), ["accept", ("reject", None)]])
def test_a_malformed_action_is_refused(action):
    with pytest.raises(ValueError):
        read_paragraphs(action, [])


def _fake_libreoffice(script: list[list[str] | None], calls: list[list[str]]):
    """A stand-in for ``_start``: each start takes the next entry of ``script``, the outcome of
    each item of its job ("read", "fail", or "die" to stop there), or None for a start that never
    runs the macro."""

    def start(profile, job, timeout):
        work = json.loads(Path(job).read_text())
        calls.append([Path(item["file"]).name for item in work["items"]])
        outcomes = script.pop(0)
        if outcomes is None:
            return "exit code 1: no display"
        with open(work["log"], "a") as log:
            for index, (item, outcome) in enumerate(zip(work["items"], outcomes, strict=False)):
                log.write(json.dumps({"index": index, "begin": True}) + "\n")
                if outcome == "die":
                    return "exit code -11"
                row = {"paragraphs": [Path(item["file"]).name]} if outcome == "read" else {"error": "refused"}
                log.write(json.dumps({"index": index, **row}) + "\n")
        return "exit code 0"

    return start


def test_a_crash_is_the_files_row_and_the_rest_are_read_in_a_fresh_start(tmp_path, monkeypatch):
    files = []
    for name in ("a", "b", "c", "d"):
        files.append(tmp_path / f"{name}.docx")
        files[-1].write_bytes(b"stand-in")
    calls: list[list[str]] = []
    script = [["read", "die"], ["fail", "read"]]
    monkeypatch.setattr(libreoffice, "_start", _fake_libreoffice(script, calls))
    accepted, rejected = read_views([("accept", files[:3]), ("reject", files[3:])])
    assert calls == [["a.docx", "b.docx", "c.docx", "d.docx"], ["c.docx", "d.docx"]]
    assert accepted[str(files[0])] == {"file": str(files[0]), "ok": True, "paragraphs": ["a.docx"]}
    assert accepted[str(files[1])]["error"] == "LibreOffice crashed or hung on this file (exit code -11)"
    assert accepted[str(files[2])] == {"file": str(files[2]), "ok": False, "error": "refused"}
    assert rejected[str(files[3])]["paragraphs"] == ["d.docx"]


def test_a_start_that_never_runs_the_macro_fails_every_file_once(tmp_path, monkeypatch):
    files = [tmp_path / "a.docx", tmp_path / "b.docx"]
    for path in files:
        path.write_bytes(b"stand-in")
    calls: list[list[str]] = []
    monkeypatch.setattr(libreoffice, "_start", _fake_libreoffice([None], calls))
    rows = read_paragraphs("asis", files)
    assert len(calls) == 1
    assert {row["error"] for row in rows.values()} == {
        "LibreOffice did not run the reading macro (exit code 1: no display)"
    }
