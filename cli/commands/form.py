"""``deskcheck form``: the form-session tools by verb (``describe-state``, ``set-field-value``,
... , ``save-form``, ``reload-form``), generated from the session group's tool list, plus
``sessions`` (what the store holds), ``discard`` and ``restore`` (drafts of expired sessions),
``recover-store`` (a damaged store: keep what can still be read) and ``copy-store`` (from the
local file to a shared store).

    deskcheck form <verb> --schema SCHEMA --data FILE [ARGS]
    deskcheck form <verb> --spec SPEC NAME [ARGS]        (ARGS carries the group's path parameters)

Sessions persist in the store between processes: a verb in one process resumes the edits of
the previous one.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import typer

from ..app import SuggestingGroup, help_with_example
from ..args import read_args
from ..completion import form_positionals
from ..context import ContextOptions, open_form_group, preflight
from ..env import current_env
from ..errors import UsageError
from ..options import StoreOpt, with_context_options
from ..output.emit import emit_result, emit_value
from ..render.draw import plural
from ..tool_help import ToolHelpCommand
from . import form_verbs
from .form_verbs import FORM_OPTIONS, split_positionals, tool_verbs

PositionalArgs = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[NAME] [ARGS]",
        help="With --spec: the editor group's name, then ARGS. Otherwise ARGS: a JSON object, @file.json, or -.",
        show_default=False,
        autocompletion=form_positionals,
    ),
]
AllowInvalidOpt = Annotated[bool, typer.Option("--allow-invalid", help="Save even when the document fails validation.")]
DraftOpt = Annotated[
    int | None, typer.Option("--draft", help="A draft's number, as `deskcheck form sessions --drafts` lists it.")
]


class LazyFormCommands(SuggestingGroup):
    """The verbs, each turned into a click command only when it is looked up: a call pays for
    one verb's dozen options, not for all eleven verbs'."""

    def list_commands(self, ctx) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self.commands and cmd_name in _COMMANDS:
            import typer.main

            function, settings = _COMMANDS[cmd_name]
            single = typer.Typer(rich_markup_mode=None, add_completion=False)
            single.command(cmd_name, **settings)(function)
            command = typer.main.get_command(single)
            command.name = cmd_name
            self.commands[cmd_name] = command
        return self.commands.get(cmd_name)


form_app = typer.Typer(
    name="form",
    cls=LazyFormCommands,
    help=help_with_example(
        "Edit a JSON record through a stateful form session, as an agent would.",
        "deskcheck form describe-state --schema event.schema.json --data event.json",
        """deskcheck form set-field-value --schema S --data F '{"path": "/seats", "value": 40}'""",
        """deskcheck form describe-state --spec openapi.yaml my_group '{"id": "42"}'""",
        more="Each form tool is a verb (setFieldValue is set-field-value), over a file-backed form (--schema S "
        "--data F) or an editor group (--spec SPEC NAME); sessions, discard and restore manage what the store "
        "keeps. Sessions persist between processes: a verb resumes the edits of the one before; save-form sends "
        "them.",
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
# verb -> (command function, Typer settings), in the order --help lists them.
_COMMANDS: dict[str, tuple[Any, dict[str, Any]]] = {}


def _tool_command(tool_verb: str, summary: str):
    options = FORM_OPTIONS

    def run(positionals: list[str] | None, context: ContextOptions, allow_invalid: bool) -> None:
        raise typer.Exit(form_verbs.run_tool_verb(tool_verb, positionals, context, allow_invalid))

    if tool_verb == "saveForm":

        @with_context_options(only=options)
        def command(positionals: PositionalArgs = None, allow_invalid: AllowInvalidOpt = False, *, context) -> None:
            run(positionals, context, allow_invalid)

    else:

        @with_context_options(only=options)
        def command(positionals: PositionalArgs = None, *, context: ContextOptions) -> None:
            run(positionals, context, False)

    command.__doc__ = summary
    command.__name__ = tool_verb
    return command


def describe_tool(name: str) -> tuple[dict, list, str]:
    """What a form tool verb's help shows after its options (see ``tool_help``)."""
    from ..help_examples import form_example

    tool_verb = tool_verbs()[name][0]
    schema = dict(form_verbs.tool_schemas()[tool_verb])
    spec_note = (
        "ARGS also carries the editor group's path parameters (its record's id, for example); "
        "`deskcheck openapi tools SPEC --format json` lists them under editorGroups."
    )
    return schema, [("With --spec SPEC NAME", spec_note)], form_example(tool_verb, name)


class FormToolCommand(ToolHelpCommand):
    describe = staticmethod(describe_tool)


def _register_tool_verbs() -> None:
    for name, (tool_verb, summary) in tool_verbs().items():
        _COMMANDS[name] = (_tool_command(tool_verb, summary), {"no_args_is_help": True, "cls": FormToolCommand})


_register_tool_verbs()


def sessions(
    drafts: Annotated[bool, typer.Option("--drafts", help="List the drafts of expired sessions instead.")] = False,
    identity: Annotated[str | None, typer.Option("--identity", help="Only this identity's sessions.")] = None,
    store_url: StoreOpt = None,
) -> None:
    """List the open form sessions (status, age, modified, valid), or with --drafts the unsaved
    edits kept from sessions that expired."""
    env = current_env()
    store = _store(store_url)
    with store.transaction():
        store.expire()
    now = store.now()
    if drafts:
        value: Any = [draft.summary(now) for draft in store.drafts(identity=identity)]
    else:
        value = [record.summary(now) for record in store.sessions(identity)]
    raise typer.Exit(emit_value(env, value, "form:drafts" if drafts else "form:sessions"))


@with_context_options(only=FORM_OPTIONS)
def discard(positionals: PositionalArgs = None, draft: DraftOpt = None, *, context) -> None:
    """Drop a form session and its unsaved edits (or, with --draft N, a kept draft)."""
    env = current_env()
    if draft is not None:
        raise typer.Exit(emit_value(env, _discard_draft(draft)))
    name, args = split_positionals(context, positionals)
    arguments = read_args(args, env.stdin)
    group = open_form_group(context, name)
    session = group.session(arguments)
    dropped = session.discard()
    if dropped is None:
        text = f"There was no open session of {session.key.describe()}; nothing was discarded."
    elif dropped.modified:
        from deskcheck.engine.forms.state.rebase import changed_pointers

        changed = changed_pointers(dropped.snapshot.get("base"), dropped.snapshot.get("data"))
        text = f"Discarded the session of {session.key.describe()} and its unsaved edits ({', '.join(changed)})."
    else:
        text = f"Discarded the session of {session.key.describe()} (it had no unsaved edits)."
    raise typer.Exit(emit_value(env, text))


@with_context_options(only=FORM_OPTIONS)
def restore(positionals: PositionalArgs = None, draft: DraftOpt = None, *, context) -> None:
    """Re-apply a draft kept from an expired session (the latest, or --draft N) onto the current
    copy of its record, as unsaved edits. A draft of a file-backed form needs no other option."""
    from deskcheck.engine.errors import DeskcheckError, InputError
    from deskcheck.engine.tools import fail

    env = current_env()
    if draft is not None and context.spec is None and context.schema is None and context.data is None:
        context = _context_of_draft(draft, context)
    name, args = split_positionals(context, positionals)
    arguments = read_args(args, env.stdin)
    preflight(context)
    group = open_form_group(context, name)
    session = group.session(arguments)
    try:
        outcome = session.restore(draft)
    except DeskcheckError as exc:
        failed = fail(exc.message, code=exc.code, input_error=isinstance(exc, InputError))
        raise typer.Exit(emit_result(env, failed)) from None
    text = (
        f"Restored draft {outcome.draft} onto the current copy of {session.key.describe()}: "
        f"{plural(len(outcome.changed), 'change')} to save ({', '.join(outcome.changed) or 'none'})."
    )
    if outcome.conflicts:
        text += (
            f" The source had changed these fields too; the draft's values were kept: {', '.join(outcome.conflicts)}."
        )
    text += " Check them with `describe-state`, then `save-form`: they are not saved yet."
    raise typer.Exit(emit_value(env, text))


def recover_store(store_url: StoreOpt = None) -> None:
    """Repair a damaged session store. A SQLite file is moved aside (as sessions.sqlite3.damaged-TIME)
    and a fresh one holds every session, draft and prepared schema that can still be read; run it
    when no other deskcheck uses the file. In a PostgreSQL store the rows that do not decode are
    moved to the table deskcheck.damaged_rows. A store that is not damaged is left alone."""
    from deskcheck.engine.forms.sessions import store_recovery
    from deskcheck.engine.forms.sessions.store_url import is_postgres, sqlite_path
    from deskcheck.engine.forms.sessions.store_url import store_url as chosen_url

    env = current_env()
    url = _usage(lambda: chosen_url(store_url))
    if is_postgres(url):
        report = store_recovery.recover_rows(_store(url))
    else:
        report = _usage(lambda: store_recovery.recover_store(sqlite_path(url) if url else None))
    raise typer.Exit(emit_value(env, report if env.json_output else report["message"]))


def copy_store(
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="URL",
            help="The store to copy from (default: sessions.sqlite3 in the state directory).",
            show_default=False,
        ),
    ] = None,
    target: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="URL",
            help="The store to copy into (postgresql://... or sqlite:///...).",
            show_default=False,
        ),
    ] = ...,
) -> None:
    """Copy every session, draft and prepared schema of one store that another lacks (from the local
    SQLite file to a shared PostgreSQL store, typically). What the target has already is left as it
    is, so running it again copies nothing; the answer counts what was copied."""
    from deskcheck.engine.forms.sessions.store_copy import copy_store as copy

    env = current_env()
    if source is None:
        from deskcheck.engine.forms.sessions.store import default_store_path

        source = "sqlite:///" + str(default_store_path().absolute()).lstrip("/")
    report = _usage(lambda: copy(_store(source), _store(target)))
    raise typer.Exit(emit_value(env, report if env.json_output else report["message"]))


_COMMANDS["sessions"] = (sessions, {})
_COMMANDS["discard"] = (discard, {})
_COMMANDS["restore"] = (restore, {})
_COMMANDS["recover-store"] = (recover_store, {})
_COMMANDS["copy-store"] = (copy_store, {})


def _store(url: str | None = None):
    """The store of ``url`` (default: --store of the command, DESKCHECK_STORE, the configuration,
    the state directory's file); a URL that cannot be used is bad usage."""
    from deskcheck.engine.forms.sessions.store_url import check_store_url, open_store

    if url is not None:
        _usage(lambda: check_store_url(url))
    return _usage(lambda: open_store(url))


def _usage(action):
    from deskcheck.engine.forms.sessions.store_base import StoreError

    try:
        return action()
    except StoreError as exc:
        raise UsageError(exc.message) from None


def _discard_draft(draft_id: int) -> str:
    store = _store()
    with store.transaction():
        found = store.draft(draft_id)
        if found is None or not store.delete_draft(draft_id):
            raise UsageError(f"there is no draft {draft_id}; `deskcheck form sessions --drafts` lists them.")
    return f"Discarded draft {draft_id} ({found.title}): its edits are gone."


def _context_of_draft(draft_id: int, context: ContextOptions) -> ContextOptions:
    """The --schema/--data of a file-backed form's draft, read from the draft's key."""
    from pathlib import Path

    found = _store().draft(draft_id)
    if found is None:
        raise UsageError(f"there is no draft {draft_id}; `deskcheck form sessions --drafts` lists them.")
    params = dict(found.params)
    if found.group != "form" or "schema" not in params or "data" not in params:
        api = f" --base-url {params['api']}" if params.get("api") else ""
        raise UsageError(
            f"draft {draft_id} belongs to the editor group {found.group!r}: give --spec SPEC{api} {found.group} and "
            "its path parameters as ARGS."
        )
    document = params.get("document")
    return dataclasses.replace(
        context,
        schema=Path(params["schema"]),
        data=Path(params["data"]),
        identity=found.identity or None,
        data_format=params.get("format"),
        yaml_version=params.get("yamlVersion"),
        document=int(document) + 1 if str(document or "").isdigit() else None,
    )
