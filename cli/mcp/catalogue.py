"""The contexts a server (or a replay) works on, and their tools under the names a client calls.

Each context is what ``deskcheck call`` takes (a .docx file with the review options, an OpenAPI
document with its profiles and API access, a schema and a data file), opened into the family's
``ToolSet`` by ``cli.context.open_toolset``, exactly as the CLI opens it. Its tools keep the
names, definitions, annotations and instructions the exporters give them (``deskcheck docx
tools --format mcp``, ``deskcheck openapi tools --format mcp``). When two contexts would offer a
tool of the same name (two .docx files, two forms), each of those contexts gets its file's name
as a prefix: ``contract_read_document``, ``nda_read_document`` (``names``: at most 64 characters,
and every mention of a tool in a description, an instruction or a message is the name served).

Form sessions are kept per client when the server asks (``call(..., identity=...)``): a form or
OpenAPI context then opens a tool set of its own for that identity, unless ``--identity`` gave
the context one to share.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Any

from deskcheck.engine.tools import ToolResult, ToolSet, fail, unknown_tool_message

from ..context import ContextOptions, open_toolset, preflight
from ..errors import UsageError
from .names import Renamer, fit, prefix_word

CONTEXT_HINT = "give --docx FILE, --spec SPEC, or --schema SCHEMA --data FILE (each may be repeated)"
FAMILY_WORDS = {"docx": "a .docx review", "openapi": "an annotated OpenAPI document", "form": "a file-backed form"}
# Tool arguments that name files on the server's machine, by tool.
PATH_ARGUMENTS = {"compare_versions": ("previous", "current")}
# Tool sets opened for clients' own form sessions, per context (least recently used closed first).
MAX_CLIENT_TOOLSETS = 64


@dataclasses.dataclass
class ServedContext:
    options: ContextOptions
    toolset: ToolSet
    prefix: str = ""
    renamer: Renamer = dataclasses.field(default_factory=lambda: Renamer({}))
    # An OpenAPI document's skills, x-agent examples by tool, and its text (served as resources).
    skills: list[Any] = dataclasses.field(default_factory=list)
    examples: dict[str, list[Any]] = dataclasses.field(default_factory=dict)
    document_text: str | None = None
    document_type: str = "application/json"
    # Every client works in the context's own form sessions (--share-sessions, or --identity).
    shared: bool = False
    _clients: OrderedDict[str, ToolSet] = dataclasses.field(default_factory=OrderedDict)
    _lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    @property
    def per_client(self) -> bool:
        """Whether clients get form sessions of their own here (not with --identity, which
        names the sessions to share, nor for a .docx, which has none)."""
        return self.family != "docx" and not self.options.identity and not self.shared

    def toolset_for(self, identity: str | None) -> ToolSet:
        """The tool set whose form sessions belong to ``identity`` (None: the context's own)."""
        if identity is None or not self.per_client:
            return self.toolset
        with self._lock:
            toolset = self._clients.get(identity)
            if toolset is None:
                toolset = open_toolset(dataclasses.replace(self.options, identity=identity))
                self._clients[identity] = toolset
                if len(self._clients) > MAX_CLIENT_TOOLSETS:
                    self._clients.popitem(last=False)
            self._clients.move_to_end(identity)
            return toolset

    @property
    def family(self) -> str:
        return self.options.family

    @property
    def label(self) -> str:
        """The file (or URL) that names the context in instructions and messages."""
        o = self.options
        if self.family == "docx":
            return Path(o.docx or "").name
        if self.family == "openapi":
            return o.spec or ""
        return Path(o.data or "").name

    def stem(self) -> str:
        """The prefix's word: the file's name without its extension, whole words only, short
        enough for every tool name of the context to stay within 64 characters."""
        o = self.options
        source = {"docx": str(o.docx), "openapi": o.spec or "", "form": str(o.data)}[self.family]
        longest = max((len(name) for name in self.toolset.names), default=0)
        return prefix_word(source, longest, self.family)

    def record(self) -> dict[str, Any]:
        """What a log keeps of the context, enough to open it again: never a credential (the
        header names and whether a token was given, not their values)."""
        o = self.options
        out: dict[str, Any] = {"family": self.family}
        if self.prefix:
            out["prefix"] = self.prefix
        if self.family == "docx":
            out.update(
                docx=str(o.docx),
                mode=o.mode,
                tableRevisions=o.table_revisions,
                operationTypes=list(o.operation_types),
                reviewMeta=o.review_meta,
                maxOperations=o.max_operations,
                requireDocumentVersion=o.require_document_version,
                author=o.author,
                dryRun=o.dry_run,
                queue=str(o.queue) if o.queue else None,
            )
            return out
        if self.family == "openapi":
            out.update(spec=o.spec, profiles=list(o.profiles))
        else:
            out.update(schema=str(o.schema), data=str(o.data), fillDefaults=o.fill_defaults)
        out.update(
            baseUrl=o.base_url,
            allowHosts=list(o.allow_hosts),
            identity=o.identity,
            timeout=o.timeout,
            headers=[line.partition(":")[0].strip() for line in o.headers],
            tokenGiven=bool(o.effective_token),
        )
        return out


def contexts_from_flags(
    template: ContextOptions,
    docx: list[Path] | None,
    specs: list[str] | None,
    schemas: list[Path] | None,
    datas: list[Path] | None,
) -> list[ContextOptions]:
    """One ``ContextOptions`` per context flag (``--schema``/``--data`` paired in order), each
    with the other options of ``template``; paths made absolute, so that a log names them
    wherever it is replayed from."""
    docx, specs, schemas, datas = docx or [], specs or [], schemas or [], datas or []
    if len(schemas) != len(datas):
        raise UsageError(
            f"each --schema needs its --data (and each --data its --schema): got {len(schemas)} --schema and "
            f"{len(datas)} --data; they pair in the order given."
        )
    queue = template.queue.resolve() if template.queue else None
    found = [
        *(dataclasses.replace(template, docx=path.resolve(), queue=queue) for path in docx),
        *(dataclasses.replace(template, spec=_absolute_spec(spec)) for spec in specs),
        *(
            dataclasses.replace(template, schema=schema.resolve(), data=data.resolve())
            for schema, data in zip(schemas, datas, strict=True)
        ),
    ]
    if not found:
        raise UsageError(f"no context: {CONTEXT_HINT}.")
    seen: set[tuple[object, ...]] = set()
    for opts in found:
        key = (opts.docx, opts.spec, opts.schema, opts.data)
        if key in seen:
            given = next(str(part) for part in key if part is not None)
            raise UsageError(f"{given} is given twice; give each context once.")
        seen.add(key)
    return found


def context_from_record(record: dict[str, Any], template: ContextOptions) -> ContextOptions:
    """The context a log's ``record`` describes, with ``template``'s credentials (a log keeps
    none: the replay is given them again)."""
    family = record.get("family")
    if family == "docx":
        return dataclasses.replace(
            template,
            docx=Path(record["docx"]),
            mode=record.get("mode", template.mode),
            table_revisions=record.get("tableRevisions", template.table_revisions),
            operation_types=tuple(record.get("operationTypes") or ()),
            review_meta=record.get("reviewMeta", template.review_meta),
            max_operations=record.get("maxOperations", template.max_operations),
            require_document_version=bool(record.get("requireDocumentVersion")),
            author=record.get("author"),
            dry_run=bool(record.get("dryRun")),
            queue=Path(record["queue"]) if record.get("queue") else None,
        )
    common: dict[str, Any] = {
        "base_url": template.base_url or record.get("baseUrl"),
        "allow_hosts": template.allow_hosts or tuple(record.get("allowHosts") or ()),
        "identity": template.identity or record.get("identity"),
        "timeout": record.get("timeout", template.timeout),
    }
    if family == "openapi":
        return dataclasses.replace(
            template, spec=record["spec"], profiles=template.profiles or tuple(record.get("profiles") or ()), **common
        )
    if family == "form":
        return dataclasses.replace(
            template,
            schema=Path(record["schema"]),
            data=Path(record["data"]),
            fill_defaults=template.fill_defaults or bool(record.get("fillDefaults")),
            **common,
        )
    raise UsageError(f"the log names a context of an unknown kind ({family!r}); give the context's flags instead.")


def _absolute_spec(spec: str) -> str:
    return spec if spec.startswith(("http://", "https://")) else str(Path(spec).resolve())


class Catalogue:
    """The tools of ``contexts`` by the names a client calls."""

    def __init__(self, contexts: list[ServedContext]) -> None:
        self.contexts = contexts
        _assign_prefixes(contexts)
        self._routes: dict[str, tuple[ServedContext, str]] = {}
        for context in contexts:
            served = {name: fit(context.prefix + name) for name in context.toolset.names}
            context.renamer = Renamer(served)
            for name, served_name in served.items():
                self._routes[served_name] = (context, name)
        self._definitions: list[dict[str, Any]] | None = None

    @property
    def names(self) -> list[str]:
        return list(self._routes)

    @property
    def family(self) -> str:
        """The families served, for messages ("docx", "docx and openapi")."""
        families = list(dict.fromkeys(context.family for context in self.contexts))
        return " and ".join(families)

    def definitions(self) -> list[dict[str, Any]]:
        """Every tool's definition in the MCP shape ``export_tools`` gives (computed once)."""
        if self._definitions is None:
            from deskcheck.engine.providers import export_tools

            definitions = []
            for context in self.contexts:
                rename = context.renamer
                for definition in export_tools(context.toolset, "mcp"):
                    examples = context.examples.get(definition["name"])
                    if examples:
                        definition["_meta"] = {"inputExamples": examples}
                    definition["name"] = rename(definition["name"])
                    definition["description"] = rename(definition["description"])
                    definitions.append(definition)
            self._definitions = definitions
        return self._definitions

    def instructions(self) -> str:
        """The family's instructions for one context; for several, one section per context."""
        if len(self.contexts) == 1 and not self.contexts[0].prefix:
            context = self.contexts[0]
            return context.renamer(context.toolset.instructions)
        parts = [f"This server offers the tools of {len(self.contexts)} contexts; each section below is one of them."]
        for context in self.contexts:
            heading = f"# {context.label} ({FAMILY_WORDS[context.family]})"
            if context.prefix:
                heading += (
                    f"\n\nIts tools are named with the prefix `{context.prefix}` (for example "
                    f"`{context.renamer(context.toolset.names[0])}`)."
                )
            own = context.renamer(context.toolset.instructions)
            parts.append(heading + ("\n\n" + own if own else ""))
        return "\n\n".join(parts)

    def written_documents(self) -> list[Path]:
        """The .docx files whose tools write them in place (every one but a --dry-run's)."""
        return [c.options.docx for c in self.contexts if c.family == "docx" and not c.options.dry_run]

    def warm_up(self) -> None:
        """Read each document once (nothing is written, no session opened), so that the agent's
        first call does not also pay for importing the docx engine and parsing the file."""
        for context in self.contexts:
            if context.family == "docx":
                context.toolset.call("read_document", {"maxBlocks": 1})

    def callable(self, name: str) -> bool:
        """Whether ``name`` is a tool, or a name a context explains it cannot serve."""
        return name in self._routes or self._unsupported(name) is not None

    def tool(self, name: str) -> Any:
        """The ``Tool`` served as ``name`` (None for an unknown or unsupported name)."""
        route = self._routes.get(name)
        return route[0].toolset.get(route[1]) if route is not None else None

    def lane(self, name: str, identity: str | None = None) -> tuple[int, str | None] | None:
        """Which lane runs a call (``workers``): None for a read of a .docx (any reader may run it)
        and for a name no context serves; else the context's lane, or the client's lane in it."""
        route = self._routes.get(name) or self._unsupported(name)
        if route is None:
            return None
        context, inner = route
        if context.family == "docx" and inner in context.toolset and context.toolset.get(inner).annotations.read_only:
            return None
        return self.contexts.index(context), identity if context.per_client else None

    def call(self, name: str, args: Any, identity: str | None = None) -> ToolResult:
        """Run the tool called ``name`` in its context, as ``deskcheck call`` runs it (in the form
        sessions of ``identity`` when the context keeps them per client)."""
        route = self._routes.get(name) or self._unsupported(name)
        if route is not None:
            context, inner = route
            args, refusal = self._served_paths(context, inner, args)
            if refusal is not None:
                return refusal
            return _renamed(context.toolset_for(identity).call(inner, args), context.renamer)
        if len(self.contexts) == 1:  # the CLI's own message, word for word
            context = self.contexts[0]
            return _renamed(context.toolset.call(name, args), context.renamer)
        return fail(unknown_tool_message(name, self.family, self.names), code="unknownTool", input_error=True)

    def _served_paths(self, context: ServedContext, tool: str, args: Any) -> tuple[Any, ToolResult | None]:
        """The arguments with the file paths a tool takes resolved against the served document's
        folder (the agent sees the document, not the server's working directory), or a refusal
        when one is not beside a served document: a document under review is untrusted text, and
        may ask the agent to read another file."""
        if context.family != "docx" or tool not in PATH_ARGUMENTS or not isinstance(args, dict):
            return args, None
        folders = sorted({str(c.options.docx.parent) for c in self.contexts if c.family == "docx"})
        resolved = dict(args)
        for key in PATH_ARGUMENTS[tool]:
            value = args.get(key)
            if not isinstance(value, str) or not value or "\x00" in value:
                continue
            path = (context.options.docx.parent / value).resolve()
            if str(path.parent) not in folders:
                return args, fail(
                    f"{tool} over deskcheck mcp reads .docx files only beside the documents it serves (in "
                    f"{', '.join(folders)}); {key} {value!r} is {path}, elsewhere. Give a file of that folder "
                    "(a relative path is read from it), or compare on the command line: deskcheck docx compare "
                    "PREVIOUS CURRENT.",
                    code="outsideServedFolders",
                )
            resolved[key] = str(path)
        return resolved, None

    def _unsupported(self, name: str) -> tuple[ServedContext, str] | None:
        for context in self.contexts:
            if name.startswith(context.prefix) and name[len(context.prefix) :] in context.toolset.unsupported:
                return context, name[len(context.prefix) :]
        return None


def open_catalogue(options: list[ContextOptions], *, shared_sessions: bool = False) -> Catalogue:
    """Every context opened as ``deskcheck call`` opens it (missing files and unusable documents
    are usage errors, before anything is served); ``shared_sessions``: every client works in the
    form sessions the CLI and the REPL use."""
    contexts = []
    for opts in options:
        preflight(opts)
        if opts.family == "docx":
            _check_review_options(opts)
        served = ServedContext(opts, open_toolset(opts)) if opts.family != "openapi" else _openapi_context(opts)
        toolset = served.toolset
        if not len(toolset):
            raise UsageError(
                f"{opts.spec} gives no tools in the loaded profiles (no operation carries an x-agent annotation "
                "there): choose another --profile, or see what the document gives with deskcheck openapi tools SPEC."
            )
        served.shared = shared_sessions
        contexts.append(served)
    return Catalogue(contexts)


def _openapi_context(opts: ContextOptions) -> ServedContext:
    """An OpenAPI context with what is served besides its tools: skills, examples, the document."""
    from ..context import load_openapi_context

    loaded = load_openapi_context(opts)
    source = loaded.source
    return ServedContext(
        opts,
        loaded.toolset,
        skills=list(loaded.skills),
        examples=loaded.examples(),
        document_text=source.text if source is not None else None,
        document_type="application/yaml" if source is not None and source.format == "yaml" else "application/json",
    )


def _check_review_options(opts: ContextOptions) -> None:
    """A bad --operation-types is refused before serving, as ``deskcheck docx tools`` refuses it."""
    from deskcheck.engine.docx.edit.options import SuggestOptions
    from deskcheck.engine.docx.tools.toolset import DocxOptions
    from deskcheck.engine.errors import InputError

    try:
        SuggestOptions.from_docx_options(
            DocxOptions(
                operation_types=opts.operation_types,
                review_meta=opts.review_meta,
                max_operations=opts.max_operations,
                require_document_version=opts.require_document_version,
            )
        )
    except InputError as exc:
        raise UsageError(exc.message.replace("operationTypes", "--operation-types")) from None


def _renamed(result: ToolResult, rename: Renamer) -> ToolResult:
    """``result`` with the tools its message (or text) names called by their served names."""
    if not rename:
        return result
    changes: dict[str, Any] = {}
    if result.error:
        changes["error"] = rename(result.error)
    if isinstance(result.value, str):
        changes["value"] = rename(result.value)
    return dataclasses.replace(result, **changes) if changes else result


def _assign_prefixes(contexts: list[ServedContext]) -> None:
    """Prefix the tools of every context that shares a tool name with another one."""
    counts = Counter(name for context in contexts for name in set(context.toolset.names))
    clashing = [c for c in contexts if any(counts[name] > 1 for name in c.toolset.names)]
    used: set[str] = set()
    for context in clashing:
        word, number = context.stem(), 1
        while f"{word}{number if number > 1 else ''}" in used:
            number += 1
        word = f"{word}{number if number > 1 else ''}"
        used.add(word)
        context.prefix = word + "_"
    names = Counter(fit(context.prefix + name) for context in contexts for name in context.toolset.names)
    twice = sorted(name for name, count in names.items() if count > 1)
    if twice:
        raise UsageError(
            f"two contexts offer tools of the same name even with their files' names as prefixes ({', '.join(twice)}); "
            "serve them from two servers."
        )
