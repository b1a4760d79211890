"""``openapi check --live``: what an agent would meet on opening each editor group's form, found
by doing what a session does first, against the running API.

For every editor group of the checked profiles:

1. the path parameters of its schema operation (and of its read operation, optionally) come from
   ``--param name=value``; a missing one is an error: the group cannot be checked;
2. its schema is requested (the schema operation with its ``schemaParams``, the credentials given)
   or taken from the document; a failed request or an answer that is not JSON is an error;
3. it is prepared as a session prepares it (the forms engine's preparation, then the hidden
   attachment and computed columns) and compiled whole; a schema the forms engine refuses is an
   error, and a part of it the form cannot check (a reference that leads nowhere) a warning;
4. the form's first view is built: an empty record in create mode, the record itself in edit
   mode when ``--param`` names it (a record that fails its own schema is a warning: an agent must
   fix it before it can save). A column that an agent can neither see nor fill (hidden) but that
   the document needs is an error: the form could never be saved;
5. a field whose options come from another origin than the API is a warning: an agent's
   ``getFieldSuggestions`` is refused there unless the user allows the host.

Findings point at the group's ``editor`` annotation. Nothing is stored: no session is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ... import progress
from ...budget import call_budget
from ...errors import DeskcheckError
from ...http.client import ApiCaller, Credentials, HttpClient, HttpxClient, same_origin
from ...urls import redact
from ..document.problems import WARNING, Problems
from ..tools.editor_source import EditorEndpoint, EditorSource, hidden_columns, prepare_editor_schema
from ..tools.editors import EditorGroup
from ..tools.load import Analysis

# Errors quoted in one finding; the rest are counted.
MAX_QUOTED_ERRORS = 5


@dataclass
class LiveOptions:
    """Where the API is, the path parameter values to use (``--param``), and how to reach it."""

    base_url: str
    params: Mapping[str, str] = field(default_factory=dict)
    credentials: Credentials | None = None
    client: HttpClient | None = None
    timeout: float = 30.0


def live_problems(analysis: Analysis, options: LiveOptions, problems: Problems, document_text: str | None) -> None:
    """Check every editor group of ``analysis`` against the API; add what is wrong to ``problems``."""
    if not analysis.editors:
        return
    caller = ApiCaller(
        options.base_url,
        client=options.client if options.client is not None else HttpxClient(timeout=options.timeout),
        credentials=options.credentials,
    )
    endpoint = EditorEndpoint(caller, options.base_url, "", analysis.document, document_text=document_text)
    with progress.phase("checking editor groups against the API", total=len(analysis.editors)) as step:
        for group in analysis.editors:
            # Each group is what an agent's first call would do: it gets a call's time budget.
            with progress.phase(f"requesting the schema of {group.name}"), call_budget():
                _check_group(group, endpoint, options, problems)
            step.advance()


def _check_group(group: EditorGroup, endpoint: EditorEndpoint, options: LiveOptions, problems: Problems) -> None:
    from ...forms.schema.compile import FormSchemaError, compile_prepared
    from ...forms.state.state import FormState

    where = group.pointer + "/editor"
    label = f'editor group "{group.name}"'
    needed = group.schema_operation.path_parameters if group.schema_operation is not None else []
    missing = [p.name for p in needed if options.params.get(p.name) is None]
    if missing:
        flags = " ".join(f"--param {name}=VALUE" for name in missing)
        problems.add(
            "editor-live-parameter-missing",
            f"{label} was not checked live: its schema operation {group.schema_operation.operation_id} needs "
            f"{', '.join(missing)}; give a value with {flags} (for example an existing dataset's id).",
            where,
        )
        return
    read_params = [p.name for p in group.read.path_parameters] if group.read is not None else []
    with_record = group.read is not None and all(options.params.get(name) is not None for name in read_params)
    # Values the write operation needs but the check does not: any text builds its URL.
    values = {p.name: options.params.get(p.name, "_") for p in group.path_parameters}
    source = EditorSource(group, values, endpoint)
    schema_where = where + ("/schemaOperation" if group.schema_operation is not None else "")
    try:
        fetched = source.schema(None)
    except DeskcheckError as exc:
        problems.add(
            "editor-live-request-failed",
            f"{label}: its schema could not be read, so an agent could not open the form: {exc.message.rstrip('.')}.",
            schema_where,
        )
        return
    try:
        prepared = prepare_editor_schema(fetched.schema, document=fetched.document)
        form = compile_prepared(prepared, fetched.version).warm()
        record: Any = {}
        if with_record:
            record = source.load().data
        state = FormState(form, record, base=record)
        from ...forms.state.text import describe

        describe(state)  # what an agent's first call prints: every field is built
    except FormSchemaError as exc:
        problems.add(
            "editor-live-schema-unusable",
            f"{label}: the form cannot be built from its schema, so every form tool would fail: "
            f"{exc.message.rstrip('.')}.",
            schema_where,
        )
        return
    except DeskcheckError as exc:
        problems.add(
            "editor-live-request-failed" if with_record else "editor-live-schema-unusable",
            f"{label}: the form could not be opened: {exc.message.rstrip('.')}.",
            where + "/readOperation" if with_record else schema_where,
        )
        return
    for problem in form.schema_problems:
        problems.add(
            "editor-live-schema-unchecked",
            f"{label}: the form opens, but this part of its schema is not checked: {problem}.",
            schema_where,
            severity=WARNING,
        )
    _check_state(group, label, where, prepared, state, with_record, problems)
    _check_option_hosts(label, where, prepared, options.base_url, problems)


def _check_state(
    group: EditorGroup,
    label: str,
    where: str,
    prepared: dict[str, Any],
    state: Any,
    with_record: bool,
    problems: Problems,
) -> None:
    hidden = set(hidden_columns(prepared))
    document = state.document if isinstance(state.document, dict) else {}
    # Straight from the validator: the form reports errors of fields it does not show only
    # loosely, and these are exactly the ones the agent cannot act on.
    blocked: dict[str, str] = {}
    for error in state.form.iter_errors(document):
        for column, message in _error_columns(error):
            if column in hidden:
                blocked.setdefault(column, message)
    blocking = [f"/{column}: {message}" for column, message in blocked.items()]
    if blocking and (group.create_mode or with_record):
        what = "a new record" if group.create_mode else "this record"
        problems.add(
            "editor-live-field-unfixable",
            f"{label}: {what} can never be saved by an agent: {_quote(blocking)}. These columns are hidden from "
            "the form (attachments and computed columns), so the agent cannot fill them; make them optional, give "
            "them a default, or leave them out of the required list.",
            where,
        )
    elif not group.create_mode and not with_record:
        required = prepared.get("required") if isinstance(prepared.get("required"), list) else []
        needed = sorted(hidden.intersection(required))
        if needed:
            problems.add(
                "editor-live-field-required-hidden",
                f"{label}: the required column(s) {', '.join(needed)} are hidden from the form (attachments and "
                "computed columns); a record without a value there could never be saved by an agent.",
                where,
                WARNING,
            )
    if with_record:
        fixable = [f"{e.path}: {e.message}" for e in state.errors if _column(e.data_path) not in hidden]
        if fixable:
            problems.add(
                "editor-live-record-invalid",
                f"{label}: the record read does not satisfy its own schema ({_quote(fixable)}); an agent would "
                "have to correct it before any save.",
                where + "/readOperation",
                WARNING,
            )


def _error_columns(error: Any) -> list[tuple[str, str]]:
    """``(column, message)`` for the top-level column a validation error (a form engine
    ``SchemaError``) is about (for a ``required`` error, the column it finds missing)."""
    from ...forms.schema.messages import message_for

    if error.path:
        return [(str(error.path[0]), message_for(error))]
    if error.missing is not None:
        return [(error.missing, "required, without a value")]
    return []


def _check_option_hosts(label: str, where: str, prepared: dict[str, Any], base_url: str, problems: Problems) -> None:
    for pointer, url in _option_urls(prepared, ""):
        if not url.startswith(("http://", "https://")):
            continue  # relative: resolved against the API's own address
        authority = url.split("//", 1)[1].split("/", 1)[0]
        if "{" in authority or same_origin(url, base_url):
            continue  # a host computed from the data cannot be judged here
        problems.add(
            "editor-live-options-host",
            f"{label}: the options of the field at {pointer or '/'} come from "
            f"{redact(url.split('//', 1)[0] + '//' + authority)}, not from the API ({redact(base_url)}); an "
            "agent's getFieldSuggestions is refused there unless the user allows that host (--allow-host). "
            "Serve the list from the API, or document the host to allow.",
            where,
            WARNING,
        )


def _option_urls(node: Any, pointer: str):
    """``(schema pointer, URL template)`` of every option list behind a URL in a prepared schema."""
    if isinstance(node, dict):
        layout = node.get("layout")
        items = layout.get("getItems") if isinstance(layout, dict) else None
        url = items.get("url") if isinstance(items, dict) else None
        if isinstance(url, dict):
            url = url.get("expr")
        if isinstance(url, str):
            yield pointer, url
        for key, value in node.items():
            if key not in ("layout", "enum", "const", "default", "examples"):
                yield from _option_urls(value, f"{pointer}/{_escape(key)}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _option_urls(value, f"{pointer}/{index}")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _column(data_path: str) -> str:
    return data_path.lstrip("/").split("/", 1)[0].replace("~1", "/").replace("~0", "~")


def _quote(errors: list[str]) -> str:
    quoted = "; ".join(errors[:MAX_QUOTED_ERRORS])
    more = f"; and {len(errors) - MAX_QUOTED_ERRORS} more" if len(errors) > MAX_QUOTED_ERRORS else ""
    return quoted + more
