"""Run the form engine over a whole SchemaStore checkout (or the corpus in tests/fixtures) and
report what fails: a schema that does not open, a describeState that crashes or takes too long or
too much memory, a loaded instance that the form changes, a verdict that differs from
``jsonschema``'s. For each instance SchemaStore expects to be valid it also counts the leaves (a
scalar, or an empty object or list) that are fields of their own, found by their data path as a
write would find them, and names the reason for each one that is not.

    python -m tests.forms.schemastore_sweep SRC [--names a,b] [--timeout 60] [--memory-mb 1500]

SRC is SchemaStore's ``src`` folder (``schemas/json``, ``test``, ``negative_test``) or
``tests/fixtures/schemastore``. Each schema runs in a child process with a time and an
address-space limit, so a schema that would hang or exhaust memory is reported, not suffered.
Not a test: a tool to find cases, which are then pinned in ``tests/fixtures/schemastore``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import sys
import time
from pathlib import Path
from typing import Any


def schema_folder(src: Path) -> Path:
    return src / "schemas" / "json" if (src / "schemas" / "json").is_dir() else src / "schemas"


def check_schema(src: Path, name: str) -> dict[str, Any]:
    """Everything about one schema and its instances, as plain data."""
    from deskcheck.engine.forms import FormState, form_toolset
    from deskcheck.engine.forms.schema.values import json_equal, jsonable

    from .schemastore import Reference, instances, open_form, read

    folder = schema_folder(src)
    path = folder / f"{name}.json"
    report: dict[str, Any] = {"name": name, "instances": []}
    started = time.perf_counter()
    try:
        schema, form = open_form(path)
        empty = FormState(form, {}, base={})
        described = form_toolset(empty).call("form_describeState", {})
        if not described.ok:
            raise RuntimeError(described.error)
    except Exception as exc:  # a sweep reports every failure and goes on
        report["open"] = f"{type(exc).__name__}: {exc}"[:400]
        return report
    report["open"] = "ok"
    report["open_seconds"] = round(time.perf_counter() - started, 3)
    report["left_out"] = len(form.schema_problems)
    reference = Reference(folder)
    for expected, instance_path in instances(src, name):
        entry: dict[str, Any] = {"file": f"{instance_path.parent.name}/{instance_path.name}", "expected": expected}
        try:
            data = read(instance_path)
        except Exception as exc:
            entry["unreadable"] = str(exc)[:200]
            report["instances"].append(entry)
            continue
        try:
            began = time.perf_counter()
            state = FormState(form, data, base=data, fill_defaults=False)  # an existing file
            text = form_toolset(state).call("form_describeState", {})
            entry["seconds"] = round(time.perf_counter() - began, 3)
            entry["described"] = text.ok
            entry["unchanged"] = json_equal(state.document, jsonable(data)) and not state.modified
            entry["valid"] = state.valid
            entry["reference"] = reference.is_valid(schema, path, data)
            if expected:
                entry["leaves"], entry["unsettable"] = settable_leaves(state, data)
        except Exception as exc:
            entry["crash"] = f"{type(exc).__name__}: {exc}"[:400]
        report["instances"].append(entry)
    return report


# At most this many leaves of one instance are tried: enough for every SchemaStore instance.
MAX_LEAVES = 5000


def leaves(value: Any, pointer: str = "") -> Any:
    """The JSON pointers of the leaves of ``value``: scalars, empty objects and empty lists."""
    from deskcheck.engine import jsonpointer

    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, jsonpointer.append(pointer, str(key)))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, f"{pointer}/{index}")
    elif pointer:
        yield pointer


def settable_leaves(state: Any, data: Any) -> tuple[int, dict[str, str]]:
    """``(leaves tried, {pointer: reason})`` for the leaves of ``data`` that no field owns."""
    from itertools import islice

    from deskcheck.engine.errors import DeskcheckError

    tried = 0
    unsettable: dict[str, str] = {}
    # Items of long lists are folded until a path names one; unfolding them all at once costs
    # one rebuild instead of one per item (the long-list tests check a path unfolds its item).
    state.unfold_items([node for node in state.tree.nodes if node.folded])
    for pointer in islice(leaves(data), MAX_LEAVES):
        tried += 1
        try:
            node = state.node(pointer)
        except DeskcheckError as exc:
            unsettable[pointer] = f"{exc.code}: {str(exc)[:400]}"
            continue
        if node.data_path != pointer or node.wrapper:
            unsettable[pointer] = f"found {node.path} ({node.comp}) instead"
    return tried, unsettable


def _child(src: Path, name: str, memory_mb: int, queue: Any) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        report = check_schema(src, name)
    except MemoryError:
        report = {"name": name, "open": f"MemoryError: more than {memory_mb} MB"}
    report["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    queue.put(report)


def run(src: Path, name: str, *, timeout: float, memory_mb: int) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_child, args=(src, name, memory_mb, queue))
    process.start()
    try:
        return queue.get(timeout=timeout)
    except Exception:
        return {"name": name, "open": f"timeout: more than {timeout:g} s"}
    finally:
        process.join(1)
        if process.is_alive():
            process.kill()
            process.join()


def problems(report: dict[str, Any]) -> list[str]:
    """The failures of one schema's report, one line each."""
    name = report["name"]
    if report.get("open") != "ok":
        return [f"{name}: does not open: {report.get('open')}"]
    out = []
    for entry in report.get("instances", []):
        where = f"{name} {entry['file']}"
        if "crash" in entry:
            out.append(f"{where}: crash: {entry['crash']}")
        elif "unreadable" in entry:
            continue  # not JSON or YAML deskcheck reads (SchemaStore has JSON5 and such)
        else:
            if not entry.get("described"):
                out.append(f"{where}: describeState failed")
            if not entry.get("unchanged"):
                out.append(f"{where}: the loaded document was changed")
            if entry.get("reference") is not None and entry["reference"] != entry["valid"]:
                out.append(f"{where}: valid={entry['valid']} but jsonschema says {entry['reference']}")
            if entry.get("seconds", 0) > 1:
                out.append(f"{where}: describeState took {entry['seconds']} s")
    return out


def _reason(why: str) -> str:
    """The kind of reason a leaf is not settable, without the paths that vary per leaf."""
    import re

    code, _, text = why.partition(": ")
    if code == "insideValue":
        match = re.search(r"a (\S+) field whose value", text)
        return f"inside a {match.group(1) if match else 'whole'} field written whole"
    if code == "fieldHidden":
        return "hidden: " + re.sub(r'"[^"]*"|/\S*', "…", text.split("but ", 1)[-1]).split(". describeState")[0]
    return code


def unsettable_report(reports: list[dict[str, Any]]) -> str:
    """A Markdown list of the leaves of valid instances that are not settable by path, by reason."""
    from collections import defaultdict

    by_reason: dict[str, list[str]] = defaultdict(list)
    tried = missed = 0
    for report in reports:
        for entry in report.get("instances", []):
            tried += entry.get("leaves", 0)
            for pointer, why in entry.get("unsettable", {}).items():
                missed += 1
                by_reason[_reason(why)].append(f"`{report['name']}` {entry['file']} `{pointer}`")
    lines = [
        "# Leaves of valid SchemaStore instances that are not settable by path",
        "",
        "Written by `python -m tests.forms.schemastore_sweep SRC --unsettable FILE`: of "
        f"{tried} leaves (scalars, empty objects and lists) of the instances SchemaStore expects to be "
        f"valid, {tried - missed} ({100 * (tried - missed) / max(tried, 1):.2f}%) are fields found by their "
        f"data path; these {missed} are not, grouped by reason.",
    ]
    for reason, where in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        lines += ["", f"## {reason} ({len(where)})", ""]
        lines += [f"- {place}" for place in where]
    return "\n".join(lines) + "\n"


def _preload() -> None:
    """Import what the children use before they are forked: they then run the code as it was
    when the sweep started, whatever happens to the files meanwhile (and start faster)."""
    import jsonschema  # noqa: F401
    import referencing.jsonschema  # noqa: F401
    import yaml  # noqa: F401

    from deskcheck.engine.forms.schema import bundle, validation  # noqa: F401
    from deskcheck.engine.forms.sources import schema_files  # noqa: F401
    from deskcheck.engine.forms.state import state, text  # noqa: F401
    from deskcheck.engine.forms.tools import tools  # noqa: F401

    from . import schemastore  # noqa: F401


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path)
    parser.add_argument("--names", default="", help="comma-separated schema names (default: every schema)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--memory-mb", type=int, default=1500)
    parser.add_argument("--jsonl", type=Path, help="write each schema's report here")
    parser.add_argument("--unsettable", type=Path, help="write the leaves not settable by path here (Markdown)")
    args = parser.parse_args(argv)
    _preload()
    folder = schema_folder(args.src)
    names = [n for n in args.names.split(",") if n] or sorted(p.stem for p in folder.glob("*.json"))
    sink = args.jsonl.open("w") if args.jsonl else None
    totals = {"schemas": 0, "opened": 0, "instances": 0, "agree": 0, "undecided": 0, "leaves": 0, "settable": 0}
    failures: list[str] = []
    reports = []
    for name in names:
        report = run(args.src, name, timeout=args.timeout, memory_mb=args.memory_mb)
        reports.append({"name": name, "instances": report.get("instances", [])})
        totals["schemas"] += 1
        totals["opened"] += report.get("open") == "ok"
        for entry in report.get("instances", []):
            if "valid" in entry:
                totals["instances"] += 1
                totals["undecided"] += entry.get("reference") is None
                totals["agree"] += entry.get("reference") == entry["valid"]
            totals["leaves"] += entry.get("leaves", 0)
            totals["settable"] += entry.get("leaves", 0) - len(entry.get("unsettable", {}))
        tried = sum(entry.get("leaves", 0) for entry in report.get("instances", []))
        if tried:
            missed = sum(len(entry.get("unsettable", {})) for entry in report.get("instances", []))
            print(f"{name}: {tried - missed}/{tried} leaves settable by path", flush=True)
        found = problems(report)
        failures += found
        for line in found:
            print(line, flush=True)
        if sink:
            sink.write(json.dumps(report) + "\n")
    if args.unsettable:
        args.unsettable.write_text(unsettable_report(reports))
    print(json.dumps(totals))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
