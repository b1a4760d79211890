"""Run the save properties over a folder of real JSON and YAML files (not a test: a tool).

    python -m tests.textdoc.sweep FOLDER [--edits N] [--limit N]

For every file: it is read; (a) writing its data back gives the same bytes; (b) each of N
random single edits reads back as intended and changes only the lines of the edited value.
Prints a summary and each failure (file, edit, message). Used over SchemaStore's test
instances (src/test, src/negative_test); failures are pinned in tests/fixtures/textdoc/.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from deskcheck.engine.errors import DeskcheckError
from deskcheck.engine.textdoc import decode, read_document

from .support import check, check_unchanged, edits


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--edits", type=int, default=6)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--max-bytes", type=int, default=200_000)
    parser.add_argument("--seed", default="")
    args = parser.parse_args()
    files = sorted(p for p in args.folder.rglob("*") if p.suffix.lower() in (".json", ".yaml", ".yml"))
    if args.limit:
        files = files[: args.limit]
    counts = {"files": 0, "refused": 0, "unchanged-ok": 0, "edits": 0, "edit-failures": 0, "unchanged-failures": 0}
    refusals: dict[str, int] = {}
    started = time.time()
    for path in files:
        raw = path.read_bytes()
        if len(raw) > args.max_bytes:
            continue
        counts["files"] += 1
        kind = "json" if path.suffix.lower() == ".json" else "yaml"
        try:
            text = decode(raw, str(path))
            read_document(text, kind, str(path))
        except DeskcheckError as exc:
            counts["refused"] += 1
            reason = exc.message.split("(")[0].replace(str(path), "FILE")[:90]
            refusals[reason] = refusals.get(reason, 0) + 1
            continue
        try:
            check_unchanged(raw, kind)
            counts["unchanged-ok"] += 1
        except Exception as exc:
            counts["unchanged-failures"] += 1
            print(f"UNCHANGED {path}: {type(exc).__name__}: {str(exc)[:300]}")
        rng = random.Random(args.seed + path.name)
        for edit in edits(text, kind, rng, args.edits):
            counts["edits"] += 1
            try:
                check(text, kind, edit)
            except Exception as exc:
                counts["edit-failures"] += 1
                first = str(exc).splitlines()[0] if str(exc) else ""
                print(f"EDIT {path}: {edit.what}: {type(exc).__name__}: {first[:300]}")
    print(counts, f"{time.time() - started:.1f}s")
    for reason, n in sorted(refusals.items(), key=lambda kv: -kv[1]):
        print(f"  refused {n}: {reason}")
    return 1 if counts["edit-failures"] or counts["unchanged-failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
