"""Editing a .docx with suggest_changes: whole-process time of
`deskcheck docx suggest-changes FILE @batch.json -o OUT`, the save included.

The reference file is folio's performance-1500-paragraphs.docx. Batches:

1. 50 replaceInBlock operations, each on its own block and each with a comment (the reference
   system takes about 0.52 s on this machine class; the target is under 0.30 s);
2. 200 such operations (target under 0.6 s), with --max-operations 200;
3. the same 50 in direct mode, and 50 without comments, to show what each part costs.

The CLI floor is `deskcheck call --docx FILE no_such_tool` (Python and the CLI, no document; such a
plain line is read without Typer).
Each run writes to an output file, so the input stays the same from run to run. Median and best of
N runs after a warm-up run, and the median CPU time (user + system) of each process, which a busy
machine disturbs less; bytecode caching on, as for an installed deskcheck.

Run from the repository root with the project's environment active:
    python bench/docx_edit.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import REFERENCE_DOCX as REFERENCE
from _common import REPO, Sample, deskcheck, environment, reference, run_process


def run_once(command: list[str]) -> Sample:
    """One process (wall time and CPU time; on a machine shared with other jobs the CPU time is
    the steadier figure: waiting for a core does not count). Any exit code but 0, 1 or 2 stops
    the benchmark."""
    sample = run_process(command)
    if sample.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(command)} failed with exit code {sample.returncode}")
    return sample


def measure(command: list[str], runs: int) -> tuple[float, float, float]:
    """Median wall time, best wall time, median CPU time."""
    run_once(command)
    samples = [run_once(command) for _ in range(runs)]
    walls = [sample.wall for sample in samples]
    return statistics.median(walls), min(walls), statistics.median([sample.cpu for sample in samples])


def batch(count: int, *, comments: bool) -> dict:
    """``count`` replaceInBlock operations on blocks spread over the document."""
    sys.path.insert(0, str(REPO))
    from deskcheck.engine.docx.model.document import DocxDocument

    blocks = DocxDocument.open(REFERENCE).blocks
    step = max(1, len(blocks) // count)
    operations = []
    for number, block in enumerate(blocks[::step][:count]):
        operation = {"type": "replaceInBlock", "blockId": block.id, "find": "measurement", "replace": "layout"}
        if comments:
            operation["comment"] = f"Reviewer note {number + 1}: the wording changed."
        operations.append(operation)
    return {"operations": operations}


def check_result(command: list[str], expected: int) -> None:
    proc = subprocess.run(command, stdout=subprocess.PIPE, env=environment(), check=False)
    result = json.loads(proc.stdout)["result"]
    applied = len(result["applied"])
    if applied != expected:
        raise SystemExit(f"expected {expected} applied operations, got {applied}: {result['skipped'][:2]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    reference(REFERENCE)
    exe = deskcheck()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        output = tmp / "out.docx"
        cases = []
        for label, count, comments, extra in (
            ("50 replaceInBlock + comments", 50, True, []),
            ("200 replaceInBlock + comments", 200, True, ["--max-operations", "200"]),
            ("50 replaceInBlock + comments, direct", 50, True, ["--mode", "direct"]),
            ("50 replaceInBlock, no comments", 50, False, []),
        ):
            path = tmp / f"batch-{count}-{comments}-{len(extra)}.json"
            path.write_text(json.dumps(batch(count, comments=comments)))
            command = [exe, "--json", "docx", "suggest-changes", str(REFERENCE), f"@{path}", "-o", str(output), *extra]
            check_result(command, count)
            cases.append((label, command))
        floor = [exe, "--json", "call", "--docx", str(REFERENCE), "no_such_tool"]
        print(f"file: {REFERENCE.name}, {args.runs} runs each: wall median / wall best / CPU median")
        for label, command in [("CLI floor (no document read)", floor), *cases]:
            median, best, cpu = measure(command, args.runs)
            print(f"  {label:<40} {median * 1000:7.1f} ms / {best * 1000:7.1f} ms / {cpu * 1000:7.1f} ms")
        print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
