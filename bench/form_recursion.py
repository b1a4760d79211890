"""Recursive schemas: ``deskcheck form describe-state`` on schemas that refer to themselves.

Issue 16's cases: SchemaStore's ``jsone`` (a value is an object, a list or a scalar, and objects
hold values), ``renovate-43`` (370 kB, 138 references to the whole schema) and a minimal schema
with two properties that are the whole schema again. Each is described over an empty record
and over a record with data (jsone's SchemaStore instance sort.json; a renovate configuration with nested
package rules; a tree of the minimal schema six levels deep), as whole processes on a fresh
state directory, so every run opens the session, prepares and compiles the schema. Target:
within 1 s and under 150 MB each (before issue 16 the minimal schema hung, jsone reached 2 GB
in a minute and renovate 1.4 GB in 30 s).

Run from the repository root with the project's environment active:
    python bench/form_recursion.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from _common import REPO, deskcheck, environment, run_process

FIXTURES = REPO / "tests" / "fixtures" / "schemastore"
MINIMAL = {"properties": {"a": {"$ref": "#"}, "b": {"$ref": "#"}}}
RENOVATE_RECORD = {
    "extends": ["config:recommended"],
    "packageRules": [
        {"matchPackageNames": ["lodash"], "automerge": True},
        {"matchUpdateTypes": ["major"], "packageRules": [{"matchPackageNames": ["react"], "enabled": False}]},
    ],
    "lockFileMaintenance": {"enabled": True, "schedule": ["before 5am on monday"]},
}


def tree(depth: int) -> dict:
    return {} if depth == 0 else {"a": tree(depth - 1), "b": {"a": {}}}


def cases(folder: Path) -> list[tuple[str, Path, Path]]:
    minimal = folder / "minimal.schema.json"
    minimal.write_text(json.dumps(MINIMAL))
    out = []
    for name, schema, record in [
        ("minimal", minimal, tree(6)),
        ("jsone", FIXTURES / "schemas" / "jsone.json", json.loads((FIXTURES / "test/jsone/sort.json").read_text())),
        ("renovate-43", FIXTURES / "schemas" / "renovate-43.json", RENOVATE_RECORD),
    ]:
        empty = folder / f"{name}.empty.json"
        empty.write_text("{}\n")
        full = folder / f"{name}.data.json"
        full.write_text(json.dumps(record, indent=2) + "\n")
        out += [(f"{name}, empty record", schema, empty), (f"{name}, with data", schema, full)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| case | median wall | best | peak memory (max) |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, schema, data in cases(folder):
            walls, peaks = [], []
            for run in range(args.runs):
                state = folder / f"state-{label}-{run}".replace(" ", "_").replace(",", "")
                sample = run_process(
                    [deskcheck(), "form", "describe-state", "--schema", str(schema), "--data", str(data)],
                    environment(state),
                )
                assert sample.returncode == 0, (label, sample)
                walls.append(sample.wall)
                peaks.append(sample.peak_kib / 1024)
            print(
                f"| {label} | {statistics.median(walls):.3f} s | {min(walls):.3f} s | {max(peaks):.0f} MiB |",
                flush=True,
            )


if __name__ == "__main__":
    main()
