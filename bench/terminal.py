"""deskcheck on a terminal: `docx read-document` of generated documents (1,500 to 15,000 paragraphs)
with stdout on a pseudo-terminal (the readable table, no pager: DESKCHECK_PAGER=cat), next to the
same command piped (the JSON envelope), as whole processes; and the drawing of the block table
alone, in this process.

Before the terminal views, a 15,000-paragraph document printed 90,247 lines of highlighted JSON in
about 22 s on a terminal (the issue's figure); the table is one line per block.

Run from the repository root with the project's environment active:
    python bench/terminal.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.docx.builders

from _common import deskcheck, environment, run_process

SIZES = (1_500, 5_000, 15_000)


def on_terminal(command: list[str]) -> tuple[float, int]:
    """Wall time of ``command`` with stdout and stderr on a pseudo-terminal 120x40, and the
    number of lines it printed."""
    leader, follower = pty.openpty()
    env = {**environment(), "DESKCHECK_PAGER": "cat", "COLUMNS": "120", "LINES": "40", "TERM": "xterm-256color"}
    received = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL, env=env)
    proc.wait()
    wall = time.perf_counter() - start
    os.close(follower)
    reader.join(timeout=10)
    os.close(leader)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}")
    return wall, received.count(b"\n")


def draw_table(paragraphs: int) -> float:
    """Seconds to draw the block table of ``paragraphs`` blocks at 120 columns, in colour."""
    from deskcheck.cli.render.docx import read_document
    from deskcheck.cli.render.draw import Styler, draw

    blocks = [
        {"blockId": f"{n:08X}", "kind": "heading" if n % 10 == 0 else "paragraph", "headingLevel": 1,
         "text": f"Paragraph {n}: the parties agree that clause {n % 97} applies to every deliverable."}
        for n in range(paragraphs)
    ]  # fmt: skip
    start = time.perf_counter()
    draw(read_document({"blocks": blocks, "totalBlocks": paragraphs}, {}), 120, Styler("256"))
    return time.perf_counter() - start


def main() -> None:
    from tests.docx.builders import long_document

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            document = long_document(Path(folder) / f"long-{size}.docx", size)
            command = [deskcheck(), "docx", "read-document", str(document)]
            on_terminal(command)  # warm the caches
            samples = [on_terminal(command) for _ in range(runs)]
            piped = [run_process(command).wall for _ in range(runs)]
            terminal_wall = statistics.median(wall for wall, _ in samples)
            print(
                f"read-document {size:>6,} paragraphs: terminal median {terminal_wall:6.3f} s "
                f"({samples[0][1]:,} lines), piped JSON median {statistics.median(piped):6.3f} s"
            )
    for size in SIZES:
        best = min(draw_table(size) for _ in range(runs))
        print(f"drawing the block table of {size:>6,} blocks: best {best * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
