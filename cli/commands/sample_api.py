"""``deskcheck sample-api``: serve the sample dataset-records API in the foreground.

It prints where it listens (one JSON envelope with ``--json`` or when stdout is not a terminal,
so a script can read the URL of ``--port 0``), then logs one line per request on stderr until
Ctrl-C (or SIGTERM) stops it; it then exits 0.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Annotated, Any

import typer

from ..env import Env, current_env
from ..errors import UsageError
from ..output.envelope import write_json_line

# Kept here rather than imported, so that `sample-api --help` does not import the server.
DEFAULT_PORT = 8642
DEFAULT_WRITE_TOKEN = "sample-write-token"
DEFAULT_READ_TOKEN = "sample-read-token"

PortOpt = Annotated[
    int,
    typer.Option("--port", "-p", min=0, max=65535, help="The port to listen on; 0 picks a free one (printed)."),
]
HostOpt = Annotated[
    str, typer.Option("--host", help="The address to listen on. Keep the loopback address unless you mean it.")
]
DbOpt = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="A SQLite file to keep the records in (created and seeded when empty). "
        "Default: a fresh temporary database, deleted on exit.",
    ),
]
WriteTokenOpt = Annotated[str, typer.Option("--write-token", help="The bearer token that may write.")]
ReadTokenOpt = Annotated[str, typer.Option("--read-token", help="A bearer token that may only read (writes get 403).")]
FaultsOpt = Annotated[
    bool,
    typer.Option(
        "--allow-fault-injection",
        help="Mount /_faults (write token needed), so that tests in another process can make requests fail or hang.",
    ),
]
EtagsOpt = Annotated[
    bool,
    typer.Option("--etags/--no-etags", help="Send ETags on records (--no-etags: Last-Modified only)."),
]


def sample_api(
    port: PortOpt = DEFAULT_PORT,
    host: HostOpt = "127.0.0.1",
    db: DbOpt = None,
    write_token: WriteTokenOpt = DEFAULT_WRITE_TOKEN,
    read_token: ReadTokenOpt = DEFAULT_READ_TOKEN,
    allow_fault_injection: FaultsOpt = False,
    etags: EtagsOpt = True,
) -> None:
    """Serve the sample dataset-records API (OpenAPI document with x-agent annotations at
    /openapi.json) until Ctrl-C."""
    from deskcheck.samples.records_api import SampleApi, SampleApiError

    env = current_env()
    try:
        api = SampleApi(
            host=host,
            port=port,
            db_path=db,
            write_token=write_token,
            read_token=read_token,
            etags=etags,
            fault_injection_over_http=allow_fault_injection,
            request_log=None if env.quiet else _request_logger(env),
        ).start()
    except SampleApiError as exc:
        raise UsageError(f"The sample API cannot start: {exc}") from None
    if not _is_loopback(host):
        env.stderr.write(
            f"warning: listening on {host}: other machines can read the records, and write them with the token.\n"
        )
    stop = threading.Event()
    restore = _stop_on_signals(stop)
    try:
        _announce(env, _startup_info(api))
        # A timeout keeps the wait responsive to signals on every platform.
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass  # an in-process caller outside the main thread: Ctrl-C arrives as an exception
    finally:
        api.stop()
        restore()
    env.stderr.write("The sample API stopped.\n")
    raise typer.Exit(0)


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _startup_info(api) -> dict[str, Any]:
    # The default tokens are public sample values, printed so that the demo and the README tour
    # can use them; tokens the user chose are theirs and are not echoed (null).
    return {
        "url": api.origin,
        "base_url": api.base_url,
        "openapi": api.openapi_url,
        "write_token": api.write_token if api.write_token == DEFAULT_WRITE_TOKEN else None,
        "read_token": api.read_token if api.read_token == DEFAULT_READ_TOKEN else None,
        "database": str(api.db_path),
        "temporary_database": api.database_is_temporary,
    }


def _announce(env: Env, info: dict[str, Any]) -> None:
    if env.json_output:
        write_json_line(env.stdout, {"ok": True, "result": info})
        return
    database = f"{info['database']}" + (" (temporary, deleted on exit)" if info["temporary_database"] else "")
    write_token = info["write_token"] or "the one given with --write-token"
    read_token = info["read_token"] or "the one given with --read-token"
    env.stdout.write(
        f"Sample API listening on {info['url']}\n"
        f"  OpenAPI document  {info['openapi']}\n"
        f"  API base URL      {info['base_url']}\n"
        f"  write token       {write_token}   (Authorization: Bearer ...)\n"
        f"  read-only token   {read_token}\n"
        f"  database          {database}\n"
        "Press Ctrl-C to stop.\n"
    )
    env.stdout.flush()


def _request_logger(env: Env):
    lock = threading.Lock()

    def log(line: str) -> None:
        with lock:
            env.stderr.write(line + "\n")
            env.stderr.flush()

    return log


def _stop_on_signals(stop: threading.Event):
    """Make SIGINT (Ctrl-C) and SIGTERM set ``stop``; returns what undoes it. Installed explicitly
    because a shell starts background jobs with SIGINT ignored, and `kill -INT` should still
    stop the server. Only the main thread may install handlers: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore
