"""Large record files in a file-backed form session: a catalogue of 21,000 items (a list of
objects, 8 values each), as JSON and YAML of about 5 MB, and as JSON of 25 MB (longer notes).

Each case starts from an empty state directory and runs four whole processes in turn, as a script
would: ``form describe-state`` (opens the session: reads the file, prepares the schema, stores the
session), ``form describe-state`` again (a warm session), ``form set-field-value`` of one item's
field, and ``form save-form`` (writes that one value into the file). For each: wall and CPU
seconds, peak resident memory, and the bytes printed. Targets (issue 28): describe and save of a
5 MB JSON or YAML under 2 s, peak under 300 MB for 25 MB; describing the 21,000-item list prints
a page, not every item.

    python bench/large_files.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import deskcheck, environment

ITEMS = 21_000
SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "version": {"type": "integer"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"type": "string"},
                    "sku": {"type": "string", "pattern": "^SKU-[0-9]+$"},
                    "price": {"type": "number", "minimum": 0},
                    "active": {"type": "boolean"},
                    "note": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


def catalogue(note_chars: int) -> dict:
    words = "lorem ipsum dolor sit amet " * (note_chars // 20 + 2)
    return {
        "title": "catalogue",
        "version": 3,
        "items": [
            {
                "id": i,
                "name": f"item {i}",
                "sku": f"SKU-{i:06d}",
                "price": round(i * 0.37, 2),
                "active": i % 3 == 0,
                "note": words[: note_chars + i % 17],
                "tags": ["a", "b"][: i % 3],
            }
            for i in range(ITEMS)
        ],
    }


def write_case(folder: Path, kind: str, note_chars: int) -> Path:
    from deskcheck.engine.textdoc import render_document

    data = catalogue(note_chars)
    path = folder / f"catalogue.{kind}"
    text = json.dumps(data, indent=2) + "\n" if kind == "json" else render_document(data, "yaml")
    path.write_text(text)
    return path


class Run:
    def __init__(self, wall: float, cpu: float, peak_mib: float, printed: int, code: int) -> None:
        self.wall, self.cpu, self.peak_mib, self.printed, self.code = wall, cpu, peak_mib, printed, code


def run(command: list[str], env: dict[str, str]) -> Run:
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, len(out), code)


def case(folder: Path, kind: str, note_chars: int, runs: int) -> None:
    data = write_case(folder, kind, note_chars)
    schema = folder / "catalogue.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    size = data.stat().st_size
    base = [deskcheck(), "form"]
    context = ["--schema", str(schema), "--data", str(data)]
    steps = [
        ("describe (opens)", ["describe-state", *context]),
        ("describe (warm)", ["describe-state", *context]),
        ("set one field", ["set-field-value", *context, '{"path": "/items/20500/name", "value": "renamed"}']),
        ("save", ["save-form", *context]),
    ]
    results: dict[str, list[Run]] = {name: [] for name, _ in steps}
    for _ in range(runs):
        state = tempfile.mkdtemp(dir=folder)
        data.write_text(data.read_text())  # the same file each run
        env = environment(state)
        for name, args in steps:
            results[name].append(run([*base, *args], env))
        write_case(folder, kind, note_chars)
    print(f"\n{kind.upper()}, {size / 1e6:.1f} MB ({ITEMS:,} items)")
    print(f"{'step':<20}{'wall s':>10}{'cpu s':>10}{'peak MiB':>10}{'printed':>12}{'exit':>6}")
    for name, samples in results.items():
        wall = statistics.median(s.wall for s in samples)
        cpu = statistics.median(s.cpu for s in samples)
        peak = max(s.peak_mib for s in samples)
        printed = samples[-1].printed
        codes = {s.code for s in samples}
        print(f"{name:<20}{wall:>10.2f}{cpu:>10.2f}{peak:>10.0f}{printed:>12,}{','.join(map(str, codes)):>6}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("json", "yaml", "large"), default=None)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "json"):
            case(folder, "json", 100, args.runs)
        if args.only in (None, "yaml"):
            case(folder, "yaml", 100, args.runs)
        if args.only in (None, "large"):
            case(folder, "json", 1100, args.runs)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
