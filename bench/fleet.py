"""A fleet on one PostgreSQL store: 4 `deskcheck mcp --http` servers x 25 clients editing 50 form
sessions for a fixed count of calls, beside 1 server on SQLite with 25 clients (issue 30).

Setup: a private PostgreSQL server (tests/postgres.py: initdb in a temporary folder, a free
port); 25 record files, each served by every server. Servers 1-2 run with `--identity team-a`,
servers 3-4 with `--identity team-b`, so each record has two sessions: 50 sessions, each edited
through two servers (each server its own state folder, as on its own machine).

1. Edits: every client makes CALLS calls of `<record>_form_editArray` adding an item with a
   label of its own to a session picked at random (seeded), through its server, all clients at
   once. Reported: calls per second (all calls over the wall time), p50 and p99 latency of a
   call, and lost edits: labels of calls answered ok that are missing from the session
   afterwards (read with getData). Target: 0 lost.
2. Stale saves: for each record, team B's session is open, team A saves (when that changes the
   file: a session with nothing to save writes nothing), then team B saves the session it loaded
   before: every one of those must be refused as stale (and the file keep team A's save).
   Reported: stale saves refused / attempted.

The SQLite line runs phase 1 with one server (no identity: 25 sessions) and 25 clients.

Run from the repository root with the project's environment active (PostgreSQL's server
installed, as .ci/run installs it):
    python bench/fleet.py [--calls N] [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, environment

sys.path.insert(0, str(REPO))

from tests import postgres
from tests.mcp.support import http_client, http_server, text_of

RECORDS = 25
CLIENTS_PER_SERVER = 25
SCHEMA = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"type": "object", "properties": {"label": {"type": "string"}}}}
    },
}


def records(folder: Path) -> tuple[Path, list[Path]]:
    schema = folder / "item.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    data = []
    for n in range(RECORDS):
        path = folder / f"r{n:02d}.json"
        path.write_text('{"items": []}\n')
        data.append(path)
    return schema, data


def contexts(schema: Path, data: list[Path]) -> list[str]:
    return [arg for path in data for arg in ("--schema", str(schema), "--data", str(path))]


def server_env(folder: Path, name: str, store: str | None) -> dict[str, str]:
    state = folder / f"state-{name}"
    state.mkdir()
    env = environment(state)
    env.pop("DESKCHECK_STORE", None)
    if store:
        env["DESKCHECK_STORE"] = store
    return env


async def edits(servers, calls: int, seed: int) -> dict:
    """Phase 1: every client's calls, all clients at once. ``servers``: (url, team) pairs."""
    import anyio

    latencies: list[float] = []
    done: dict[tuple[str, int], set[str]] = {}  # (team, record) -> labels answered ok
    failures: list[str] = []

    async def client(number: int, url: str, team: str) -> None:
        pick = random.Random(seed * 1000 + number)
        async with http_client(url) as session:
            for n in range(calls):
                record = pick.randrange(RECORDS)
                label = f"c{number}-{n}"
                started = time.perf_counter()
                result = await session.call_tool(
                    f"r{record:02d}_form_editArray", {"path": "/items", "action": "add", "value": {"label": label}}
                )
                latencies.append(time.perf_counter() - started)
                if result.is_error:
                    failures.append(text_of(result))
                else:
                    done.setdefault((team, record), set()).add(label)

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        number = 0
        for url, team in servers:
            for _ in range(CLIENTS_PER_SERVER):
                group.start_soon(client, number, url, team)
                number += 1
    wall = time.perf_counter() - started
    # Lost edits: answered ok, missing from the session.
    lost = 0
    seen_teams = {}
    for url, team in servers:
        seen_teams.setdefault(team, url)
    for team, url in seen_teams.items():
        async with http_client(url) as session:
            for record in range(RECORDS):
                got = await session.call_tool(f"r{record:02d}_form_getData", {})
                found = json.loads(text_of(got))["data"]["items"] if not got.is_error else []
                items = {item["label"] for item in found}
                lost += len(done.get((team, record), set()) - items)
    ordered = sorted(latencies)
    return {
        "calls": len(latencies),
        "failed": len(failures),
        "wallSeconds": round(wall, 2),
        "callsPerSecond": round(len(latencies) / wall, 1),
        "p50ms": round(statistics.median(ordered) * 1000, 1),
        "p99ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
        "lostEdits": lost,
        "firstFailure": failures[0] if failures else None,
    }


async def stale_saves(team_a: str, team_b: str, data: list[Path]) -> dict:
    refused = attempted = kept = 0
    async with http_client(team_a) as a, http_client(team_b) as b:
        for record, path in enumerate(data):
            # Team B's session is open (it loaded the file) before team A saves.
            await b.call_tool(f"r{record:02d}_form_getData", {})
            before = path.read_bytes()
            saved = await a.call_tool(f"r{record:02d}_form_saveForm", {})
            if saved.is_error or path.read_bytes() == before:
                continue  # team A had nothing to save: team B's save is not a stale one
            after_a = path.read_bytes()
            attempted += 1
            stale = await b.call_tool(f"r{record:02d}_form_saveForm", {})
            refused += stale.is_error and "reloadForm" in text_of(stale)
            kept += path.read_bytes() == after_a
    return {"attempted": attempted, "refusedAsStale": refused, "fileKeptTeamA": kept}


def run_fleet(folder: Path, url: str, calls: int, seed: int) -> dict:
    import anyio

    schema, data = records(folder)
    args = contexts(schema, data)
    with contextlib.ExitStack() as stack:
        servers = []
        for n, team in enumerate(("team-a", "team-a", "team-b", "team-b")):
            env = server_env(folder, f"pg{n}", url)
            started = stack.enter_context(http_server(*args, "--identity", team, tmp_path=folder, env=env))
            servers.append((started.url, team))
        phase1 = anyio.run(edits, servers, calls, seed)
        phase2 = anyio.run(stale_saves, servers[0][0], servers[2][0], data)
    return {"edits": phase1, "staleSaves": phase2}


def run_single(folder: Path, calls: int, seed: int) -> dict:
    import anyio

    schema, data = records(folder)
    env = server_env(folder, "sqlite", None)
    with http_server(*contexts(schema, data), tmp_path=folder, env=env) as server:
        return {"edits": anyio.run(edits, [(server.url, "")], calls, seed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20, help="calls per client (default 20: 2,000 on the fleet)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    reason = postgres.psycopg_missing() or (postgres.INSTALL_HINT if postgres.binaries() is None else None)
    if reason:
        sys.exit(reason)
    cluster = postgres.Cluster()
    try:
        cluster.start()
        with tempfile.TemporaryDirectory(prefix="deskcheck-fleet-") as fleet_folder:
            fleet = run_fleet(Path(fleet_folder), cluster.url(), options.calls, options.seed)
        with tempfile.TemporaryDirectory(prefix="deskcheck-single-") as single_folder:
            single = run_single(Path(single_folder), options.calls, options.seed)
    finally:
        cluster.stop()
    print(json.dumps({"postgresql, 4 servers x 25 clients, 50 sessions": fleet,
                      "sqlite, 1 server x 25 clients, 25 sessions": single}, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
