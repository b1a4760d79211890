"""Form engine benchmark: a 300-field schema with nested arrays, variants and conditions.

Measures, in one process:
- compiling the schema (``compile_form``, cold cache) and building the first state;
- 200 ``setFieldValue`` calls through the tool layer, with a ``describeState`` every 20 calls
  (three series; CPU time of the process, so other work on the machine does not count);
- editing 200 records of the same schema: how many compilations that costs (the cache).

Targets (issue 6): compile < 50 ms, a write < 5 ms median, describe < 20 ms.

Run: ``python bench/form_engine.py`` (``--json`` prints the figures as JSON).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

SECTIONS = 12
RUNS = 3


def build_schema() -> dict:
    """12 sections of 20 fields (one conditional in each), two lists of 5-field items, a 2-way
    variant of 10 fields each: 301 fields once the data below fills the lists."""
    kinds = [
        {"type": "string", "maxLength": 80},
        {"type": "integer", "minimum": 0, "maximum": 1000},
        {"type": "string", "enum": ["low", "medium", "high"]},
        {"type": "boolean"},
        {"type": "string", "format": "date"},
        {"type": "string", "pattern": "^[A-Z]{3}[0-9]{2}$"},
        {"type": "number"},
        {"type": "string", "format": "email"},
    ]
    sections = {}
    for s in range(SECTIONS):
        props = {}
        for f in range(20):
            field = dict(kinds[(s + f) % len(kinds)])
            field["title"] = f"Field {s}.{f}"
            if f == 19:
                field["layout"] = {"if": "parent.data.f0 !== 'hide'"}
            props[f"f{f}"] = field
        sections[f"section{s}"] = {"type": "object", "title": f"Section {s}", "properties": props, "required": ["f0"]}
    item = {
        "type": "object",
        "required": ["label"],
        "properties": {
            "label": {"type": "string"},
            "amount": {"type": "number", "minimum": 0},
            "unit": {"type": "string", "enum": ["kg", "g", "l"]},
            "when": {"type": "string", "format": "date"},
            "ok": {"type": "boolean"},
        },
    }
    variant = {
        "type": "object",
        "oneOf": [
            {
                "title": "Person",
                "properties": {"kind": {"const": "person"}, **{f"p{i}": {"type": "string"} for i in range(10)}},
            },
            {
                "title": "Company",
                "properties": {"kind": {"const": "company"}, **{f"c{i}": {"type": "string"} for i in range(10)}},
            },
        ],
    }
    return {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "title": "Name"},
            **sections,
            "lines": {"type": "array", "items": item},
            "extras": {"type": "array", "items": item},
            "party": variant,
        },
    }


def build_data() -> dict:
    item = {"label": "x", "amount": 1, "unit": "kg", "when": "2025-01-01", "ok": True}
    return {
        "name": "bench",
        **{f"section{s}": {"f0": "start"} for s in range(SECTIONS)},
        "lines": [dict(item) for _ in range(5)],
        "extras": [dict(item) for _ in range(5)],
        "party": {"kind": "person"},
    }


def count_fields(state) -> int:
    return sum(1 for node in state.tree.nodes if not node.wrapper and not node.children and node.shown)


def write_calls() -> list[dict]:
    calls = []
    for number in range(200):
        s = number % SECTIONS
        f = (number // 10) % 19 + 1
        kind = (s + f) % 8
        value = ["text", 42, "medium", True, "2025-06-15", "ABC12", 3.5, "a@b.org"][kind]
        if number % 25 == 7:
            calls.append({"path": f"/lines/{number % 5}/amount", "value": number})
        elif number % 25 == 13:
            calls.append({"path": "/party/$oneOf", "value": (number // 25) % 2})
        else:
            calls.append({"path": f"/section{s}/f{f}", "value": value})
    return calls


def run_writes(schema: dict) -> tuple[list[float], list[float], int, int]:
    """One series: 200 writes through the tools, a describe every 20 (CPU milliseconds)."""
    from deskcheck.engine.forms import FormState, compile_form, form_toolset

    state = FormState(compile_form(schema, "bench-v1"), build_data())
    tools = form_toolset(state, title="benchmark record")
    writes, describes = [], []
    chars = 0
    for number, args in enumerate(write_calls(), start=1):
        started = time.process_time()
        result = tools.call("form_setFieldValue", args)
        writes.append((time.process_time() - started) * 1000)
        assert result.ok, result.error
        if number % 20 == 0:
            started = time.process_time()
            result = tools.call("form_describeState", {})
            describes.append((time.process_time() - started) * 1000)
            assert result.ok, result.error
            chars = len(result.value)
    return writes, describes, chars, count_fields(state)


def main() -> dict:
    started = time.perf_counter()
    # One-time imports of the validator and the JavaScript engine, measured apart from the compile.
    import jsonschema_rs  # noqa: F401
    import quickjs  # noqa: F401

    imports_ms = (time.perf_counter() - started) * 1000
    from deskcheck.engine.forms import FormState, clear_compile_cache, compile_form, compile_stats, form_toolset

    schema = build_schema()
    clear_compile_cache()
    started = time.perf_counter()
    compile_form(schema, "bench-v1").warm()
    compile_ms = (time.perf_counter() - started) * 1000
    # A second version of the schema in the same process: a cache miss without first-use costs.
    started = time.perf_counter()
    compile_form(schema, "bench-v2").warm()
    compile_again_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    FormState(compile_form(schema, "bench-v1"), build_data())
    first_state_ms = (time.perf_counter() - started) * 1000

    runs = [run_writes(schema) for _ in range(RUNS)]
    write_medians = [statistics.median(r[0]) for r in runs]
    describe_medians = [statistics.median(r[1]) for r in runs]
    all_writes = sorted(w for r in runs for w in r[0])

    # 200 records of one schema, from a cold cache: each record gets its own state and a write.
    clear_compile_cache()
    started = time.perf_counter()
    for number in range(200):
        record = build_data()
        record["name"] = f"record {number}"
        record_state = FormState(compile_form(schema, "bench-v1"), record)
        form_toolset(record_state).call("form_setFieldValue", {"path": "/section0/f1", "value": number})
    records_ms = (time.perf_counter() - started) * 1000

    return {
        "fields": runs[0][3],
        "imports_ms": round(imports_ms, 1),
        "compile_ms": round(compile_ms, 2),
        "compile_again_ms": round(compile_again_ms, 2),
        "first_state_ms": round(first_state_ms, 2),
        "write_median_ms": round(statistics.median(write_medians), 2),
        "write_p95_ms": round(all_writes[int(len(all_writes) * 0.95) - 1], 2),
        "describe_median_ms": round(statistics.median(describe_medians), 2),
        "describe_max_ms": round(max(max(r[1]) for r in runs), 2),
        "describe_chars": runs[0][2],
        "records": 200,
        "records_total_ms": round(records_ms, 1),
        "records_compilations": compile_stats()["compiles"],
    }


if __name__ == "__main__":
    figures = main()
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
