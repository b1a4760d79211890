"""Start-up time of the CLI: median wall time of `deskcheck --version` against `python -c pass`.

Run: python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from _common import deskcheck


def median_seconds(command: list[str], runs: int) -> float:
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)  # warm the file cache
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    version = median_seconds([deskcheck(), "--version"], runs)
    help_ = median_seconds([deskcheck(), "--help"], runs)
    bare = median_seconds([sys.executable, "-c", "pass"], runs)
    print(f"python -c pass       median {bare * 1000:7.1f} ms  ({runs} runs)")
    print(f"deskcheck --version  median {version * 1000:7.1f} ms  ratio {version / bare:.2f}x")
    print(f"deskcheck --help     median {help_ * 1000:7.1f} ms  ratio {help_ / bare:.2f}x")


if __name__ == "__main__":
    main()
