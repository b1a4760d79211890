"""What a file-backed form save costs on the file side: reading a record file, and writing one
changed value back into it in place (``textdoc.write_document``: parse with positions, compare,
splice, parse again to check), for generated JSON and YAML files of growing size.

    python bench/file_saves.py

Prints, per file: its size, the median (best) time to read it, to save it unchanged, to save one
changed value deep inside, and to save one key added at the top level; and the peak memory of the
process.
"""

from __future__ import annotations

import copy
import json
import resource
import statistics
import time

from deskcheck.engine.textdoc import read_document, render_document, write_document

REPEATS = 5


def record(n: int) -> dict:
    """A configuration-like document of ``n`` services."""
    return {
        "version": "3.9",
        "services": {
            f"svc{i}": {
                "image": f"registry.example/app{i}:1.{i}",
                "ports": [f"{8000 + i}:80"],
                "environment": {"LEVEL": "info", "RATIO": 0.25, "ENABLED": True},
                "command": ["python", "-m", "app", "--worker", str(i)],
            }
            for i in range(n)
        },
    }


def timed(fn) -> tuple[float, float]:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    print(f"{'file':<24}{'bytes':>10}{'read':>18}{'no change':>18}{'one value':>18}{'one key':>18}")
    for kind in ("json", "yaml"):
        for n in (10, 100, 1000):
            data = record(n)
            text = json.dumps(data, indent=2) + "\n" if kind == "json" else render_document(data, "yaml")
            raw = text.encode()
            loaded = read_document(text, kind, "bench")
            changed = copy.deepcopy(loaded)
            changed["services"][f"svc{n // 2}"]["environment"]["LEVEL"] = "debug"
            grown = {**copy.deepcopy(loaded), "x-note": "added"}
            cells = [
                timed(lambda: read_document(text, kind, "bench")),  # noqa: B023 - called at once
                timed(lambda: write_document(raw, loaded, kind)),  # noqa: B023
                timed(lambda: write_document(raw, changed, kind)),  # noqa: B023
                timed(lambda: write_document(raw, grown, kind)),  # noqa: B023
            ]
            shown = "".join(f"{m * 1000:>10.1f} ({b * 1000:.1f})" for m, b in cells)
            print(f"{kind + ' ' + str(n) + ' services':<24}{len(raw):>10}{shown}")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB (times in ms)")


if __name__ == "__main__":
    main()
