"""What hostile patterns, expressions and servers cost (issue 15, items 2, 5, 6, 11).

Measures, in one process (CPU time unless said otherwise):
- a tool argument against ``^(a+)+$`` with ``'a' * n + '!'``: Python's ``re`` (what argument
  validation used) for small n, where it doubles with each ``a``, against deskcheck's validator
  for the issue's n = 28 and for n = 100,000;
- a value that needs more than the backtracking limit (``^(a+)\\1*b$``), per field: what a form
  pays for a field it reports as "could not be checked";
- the expression sandbox: locking down a context (once per thread), one evaluation, and the
  first evaluation after the root document changed, for an expression that does not read it and
  for one that does (the shared scope is parsed and frozen);
- a request to a server that trickles one byte every 0.2 s: wall time until ``--timeout 2``
  stops it (the server is a local socket; no sample API needed);
- compressed answers (issue 26, item 9): 1 GiB of zeros as gzip (1 MB on the wire) and the same
  gzipped twice (2 KB): wall time and the peak of Python's allocations until deskcheck refuses
  them (httpx's own decoding took the second to 2 GB and 12 s);
- the totals per call (issue 26, item 7), each as a ``deskcheck`` process (CPU and wall): a form
  whose 200 fields each have a distinct ``while (true)`` condition (``form describe-state``), 200
  fields with a backtracking pattern tried at every position against 9,000-character values, and
  an operation with 60 such query parameters (``call``); then the same shapes at 20 fields with
  the totals lifted, which is what each costs without them (the issue's 104 s, 121 s and 37 s are
  that cost at full size).

Run: ``python bench/hostile_net.py`` (``--json`` prints the figures as JSON).
"""

from __future__ import annotations

import contextlib
import json
import socket
import statistics
import sys
import threading
import time

from _common import call_times, deskcheck, environment, run_process


def cpu_ms(call, repeat: int = 1) -> float:
    """The median CPU time of ``call()`` over ``repeat`` runs, in milliseconds."""
    return statistics.median(call_times(call, repeat, time.process_time)) * 1000


def argument_figures() -> dict:
    import re

    from deskcheck.engine.openapi.tools.arguments import argument_errors

    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}}
    python_re = {n: cpu_ms(lambda n=n: re.search("^(a+)+$", "a" * n + "!")) for n in (16, 18, 20, 22)}
    argument_errors(schema, {"code": "a"}, root="params")  # the validator, built once per schema
    ours = {
        n: cpu_ms(lambda n=n: argument_errors(schema, {"code": "a" * n + "!"}, root="params"), 5) for n in (28, 100_000)
    }
    slow = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)\\1*b$"}}}
    argument_errors(slow, {"code": "a"}, root="params")
    undecided = cpu_ms(lambda: argument_errors(slow, {"code": "a" * 5000 + "c"}, root="params"), 5)
    return {
        "python_re_ms_by_n": {str(n): round(v, 1) for n, v in python_re.items()},
        "deskcheck_ms_n28": round(ours[28], 3),
        "deskcheck_ms_n100000": round(ours[100_000], 3),
        "over_the_limit_field_ms": round(undecided, 2),
    }


def form_figures() -> dict:
    from deskcheck.engine.forms.schema.validation import SchemaValidator

    fields = {f"f{i}": {"type": "string", "pattern": "^(a*)*\\1$"} for i in range(20)}
    validator = SchemaValidator({"type": "object", "properties": fields})
    data = {name: "a" * 5000 + "c" for name in fields}
    validator.iter_errors({"f0": "a"})
    found: list = []
    ms = cpu_ms(lambda: found.append(validator.iter_errors(data)), 3)
    return {"twenty_unchecked_fields_ms": round(ms, 1), "reported": sum(e.undecided for e in found[-1])}


def sandbox_figures() -> dict:
    from deskcheck.engine.forms.schema import expressions as ex

    ex._sandbox()
    lockdown = cpu_ms(lambda: ex._sandbox().reset(), 10)
    local = ex.Expression("js-eval", "data.x > 3 && parent.data.kind !== 'hide'")
    shared_reader = ex.Expression("js-eval", "rootData.items.length > data.x")
    root = {"items": [{"label": f"item {i}", "amount": i, "tags": ["a", "b"]} for i in range(60)], "title": "x"}
    shared = ex.shared_scope(rootData=root, context={})
    scope = {"data": {"x": 1}, "parent": {"data": {"kind": "a"}}}
    ex.evaluate(local, scope, shared)
    one = []
    for i in range(2000):
        started = time.process_time()
        ex.evaluate(local, {"data": {"x": i}, "parent": {"data": {"kind": "a"}}}, shared)
        one.append((time.process_time() - started) * 1e6)
    changed: dict[str, list[float]] = {"local": [], "reads_root": []}
    for i in range(300):
        root["title"] = f"v{i}"
        text = ex.shared_scope(rootData=root, context={})
        for name, expression in (("local", local), ("reads_root", shared_reader)):
            started = time.process_time()
            ex.evaluate(expression, {"data": {"x": 10_000 + i}, "parent": {"data": {"kind": "a"}}}, text)
            changed[name].append((time.process_time() - started) * 1e6)
    return {
        "lockdown_ms": round(lockdown, 2),
        "evaluation_us": round(statistics.median(one), 1),
        "after_root_change_local_us": round(statistics.median(changed["local"]), 1),
        "after_root_change_reading_root_us": round(statistics.median(changed["reads_root"]), 1),
        "root_document_chars": len(text),
    }


def trickle_figures() -> dict:
    from deskcheck.engine.http.client import HttpRequest, HttpxClient, RequestFailed

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
        while not stop.wait(0.2):
            try:
                conn.sendall(b" ")
            except OSError:
                break
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    import httpx  # noqa: F401 - imported before the clock starts, as in a process that has sent a request

    client = HttpxClient(timeout=2)
    started = time.perf_counter()
    try:
        client.send(HttpRequest("GET", f"http://127.0.0.1:{listener.getsockname()[1]}/slow"))
        outcome = "answered"
    except RequestFailed:
        outcome = "timed out"
    wall = time.perf_counter() - started
    stop.set()
    listener.close()
    client.close()
    return {"trickle_timeout_2s_wall_s": round(wall, 2), "outcome": outcome}


def _gzip_zeros(size: int) -> bytes:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1 << 20)
    return b"".join(packer.compress(chunk) for _ in range(size >> 20)) + packer.flush()


def bomb_figures() -> dict:
    import gzip
    import tracemalloc

    from deskcheck.engine.http.client import HttpRequest, HttpxClient, RequestFailed

    once = _gzip_zeros(1 << 30)
    shapes = {"gzip_1GiB": (once, "gzip"), "gzip_in_gzip_1GiB": (gzip.compress(once, 9), "gzip, gzip")}
    out = {}
    for name, (body, coding) in shapes.items():
        listener = socket.create_server(("127.0.0.1", 0))

        def serve(listener=listener, body=body, coding=coding) -> None:
            conn, _ = listener.accept()
            conn.recv(65536)
            head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: {coding}\r\n"
            with contextlib.suppress(OSError):  # the client hangs up once it refuses
                conn.sendall(head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            conn.close()

        threading.Thread(target=serve, daemon=True).start()
        tracemalloc.start()
        started = time.perf_counter()
        try:
            HttpxClient().send(HttpRequest("GET", f"http://127.0.0.1:{listener.getsockname()[1]}/x"))
            outcome = "read"
        except RequestFailed as exc:
            outcome = "refused: " + ("too large" if "larger than" in exc.message else "stacked codings")
        wall = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        listener.close()
        out[name] = {
            "wire_bytes": len(body),
            "wall_s": round(wall, 3),
            "peak_mib": round(peak / 2**20, 1),
            "outcome": outcome,
        }
    return out


def _write_shapes(folder, count: int) -> dict[str, list[str]]:
    """The three total-per-call shapes at ``count`` fields, as the argv of their commands."""
    endless = {
        f"f{i}": {"type": "string", "layout": {"if": f"(() => {{ while (true) {{}} }})() || {i}"}} for i in range(count)
    }
    patterns = {f"f{i}": {"type": "string", "pattern": f"(?<=a+)b{i}"} for i in range(count)}
    long_values = {f"f{i}": "a" * 9000 + "c" for i in range(count)}
    params = [{"in": "query", "name": f"f{i}", "schema": patterns[f"f{i}"]} for i in range(min(count, 60))]
    operation = {
        "operationId": "x",
        "parameters": params,
        "x-agent": {"name": "x"},
        "responses": {"200": {"description": "ok"}},
    }
    files = {
        "endless.json": {"type": "object", "properties": endless},
        "empty.json": {},
        "patterns.json": {"type": "object", "properties": patterns},
        "values.json": long_values,
        "spec.json": {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": operation}}},
        "args.json": {name: long_values[name] for name in (p["name"] for p in params)},
    }
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content), encoding="utf-8")
    return {
        "conditions": [
            "form",
            "describe-state",
            "--schema",
            str(folder / "endless.json"),
            "--data",
            str(folder / "empty.json"),
        ],
        "patterns": [
            "form",
            "describe-state",
            "--schema",
            str(folder / "patterns.json"),
            "--data",
            str(folder / "values.json"),
        ],
        "arguments": ["call", "--spec", str(folder / "spec.json"), "x", f"@{folder / 'args.json'}"],
    }


def totals_figures() -> dict:
    import tempfile
    from pathlib import Path

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count, lifted in ((200, False), (20, True)):
            folder = Path(tmp) / str(count)
            folder.mkdir()
            env = environment(Path(tmp) / f"state{count}")
            if lifted:
                env.update(
                    {"DESKCHECK_EXPRESSION_SECONDS_PER_CALL": "1e9", "DESKCHECK_PATTERN_SECONDS_PER_CALL": "1e9"}
                )
            for shape, argv in _write_shapes(folder, count).items():
                n = min(count, 60) if shape == "arguments" else count
                sample = run_process([deskcheck(), *argv], env)
                label = f"{shape}_{n}" + ("_no_totals" if lifted else "")
                out[label + "_cpu_s"] = round(sample.cpu, 2)
                out[label + "_wall_s"] = round(sample.wall, 2)
    return out


def main() -> dict:
    return {
        "arguments": argument_figures(),
        "form": form_figures(),
        "sandbox": sandbox_figures(),
        "server": trickle_figures(),
        "compressed answers": bomb_figures(),
        "totals": totals_figures(),
    }


if __name__ == "__main__":
    figures = main()
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        for group, values in figures.items():
            for name, value in values.items():
                print(f"{group:10} {name:36} {value}")
