"""``deskcheck mcp``: serve deskcheck's tools to any MCP client (stdio or streamable HTTP), and
``deskcheck mcp replay LOG``: run a recorded session again. The MCP SDK is imported only when a
server starts (``cli.mcp.sdk``)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..app import help_with_example
from ..context import ContextOptions
from ..errors import UsageError
from ..options import CONTEXT, CONTEXT_OPTION_NAMES, with_context_options

mcp_app = typer.Typer(
    name="mcp",
    help=help_with_example(
        "Serve deskcheck's tools to an MCP client (an agent), sharing sessions with the CLI and the REPL.",
        "deskcheck mcp --docx contract.docx --author Agent",
        "deskcheck mcp --spec openapi.yaml --profile write --base-url https://api.example.org",
        "deskcheck mcp --schema event.schema.json --data event.json --http 8765 --log calls.jsonl",
        "deskcheck mcp replay calls.jsonl",
        more="Without --http the server speaks over stdin/stdout (the command an MCP client launches). Each context "
        "gives the tools `deskcheck call` runs on it, under the names `deskcheck docx tools` and `deskcheck "
        "openapi tools` export; when two contexts would give tools of the same name, those contexts' tools are "
        "prefixed with their file's name (contract_read_document). Form sessions live in the same store as the "
        "CLI's: `deskcheck form sessions` lists the agent's, and `deskcheck form` or `deskcheck repl` with the "
        "same parameters continue them. A .docx served is written as each change is made; another writer (a "
        "REPL, a second server, a CLI verb that writes the file) is refused meanwhile.",
    ),
    invoke_without_command=True,
    rich_markup_mode=None,
)

DocxList = Annotated[
    list[Path] | None,
    typer.Option("--docx", help="A .docx file to review (repeatable).", rich_help_panel=CONTEXT, show_default=False),
]
SpecList = Annotated[
    list[str] | None,
    typer.Option(
        "--spec",
        help="An OpenAPI document (file or URL) annotated with x-agent (repeatable).",
        rich_help_panel=CONTEXT,
        show_default=False,
    ),
]
SchemaList = Annotated[
    list[Path] | None,
    typer.Option(
        "--schema",
        help="A JSON Schema for a file-backed form (repeatable; pairs with --data in order).",
        rich_help_panel=CONTEXT,
        show_default=False,
    ),
]
DataList = Annotated[
    list[Path] | None,
    typer.Option("--data", help="The record a file-backed form edits (repeatable).", rich_help_panel=CONTEXT),
]
SERVER = "Server"
HttpOpt = Annotated[
    str | None,
    typer.Option(
        "--http",
        metavar="HOST:PORT",
        help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST defaults to 127.0.0.1; "
        "port 0 picks a free one).",
        rich_help_panel=SERVER,
        show_default=False,
    ),
]
HttpTokenOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--http-token",
        help="With --http: clients must send Authorization: Bearer TOKEN (default: $DESKCHECK_MCP_TOKEN, else "
        "a token made up at start and printed with the address, as ?token=). Repeat it to give each client "
        "a token of its own: clients of different tokens never share form sessions. Never logged.",
        rich_help_panel=SERVER,
        show_default=False,
    ),
]
HttpNoAuthOpt = Annotated[
    bool,
    typer.Option(
        "--http-no-auth",
        help="With --http on a loopback address: require no token (any process of this machine may then call "
        "the tools, with your API credentials).",
        rich_help_panel=SERVER,
    ),
]
MaxResultOpt = Annotated[
    int,
    typer.Option(
        "--max-result-chars",
        min=2_000,
        max=200_000,
        help="Longest result answered at once, in characters of JSON text; a longer one is answered a page at "
        "a time (continue_result).",
        rich_help_panel=SERVER,
    ),
]
ShareOpt = Annotated[
    bool,
    typer.Option(
        "--share-sessions",
        help="Over HTTP: every client works in the form sessions the CLI and the REPL use (by default each MCP "
        "session has its own; --identity NAME shares the sessions of NAME instead).",
        rich_help_panel=SERVER,
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--readers",
        min=1,
        max=32,
        help="Reads of a .docx run at once (a long compare does not hold up another client's read); writes "
        "and form sessions run one at a time per context and client.",
        rich_help_panel=SERVER,
    ),
]
LogOpt = Annotated[
    Path | None,
    typer.Option(
        "--log",
        help="Append every call (arguments, result, timings; credentials redacted) to this JSON Lines file.",
        rich_help_panel=SERVER,
        show_default=False,
    ),
]

# Every context option but the four that name a context (repeatable here) and -o/--output
# (a served document is written in place, so that the CLI sees each change).
NOT_SHARED = ("docx", "spec", "schema", "data", "output")
SHARED_OPTIONS = tuple(name for name in CONTEXT_OPTION_NAMES if name not in NOT_SHARED)


@mcp_app.callback()
@with_context_options(only=SHARED_OPTIONS)
def serve(
    ctx: typer.Context,
    docx: DocxList = None,
    spec: SpecList = None,
    schema: SchemaList = None,
    data: DataList = None,
    http: HttpOpt = None,
    http_token: HttpTokenOpt = None,
    http_no_auth: HttpNoAuthOpt = False,
    log: LogOpt = None,
    max_result_chars: MaxResultOpt = 50_000,
    readers: WorkersOpt = 4,
    share_sessions: ShareOpt = False,
    *,
    context: ContextOptions,
) -> None:
    """Serve the tools of the given contexts until the client leaves (stdio) or Ctrl-C (HTTP)."""
    if ctx.invoked_subcommand is not None:
        return
    # Nothing but the protocol may reach stdout: problems are told on stderr, exit code 2.
    try:
        _serve(
            context,
            (docx, spec, schema, data),
            http,
            http_token,
            log,
            http_no_auth=http_no_auth,
            max_result_chars=max_result_chars,
            readers=readers,
            share_sessions=share_sessions,
        )
    except UsageError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        raise typer.Exit(2) from None


def _serve(
    context, flags, http, http_token, log_path, *, http_no_auth, max_result_chars, readers, share_sessions
) -> None:
    from ..env import current_env
    from ..mcp.call_log import CallLog, Redactor, credentials_of
    from ..mcp.catalogue import contexts_from_flags, open_catalogue
    from ..mcp.server import LOOPBACK, parse_http_address, run
    from ..review_lock import holding

    address = parse_http_address(http) if http is not None else None
    http_token = list(http_token or ()) or [t for t in [os.environ.get("DESKCHECK_MCP_TOKEN")] if t]
    if (http_token or http_no_auth) and address is None:
        raise UsageError("--http-token and --http-no-auth are for an HTTP server: give --http HOST:PORT too.")
    if http_no_auth and http_token:
        raise UsageError("give --http-token or --http-no-auth, not both.")
    if http_no_auth and address is not None and address.host not in LOOPBACK:
        raise UsageError(f"--http-no-auth is for a loopback address only; {address.host} needs a token.")
    made_up = address is not None and not http_token and not http_no_auth and address.host in LOOPBACK
    if made_up:
        import secrets

        http_token = [secrets.token_urlsafe(24)]
    catalogue = open_catalogue(contexts_from_flags(context, *flags), shared_sessions=share_sessions)
    _reach_shared_store()
    with contextlib.ExitStack() as stack:
        stack.enter_context(holding(catalogue.written_documents(), "mcp"))
        log = None
        if log_path is not None:
            from deskcheck.engine.forms.sessions.store_url import store_url
            from deskcheck.engine.urls import password_of

            secrets = [
                *credentials_of(context.headers, context.effective_token),
                *http_token,
                password_of(store_url()),
            ]
            log = CallLog(log_path, Redactor(secrets))
            stack.callback(log.close)
            log.start(
                transport="stdio" if address is None else "http",
                contexts=[served.record() for served in catalogue.contexts],
                tools=catalogue.names,
            )
        run(
            catalogue,
            http=address,
            http_tokens=http_token,
            log=log,
            quiet=current_env().quiet,
            max_result_chars=max_result_chars,
            readers=readers,
            token_in_url=made_up,
            on_stop=stack.close,
        )


def _reach_shared_store() -> None:
    """A shared (PostgreSQL) store is connected to now: one that cannot be reached ends the
    start with exit 2 and the reason, rather than failing the agent's first call."""
    from deskcheck.engine.forms.sessions.store_base import StoreError
    from deskcheck.engine.forms.sessions.store_url import open_store, shared_store_url

    try:
        url = shared_store_url()
        if url is not None:
            open_store(url).counters()
    except StoreError as exc:
        raise UsageError(exc.message) from None


LogArg = Annotated[
    Path, typer.Argument(metavar="LOG", help="A log written by deskcheck mcp --log.", show_default=False)
]
LoggedOpt = Annotated[
    bool,
    typer.Option(
        "--use-logged-contexts",
        help="Replay on the files and API the log names (a log is untrusted: check them first) instead of "
        "contexts given here.",
    ),
]
StrictOpt = Annotated[
    bool, typer.Option("--strict", help="Exit 1 when any result differs from the recorded one, not only its outcome.")
]


@mcp_app.command("replay", no_args_is_help=True)
@with_context_options(only=SHARED_OPTIONS)
def replay(
    log_file: LogArg,
    docx: DocxList = None,
    spec: SpecList = None,
    schema: SchemaList = None,
    data: DataList = None,
    strict: StrictOpt = False,
    use_logged_contexts: LoggedOpt = False,
    *,
    context: ContextOptions,
) -> None:
    """Run every call of a recorded session again, in order, against the contexts given (or, with
    --use-logged-contexts, the ones the log names; credentials are never logged, so give --token or
    --header again, and --base-url for them to be sent to a logged API), and print
    one JSON line per call: its result and how it compares with the recorded one (same, changed,
    or diverged when success became failure or the other way round), then a summary. Exit 1 when a
    call diverged (with --strict: when any result changed), 2 when the log cannot be read. A replay's form
    sessions are its own (a temporary store): it starts from the records as they are now and leaves the
    sessions of the agent and the CLI alone; a .docx is written as the server would write it."""
    from ..mcp.replay import replay_log

    raise typer.Exit(
        replay_log(log_file, context, docx, spec, schema, data, strict=strict, use_logged_contexts=use_logged_contexts)
    )
