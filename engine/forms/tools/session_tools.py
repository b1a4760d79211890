"""The eight tools of a group of form sessions: the six form tools plus ``saveForm`` and
``reloadForm``, over sessions kept in the persistent store.

A ``SessionGroup`` is what a host describes once: the group's name (the tools' prefix), what
the form edits (its title), the host parameters that pick one session (an editor group's path
parameters; none for a file-backed form), how to build the source of one session from those
parameters, and the store. Every tool call names its session through the host parameters, so
two records can be edited side by side without a "current form".

``file_form_group(schema, data, ...)`` is the file-backed group (tools ``form_describeState``,
``form_setFieldValue``, ... ; ``form_saveForm`` writes the data file).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import DeskcheckError
from ...tools import Tool, ToolAnnotations, ToolSet, unknown_arguments_error
from ..sessions.session import FormSession, SessionError, SessionKey, SessionOptions
from ..sessions.store_base import BaseStore
from ..sources.sources import FileSource, FormSource
from ..state.state import FormState
from .guide import fill_form_guide
from .tools import form_tools

SAVE_VERBS = ("saveForm", "reloadForm")
# A save replaces the whole record where it came from (the file, or a PUT of the API's record).
SAVE = ToolAnnotations(read_only=False, destructive=True, idempotent=True)
RELOAD = ToolAnnotations(read_only=False, destructive=True, idempotent=False)


class SessionGroup:
    """The sessions of one tool group. ``source_for(params)`` builds the source of the session
    named by ``params`` (the host parameters of a call, already checked to be present)."""

    def __init__(
        self,
        *,
        name: str,
        title: str,
        source_for: Callable[[dict[str, Any]], FormSource],
        store: BaseStore | None = None,
        identity: str | None = None,
        parameters: Mapping[str, dict[str, Any]] | None = None,
        required_parameters: Sequence[str] | None = None,
        options: SessionOptions | None = None,
        key_extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.source_for = source_for
        self._store = store
        self._own_store: BaseStore | None = None
        self.identity = identity
        self.parameters = dict(parameters or {})
        self.required_parameters = list(required_parameters if required_parameters is not None else self.parameters)
        self.options = (options or SessionOptions())._replace(prefix=name)
        # Key parameters the tools do not take (a file-backed form is keyed by its files).
        self.key_extra = dict(key_extra or {})

    @property
    def store(self) -> BaseStore:
        if self._store is None:
            from ..sessions.store_url import open_store

            self._store = self._own_store = open_store()
        return self._store

    def close(self) -> None:
        """Close the store connection this group opened (a store given to the group is its
        giver's to close). The group stays usable: the store opens again when needed."""
        if self._own_store is not None:
            self._own_store.close()

    def key(self, params: Mapping[str, Any]) -> SessionKey:
        """The session key: identity, group name and every parameter's value, in declared order."""
        pairs = [(n, params[n]) for n in self.parameters if n in params] + list(self.key_extra.items())
        return SessionKey.of(self.name, pairs, self.identity)

    def session(self, params: Mapping[str, Any]) -> FormSession:
        for name in self.required_parameters:
            if params.get(name) is None:
                raise DeskcheckError(f'Missing required parameter "{name}".', code="missingParameter")
        chosen = {name: params[name] for name in self.parameters if name in params}
        return FormSession(self.source_for(chosen), self.store, self.key(chosen), self.options)

    # -- tools ----------------------------------------------------------------------------------

    def tools(self) -> list[Tool]:
        """``<name>_getData``, ``_setData``, ``_describeState``, ``_setFieldValue``,
        ``_getFieldSuggestions``, ``_editArray``, ``_saveForm``, ``_reloadForm``."""
        calls: list[FormSession] = []
        # The path a setFieldValue call writes: a value written in place of a YAML alias
        # replaces that alias, where a change inside it is made in every copy.
        replacing: list[str | None] = [None]

        @contextlib.contextmanager
        def open_state(host_args: dict[str, Any]) -> Iterator[FormState]:
            session = self.session(host_args)
            session.replaced_path = replacing[0]
            calls.append(session)
            with session.edit() as state:
                yield state

        tools = form_tools(
            open_state,
            prefix=self.name,
            title=self.title,
            parameters=self.parameters,
            required_parameters=self.required_parameters,
        )
        tools = [self._with_notices(tool, calls, replacing) for tool in tools]
        suggestions = f"{self.name}_getFieldSuggestions"
        tools = [self._with_prefetch(t) if t.name == suggestions else t for t in tools]
        return [*tools, self._save_tool(), self._reload_tool()]

    def toolset(self) -> ToolSet:
        return ToolSet("form", self.tools(), instructions=self.guide())

    def guide(self, agent_guide: str | None = None) -> str:
        return fill_form_guide(
            self.title, self.name, agent_guide=agent_guide, extra_sections=[saving_section(self.name)]
        )

    def _host_and_own(self, verb: str, args: dict[str, Any], own: Sequence[str]) -> tuple[dict[str, Any], dict]:
        host = {name: args[name] for name in self.parameters if name in args}
        rest = {name: value for name, value in args.items() if name not in self.parameters}
        unknown = set(rest) - set(own)
        if unknown:
            raise unknown_arguments_error(verb, unknown, [*self.parameters, *own])
        return host, rest

    def _with_notices(self, tool: Tool, calls: list[FormSession], replacing: list[str | None]) -> Tool:
        inner = tool.execute
        sets = tool.name == f"{self.name}_setFieldValue"
        answers_json = tool.name == f"{self.name}_getData"

        def execute(args: dict[str, Any]) -> Any:
            calls.clear()
            replacing[0] = args.get("path") if sets and isinstance(args.get("path"), str) else None
            result = inner(args)
            notices = [note for session in calls for note in session.notices]
            if notices and answers_json and isinstance(result, str):
                return _with_notes(result, notices)
            if notices and isinstance(result, str):
                return result + "\n\n" + "\n".join(notices)
            return result

        return dataclasses.replace(tool, execute=execute)

    def _with_prefetch(self, tool: Tool) -> Tool:
        """Options behind a URL are fetched once before the session's lock is taken (the
        fetcher keeps the answer), so a slow API never holds other processes' writes."""
        inner = tool.execute

        def execute(args: dict[str, Any]) -> Any:
            with contextlib.suppress(DeskcheckError):
                host = {name: args[name] for name in self.parameters if name in args}
                with self.session(host).peek() as state:
                    if state is not None and isinstance(args.get("path"), str):
                        state.list_suggestions(args["path"], args.get("query"))
            return inner(args)

        return dataclasses.replace(tool, execute=execute)

    def _input_schema(self, own: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {**self.parameters, **own},
            "required": list(self.required_parameters),
            "additionalProperties": False,
        }

    def _save_tool(self) -> Tool:
        title = self.title

        def execute(args: dict[str, Any]) -> str:
            host, _ = self._host_and_own("saveForm", args, ())
            session = self.session(host)
            outcome = session.save()
            if outcome.created:
                where = f" at {outcome.location}" if outcome.location else ""
                text = f'Saved "{title}": the new record was created{where}. The form starts again, empty.'
            else:
                text = f'Saved "{title}"' + (f" (version {_short(outcome.version)})." if outcome.version else ".")
            if outcome.pending:
                text += (
                    f" {len(outcome.pending)} field(s) changed while it was being saved are not in this save "
                    f"({', '.join(outcome.pending)}): save again to keep them."
                )
            if outcome.detached:
                text += " The session was reloaded or discarded while the save was in flight, so it was left as it is."
            return text

        return Tool(
            name=f"{self.name}_saveForm",
            description=(
                f'Save the "{title}" form: send the whole document to where it came from. Refused while the form '
                "is invalid. When the document changed at its source since it was loaded, the save is refused as "
                f"a conflict: call {self.name}_reloadForm, re-apply your changes, and save again."
            ),
            input_schema=self._input_schema({}),
            execute=execute,
            annotations=SAVE,
            title="Save the form",
        )

    def _reload_tool(self) -> Tool:
        title = self.title

        def execute(args: dict[str, Any]) -> str:
            host, own = self._host_and_own("reloadForm", args, ("keepEdits",))
            keep = own.get("keepEdits", False)
            if not isinstance(keep, bool):
                raise DeskcheckError("keepEdits must be true or false.", code="badKeepEdits")
            outcome = self.session(host).reload(keep_edits=keep)
            if outcome.kept:
                text = f'Reloaded "{title}" from its source and re-applied your edits ({", ".join(outcome.kept)})'
                if outcome.conflicts:
                    text += (
                        f"; the source had changed these fields too, and your value was kept: "
                        f"{', '.join(outcome.conflicts)}"
                    )
                return text + ". They are not saved yet."
            text = f'Reloaded "{title}" from its source; local changes were discarded'
            if outcome.discarded:
                text += f" ({', '.join(outcome.discarded)})"
            return text + "."

        return Tool(
            name=f"{self.name}_reloadForm",
            description=(
                f'Reload the "{title}" form from its source, discarding local changes, or with keepEdits '
                "re-applying them onto the source's current copy. Use it after a save conflict or when an answer "
                "says the source changed."
            ),
            input_schema=self._input_schema(
                {
                    "keepEdits": {
                        "type": "boolean",
                        "description": "true: re-apply the session's unsaved edits onto the reloaded copy (where "
                        "the source changed the same field, your value wins and the answer names it); false (the "
                        "default): discard them.",
                    }
                }
            ),
            execute=execute,
            annotations=RELOAD,
            title="Reload the form",
        )


def _with_notes(answer: str, notices: list[str]) -> str:
    """getData's JSON answer with the notices as its "notices" key (it stays JSON)."""
    import json

    data = json.loads(answer)
    return json.dumps({**data, "notices": notices}, ensure_ascii=False)


def _short(version: str) -> str:
    # A content hash is shown by its start, as version control shows commits.
    return version[: len("sha256:") + 12] if version.startswith("sha256:") else version


def saving_section(prefix: str) -> str:
    def tool(verb: str) -> str:
        return f"{prefix}_{verb}" if prefix else verb

    return "\n".join(
        [
            "## Saving",
            "",
            f"Edits stay in the session, kept between calls, until `{tool('saveForm')}` sends the whole document "
            f"to its source. `{tool('saveForm')}` refuses while the form is invalid: fix the errors first. If the "
            "document changed at its source since it was loaded (an answer says so), the save is refused as a "
            f"conflict: call `{tool('reloadForm')}` with keepEdits true to get the current copy with your edits "
            "re-applied (or without it to discard them), check them, and save again. A failed save keeps your "
            "edits.",
        ]
    )


def file_form_group(
    schema_path: str | Path,
    data_path: str | Path,
    *,
    store: BaseStore | None = None,
    identity: str | None = None,
    options: SessionOptions | None = None,
    title: str | None = None,
    allow_hosts: tuple[str, ...] = (),
    timeout: float = 30.0,
    format: str | None = None,
    yaml_version: str | None = None,
    document: int | None = None,
) -> SessionGroup:
    """The file-backed form: tools ``form_<verb>`` over ``data_path`` with the schema at
    ``schema_path``; one session per (schema file, data file, and how the data file is read)
    pair. The schema's references to other files are read next to it; ``allow_hosts`` are hosts
    its references may be fetched from (with ``timeout``). ``format``, ``yaml_version`` and
    ``document`` say how the data file is read (see ``FileSource``)."""
    schema_file, data_file = Path(schema_path), Path(data_path)
    source = FileSource(
        schema_file,
        data_file,
        title=title,
        allow_hosts=allow_hosts,
        timeout=timeout,
        format=format,
        yaml_version=yaml_version,
        document=document,
    )
    reading = {"format": format, "yamlVersion": yaml_version, "document": document}
    return SessionGroup(
        name="form",
        title=source.title,
        source_for=lambda _params: source,
        store=store,
        identity=identity,
        options=options,
        # How the file is read is part of the key (another document of a stream is another
        # session); left out when not given, so that existing sessions keep their keys.
        key_extra={
            "schema": str(schema_file.resolve()),
            "data": str(data_file.resolve()),
            **{name: value for name, value in reading.items() if value is not None},
        },
    )


__all__ = ["SessionError", "SessionGroup", "file_form_group", "saving_section"]
