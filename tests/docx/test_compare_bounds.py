"""Compare and redline cost what the documents' size allows, whatever their shape (issue 26 item 2):
blanks and repeated paragraphs left unpaired once made re-anchoring pair every one of a version
with every one of the other (10,000 paragraphs: MemoryError)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.docx.versions.redline import redline_files
from tests.docx.builders import make_docx, p

# The peak is read from Linux's /proc, after the imports' (``peak_mib``).
measured = pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="reads the peak from /proc")

# Past this many paragraphs a side, the equal-text alignment of blanks gives up (its cells
# budget), and every blank is left for re-anchoring.
PARAGRAPHS = 2_100
LABELLED = 42


def blank_heavy(path: Path, seed: int, paragraphs: int = PARAGRAPHS, labelled: int = LABELLED) -> Path:
    """``paragraphs`` paragraphs, all empty but ``labelled`` ones (at other places in each
    version), whose text names the version."""
    where = set(random.Random(seed).sample(range(paragraphs), labelled))
    texts = iter(range(labelled))
    body = "".join(p(f"Clause {next(texts)}, version {seed}") if n in where else p() for n in range(paragraphs))
    return make_docx(path, body)


def current_texts(changes: list[dict]) -> list[str]:
    """The current version's text of each change that has one."""
    out = []
    for change in changes:
        if "currentBlockId" in change:
            segments = change.get("segments") or [{"type": "equal", "text": change["text"]}]
            out.append("".join(s["text"] for s in segments if s["type"] != "del"))
    return out


def peak_mib(call: str, *paths: Path) -> float:
    """The most memory a fresh Python holds while running ``call`` (an expression of
    ``compare_versions``, ``redline_files`` and ``paths``), in MiB, once the modules it needs are
    imported (compiling them, when no bytecode is cached, costs more than some calls)."""
    script = (
        "import sys\n"
        "from deskcheck.engine.docx.versions.compare import compare_versions\n"
        "from deskcheck.engine.docx.versions.redline import redline_files\n"
        "paths = sys.argv[1:]\n"
        "import os, tempfile\n"
        "compare_versions(paths[0], paths[0])\n"
        "redline_files(paths[0], paths[0], os.path.join(tempfile.mkdtemp(), 'warm.docx'))\n"
        "with open('/proc/self/clear_refs', 'w') as reset:\n"
        "    reset.write('5')  # the peak so far, forgotten\n"
        f"{call}\n"
        "print(next(line for line in open('/proc/self/status') if line.startswith('VmHWM')).split()[1])\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *map(str, paths)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1]) / 1024


@pytest.fixture
def versions(tmp_path) -> tuple[Path, Path]:
    return blank_heavy(tmp_path / "a.docx", 1), blank_heavy(tmp_path / "b.docx", 2)


@measured
@pytest.mark.slow
def test_blank_paragraphs_cost_what_their_number_does(versions):
    # Each blank is offered a few partners, not every blank of the other version (2,058 x 2,058
    # candidate pairs: 360 MiB, 58 with the bound).
    assert peak_mib("compare_versions(*paths)", *versions) < 150
    result = compare_versions(*versions)
    # Still correct: every clause is reported with its new text, every blank kept.
    assert set(current_texts(result["changes"])) == {f"Clause {n}, version 2" for n in range(LABELLED)}
    assert result["summaryCounts"]["unchanged"] == PARAGRAPHS - LABELLED
    assert "too many ways" in result["approximate"]


@measured
@pytest.mark.slow
def test_a_redline_of_blank_heavy_versions_is_bounded_and_says_so(versions, tmp_path):
    assert peak_mib("redline_files(*paths)", *versions, tmp_path / "peak.docx") < 150
    report = redline_files(*versions, tmp_path / "out.docx")
    assert "too many ways" in report["approximate"]
    assert report["summaryCounts"]["unchanged"] == PARAGRAPHS - LABELLED


@measured
@pytest.mark.slow
def test_one_hostile_version_is_enough(tmp_path):
    clauses = "".join(p(f"Clause {n}: the supplier delivers lot {n} by day {n % 28 + 1}.") + p() for n in range(500))
    contract = make_docx(tmp_path / "contract.docx", clauses)
    blanks = make_docx(tmp_path / "blanks.docx", p() * 8_000)
    assert peak_mib("compare_versions(*paths)", contract, blanks) < 150
    counts = compare_versions(contract, blanks)["summaryCounts"]
    assert counts["deleted"] == 500  # every clause is gone
    assert counts["added"] + counts["unchanged"] == 8_000


def test_an_ordinary_comparison_is_not_called_approximate(tmp_path):
    previous = make_docx(tmp_path / "a.docx", p("One.") + p() + p("Two.") + p() * 3 + p("Three."))
    current = make_docx(tmp_path / "b.docx", p("One.") + p() * 2 + p("Two, rewritten.") + p() + p("Three."))
    assert "approximate" not in compare_versions(previous, current)
    assert "approximate" not in redline_files(previous, current, tmp_path / "out.docx")


def test_the_compare_tool_passes_the_note_on(versions):
    from deskcheck.engine.docx import docx_toolset

    answer = docx_toolset(versions[1]).call("compare_versions", {"previous": str(versions[0])})
    assert answer.ok and "too many ways" in answer.value["approximate"]
