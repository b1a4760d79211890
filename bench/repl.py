"""REPL responsiveness: the time from Enter to the next prompt (the command plus the refresh of the
toolbar state and the completion candidates), and the time to compute completions, in one
process, on the 301-field form of bench/form_engine.py and a 1,500-paragraph corpus document.

Run: python bench/repl.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REFERENCE_DOCX as LONG_DOCUMENT
from bench._common import reference
from bench.form_engine import build_data, build_schema


def median_ms(action, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def shell_for(context):
    from deskcheck.cli.repl.loop import Shell
    from deskcheck.cli.repl.render import Printer
    from deskcheck.cli.repl.start import build_mode

    out = io.StringIO()
    printer = Printer(out, out, color=False)
    mode = build_mode(context, [], printer, allow_invalid=False)
    start = time.perf_counter()
    assert mode.start() == 0, out.getvalue()
    shell = Shell(mode, printer)
    shell.refresh()
    return shell, (time.perf_counter() - start) * 1000


def run_line(shell, line: str) -> None:
    code = shell.run_line(line)
    assert code == 0, f"{line}: {shell.printer.out.file.getvalue()[-500:]}"


def form_figures(folder: Path, runs: int) -> list[tuple[str, float]]:
    from deskcheck.cli.context import ContextOptions
    from deskcheck.cli.repl.suggest import suggest

    schema, data = folder / "form.schema.json", folder / "form.json"
    schema.write_text(json.dumps(build_schema()))
    data.write_text(json.dumps(build_data()))
    shell, started = shell_for(ContextOptions(schema=schema, data=data))
    values = iter(range(10**6))
    rows = [
        ("form: start (open the session, first refresh)", started),
        ("form: set /section0/f1 N", median_ms(lambda: run_line(shell, f"set /section0/f1 {next(values)}"), runs)),
        ("form: show (whole form)", median_ms(lambda: run_line(shell, "show"), runs)),
        ("form: errors", median_ms(lambda: run_line(shell, "errors"), runs)),
        ("form: diff", median_ms(lambda: run_line(shell, "diff"), runs)),
        (
            f"form: completions of `set /sec` ({len(shell.catalog.values['field'])} paths)",
            median_ms(lambda: suggest("set /sec", shell.catalog), runs),
        ),
    ]
    shell.mode.leave(None)
    return rows


def review_figures(folder: Path, runs: int) -> list[tuple[str, float]]:
    from deskcheck.cli.context import ContextOptions
    from deskcheck.cli.repl.suggest import suggest

    path = folder / "long.docx"
    shutil.copy(LONG_DOCUMENT, path)
    os.chmod(path, 0o644)
    shell, started = shell_for(ContextOptions(docx=path))
    blocks = shell.mode.blocks
    numbers = iter(range(len(blocks)))

    def replace_and_apply() -> None:
        block = blocks[next(numbers)]
        word = block["text"].split()[0]
        run_line(shell, f"replace {block['blockId']} {word} => Changed")
        run_line(shell, "apply")

    rows = [
        (f"review: start ({len(blocks)} blocks)", started),
        ("review: blocks 700 20", median_ms(lambda: run_line(shell, "blocks 700 20"), runs)),
        ("review: find paragraph", median_ms(lambda: run_line(shell, "find paragraph"), runs)),
        ("review: replace + apply (one operation)", median_ms(replace_and_apply, runs)),
        (
            "review: completions of `replace 1` (block ids)",
            median_ms(lambda: suggest("replace 1", shell.catalog), runs),
        ),
        (
            "review: completions of `delete pagination` (words of a block)",
            median_ms(lambda: suggest("delete pagination", shell.catalog), runs),
        ),
    ]
    shell.mode.ops.clear()
    shell.mode.leave(None)
    shell.mode.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    reference(LONG_DOCUMENT)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DESKCHECK_STATE_DIR"] = str(Path(folder) / "state")
        rows = form_figures(Path(folder), runs) + review_figures(Path(folder), runs)
    width = max(len(name) for name, _ in rows)
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:8.1f} ms")


if __name__ == "__main__":
    main()
