"""What the benchmarks share: where the repository and the corpus are, which ``deskcheck`` to
run, the environment a measured process gets, and one measured process.

Bytecode caching is switched on for the measured processes (as it is for an installed
deskcheck), even when PYTHONDONTWRITEBYTECODE is set in the calling shell.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
# The reference documents are other projects' files from the test corpus, found through the
# tests' one setting (DESKCHECK_TEST_CORPUS, default ../shared/corpus: tests/corpus.py).
sys.path.insert(0, str(REPO))
from tests import corpus  # noqa: E402

REFERENCE_DOCX = corpus.DOCX / "folio" / "performance-1500-paragraphs.docx"
REFERENCE_OPENAPI = corpus.OPENAPI / "data-fair-root.annotated.json"


def reference(path: Path) -> Path:
    """``path`` when the corpus has it; otherwise exit saying where the benchmark looked."""
    if not path.is_file():
        sys.exit(f"{path} is missing: set {corpus.ENV} to the test corpus (see tests/corpus.py)")
    return path


def deskcheck() -> str:
    """The ``deskcheck`` script beside the running Python (the project's venv), else the PATH's."""
    candidate = os.path.join(os.path.dirname(sys.executable), "deskcheck")
    return candidate if os.path.exists(candidate) else "deskcheck"


def environment(state: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The calling environment with bytecode caching on, and ``DESKCHECK_STATE_DIR`` set to
    ``state`` when one is given."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if state is not None:
        env["DESKCHECK_STATE_DIR"] = str(state)
    return env


class Sample(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds: steadier than wall time on a machine shared with other jobs
    peak_kib: int  # peak resident memory
    returncode: int


def run_process(command: list[str], env: dict[str, str] | None = None) -> Sample:
    """Run ``command`` once, output discarded (default environment: ``environment()``)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env if env is not None else environment()
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode)
