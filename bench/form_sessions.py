"""Form sessions: editing 200 records of one schema, in one process and in 200 processes.

The schema is the sample API's association record (13 fields, a two-way variant, a list of
objects, patterns, options behind a URL); 200 record files are generated from its first
seed record. Each record gets one setFieldValue and one saveForm.

1. One process: ``deskcheck batch --schema S --data record-N.json`` for every record, all run
   through the CLI's entry point inside one Python process (a batch takes one context, and a
   file-backed form's context is one record file), two JSON lines each.
2. Separate processes: ``deskcheck form set-field-value`` then ``deskcheck form save-form`` as
   whole processes for every record (400 processes).
3. One ``deskcheck form set-field-value`` as a whole process on a warm store (the session open,
   the schema prepared): median and best of N runs. Target: under 0.25 s. For comparison, the
   same edit through ``deskcheck call`` (read by Typer), ``python -c pass`` and
   ``deskcheck --version``, and the load average before and after.
4. Over HTTP (the sample API on 127.0.0.1, one process): 200 records, each opened (its schema
   requested conditionally), edited and saved with If-Match; the schema answers are counted.

Each case starts from an empty state directory. "Prepared" counts schemas prepared (translated and
bundled) and written to the store, across all the processes of the case; "restored" counts
compiled forms built in a process from a schema the store already had.

Run from the repository root with the project's environment active:
    python bench/form_sessions.py [--records N] [--runs N]
Bytecode caching is on for the measured processes, as for an installed deskcheck.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, deskcheck, environment, run_process

SEED = REPO / "samples" / "records_api" / "data" / "datasets.json"


def make_records(folder: Path, count: int) -> tuple[Path, list[Path]]:
    dataset = json.loads(SEED.read_text())["datasets"][0]
    schema = folder / "association.schema.json"
    schema.write_text(json.dumps(dataset["schema"], ensure_ascii=False, indent=2))
    seed = {k: v for k, v in dataset["records"][0].items() if not k.startswith("_")}
    records = []
    for n in range(count):
        path = folder / f"record-{n:03}.json"
        path.write_text(json.dumps({**seed, "nom": f"Association {n}"}, ensure_ascii=False, indent=2) + "\n")
        records.append(path)
    return schema, records


def counters(state: Path) -> dict[str, int]:
    from deskcheck.engine.forms.sessions.store import SessionStore

    store = SessionStore(state / "sessions.sqlite3")
    try:
        return store.counters()
    finally:
        store.close()


def one_process(folder: Path, count: int) -> dict:
    schema, records = make_records(folder, count)
    state = folder / "state"
    os.environ["DESKCHECK_STATE_DIR"] = str(state)
    from deskcheck.cli.main import run
    from deskcheck.engine.forms.schema.compile import clear_compile_cache, compile_stats

    clear_compile_cache()
    failures = 0
    start = time.perf_counter()
    for n, record in enumerate(records):
        lines = [
            {"id": 1, "tool": "form_setFieldValue", "args": {"path": "/description", "value": f"Edited {n}"}},
            {"id": 2, "tool": "form_saveForm", "args": {}},
        ]
        stdin, out = io.StringIO("\n".join(json.dumps(x) for x in lines) + "\n"), io.StringIO()
        saved = sys.stdin
        sys.stdin = stdin
        try:
            with contextlib.redirect_stdout(out):
                code = run(["batch", "--schema", str(schema), "--data", str(record)])
        finally:
            sys.stdin = saved
        failures += code != 0
    elapsed = time.perf_counter() - start
    edited = sum(json.loads(r.read_text())["description"].startswith("Edited") for r in records)
    return {
        "seconds": elapsed,
        "per_record_ms": elapsed / count * 1000,
        "failures": failures,
        "records_saved": edited,
        "compile_stats": compile_stats(),
        "store": counters(state),
    }


# CPU seconds (user + system) of the last process ``timed`` ran: on a machine shared with other
# work, a process's CPU time moves much less than its wall time.
_last_cpu = [0.0]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time and exit code of one process (its CPU time goes to ``_last_cpu``)."""
    sample = run_process(command, env)
    _last_cpu[0] = sample.cpu
    return sample.wall, sample.returncode


def separate_processes(folder: Path, count: int) -> dict:
    schema, records = make_records(folder, count)
    state = folder / "state"
    env = environment(state)
    context = ["--schema", str(schema)]
    sets, saves, cpu, failures = [], [], [], 0
    start = time.perf_counter()
    for n, record in enumerate(records):
        args = json.dumps({"path": "/description", "value": f"Edited {n}"})
        elapsed, code = timed([deskcheck(), "form", "set-field-value", *context, "--data", str(record), args], env)
        sets.append(elapsed)
        cpu.append(_last_cpu[0])
        failures += code != 0
        elapsed, code = timed([deskcheck(), "form", "save-form", *context, "--data", str(record)], env)
        saves.append(elapsed)
        failures += code != 0
    total = time.perf_counter() - start
    edited = sum(json.loads(r.read_text())["description"].startswith("Edited") for r in records)
    return {
        "seconds": total,
        "per_record_ms": total / count * 1000,
        "set_median_s": statistics.median(sets),
        "set_cpu_median_s": statistics.median(cpu),
        "save_median_s": statistics.median(saves),
        "failures": failures,
        "records_saved": edited,
        "store": counters(state),
    }


def warm_set(folder: Path, runs: int) -> dict:
    schema, [record] = make_records(folder, 1)
    env = environment(folder / "state")
    context = ["--schema", str(schema), "--data", str(record)]
    base = [deskcheck(), "form", "set-field-value", *context]
    # The same tool and session through `deskcheck call`, which Typer reads (a form verb's plain
    # line is read without it): what the verb would cost through Typer.
    via_call = [deskcheck(), "call", *context, "form_setFieldValue"]
    timed([*base, json.dumps({"path": "/nom", "value": "Warm-up"})], env)  # opens the session, prepares the schema
    figures: dict[str, float] = {"load_average_before": round(os.getloadavg()[0], 2)}
    for name, command in (
        ("set_field_value", base),
        ("call_set_field_value", via_call),
        ("python_pass", [sys.executable, "-c", "pass"]),
        ("deskcheck_version", [deskcheck(), "--version"]),
    ):
        times, cpu = [], []
        for n in range(runs):
            edit = command in (base, via_call)
            run = [*command, json.dumps({"path": "/nom", "value": f"Name {n}"})] if edit else command
            elapsed, code = timed(run, env)
            assert code == 0, run
            times.append(elapsed)
            cpu.append(_last_cpu[0])
        figures[f"{name}_median_s"] = statistics.median(times)
        figures[f"{name}_best_s"] = min(times)
        figures[f"{name}_cpu_median_s"] = statistics.median(cpu)
    # Wall times follow how busy the machine is: report them with its load.
    figures["load_average_after"] = round(os.getloadavg()[0], 2)
    return figures


def over_http(folder: Path, count: int) -> dict:
    """One process: ``count`` records of the sample API opened, edited and saved."""
    import httpx

    os.environ["DESKCHECK_STATE_DIR"] = str(folder / "state")
    from deskcheck.engine.forms.schema.compile import clear_compile_cache, compile_stats
    from deskcheck.engine.forms.sources.http_source import HttpRecordSource
    from deskcheck.engine.forms.tools.session_tools import SessionGroup
    from deskcheck.engine.http.client import ApiCaller, Credentials, HttpRequest, HttpxClient
    from deskcheck.samples.records_api import SampleApi

    clear_compile_cache()
    statuses: list[int] = []

    class Counting(HttpxClient):
        def send(self, request):
            response = super().send(request)
            if "/schema" in request.url:
                statuses.append(response.status)
            return response

    with SampleApi() as api:
        headers = api.auth_headers()
        seed = api.get_line("associations", "asso-001")
        body = {k: v for k, v in seed.items() if not k.startswith("_") and k != "region"}
        ids = []
        with httpx.Client() as client:
            for n in range(count):
                created = client.post(
                    f"{api.base_url}/datasets/associations/lines", json={**body, "nom": f"Bench {n}"}, headers=headers
                )
                created.raise_for_status()
                ids.append(created.json()["_id"])
        credentials = Credentials.from_options((), api.write_token)
        caller = ApiCaller(api.base_url, client=Counting(timeout=10), credentials=credentials)
        schema_url = f"{api.base_url}/datasets/associations/schema?mimeType=application%2Fschema%2Bjson&extension=true"

        def source_for(params):
            url = f"{api.base_url}/datasets/associations/lines/{params['lineId']}"
            return HttpRecordSource(
                caller,
                "dataset record",
                write=HttpRequest("PUT", url),
                read=HttpRequest("GET", url),
                schema_request=HttpRequest("GET", schema_url),
            )

        group = SessionGroup(
            name="line", title="dataset record", source_for=source_for, parameters={"lineId": {"type": "string"}}
        )
        tools = group.toolset()
        failures = 0
        start = time.perf_counter()
        for n, line in enumerate(ids):
            args = {"lineId": line}
            edit = {**args, "path": "/description", "value": f"Via HTTP {n}"}
            failures += not tools.call("line_setFieldValue", edit).ok
            failures += not tools.call("line_saveForm", args).ok
        elapsed = time.perf_counter() - start
        saved = sum(api.get_line("associations", line)["description"].startswith("Via HTTP") for line in ids)
    return {
        "seconds": elapsed,
        "per_record_ms": elapsed / count * 1000,
        "failures": failures,
        "records_saved": saved,
        "schema_answers": {str(s): statuses.count(s) for s in sorted(set(statuses))},
        "compile_stats": compile_stats(),
        "store": counters(folder / "state"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    report = {}
    with tempfile.TemporaryDirectory(prefix="deskcheck-bench-") as tmp:
        root = Path(tmp)
        for name, case in (
            ("one_process", lambda f: one_process(f, options.records)),
            ("separate_processes", lambda f: separate_processes(f, options.records)),
            ("warm_set_field_value", lambda f: warm_set(f, options.runs)),
            ("over_http_one_process", lambda f: over_http(f, options.records)),
        ):
            folder = root / name
            folder.mkdir()
            report[name] = case(folder)
            print(name, json.dumps(report[name]), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
