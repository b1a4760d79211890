"""Which tools a command talks to: a .docx file, an OpenAPI document, or a schema and a data file.

``ContextOptions`` gathers every option that shapes a family's tools, in one place, so that
``call``, ``batch``, the family sub-commands and the REPL build the same ``ToolSet`` from the same
flags. Opening a tool set never touches the network and reads no document yet: tools open their
file when they run, which lets ``batch`` report a missing file per line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from deskcheck.engine.tools import ToolSet

from .errors import UsageError
from .option_values import option_problem

CONTEXT_HINT = "give --docx FILE, --spec SPEC, or --schema SCHEMA --data FILE"
# Options spelled otherwise than their keyword.
SPELLINGS = {"data_format": "format"}


@dataclass(frozen=True)
class ContextOptions:
    docx: Path | None = None
    spec: str | None = None
    schema: Path | None = None
    data: Path | None = None
    # file-backed forms: how the data file is read (None: by its suffix or content; the YAML
    # version a configuration file sets, else 1.2; the one document with content)
    data_format: str | None = None
    yaml_version: str | None = None
    document: int | None = None  # counted from 1
    # OpenAPI documents and editor groups
    profiles: tuple[str, ...] = ()
    base_url: str | None = None
    headers: tuple[str, ...] = ()
    token: str | None = None
    allow_hosts: tuple[str, ...] = ()
    identity: str | None = None
    # the session store's URL (None: DESKCHECK_STORE, the configuration, the default file)
    store: str | None = None
    # file-backed forms: write the schema's defaults where the record has no value
    fill_defaults: bool = False
    timeout: float = 30.0
    # docx reviews
    mode: str = "tracked-changes"
    table_revisions: str = "cells"
    operation_types: tuple[str, ...] = ()
    review_meta: str = "optional"
    max_operations: int = 50
    require_document_version: bool = False
    author: str | None = None
    output: Path | None = None
    dry_run: bool = False
    queue: Path | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """``docx``, ``openapi`` or ``form``; a usage error unless exactly one context is given."""
        chosen = []
        if self.docx is not None:
            chosen.append("docx")
        if self.spec is not None:
            chosen.append("openapi")
        if self.schema is not None or self.data is not None:
            chosen.append("form")
        if not chosen:
            raise UsageError(f"no context: {CONTEXT_HINT}.")
        if len(chosen) > 1:
            raise UsageError(f"give only one context, not {' and '.join(chosen)}: {CONTEXT_HINT}.")
        if chosen[0] == "form" and (self.schema is None or self.data is None):
            missing = "--data FILE" if self.data is None else "--schema SCHEMA"
            raise UsageError(f"a file-backed form needs both --schema and --data; {missing} is missing.")
        return chosen[0]

    @property
    def effective_token(self) -> str | None:
        return self.token or os.environ.get("DESKCHECK_TOKEN") or None


def build_context(
    *,
    docx: Path | None = None,
    spec: str | None = None,
    schema: Path | None = None,
    data: Path | None = None,
    data_format: str | None = None,
    yaml_version: str | None = None,
    document: int | None = None,
    profile: list[str] | None = None,
    base_url: str | None = None,
    header: list[str] | None = None,
    token: str | None = None,
    allow_host: list[str] | None = None,
    identity: str | None = None,
    store: str | None = None,
    timeout: float = 30.0,
    fill_defaults: bool = False,
    mode: str = "tracked-changes",
    table_revisions: str = "cells",
    operation_types: str | None = None,
    review_meta: str = "optional",
    max_operations: int = 50,
    require_document_version: bool = False,
    author: str | None = None,
    output: Path | None = None,
    dry_run: bool = False,
    queue: Path | None = None,
) -> ContextOptions:
    """``ContextOptions`` from the parsed flags (parsed by Typer, or by ``cli.plain_line`` for a
    form or docx verb), with the checks a parser cannot express."""
    values = {
        "mode": mode,
        "table_revisions": table_revisions,
        "review_meta": review_meta,
        "operation_types": operation_types,
        "header": header,
        "author": author,
        "base_url": base_url,
        "allow_host": allow_host,
        "identity": identity,
        "profile": profile,
        "store": store,
        "data_format": data_format,
        "yaml_version": yaml_version,
        "document": document,
    }
    for keyword, value in values.items():
        problem = option_problem(keyword, value)
        if problem is not None:
            raise UsageError(f"invalid value for --{SPELLINGS.get(keyword, keyword.replace('_', '-'))}: {problem}")
    if store is not None:
        choose_store_option(store)
    types = tuple(t.strip() for t in (operation_types or "").split(",") if t.strip())
    return ContextOptions(
        docx=docx,
        spec=spec,
        schema=schema,
        data=data,
        data_format=data_format,
        yaml_version=yaml_version,
        document=document,
        profiles=tuple(profile or ()),
        base_url=base_url,
        headers=tuple(header or ()),
        token=token,
        allow_hosts=tuple(allow_host or ()),
        identity=identity,
        store=store,
        timeout=timeout,
        fill_defaults=fill_defaults,
        mode=mode,
        table_revisions=table_revisions,
        operation_types=types,
        review_meta=review_meta,
        max_operations=max_operations,
        require_document_version=require_document_version,
        author=author,
        output=output,
        dry_run=dry_run,
        queue=queue,
    )


def choose_store_option(url: str) -> None:
    """Use the session store ``url`` (``--store``) for the rest of this command: every session
    group, and the writer locks of served files, open it."""
    from deskcheck.engine.forms.sessions.store_base import StoreError
    from deskcheck.engine.forms.sessions.store_url import choose_store

    try:
        choose_store(url)
    except StoreError as exc:
        raise UsageError(exc.message.replace("(--store, DESKCHECK_STORE)", "(--store)")) from None


def preflight(opts: ContextOptions) -> None:
    """Refuse, before any tool runs, a context whose input files are missing."""
    family = opts.family
    if family == "docx":
        _require_file(opts.docx, "the .docx file")
    elif family == "form":
        _require_file(opts.schema, "the schema file")
        # A missing data file is fine: saving creates it.
        if opts.data is not None and opts.data.is_dir():
            raise UsageError(f"--data {opts.data} is a directory; give a JSON, YAML or TOML file.")
    elif family == "openapi" and not _is_url(opts.spec or ""):
        _require_file(Path(opts.spec or ""), "the OpenAPI document")


def open_toolset(opts: ContextOptions) -> ToolSet:
    """The tools of the chosen context. Families are imported here, when a command needs them."""
    family = opts.family
    if family == "docx":
        from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset

        from .author import review_author

        toolset = docx_toolset(
            opts.docx,
            DocxOptions(
                author=review_author(opts.author),
                mode=opts.mode,
                table_revisions=opts.table_revisions,
                operation_types=opts.operation_types,
                review_meta=opts.review_meta,
                max_operations=opts.max_operations,
                require_document_version=opts.require_document_version,
                output=opts.output,
                dry_run=opts.dry_run,
                queue=opts.queue,
            ),
        )
        if opts.output is not None or opts.dry_run:
            return toolset
        from .review_lock import guard_in_place_writes

        return guard_in_place_writes(toolset, opts.docx)
    if family == "openapi":
        return _openapi_toolset(opts)
    return open_form_group(opts).toolset()


def open_form_group(opts: ContextOptions, name: str | None = None, *, allow_invalid: bool = False):
    """The form-session group a command acts on (``engine.forms.session_tools.SessionGroup``):
    the file-backed form of ``--schema``/``--data``, or the editor group ``name`` of ``--spec``.
    Nothing is read or requested yet: sessions open when a tool runs. ``allow_invalid`` lets
    saveForm send a document that fails validation."""
    family = opts.family
    if family == "form":
        from deskcheck.engine.forms.tools.session_tools import file_form_group

        options = _form_options(opts, allow_invalid=allow_invalid)
        return file_form_group(
            opts.schema,
            opts.data,
            identity=opts.identity,
            options=options,
            allow_hosts=opts.allow_hosts,
            timeout=opts.timeout,
            format=opts.data_format,
            yaml_version=opts.yaml_version or _configured_yaml_version(opts.data),
            document=None if opts.document is None else opts.document - 1,
        )
    if family == "openapi":
        return _editor_form_group(opts, name, allow_invalid=allow_invalid)
    raise UsageError("form sessions need --schema SCHEMA --data FILE, or --spec SPEC and an editor group's NAME.")


def _configured_yaml_version(data: Path | None) -> str | None:
    """The YAML version a project's configuration file sets for ``data`` ([form] yaml-version)."""
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.forms.sources.file_settings import form_settings

    try:
        return form_settings(data).yaml_version if data is not None else None
    except InputError as exc:
        raise UsageError(exc.message) from None


def _form_options(opts: ContextOptions, *, allow_invalid: bool = False):
    """Session options from the flags: options lists behind URLs are fetched over the shared HTTP
    seam, on --base-url's origin (with the credentials) or an --allow-host (without them)."""
    from deskcheck.engine.forms.sessions.session import SessionOptions
    from deskcheck.engine.forms.sources.remote_items import LazyRemoteItems

    def fetcher():
        from deskcheck.engine.forms.sources.remote_items import RemoteItems
        from deskcheck.engine.http.client import ApiCaller, Credentials, HttpxClient

        caller = ApiCaller(
            opts.base_url,
            client=HttpxClient(timeout=opts.timeout),
            credentials=Credentials.from_options(opts.headers, opts.effective_token),
        )
        return RemoteItems(caller, allow_hosts=opts.allow_hosts)

    return SessionOptions(
        allow_invalid=allow_invalid, fill_defaults=opts.fill_defaults, fetcher=LazyRemoteItems(fetcher)
    )


def _editor_form_group(opts: ContextOptions, name: str | None, *, allow_invalid: bool = False):
    """The editor group ``name`` of the --spec document, as a session group (its eight tools,
    its sessions). The document is loaded with the --profile selection (its default profile
    when none is given); a group outside it is named in the error."""
    loaded = _load_openapi(opts, allow_invalid=allow_invalid)
    groups = list(loaded.editor_sessions)
    loaded_profiles = ", ".join(loaded.profiles)
    if not name:
        listed = ", ".join(groups) if groups else f"none in the loaded profile(s) {loaded_profiles}"
        raise UsageError(f"with --spec, name the editor group after the document (its editor groups: {listed}).")
    if name not in loaded.editor_sessions:
        from deskcheck.engine.close_matches import did_you_mean

        hint = _profile_hint(loaded, name) or did_you_mean(name, groups)
        listed = f" Its editor groups there: {', '.join(groups)}." if groups else ""
        raise UsageError(
            f"{opts.spec} has no editor group named {name!r} in the loaded profile(s) {loaded_profiles}.{hint}{listed}"
        )
    return loaded.editor_sessions[name]


def _openapi_toolset(opts: ContextOptions) -> ToolSet:
    """The document's tools; an unknown tool name that another profile offers says which."""
    loaded = _load_openapi(opts)
    toolset = loaded.toolset
    unknown_tool_message = toolset.unknown_tool_message

    def with_profile_hint(name: str) -> str:
        hint = _profile_hint(loaded, name)
        return unknown_tool_message(name) + hint if hint else unknown_tool_message(name)

    toolset.unknown_tool_message = with_profile_hint  # type: ignore[method-assign]
    return toolset


def _profile_hint(loaded, name: str) -> str:
    """`` It is in the profile write: add `--profile write`.`` when a profile that was not loaded
    offers ``name``; "" otherwise."""
    from deskcheck.engine.openapi.tools.profile_hint import profiles_offering

    offering = profiles_offering(loaded.analysis.document, name, loaded=loaded.profiles)
    if not offering:
        return ""
    where = f"the profile {offering[0]}" if len(offering) == 1 else f"the profiles {', '.join(offering)}"
    return f" It is in {where}: add `--profile {offering[0]}`."


def load_openapi_context(opts: ContextOptions):
    """The loaded OpenAPI document of ``--spec`` (``engine.openapi.load.OpenApiTools``): its tool
    set, skills, examples and source, for a host that serves more than the tools (``deskcheck mcp``)."""
    return _load_openapi(opts)


def _load_openapi(opts: ContextOptions, *, allow_invalid: bool = False):
    """Load the document (the only request made before a tool runs: fetching it when it is a URL).
    A document that cannot give tools is bad input (exit 2), with every problem listed."""
    from deskcheck.engine.errors import DeskcheckError
    from deskcheck.engine.http.client import Credentials
    from deskcheck.engine.openapi.tools.load import load_openapi

    try:
        return load_openapi(
            opts.spec or "",
            profiles=opts.profiles or None,
            base_url=opts.base_url,
            credentials=Credentials.from_options(opts.headers, opts.effective_token),
            timeout=opts.timeout,
            identity=opts.identity,
            allow_hosts=opts.allow_hosts,
            allow_invalid=allow_invalid,
        )
    except DeskcheckError as exc:
        raise UsageError(exc.message) from None


def _require_file(path: Path | None, what: str) -> None:
    if path is None:
        raise UsageError(f"{what} was not given.")
    if not path.exists():
        raise UsageError(f"{what} {path} does not exist.")
    if path.is_dir():
        raise UsageError(f"{what} {path} is a directory, not a file.")


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))
