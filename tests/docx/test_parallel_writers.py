"""No lost updates between writers (issue 26 item 5): processes that update one .docx at the same
time each land in turn or are told they lost; none answers ok while its change is gone. The lock
(``engine/file_lock.py``) is held on the file from the read to the atomic write."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.docx.builders import make_docx, p
from tests.helpers import deskcheck_executable, run_cli

pytestmark = pytest.mark.slow

BLOCK = "0A000001"


def together(commands: list[list[str]]) -> list[tuple[int, dict]]:
    """Run ``deskcheck`` with each argument list at once; their exit codes and envelopes."""
    started = [
        subprocess.Popen([deskcheck_executable(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for args in commands
    ]
    out = []
    for proc in started:
        stdout, stderr = proc.communicate(timeout=300)
        assert stdout, stderr
        out.append((proc.returncode, json.loads(stdout)))
    return out


@pytest.fixture
def race(tmp_path) -> Path:
    # Long enough that each writer's read-to-write takes a while, so that writers overlap.
    rest = "".join(p(f"Clause {n}: the parties agree to term {n}.") for n in range(3_000))
    return make_docx(tmp_path / "race.docx", p("The Supplier shall deliver the goods.", para_id=BLOCK) + rest)


def test_ten_parallel_comments_all_land(race):
    answers = together(
        [["docx", "add-comment", str(race), json.dumps({"blockId": BLOCK, "text": f"Note {n}."})] for n in range(10)]
    )
    assert [code for code, _ in answers] == [0] * 10, answers
    comments = run_cli("docx", "read-comments", str(race)).json["result"]["comments"]
    assert sorted(c["text"] for c in comments) == sorted(f"Note {n}." for n in range(10))


def test_one_of_eight_writers_of_one_version_applies_the_others_are_told(race):
    version = run_cli("docx", "read-document", str(race), '{"maxBlocks": 1}').json["result"]["documentVersion"]

    def batch(n: int) -> str:
        operation = {"type": "replaceInBlock", "blockId": BLOCK, "find": "goods", "replace": f"goods, lot {n}"}
        return json.dumps({"operations": [operation], "documentVersion": version})

    answers = together(
        [["docx", "suggest-changes", str(race), batch(n), "--require-document-version"] for n in range(8)]
    )
    applied = [n for n, (code, envelope) in enumerate(answers) if code == 0 and envelope["result"]["applied"]]
    assert len(applied) == 1, answers
    for n, (code, envelope) in enumerate(answers):
        if n not in applied:
            assert code == 1 and "documentVersion" in envelope["error"], envelope
    changes = run_cli("docx", "read-changes", str(race)).json["result"]["changes"]
    assert {c.get("text") for c in changes if c["type"] == "insertion"} == {f", lot {applied[0]}"}
