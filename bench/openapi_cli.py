"""`deskcheck openapi check` and `deskcheck openapi tools` on the real 630 KB data-fair document,
as whole processes: median wall time over N runs.

`check` is measured twice: with an empty state directory on every run (a CI job, a pre-commit hook
on a changed document) and with one state directory kept across runs. check caches nothing, so the
two should agree; the pair keeps any future cache honest about the cold case.

`--formats` times `check` on the same document as JSON and as YAML (the twin written to a
temporary folder from the parsed document): reading YAML must stay within twice the JSON time.
Wall time and CPU time (user + system, steadier on a shared machine) are both printed.

Run: python bench/openapi_cli.py [--runs N] [--document PATH] [--formats]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from _common import REFERENCE_OPENAPI, deskcheck, environment, reference, run_process


def median(command: list[str], runs: int, *, fresh_state: bool) -> float:
    return medians(command, runs, fresh_state=fresh_state)[0]


def medians(command: list[str], runs: int, *, fresh_state: bool) -> tuple[float, float, float]:
    """Median wall and CPU seconds and peak MiB over ``runs`` runs (after one to warm the file
    cache)."""
    samples = []
    cpu = []
    peaks = []
    with tempfile.TemporaryDirectory() as shared_state:
        for index in range(runs + 1):
            with tempfile.TemporaryDirectory() as own_state:
                # Installed packages have their bytecode cached; a sandbox that disables it would
                # measure Python compiling deskcheck's sources on every run instead.
                env = environment(own_state if fresh_state else shared_state)
                sample = run_process(command, env)
            if index:  # the first run warms the file cache (and, when shared, the state directory)
                samples.append(sample.wall)
                cpu.append(sample.cpu)
                peaks.append(sample.peak_kib / 1024)
    return statistics.median(samples), statistics.median(cpu), statistics.median(peaks)


# Writes the twin of argv[1] at argv[2], in another process: a measured process forked from one
# that holds the parsed document would report its memory as its own peak (ru_maxrss counts it).
TWIN = """
import json, sys, yaml
source, twin = sys.argv[1], sys.argv[2]
text = open(source, encoding="utf-8").read()
if source.lower().endswith((".yaml", ".yml")):
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out = json.dumps(data, indent=2, ensure_ascii=False, default=str)
else:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: GitHub's 13 MB in seconds
    out = yaml.dump(json.loads(text), Dumper=dumper, sort_keys=False, allow_unicode=True)
open(twin, "w", encoding="utf-8").write(out)
"""


def compare_formats(document: Path, runs: int) -> None:
    """``openapi check`` on ``document`` and on its twin in the other format."""
    import subprocess

    is_yaml = document.suffix.lower() in (".yaml", ".yml")
    with tempfile.TemporaryDirectory() as folder:
        twin = Path(folder) / (document.stem + (".json" if is_yaml else ".yaml"))
        subprocess.run([sys.executable, "-c", TWIN, str(document), str(twin)], check=True)
        pair = {"json": twin if is_yaml else document, "yaml": document if is_yaml else twin}
        timed = {}
        for kind, path in pair.items():
            timed[kind] = medians([deskcheck(), "openapi", "check", str(path)], runs, fresh_state=True)
            size = path.stat().st_size / 1024 / 1024
            wall, cpu, peak = timed[kind]
            label = f"openapi check, {kind} ({size:.1f} MiB)"
            print(f"{label:32} median wall {wall * 1000:8.1f} ms   cpu {cpu * 1000:8.1f} ms   peak {peak:6.0f} MiB")
        ratios = [timed["yaml"][index] / timed["json"][index] for index in range(3)]
        print(f"YAML / JSON: wall {ratios[0]:.2f}x, cpu {ratios[1]:.2f}x, peak memory {ratios[2]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--document", type=Path, default=REFERENCE_OPENAPI)
    parser.add_argument("--formats", action="store_true", help="compare check on the document as JSON and as YAML")
    options = parser.parse_args()
    reference(options.document)
    if options.formats:
        compare_formats(options.document, options.runs)
        return
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
