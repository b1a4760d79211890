"""Driving ``deskcheck mcp`` as a client would: the official SDK's ``Client`` over stdio (the
server launched as a subprocess) or over streamable HTTP (a server process started with
``--http 127.0.0.1:0``, its address read from its stderr)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.helpers import deskcheck_executable

ANNOUNCED = re.compile(r"serving \d+ tools at (http://\S+)")


def stdio_parameters(*args: str):
    """What the SDK's client launches: ``deskcheck mcp ARGS`` with this process's environment
    (the SDK passes a reduced one by default; the tests' state directory must reach it)."""
    from mcp import StdioServerParameters

    return StdioServerParameters(command=deskcheck_executable(), args=["mcp", *args], env=dict(os.environ))


def stdio_client(*args: str, **options: Any):
    """An SDK ``Client`` (an async context manager) over stdio to ``deskcheck mcp ARGS``."""
    from mcp import Client

    return Client(stdio_parameters(*args), **options)


def http_client(url: str, token: str | None = None):
    """An SDK ``Client`` over streamable HTTP to ``url``, sending ``token`` as a bearer token."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=60)))


@contextlib.asynccontextmanager
async def connected(transport: str, args: list[str], tmp_path: Path):
    """A client of ``deskcheck mcp ARGS`` over ``transport`` (``stdio`` or ``http``)."""
    if transport == "stdio":
        async with stdio_client(*args) as client:
            yield client
    else:
        with http_server(*args, tmp_path=tmp_path) as server:
            async with http_client(server.url) as client:
                yield client


class HttpServer:
    def __init__(self, process: subprocess.Popen, url: str, stderr: Path) -> None:
        self.process, self.url, self.stderr_path = process, url, stderr

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def http_server(*args: str, tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[HttpServer]:
    """``deskcheck mcp ARGS --http 127.0.0.1:0`` (unless ARGS has --http) as a process, stopped
    after the block."""
    stderr = tmp_path / f"mcp-http-{time.monotonic_ns()}.err"
    extra = [] if "--http" in args else ["--http", "127.0.0.1:0"]
    with stderr.open("w") as err:
        process = subprocess.Popen(
            [deskcheck_executable(), "mcp", *args, *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, **(env or {})},
        )
    try:
        url = _wait_for_address(process, stderr)
        yield HttpServer(process, url, stderr)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for_address(process: subprocess.Popen, stderr: Path, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = ANNOUNCED.search(stderr.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        if process.poll() is not None:
            raise AssertionError(f"the server ended (exit {process.returncode}):\n{stderr.read_text()}")
        time.sleep(0.05)
    raise AssertionError(f"the server did not announce its address:\n{stderr.read_text()}")


def text_of(result) -> str:
    """The text of a ``CallToolResult``'s one content block."""
    assert len(result.content) == 1, result.content
    return result.content[0].text


def json_of(result) -> Any:
    assert not result.is_error, text_of(result)
    return json.loads(text_of(result))


def definitions(listing) -> list[dict[str, Any]]:
    """A ``tools/list`` result as the exporters' JSON shape (name, title, description,
    inputSchema, annotations)."""
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listing.tools]
