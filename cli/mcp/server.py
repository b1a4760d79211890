"""The catalogue's tools served with the official MCP SDK's low-level ``Server``, over stdio or
streamable HTTP.

- ``tools/list`` answers the definitions the exporters give (``Catalogue.definitions``), built
  into the SDK's models once; the server's instructions are the catalogue's.
- ``tools/call`` runs the tool as ``deskcheck call`` would and answers its result as text (a
  docx tool's JSON result also as structured content); a failure is a tool error
  (``isError``) carrying the CLI's message, an unknown tool name included, so a model reads
  what to do instead.
- Calls run one at a time, in order, on one worker thread: the event loop stays free for the
  transport, and the session store's connection and the parsed documents are only ever used
  from that thread. One writer at a time also means two clients of an HTTP server never
  interleave the read-modify-write of a document.
- Streamable HTTP listens on 127.0.0.1 unless told otherwise; with ``--http-token`` every
  request must carry ``Authorization: Bearer TOKEN``. On a loopback address the SDK refuses
  requests whose Host or Origin header is not local (DNS rebinding); elsewhere a token is
  required.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NamedTuple

from deskcheck.engine.tools import ToolResult

from ..errors import UsageError
from .call_log import answer, now_iso

if TYPE_CHECKING:
    from .call_log import CallLog
    from .catalogue import Catalogue

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MCP_PATH = "/mcp"


class HttpAddress(NamedTuple):
    host: str
    port: int

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{MCP_PATH}"


def parse_http_address(text: str) -> HttpAddress:
    """``PORT``, ``:PORT``, ``HOST:PORT`` or ``[IPv6]:PORT``; the host defaults to 127.0.0.1
    and port 0 picks a free one."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageError(f"--http takes HOST:PORT or PORT (e.g. 127.0.0.1:8765 or 8765), not {text!r}.")
    return HttpAddress(host, int(port))


class Caller(NamedTuple):
    client: str | None = None
    session: str | None = None


NO_CALLER = Caller()


class ToolRunner:
    """Runs calls on the one worker thread, timing and logging each."""

    def __init__(self, catalogue: Catalogue, log: CallLog | None) -> None:
        self.catalogue = catalogue
        self.log = log
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskcheck-tools")

    async def call(self, name: str, arguments: Any, caller: Caller = NO_CALLER) -> ToolResult:
        queued = time.perf_counter()
        future = self._executor.submit(self._run, name, arguments, caller, queued)
        return await asyncio.wrap_future(future)

    def _run(self, name: str, arguments: Any, caller: Caller, queued: float) -> ToolResult:
        at, started = now_iso(), time.perf_counter()
        result = self.catalogue.call(name, arguments)
        finished = time.perf_counter()
        if self.log is not None:
            self.log.call(
                name,
                arguments,
                result,
                at=at,
                ms=(finished - started) * 1000,
                waited_ms=(started - queued) * 1000,
                client=caller.client,
                session=caller.session,
            )
        return result

    def warm_up(self) -> None:
        """Have the worker read the documents while the client reads the tool list (a call that
        comes meanwhile waits for it, and then finds the document parsed)."""
        self._executor.submit(self.catalogue.warm_up)

    def close(self) -> None:
        self._executor.shutdown(wait=True)


def build_server(catalogue: Catalogue, runner: ToolRunner, sdk: Any) -> Any:
    """The SDK's low-level ``Server`` with deskcheck's ``tools/list`` and ``tools/call``."""
    from deskcheck.engine import __version__

    types = sdk.types
    listing = types.ListToolsResult(tools=[types.Tool.model_validate(d) for d in catalogue.definitions()])

    warmed = []

    async def list_tools(ctx: Any, params: Any) -> Any:
        if not warmed:
            warmed.append(True)
            runner.warm_up()
        return listing

    async def call_tool(ctx: Any, params: Any) -> Any:
        result = await runner.call(params.name, params.arguments or {}, _caller(ctx))
        return call_result(types, result)

    return sdk.Server(
        "deskcheck",
        version=__version__,
        instructions=catalogue.instructions() or None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def call_result(types: Any, result: ToolResult) -> Any:
    """A tool's result as MCP content, decided as the CLI decides its envelope (``answer``):
    text (JSON text for a structured value) and the value itself as structured content when it
    is an object; a failure is ``isError`` with the message, followed by the result when there is
    one (a suggest_changes that skipped operations: what was applied and why the rest was not)."""
    envelope = answer(result)
    value = envelope.get("result")
    blocks = [] if envelope["ok"] else [types.TextContent(text=envelope["error"] or "")]
    if "result" in envelope:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        blocks.append(types.TextContent(text=text))
    structured = value if isinstance(value, dict) else None
    return types.CallToolResult(content=blocks, structured_content=structured, is_error=not envelope["ok"])


def _caller(ctx: Any) -> Caller:
    """Who made a call, for the log: the client's name and version (from the handshake or the
    request's own metadata) and, over HTTP with a handshake, its session id."""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    session = headers.get("mcp-session-id") if headers is not None else None
    info = getattr(getattr(ctx.session, "client_params", None), "client_info", None)
    client = f"{info.name} {info.version}".strip() if info is not None else None
    return Caller(client, session)


# -- transports ---------------------------------------------------------------------------------


async def serve_stdio(server: Any, sdk: Any) -> None:
    async with sdk.stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(server: Any, address: HttpAddress, token: str | None, announce) -> None:
    """Serve streamable HTTP at ``address`` (``announce(url)`` once it listens)."""
    import socket

    import uvicorn

    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=address.host)
    if token:
        app = RequireBearer(app, token)
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    try:
        sock = socket.create_server((address.host, address.port), family=family, reuse_port=False)
    except OSError as exc:
        raise UsageError(f"cannot listen on {address.host}:{address.port} ({exc.strerror or exc}).") from None
    bound = HttpAddress(address.host, sock.getsockname()[1])
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=5)
    announce(bound.url)
    await uvicorn.Server(config).serve(sockets=[sock])


class RequireBearer:
    """An ASGI wrapper: HTTP requests without ``Authorization: Bearer <token>`` get 401. A fixed
    token compared in constant time is all a local server needs (the SDK's own bearer support
    expects an OAuth issuer and a token verifier)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = token.encode("utf-8")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self._authorised(scope):
            body = json.dumps({"error": "this MCP server needs Authorization: Bearer <token> (see --http-token)"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode("utf-8")})
            return
        await self.app(scope, receive, send)

    def _authorised(self, scope: dict[str, Any]) -> bool:
        import hmac

        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                scheme, _, credential = value.partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(credential.strip(), self.expected)
        return False


def run(
    catalogue: Catalogue,
    *,
    http: HttpAddress | None = None,
    http_token: str | None = None,
    log: CallLog | None = None,
    quiet: bool = False,
    on_stop: Callable[[], None] = lambda: None,
) -> None:
    """Serve until the client leaves (stdio: end of input) or the process is stopped (SIGTERM, or
    Ctrl-C). ``on_stop`` is what the caller's cleanup does (closing the log, giving back the
    review locks), for the stdio server's signal path, which cannot return here."""
    import anyio

    from . import sdk as sdk_loader

    if http is not None and http.host not in LOOPBACK and not http_token:
        raise UsageError(
            f"--http {http.host}:{http.port} listens beyond this machine: give --http-token TOKEN (or "
            "$DESKCHECK_MCP_TOKEN) so that only your clients can call the tools."
        )
    sdk = sdk_loader.load()
    runner = ToolRunner(catalogue, log)
    server = build_server(catalogue, runner, sdk)
    count = len(catalogue.names)

    def announce(where: str) -> None:
        if not quiet:
            print(f"deskcheck mcp: serving {count} tools {where}", file=sys.stderr, flush=True)

    try:
        if http is None:
            _stop_stdio_on_signals(runner, on_stop)
            announce("over stdio")
            if sys.stdin.isatty() and not quiet:
                print(
                    "deskcheck mcp: this end speaks JSON-RPC; an MCP client launches it with this command line "
                    "(or serve over HTTP with --http PORT). Ctrl-C leaves.",
                    file=sys.stderr,
                    flush=True,
                )
            anyio.run(serve_stdio, server, sdk)
        else:
            terminated = _stop_http_on_sigterm()
            try:
                anyio.run(serve_http, server, http, http_token, lambda url: announce(f"at {url}"))
            except KeyboardInterrupt:
                if not terminated[0]:
                    raise
    finally:
        runner.close()


def _stop_stdio_on_signals(runner: ToolRunner, on_stop: Callable[[], None]) -> None:
    """SIGTERM (how a client stops a server, after closing its input or instead) and Ctrl-C end a
    stdio server at once: the call in progress finishes, ``on_stop`` closes the log and gives
    back the locks, and the process exits (0, or 130 for Ctrl-C). It cannot unwind as usual: the
    SDK reads stdin on a thread that a cancellation waits for, until the input ends."""
    import os
    import signal

    def stop(signum, frame) -> None:
        runner.close()
        on_stop()
        sys.stderr.flush()
        os._exit(130 if signum == signal.SIGINT else 0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def _stop_http_on_sigterm() -> list[bool]:
    """SIGTERM ends an HTTP server as Ctrl-C does (uvicorn shuts down, then raises the signal
    again here), but quietly and with exit 0: the returned flag says it happened."""
    import signal

    terminated = [False]

    def stop(signum, frame) -> None:
        terminated[0] = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    return terminated
