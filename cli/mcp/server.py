"""The catalogue's tools served with the official MCP SDK's low-level ``Server``, over stdio or
streamable HTTP.

- ``tools/list`` answers the definitions the exporters give (``Catalogue.definitions``, each
  with its output schema), plus ``continue_result`` (``paging``), built into the SDK's models
  once; the server's instructions are the catalogue's, with what ``resources`` serves.
- ``tools/call`` runs the tool as ``deskcheck call`` would (``workers``: off the event loop,
  stoppable, with progress) and answers its result as text and as structured content valid
  against the tool's output schema, bounded by ``--max-result-chars`` (``paging``); a failure is
  a tool error (``isError``) carrying the CLI's message, an unknown tool name included, so a
  model reads what to do instead.
- Streamable HTTP listens on 127.0.0.1 unless told otherwise, and every request must carry the
  server's token (``Authorization: Bearer TOKEN``, or ``?token=`` in the address): the one given
  with ``--http-token``, or one made up at start and printed with the address (``--http-no-auth``
  opts out, on a loopback address only). On a loopback address the SDK also refuses requests
  whose Host or Origin header is not local (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from deskcheck.engine.tools import ToolResult, structured_result
from deskcheck.engine.tools import ok as ok_result

from ..errors import UsageError
from .call_log import answer
from .paging import CONTINUE_TOOL, PageError, Pager, continue_definition
from .workers import Caller, Report, ToolRunner, surprise

if TYPE_CHECKING:
    from .call_log import CallLog
    from .catalogue import Catalogue

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MCP_PATH = "/mcp"
TOKEN_STATE = "deskcheck_token"


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


def build_server(catalogue: Catalogue, runner: ToolRunner, sdk: Any, pager: Pager | None = None) -> Any:
    """The SDK's low-level ``Server`` with deskcheck's tools, skills (resources and prompts) and
    documents (resources)."""
    from deskcheck.engine import __version__

    from .resources import Library

    types = sdk.types
    pager = pager or Pager()
    continue_name = _free_name(catalogue, CONTINUE_TOOL)
    pager.continue_tool = continue_name
    definitions = [*catalogue.definitions(), continue_definition(continue_name)]
    listing = types.ListToolsResult(tools=[types.Tool.model_validate(d) for d in definitions])
    library = Library(catalogue)

    warmed = []

    async def list_tools(ctx: Any, params: Any) -> Any:
        _refuse_cursor(params)
        if not warmed:
            warmed.append(True)
            runner.warm_up()
        return listing

    async def call_tool(ctx: Any, params: Any) -> Any:
        try:
            return await answer_call(ctx, params)
        except Exception as exc:  # MemoryError and RecursionError too: a tool error, and the server goes on
            return call_result(types, surprise(params.name, exc))

    async def answer_call(ctx: Any, params: Any) -> Any:
        caller = _caller(ctx)
        arguments = params.arguments or {}
        if params.name == continue_name:
            try:
                value = pager.next_page(arguments.get("continuation"), caller.session)
            except PageError as exc:
                return types.CallToolResult(content=[types.TextContent(text=str(exc))], is_error=True)
            return call_result(types, ok_result(value), structured=_structured(catalogue, None, value))
        result = await runner.call(params.name, arguments, caller, _reporter(ctx))
        if result.ok:
            result = ok_result(pager.bound(params.name, result.value, caller.session))
        return call_result(types, result, structured=_structured(catalogue, params.name, result.value))

    return sdk.Server(
        "deskcheck",
        version=__version__,
        instructions=(catalogue.instructions() + library.instructions()).strip() or None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        **library.handlers(types, _refuse_cursor),
    )


def _free_name(catalogue: Catalogue, name: str) -> str:
    return name if name not in catalogue.names else f"deskcheck_{name}"


def _refuse_cursor(params: Any) -> None:
    """Every list fits in one page: a cursor is one this server never gave (-32602)."""
    if getattr(params, "cursor", None) is not None:
        from mcp.shared.exceptions import MCPError

        raise MCPError(code=-32602, message="Invalid params: this server gave no cursor; list without one.")


def _structured(catalogue: Catalogue, name: str | None, value: Any) -> dict[str, Any] | None:
    tool = catalogue.tool(name) if name is not None else None
    if tool is not None:
        return tool.structured(value)
    return structured_result({}, value)


def _reporter(ctx: Any) -> Report | None:
    """Progress notifications for this call, sent from the worker thread, when the client gave a
    progress token."""
    meta = getattr(ctx, "meta", None) or {}
    if meta.get("progress_token", meta.get("progressToken")) is None:
        return None
    loop = asyncio.get_running_loop()
    session = ctx.session

    def report(progress: float, message: str) -> None:
        asyncio.run_coroutine_threadsafe(session.report_progress(progress, None, message or None), loop)

    return report


def call_result(types: Any, result: ToolResult, *, structured: dict[str, Any] | None = None) -> Any:
    """A tool's result as MCP content, decided as the CLI decides its envelope (``answer``):
    text (JSON text for a structured value) and ``structured`` (the result as the tool's output
    schema describes it); a failure is ``isError`` with the message, followed by the result when
    there is one (a suggest_changes that skipped operations: what was applied and why the rest
    was not)."""
    envelope = answer(result)
    value = envelope.get("result")
    blocks = [] if envelope["ok"] else [types.TextContent(text=envelope["error"] or "")]
    if "result" in envelope:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        blocks.append(types.TextContent(text=text))
    if not envelope["ok"]:
        structured = value if isinstance(value, dict) else None
    return types.CallToolResult(content=blocks, structured_content=structured, is_error=not envelope["ok"])


def _caller(ctx: Any) -> Caller:
    """Who made a call: the client's name and version (from the handshake), over HTTP its
    session id, and the identity its form sessions are kept under (its own per HTTP session;
    over stdio, the one client, the context's)."""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    session = headers.get("mcp-session-id") if headers is not None else None
    info = getattr(getattr(ctx.session, "client_params", None), "client_info", None)
    client = f"{info.name} {info.version}".strip() if info is not None else None
    identity = None
    if request is not None:
        # Per MCP session when the protocol has sessions; otherwise (2026 protocol) per token.
        token = getattr(getattr(request, "state", None), TOKEN_STATE, None)
        identity = f"mcp-{session[:12]}" if session else f"mcp-token{token}" if token else "mcp-http"
    return Caller(client, session, identity)


# -- transports ---------------------------------------------------------------------------------


async def serve_stdio(server: Any, sdk: Any) -> None:
    async with sdk.stdio_server() as (read_stream, write_stream):
        answering = AnswerUnreadable(read_stream, write_stream, sdk.types)
        await server.run(answering, write_stream, server.create_initialization_options())


class AnswerUnreadable:
    """The stdio transport's read stream, answering each line that is not a JSON-RPC message
    (not JSON, nested past the parser's limit, or JSON of another shape) with the JSON-RPC error
    the HTTP transport gives (-32700, -32600), where the SDK would skip it in silence and leave
    the client waiting."""

    def __init__(self, inner: Any, write_stream: Any, types: Any) -> None:
        self._inner, self._write, self._types = inner, write_stream, types

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __aiter__(self) -> AnswerUnreadable:
        return self

    async def __anext__(self) -> Any:
        while True:
            item = await self._inner.__anext__()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def __aenter__(self) -> AnswerUnreadable:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    async def _answer(self, problem: Exception) -> None:
        from mcp.shared.message import SessionMessage

        kinds = [e.get("type") for e in problem.errors()] if hasattr(problem, "errors") else []
        if "json_invalid" in kinds:
            code, message = -32700, "Parse error: the line is not JSON (or nests too deeply to read)."
        else:
            code, message = -32600, "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message."
        error = self._types.JSONRPCError(
            jsonrpc="2.0", id=None, error=self._types.ErrorData(code=code, message=message)
        )
        await self._write.send(SessionMessage(error))


async def serve_http(server: Any, address: HttpAddress, tokens: list[str], announce) -> None:
    """Serve streamable HTTP at ``address`` (``announce(url)`` once it listens)."""
    import socket

    import uvicorn

    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=address.host)
    if tokens:
        app = RequireBearer(app, tokens)
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

    def __init__(self, app: Any, tokens: list[str]) -> None:
        self.app = app
        self.expected = [token.encode("utf-8") for token in tokens]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            number = self._token_number(scope)
            if number is None:
                body = json.dumps(
                    {
                        "error": "this MCP server needs Authorization: Bearer <token>, or the address it printed "
                        "with ?token= (see --http-token)"
                    }
                )
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body.encode("utf-8")})
                return
            # Which token the client holds: clients of different tokens never share form sessions.
            scope.setdefault("state", {})[TOKEN_STATE] = number
        await self.app(scope, receive, send)

    def _token_number(self, scope: dict[str, Any]) -> int | None:
        """The 1-based number of the token the request carries, None when it carries none of them."""
        import hmac
        from urllib.parse import parse_qs

        given = b""
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                scheme, _, credential = value.partition(b" ")
                given = credential.strip() if scheme.lower() == b"bearer" else b""
                break
        else:
            # The address printed with a generated token carries it (?token=), as notebook servers do.
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = query.get("token", [""])[0].encode("utf-8")
        matches = [n for n, token in enumerate(self.expected, 1) if hmac.compare_digest(given, token)]
        return matches[0] if given and matches else None


def run(
    catalogue: Catalogue,
    *,
    http: HttpAddress | None = None,
    http_tokens: list[str] | None = None,
    log: CallLog | None = None,
    quiet: bool = False,
    max_result_chars: int | None = None,
    readers: int | None = None,
    token_in_url: bool = False,
    on_stop: Callable[[], None] = lambda: None,
) -> None:
    """Serve until the client leaves (stdio: end of input) or the process is stopped (SIGTERM, or
    Ctrl-C). ``on_stop`` is what the caller's cleanup does (closing the log, giving back the
    review locks), for the stdio server's signal path, which cannot return here. ``token_in_url``:
    the token was made up here, and the address printed carries it, as notebook servers do."""
    import anyio

    from . import sdk as sdk_loader
    from .paging import DEFAULT_CAP
    from .workers import DEFAULT_READERS

    if http is not None and http.host not in LOOPBACK and not http_tokens:
        raise UsageError(
            f"--http {http.host}:{http.port} listens beyond this machine: give --http-token TOKEN (or "
            "$DESKCHECK_MCP_TOKEN) so that only your clients can call the tools."
        )
    sdk = sdk_loader.load()
    runner = ToolRunner(catalogue, log, readers=readers or DEFAULT_READERS)
    server = build_server(catalogue, runner, sdk, Pager(max_result_chars or DEFAULT_CAP))
    count = len(catalogue.names)

    def announce(where: str) -> None:
        if not quiet or token_in_url:
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

            def at(url: str) -> None:
                if token_in_url and http_tokens:
                    from urllib.parse import quote

                    announce(f"at {url}?token={quote(http_tokens[0], safe='')}")
                    if not quiet:
                        print(
                            "deskcheck mcp: give a client that address, or the address without ?token= and the header "
                            "Authorization: Bearer <token>; --http-token TOKEN sets your own token.",
                            file=sys.stderr,
                            flush=True,
                        )
                else:
                    announce(f"at {url}")

            try:
                anyio.run(serve_http, server, http, http_tokens or [], at)
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
