"""`deskcheck openapi check` and `deskcheck openapi tools` on the real 630 KB data-fair document,
as whole processes: median wall time over N runs.

`check` is measured twice: with an empty state directory on every run (a CI job, a pre-commit hook
on a changed document) and with one state directory kept across runs. check caches nothing, so the
two should agree; the pair keeps any future cache honest about the cold case.

Run: python bench/openapi_cli.py [--runs N] [--document PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from _common import REFERENCE_OPENAPI, deskcheck, environment, reference, run_process


def median(command: list[str], runs: int, *, fresh_state: bool) -> float:
    samples = []
    with tempfile.TemporaryDirectory() as shared_state:
        for index in range(runs + 1):
            with tempfile.TemporaryDirectory() as own_state:
                # Installed packages have their bytecode cached; a sandbox that disables it would
                # measure Python compiling deskcheck's sources on every run instead.
                env = environment(own_state if fresh_state else shared_state)
                elapsed = run_process(command, env).wall
            if index:  # the first run warms the file cache (and, when shared, the state directory)
                samples.append(elapsed)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--document", type=Path, default=REFERENCE_OPENAPI)
    options = parser.parse_args()
    reference(options.document)
    document = str(options.document)
    size = options.document.stat().st_size
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"], False),
        ("openapi tools (json)", [deskcheck(), "openapi", "tools", document], False),
        ("openapi tools --profile write", [deskcheck(), "openapi", "tools", document, "--profile", "write"], False),
        ("openapi check (kept state dir)", [deskcheck(), "openapi", "check", document], False),
        ("openapi check (fresh state dir)", [deskcheck(), "openapi", "check", document], True),
    ]
    print(f"document: {options.document.name} ({size / 1024:.0f} KiB), {options.runs} runs each")
    for label, command, fresh in rows:
        print(f"{label:32} median {median(command, options.runs, fresh_state=fresh) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
