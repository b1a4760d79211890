"""`deskcheck mcp` over stdio: server start-up, and the round trip of a tool call.

1. Start-up: from spawning `deskcheck mcp --docx FILE` to the answer of `initialize`, then to
   the answer of `tools/list`, with the server process's CPU time at that point (steadier than
   wall time on a shared machine). Measured twice: with bytecode caching on (an installed
   package, or a checkout whose caches are written), and with PYTHONDONTWRITEBYTECODE=1 and no
   cached bytecode for deskcheck's own modules (this sandbox's state; only when deskcheck is an
   editable install of this checkout, whose __pycache__ folders are removed first). Also: what
   importing the MCP SDK costs, the lean way the server does it and the ordinary way.
3. Result sizes: the largest answer each docx tool gives under the default result cap
   (``--max-result-chars``), on a 30,000-paragraph document compared with an edited copy of
   itself, called with the arguments that ask for the most (``read_document {}``, a
   ``find_text`` that matches every paragraph, ``compare_versions`` as JSON, ...): the bytes of
   the JSON-RPC message and how many ``continue_result`` pages read the whole result.
2. Round trip: one server on a 1,500-paragraph document (tests/docx/builders.long_document;
   also folio's performance-1500-paragraphs.docx when ../shared has it); the first
   `read_document` call (right after `tools/list`, and on a second server 2 s after it: the
   server reads the documents ahead once the tool list is asked for), then N calls of
   `read_document {"maxBlocks": 50}`, each timed from writing the request to reading its
   answer. Target: under 30 ms after the first.

The client is a plain JSON-RPC loop over the server's pipes (the protocol's own handshake), so
the figures are the server's, not a client library's.

Run from the repository root with the project's environment active:
    python bench/mcp_server.py [--runs N] [--calls N] [--sizes-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REFERENCE_DOCX, REPO, deskcheck, environment

sys.path.insert(0, str(REPO))

TICKS = os.sysconf("SC_CLK_TCK")


class Server:
    """``deskcheck mcp ARGS`` and a JSON-RPC conversation with it over its pipes."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [deskcheck(), "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self._id = 0

    def request(self, method: str, params: dict | None = None) -> dict:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params or {}})
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server ended before answering {method}")
            message = json.loads(line)
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def notify(self, method: str) -> None:
        self._send({"jsonrpc": "2.0", "method": method})

    def handshake(self) -> None:
        self.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
        )
        self.notify("notifications/initialized")

    def call(self, tool: str, arguments: dict) -> dict:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        self.last_bytes = len(json.dumps(result, ensure_ascii=False).encode("utf-8"))
        if result.get("isError"):
            raise RuntimeError(result["content"][0]["text"])
        return result

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _send(self, message: dict) -> None:
        self.process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
        self.process.stdin.flush()


def start_up(document: Path, env: dict[str, str], runs: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"initialize": [], "tools/list": [], "cpu": []}
    for _ in range(runs):
        server = Server(["--docx", str(document)], env)
        server.handshake()
        samples["initialize"].append(time.perf_counter() - server.started)
        server.request("tools/list")
        samples["tools/list"].append(time.perf_counter() - server.started)
        samples["cpu"].append(server.cpu_seconds())
        server.close()
    return samples


def round_trips(document: Path, env: dict[str, str], calls: int, pause: float = 0.0) -> tuple[float, list[float]]:
    """The first call's time (``pause`` seconds after the tool list, as a model would take to
    decide) and the next ``calls`` calls' times."""
    server = Server(["--docx", str(document)], env)
    try:
        server.handshake()
        server.request("tools/list")
        time.sleep(pause)
        started = time.perf_counter()
        server.call("read_document", {"maxBlocks": 50})
        first = time.perf_counter() - started
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            server.call("read_document", {"maxBlocks": 50})
            samples.append(time.perf_counter() - started)
        return first, samples
    finally:
        server.close()


def import_cost(code: str, env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of running ``code`` in a fresh interpreter, measured inside it
    (the interpreter's own start and exit left out)."""
    probe = (
        "import time\nwall, cpu = time.perf_counter(), time.process_time()\n"
        f"{code}\nprint(time.perf_counter() - wall, time.process_time() - cpu)"
    )
    samples = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
        samples.append(tuple(float(x) for x in out.stdout.split()))
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def own_bytecode_caches() -> list[Path]:
    """deskcheck's __pycache__ folders when it is an editable install of this checkout, else []."""
    import deskcheck.engine

    location = Path(deskcheck.engine.__file__).resolve().parent
    if location != REPO / "engine":
        return []
    return [path for top in ("engine", "cli", "samples") for path in (REPO / top).rglob("__pycache__")]


# The calls that ask each docx tool for the most it can answer on one document.
LARGEST_CALLS = (
    ("read_document", {}),
    ("find_text", {"query": "the parties agree"}),
    ("get_document_outline", {}),
    ("list_stories", {}),
    ("read_changes", {}),
    ("read_comments", {}),
    ("compare_versions", {"previous": "PREVIOUS", "format": "json"}),
    ("compare_versions", {"previous": "PREVIOUS", "format": "text"}),
)


def largest_results(env: dict[str, str], paragraphs: int) -> None:
    """Per tool call, the bytes of its answer under the default cap and the pages it took."""
    from tests.docx.builders import long_document

    with tempfile.TemporaryDirectory() as folder:
        current = long_document(Path(folder) / "current.docx", paragraphs)
        previous = long_document(Path(folder) / "previous.docx", paragraphs, edited=True)
        server = Server(["--docx", str(current)], env)
        try:
            server.handshake()
            served = {tool["name"] for tool in server.request("tools/list")["tools"]}
            print(
                f"result sizes under the default cap: {current.name} ({paragraphs:,} paragraphs) against an edited copy"
            )
            for tool, arguments in LARGEST_CALLS:
                if tool not in served:
                    print(f"  {tool:<18} not served")
                    continue
                arguments = {
                    key: {"PREVIOUS": str(previous)}.get(value, value) if isinstance(value, str) else value
                    for key, value in arguments.items()
                }
                answer = server.call(tool, arguments)
                largest, pages = server.last_bytes, 1
                while (continuation := _continuation(answer)) is not None:
                    answer = server.call("continue_result", {"continuation": continuation})
                    largest, pages = max(largest, server.last_bytes), pages + 1
                label = f"{tool} {json.dumps({k: v for k, v in arguments.items() if k != 'previous'})}"
                print(f"  {label:<62} largest message {largest / 1024:7.1f} KiB  pages {pages:>4}")
        finally:
            server.close()


def _continuation(answer: dict) -> str | None:
    """The continuation a paged answer names (an object's ``paged``, or a text's last line)."""
    structured = answer.get("structuredContent") or {}
    paged = structured.get("paged") if isinstance(structured, dict) else None
    if isinstance(paged, dict):
        return paged.get("continuation")
    text = answer["content"][0].get("text", "") if answer.get("content") else ""
    marker = '"continuation": "'
    if marker in text[-400:]:
        tail = text[text.rindex(marker) + len(marker) :]
        return tail.split('"', 1)[0]
    return None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def report_start_up(label: str, samples: dict[str, list[float]]) -> None:
    print(f"  {label}")
    for key in ("initialize", "tools/list", "cpu"):
        values = samples[key]
        name = "server CPU at tools/list" if key == "cpu" else f"to {key} answered"
        print(f"    {name:<26} median {ms(statistics.median(values))}  best {ms(min(values))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--paragraphs", type=int, default=30_000, help="the result-size document's length")
    parser.add_argument("--sizes-only", action="store_true", help="measure only the result sizes")
    options = parser.parse_args()
    from tests.docx.builders import long_document

    cached = environment(tempfile.mkdtemp(prefix="deskcheck-bench-state-"))
    largest_results(cached, options.paragraphs)
    if options.sizes_only:
        return
    uncached = {**cached, "PYTHONDONTWRITEBYTECODE": "1"}
    with tempfile.TemporaryDirectory() as folder:
        document = long_document(Path(folder) / "long-1500.docx", 1500)
        print(f"start-up: deskcheck mcp --docx {document.name} ({options.runs} runs each)")
        caches = own_bytecode_caches()
        if caches:
            for path in caches:
                shutil.rmtree(path, ignore_errors=True)
            report_start_up(
                "PYTHONDONTWRITEBYTECODE=1, deskcheck's modules not cached", start_up(document, uncached, options.runs)
            )
        else:
            print("  (deskcheck is not an editable install of this checkout: the uncached run is skipped)")
        start_up(document, cached, 1)  # writes the caches
        report_start_up("bytecode caching on", start_up(document, cached, options.runs))

        print("importing the MCP SDK (in a fresh interpreter; bytecode caching on)")
        lean = import_cost("from deskcheck.cli.mcp.sdk import load; load()", cached, options.runs)
        plain = import_cost("import mcp.server.lowlevel, mcp.server.stdio", cached, options.runs)
        before = import_cost(
            "import deskcheck.cli.mcp.sdk as sdk\n"
            "def stop():\n    raise SystemExit(0)\n"
            "sdk.load = stop\n"
            "from deskcheck.cli.main import run\n"
            f"run(['mcp', '--docx', {str(document)!r}])",
            cached,
            options.runs,
        )
        print(f"  lean (cli/mcp/sdk.py)        wall {ms(lean[0])}  CPU {ms(lean[1])}")
        print(f"  import mcp.server.lowlevel    wall {ms(plain[0])}  CPU {ms(plain[1])}")
        print(f"  deskcheck's part before it    wall {ms(before[0])}  CPU {ms(before[1])}  (CLI, context, tool list)")

        documents = [document] + ([REFERENCE_DOCX] if REFERENCE_DOCX.exists() else [])
        for path in documents:
            first, samples = round_trips(path, cached, options.calls)
            warm, _ = round_trips(path, cached, 0, pause=2.0)
            samples.sort()
            print(f"round trip over stdio: read_document {{maxBlocks: 50}} on {path.name}")
            print(f"  first call right after tools/list {ms(first)}; 2 s after it (read ahead meanwhile) {ms(warm)}")
            print(
                f"  next {len(samples)} calls: median {ms(statistics.median(samples))}  "
                f"p90 {ms(samples[int(len(samples) * 0.9) - 1])}  best {ms(samples[0])}  worst {ms(samples[-1])}"
            )


if __name__ == "__main__":
    main()
