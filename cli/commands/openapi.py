"""``deskcheck openapi``: check an annotated OpenAPI document, list the tools it gives."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..app import help_with_example
from ..env import current_env
from ..exit import ExitCode
from ..output.emit import emit_usage_error

openapi_app = typer.Typer(
    name="openapi",
    help=help_with_example(
        "Check annotated OpenAPI documents (x-agent) and list the tools they give.",
        "deskcheck openapi check openapi.yaml --format github",
        "deskcheck openapi tools openapi.yaml --profile write",
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)

SpecArg = Annotated[
    str, typer.Argument(metavar="SPEC", help="The OpenAPI document: a JSON or YAML file, or a URL.", show_default=False)
]
ProfileOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--profile",
        help="Check or list one x-agent profile (repeatable). Default: every profile for "
        "check, the document's default profile for tools.",
    ),
]
CHECK_FORMATS = ("text", "json", "github", "sarif")
TOOLS_FORMATS = ("json", "anthropic", "openai", "mcp")


@openapi_app.command("check", no_args_is_help=True)
def check(
    specs: Annotated[
        list[str],
        typer.Argument(
            metavar="SPEC...",
            help="The OpenAPI document(s): JSON or YAML files, or URLs (several for a pre-commit hook).",
            show_default=False,
        ),
    ],
    output_format: Annotated[
        str, typer.Option("--format", help='text, json ({"findings": [...]}), github (workflow annotations) or sarif.')
    ] = "text",
    profile: ProfileOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) on warnings too.")] = False,
    live: Annotated[
        bool,
        typer.Option(
            "--live",
            help="Also request each editor group's schema from the API (--base-url) and build its form, "
            "reporting what would fail for an agent.",
        ),
    ] = False,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="With --live: the API's address.", show_default=False)
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="With --live: a path parameter value name=value for the schema request (repeatable); giving "
            "the read operation's parameters too checks that record against its schema.",
        ),
    ] = None,
    header: Annotated[
        list[str] | None, typer.Option("--header", "-H", help="With --live: an HTTP header 'Name: value'.")
    ] = None,
    token: Annotated[
        str | None,
        typer.Option("--token", help="With --live: a bearer token (default: $DESKCHECK_TOKEN).", show_default=False),
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="With --live: seconds per request.", min=0.1)] = 30.0,
) -> None:
    """Report everything that would stop the document's tools from loading or working (errors) and
    what other OpenAPI tools would object to (warnings), each with its line, column and JSON pointer.
    Exit 0 without errors, 1 with errors (or warnings with --strict), 2 when the document cannot be read."""
    from dataclasses import replace

    from deskcheck.engine import __version__, progress
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.openapi.check import check_source, has_errors
    from deskcheck.engine.openapi.report import format_findings
    from deskcheck.engine.openapi.source import read_source
    from deskcheck.engine.urls import redact

    env = current_env()
    if output_format not in CHECK_FORMATS:
        raise typer.Exit(emit_usage_error(env, _bad_format(output_format, CHECK_FORMATS)))
    try:
        live_options = _live_options(live, base_url, param or [], header or [], token, timeout)
    except InputError as exc:
        raise typer.Exit(emit_usage_error(env, exc.message)) from None
    findings = []
    unreadable = False
    clean: list[str] = []
    for spec in progress.each(specs, f"checking {len(specs)} document(s)", lambda spec: f"checking {spec}"):
        try:
            source = read_source(spec)
            found = check_source(source, profiles=profile or None, live=live_options)
        except InputError as exc:
            if len(specs) == 1:
                raise typer.Exit(emit_usage_error(env, exc.message)) from None
            print(f"error: {exc.message}", file=env.stderr)
            unreadable = True
            continue
        artifact = source.location if source.url else _artifact_path(spec)
        # With one document the findings need no file name; with several each one says its file.
        findings += [replace(f, artifact=artifact) for f in found] if len(specs) > 1 else found
        clean += [] if found else [artifact]
    artifact = (redact(specs[0]) if "://" in specs[0] else _artifact_path(specs[0])) if len(specs) == 1 else ""
    if output_format == "text" and not env.json_output:
        _show_findings(env, findings, artifact, clean if len(specs) > 1 else [])
    else:
        print(format_findings(findings, output_format, artifact=artifact, tool_version=__version__), file=env.stdout)
    if unreadable:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(ExitCode.TOOL_ERROR if has_errors(findings, strict=strict) else ExitCode.OK)


@openapi_app.command("tools", no_args_is_help=True)
def tools(
    spec: SpecArg,
    profile: ProfileOpt = None,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="json (the default: tools, editor groups, skills, instructions), anthropic, openai or mcp; on a "
            "terminal without it, a list of names and summaries.",
            show_default=False,
        ),
    ] = None,
    locale: Annotated[
        str, typer.Option("--locale", help="The language of localized x-agent texts (en, fr, …).")
    ] = "en",
) -> None:
    """Print the tool definitions the document gives, deterministically (suitable as a golden file):
    one tool per annotated operation, eight form tools per editor group (the json format also
    describes each group under editorGroups)."""
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.openapi.load import load_openapi
    from deskcheck.engine.providers import export_tools

    env = current_env()
    listing = output_format is None  # on a terminal: names and summaries instead of definitions
    output_format = output_format or "json"
    if output_format not in TOOLS_FORMATS:
        raise typer.Exit(emit_usage_error(env, _bad_format(output_format, TOOLS_FORMATS)))
    try:
        loaded = load_openapi(spec, profiles=profile or None, locale=locale)
    except InputError as exc:
        raise typer.Exit(emit_usage_error(env, exc.message)) from None
    definitions = export_tools(loaded.tools, output_format)
    if output_format == "json":
        examples = loaded.examples()
        for definition in definitions:
            if definition["name"] in examples:
                definition["examples"] = examples[definition["name"]]
        value: object = {
            "profiles": loaded.profiles,
            "instructions": loaded.instructions,
            "skills": [skill.as_dict() for skill in loaded.skills],
            "tools": definitions,
            "editorGroups": [group.as_dict() for group in loaded.editor_groups],
        }
    else:
        value = definitions
    if listing and not env.json_output:
        from ..output.emit import emit_value

        raise typer.Exit(emit_value(env, value, "openapi:tools"))
    print(json.dumps(value, ensure_ascii=False, indent=2), file=env.stdout)


def _show_findings(env, findings, artifact: str, clean: list[str]) -> None:
    """The findings on a terminal, grouped by file with their severity in colour (``render.openapi``)."""
    from ..output.pretty import print_value

    print_value(env, [f.as_dict() for f in findings], "openapi:check", {"artifact": artifact, "clean": clean})


def _live_options(live: bool, base_url: str | None, params: list[str], headers: list[str], token, timeout: float):
    """The ``LiveOptions`` of ``--live`` (None without it); an ``InputError`` for flags that
    make no sense."""
    from deskcheck.engine.errors import InputError

    if not live:
        flags = (("--base-url", base_url), ("--param", params), ("--header", headers), ("--token", token))
        given = [flag for flag, value in flags if value]
        if given:
            raise InputError(
                f"{', '.join(given)} only matter(s) with --live, which calls the API; add --live or leave them out."
            )
        return None
    if not base_url:
        raise InputError("--live calls the API: give its address with --base-url URL.")
    from deskcheck.engine.urls import check_http_url

    check_http_url(base_url, "--base-url")
    values: dict[str, str] = {}
    for item in params:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--param must look like name=value, not {item!r}.")
        values[name.strip()] = value
    from deskcheck.engine.openapi.http import Credentials
    from deskcheck.engine.openapi.live_check import LiveOptions

    return LiveOptions(base_url, values, Credentials.from_options(headers, token), timeout=timeout)


def _bad_format(given: str, allowed: tuple[str, ...]) -> str:
    return f"--format must be one of {', '.join(allowed)}, not {given!r}."


def _artifact_path(spec: str) -> str:
    """The document's path as annotations should name it: relative to the working directory when
    it is inside it (GitHub and SARIF viewers resolve paths against the repository root)."""
    from pathlib import Path

    path = Path(spec)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
