"""``deskcheck openapi``: check an annotated OpenAPI document, list the tools it gives."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..app import help_with_example
from ..completion import choices, profiles
from ..env import current_env, global_flags
from ..option_values import metavar, one_of
from ..output.emit import emit_export_error, print_plain_error
from ..render.draw import plural

openapi_app = typer.Typer(
    name="openapi",
    help=help_with_example(
        "Check annotated OpenAPI documents (x-agent) and list the tools they give.",
        "deskcheck openapi check openapi.yaml --format github",
        "deskcheck openapi tools openapi.yaml --profile write",
        "deskcheck openapi rule default-invalid",
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
        autocompletion=profiles,
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
        str | None,
        typer.Option(
            "--format",
            metavar=metavar(CHECK_FORMATS),
            help="text (the default), json (the envelope, --json too), github (workflow annotations) or sarif; "
            "each one says what happened in every outcome.",
            autocompletion=choices(CHECK_FORMATS),
            callback=one_of(CHECK_FORMATS),
            show_default=False,
        ),
    ] = None,
    profile: ProfileOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) on warnings too.")] = False,
    severity: Annotated[
        list[str] | None,
        typer.Option(
            "--severity",
            metavar="RULE=error|warning|off",
            help="Change a rule's severity (repeatable; wins over the configuration file); `deskcheck openapi rule` "
            "lists the rules.",
            autocompletion=_complete_severity,
        ),
    ] = None,
    config: Annotated[
        str | None,
        typer.Option(
            "--config",
            help="The configuration file ([openapi.check] in .deskcheck.toml, [tool.deskcheck.openapi.check] in "
            "pyproject.toml); default: the nearest one from the working directory up to the repository root (the "
            "folder with .git; outside a repository, the working directory only). --config none reads none.",
            show_default=False,
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="Follow $refs to URLs on this host (repeatable). Files are read; no URL is fetched otherwise.",
        ),
    ] = None,
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
    """Report everything that would stop the document's tools from loading or working and everything
    the OpenAPI specification forbids (errors), and what is only questionable (warnings), each with its
    file, line, column and JSON pointer; $refs to other files are checked too. Exit 0 without errors,
    1 with errors (or warnings with --strict), 2 when a document cannot be read or the options are wrong.
    Each finding names its rule: `deskcheck openapi rule` lists the rules, `deskcheck openapi rule NAME`
    explains one (why it matters, how to fix it)."""
    env = current_env()
    fmt = output_format or ("json" if global_flags().json else "text")
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.openapi.check.report import CheckReport

    report = CheckReport(documents=[_artifact_path(spec) for spec in specs])
    try:
        live_options = _live_options(live, base_url, param or [], header or [], token, timeout)
        settings = _check_settings(config, severity or [])
    except InputError as exc:
        report.failure = exc.message
        raise typer.Exit(_print_report(env, report, fmt)) from None
    report.strict = strict or settings.strict
    report.configuration = _artifact_path(str(settings.path)) if settings.path is not None else None
    _run_checks(report, specs, profile, live_options, tuple(allow_host or ()), settings.severity)
    raise typer.Exit(_print_report(env, report, fmt))


def _run_checks(report, specs: list[str], profiles, live_options, allow_hosts, severities) -> None:
    """Check each document into ``report``: its findings, each naming its file; a document that
    cannot be read becomes a finding of its own; an option the document refuses (an undeclared
    profile) stops the check."""
    from dataclasses import replace

    from deskcheck.engine import progress
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.openapi.check.check import check_source, unreadable_finding
    from deskcheck.engine.openapi.document.problems import SpecUsageError
    from deskcheck.engine.openapi.document.source import read_source

    documents = list(zip(specs, report.documents, strict=True))
    for spec, artifact in progress.each(
        documents, f"checking {plural(len(specs), 'document')}", lambda document: f"checking {document[0]}"
    ):
        try:
            source = read_source(spec)
            found = check_source(
                source, profiles=profiles or None, live=live_options, allow_hosts=allow_hosts, severities=severities
            )
        except SpecUsageError as exc:
            report.failure = exc.message
            report.findings = []
            return
        except InputError as exc:
            report.unreadable.append(artifact)
            found = [unreadable_finding(exc)]
        report.findings += [replace(f, artifact=_artifact_path(f.artifact) if f.artifact else artifact) for f in found]


def _print_report(env, report, fmt: str) -> int:
    """Print ``report`` in ``fmt``: json as the contract's envelope (ok exactly when the exit code
    is 0), the others in their own format, whatever happened."""
    code = report.exit_code
    if fmt == "json":
        from ..output.envelope import write_json_line

        failed = {} if code == 0 else {"error": report.summary()}
        write_json_line(env.stdout, {"ok": code == 0, **failed, "result": report.result()})
        if code != 0:
            print_plain_error(env, report.summary())
        return code
    if fmt == "text" and not env.json_output:  # a person at a terminal: the coloured view
        if report.failure is not None:
            from ..output.pretty import print_error

            print_error(env, report.failure)
            return code
        named = {f.artifact for f in report.findings}
        clean = [name for name in report.documents if name not in named] if len(report.documents) > 1 else []
        artifact = report.documents[0] if len(report.documents) == 1 else ""
        _show_findings(
            env, report.findings, {"artifact": artifact, "clean": clean, "configuration": report.configuration}
        )
        return code
    from deskcheck.engine import __version__
    from deskcheck.engine.openapi.check.report import format_report

    formatted = format_report(report, fmt, tool_version=__version__)
    if formatted:  # GitHub annotations of a clean check: nothing at all, not an empty line
        print(formatted, file=env.stdout)
    if code != 0:  # the findings may go to a file (a CI step's artifact): the gist reaches stderr too
        print_plain_error(env, report.summary())
    return code


def _check_settings(config: str | None, severity: list[str]):
    """The configuration in effect: the file's (named, found, or none), then --severity over it."""
    from pathlib import Path

    from deskcheck.engine.openapi.check.check_config import (
        CheckConfig,
        find_config,
        load_config,
        parse_severity_options,
    )

    if config == "none":
        settings = CheckConfig()
    elif config is not None:
        settings = load_config(Path(config))  # refuses a missing file, a directory, a FIFO
    else:
        found = find_config(Path.cwd())
        settings = load_config(found) if found is not None else CheckConfig()
    overrides = parse_severity_options(severity)
    return CheckConfig({**settings.severity, **overrides}, settings.strict, settings.path)


def _complete_severity(incomplete: str) -> list[str]:
    from deskcheck.engine.openapi.rules.rules import RULES, SEVERITIES

    rule, sep, _ = incomplete.partition("=")
    if sep:
        return [f"{rule}={level}" for level in SEVERITIES]
    return [f"{name}=" for name in RULES if name.startswith(incomplete)]


@openapi_app.command("rule")
def rule(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[NAME]", help="The rule, as a finding names it (default-invalid).", show_default=False),
    ] = None,
) -> None:
    """Explain a rule of openapi check: what it finds, why it matters, how to fix it and its default
    severity. Without NAME, list every rule."""
    from deskcheck.engine.openapi.rules.rule_docs import all_rule_docs, rule_doc
    from deskcheck.engine.openapi.rules.rules import RULES

    from ..errors import UsageError
    from ..output.emit import emit_value

    env = current_env()
    if name is None:
        raise typer.Exit(emit_value(env, [doc.as_dict() for doc in all_rule_docs()], "rules:rules"))
    if name not in RULES:
        from deskcheck.engine.close_matches import did_you_mean

        raise UsageError(
            f"there is no rule {name!r}.{did_you_mean(name, RULES)} `deskcheck openapi rule` lists every rule."
        )
    raise typer.Exit(emit_value(env, rule_doc(RULES[name]).as_dict(), "rules:rule"))


@openapi_app.command("tools", no_args_is_help=True)
def tools(
    spec: SpecArg,
    profile: ProfileOpt = None,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            metavar=metavar(TOOLS_FORMATS),
            help="json (the default: tools, editor groups, skills, instructions), anthropic, openai or mcp; on a "
            "terminal without it, a list of names and summaries.",
            show_default=False,
            autocompletion=choices(TOOLS_FORMATS),
            callback=one_of(TOOLS_FORMATS),
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
    from deskcheck.engine.openapi.tools.load import load_openapi
    from deskcheck.engine.providers import export_tools

    env = current_env()
    listing = output_format is None  # on a terminal: names and summaries instead of definitions
    output_format = output_format or "json"
    try:
        loaded = load_openapi(spec, profiles=profile or None, locale=locale)
    except InputError as exc:
        raise typer.Exit(emit_export_error(env, exc.message)) from None
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


def _show_findings(env, findings, args: dict) -> None:
    """The findings on a terminal, grouped by file with their severity in colour (``render.openapi``)."""
    from ..output.pretty import print_value

    print_value(env, [f.as_dict() for f in findings], "openapi:check", args)


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
        from deskcheck.engine.json_text import lone_surrogate

        if lone_surrogate(item):
            raise InputError(f"--param {item!r} is not UTF-8 text (it holds {lone_surrogate(item)}); give it as text.")
        values[name.strip()] = value
    from deskcheck.engine.http.client import Credentials
    from deskcheck.engine.openapi.check.live_check import LiveOptions

    return LiveOptions(base_url, values, Credentials.from_options(headers, token), timeout=timeout)


def _artifact_path(spec: str) -> str:
    """The document's path as annotations should name it: relative to the working directory when
    it is inside it (GitHub and SARIF viewers resolve paths against the repository root)."""
    from pathlib import Path

    if "://" in spec:
        from deskcheck.engine.urls import redact

        return redact(spec)  # a password in the URL never reaches a report
    path = Path(spec)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
