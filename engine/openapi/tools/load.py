"""Loading an annotated OpenAPI document into tools.

``analyse`` does every static step on a parsed document (vocabulary, profiles, operations, input
schemas, editor groups, lint, duplicate names) and reports problems instead of stopping;
``load_openapi`` runs it for one profile selection and refuses the document when any error was
found. ``openapi check`` runs it over every profile. No step sends an HTTP request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ... import jsonpointer
from ...http.client import ApiCaller, Credentials, HttpClient, HttpxClient
from ...tools import Tool, ToolSet
from ...urls import check_http_url
from ..document.problems import Problems, SpecLoadError
from ..document.source import Source, read_source
from ..document.vocabulary import validate_vocabulary
from .editors import EditorGroup, resolve_editor
from .inputs import InputProblem, ToolInput, build_input
from .lint import lint_input
from .operations import Operation, OperationIndex, OperationResolver, iter_operations, matches
from .plain_tools import MAX_ERROR_LENGTH, ToolContext, build_plain_tool
from .profiles import (
    check_profile_names,
    declared_profiles,
    default_profile,
    expand_profiles,
    requested_profiles,
    select_profiles,
)
from .render import MAX_STRING_LENGTH
from .request import base_url_for, foreign_server_message, no_base_url_message
from .skills import Skill, build_instructions, select_skills, tag_guide

if TYPE_CHECKING:
    from ...forms.sessions.store_base import BaseStore

LINT_MODES = ("error", "warn", "off")


@dataclass
class PlainOperation:
    operation: Operation
    tool_input: ToolInput


@dataclass
class Analysis:
    """Everything a load needs, resolved from the document, and what is wrong with it."""

    document: dict[str, Any]
    problems: Problems
    profiles: list[str] = field(default_factory=list)  # the requested profile names
    selected: set[str] | None = None  # their expansion (None: every annotated operation)
    plain: list[PlainOperation] = field(default_factory=list)
    editors: list[EditorGroup] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    guide: str = ""

    @property
    def instructions(self) -> str:
        return build_instructions(self.skills, self.guide)


def analyse(
    document: dict[str, Any],
    *,
    profiles: list[str] | tuple[str, ...] | None = None,
    every_profile: bool = False,
    name_prefix: str | None = None,
    locale: str = "en",
    lint: str = "error",
    source_url: str | None = None,
    problems: Problems | None = None,
) -> Analysis:
    """Resolve ``document`` for ``profiles`` (the default profile when None). With
    ``every_profile``, every annotated operation is resolved and duplicate names are checked
    per declared profile (what ``openapi check`` reports)."""
    problems = problems if problems is not None else Problems()
    version = document.get("openapi")
    if not (isinstance(version, str) and version.startswith("3.")):
        found = f'"openapi": {version!r}' if version is not None else "no openapi field"
        hint = " (a Swagger 2.0 document must be converted first)" if "swagger" in document else ""
        problems.add(
            "openapi-version",
            f"only OpenAPI 3.x documents are supported; this one has {found}{hint}.",
            "/openapi" if "openapi" in document else "",
        )
        return Analysis(document, problems)

    validate_vocabulary(document, problems)
    declared = declared_profiles(document)
    expanded = expand_profiles(declared, problems)
    check_profile_names(document, declared, problems)
    if every_profile and profiles is None:
        names = list(declared) or [default_profile(document)]
        selected = None
    else:
        names = requested_profiles(document, profiles)
        selected = select_profiles(names, expanded)
    analysis = Analysis(document, problems, names, selected)

    root = document.get("x-agent") if isinstance(document.get("x-agent"), dict) else {}
    prefix = name_prefix if name_prefix is not None else root.get("namePrefix")
    resolver = OperationResolver(document, problems, name_prefix=prefix if isinstance(prefix, str) else "")
    index = OperationIndex(document)
    operations = resolver.annotated(selected)
    for operation in operations:
        if operation.agent.get("editor") is not None:
            group = resolve_editor(operation, resolver, index, problems, locale)
            if group is not None:
                analysis.editors.append(group)
            continue
        try:
            tool_input = build_input(operation, locale)
        except InputProblem as exc:
            problems.add(exc.rule, exc.message, exc.pointer)
            continue
        analysis.plain.append(PlainOperation(operation, tool_input))
        if lint != "off":
            _lint(operation, tool_input, problems, "error" if lint == "error" else "warning")

    if selected is None:
        for name in names:
            chosen = select_profiles([name], expanded)
            _check_duplicates([op for op in operations if _matches(op, chosen)], analysis, problems)
        skill_profiles = set(declared) or {default_profile(document)}
    else:
        _check_duplicates(operations, analysis, problems)
        skill_profiles = selected
    analysis.skills = select_skills(document, skill_profiles, locale, source_url)
    analysis.guide = tag_guide(document, operations, locale)
    return analysis


def _matches(operation: Operation, chosen: set[str]) -> bool:
    return matches(operation.profiles, chosen)


def _check_duplicates(operations: list[Operation], analysis: Analysis, problems: Problems) -> None:
    owners: list[tuple[str, Operation]] = []
    groups = {id(g.write): g for g in analysis.editors}
    for operation in operations:
        if id(operation) in groups:
            owners += [(name, operation) for name in groups[id(operation)].tool_names]
        elif operation.agent.get("editor") is None:
            owners.append((operation.tool_name, operation))
    counts = Counter(name for name, _ in owners)
    first: dict[str, Operation] = {}
    for name, operation in owners:
        if counts[name] < 2:
            continue
        if name not in first:
            first[name] = operation
            continue
        problems.add(
            "tool-name-duplicate",
            f'duplicate tool name "{name}": {first[name].label} and {operation.label} would both be '
            "called that; give one of them another x-agent.name.",
            operation.agent_pointer,
        )


def _lint(operation: Operation, tool_input: ToolInput, problems: Problems, severity: str) -> None:
    bindings = {b.property: b for b in tool_input.bindings}
    params = operation.agent.get("params") if isinstance(operation.agent.get("params"), dict) else {}
    for finding in lint_input(tool_input.schema, tool_input.authored):
        binding = bindings.get(finding.property)
        pointer = operation.agent_pointer
        if binding is not None and binding.kind in ("path", "query", "header") and binding.api_name in params:
            pointer = jsonpointer.append(pointer, "params", binding.api_name, "description")
        elif binding is not None and binding.kind in ("fields", "responseFormat"):
            pointer += "/response"
        problems.add(
            finding.rule,
            f"{operation.tool_name}.{finding.property} [{finding.rule}]: {finding.message}",
            pointer,
            severity,
        )


@dataclass
class OpenApiTools:
    """A loaded document: its tools (a ``ToolSet``), editor groups (with their form sessions,
    ``editor_sessions`` by group name), skills and instructions."""

    source: Source | None
    analysis: Analysis
    toolset: ToolSet
    base_url: str | None
    editor_sessions: dict[str, Any] = field(default_factory=dict)  # name -> forms SessionGroup
    editor_skills: list[Skill] = field(default_factory=list)

    @property
    def tools(self) -> list[Tool]:
        return list(self.toolset)

    @property
    def editor_groups(self) -> list[EditorGroup]:
        return self.analysis.editors

    @property
    def skills(self) -> list[Skill]:
        return [*self.analysis.skills, *self.editor_skills]

    @property
    def instructions(self) -> str:
        return build_instructions(self.skills, self.analysis.guide)

    @property
    def profiles(self) -> list[str]:
        return self.analysis.profiles

    def examples(self) -> dict[str, list[Any]]:
        out = {}
        for plain in self.analysis.plain:
            examples = plain.operation.agent.get("examples")
            if isinstance(examples, list) and examples:
                out[plain.operation.tool_name] = examples
        return out


def load_openapi(
    spec: str | dict[str, Any] | Source,
    *,
    profiles: list[str] | tuple[str, ...] | None = None,
    name_prefix: str | None = None,
    locale: str = "en",
    base_url: str | None = None,
    client: HttpClient | None = None,
    credentials: Credentials | None = None,
    timeout: float = 30.0,
    lint: str = "error",
    max_string_length: int = MAX_STRING_LENGTH,
    max_error_length: int = MAX_ERROR_LENGTH,
    store: BaseStore | None = None,
    identity: str | None = None,
    allow_hosts: Sequence[str] = (),
    allow_invalid: bool = False,
) -> OpenApiTools:
    """Load ``spec`` (a path, a URL, a parsed document or a ``Source``) into tools.

    Editor groups give their eight form tools, whose sessions live in ``store`` (default: the
    one under the state directory), kept apart by ``identity``; their option lists behind URLs
    may reach ``allow_hosts`` besides the API's own origin; ``allow_invalid`` lets saves send a
    document that fails validation.

    A document fetched from a URL is used with its own server only when that server is on the
    document's origin, or the user named it (``base_url``, or an ``allow_hosts`` entry): else its
    tools answer how to name it, and send nothing (``request.foreign_server_message``).

    Raises ``SpecLoadError`` (an ``InputError``) listing every error when the document cannot be
    turned into tools, and ``SpecUsageError`` for a profile the document does not declare.
    Nothing is fetched but the document itself (when ``spec`` is a URL), and no schema is
    compiled: form sessions open when a tool runs."""
    if lint not in LINT_MODES:
        raise ValueError(f"lint must be one of {', '.join(LINT_MODES)}")
    if isinstance(spec, Source):
        source: Source | None = spec
    elif isinstance(spec, str):
        source = read_source(spec, timeout=timeout)
    else:
        source = None
    document = source.data if source is not None else spec
    label = source.location if source is not None else "the OpenAPI document"
    source_url = source.url if source is not None else None
    analysis = analyse(
        document, profiles=profiles, name_prefix=name_prefix, locale=locale, lint=lint, source_url=source_url
    )
    errors = analysis.problems.errors
    if errors:
        raise SpecLoadError(label, errors)
    resolved_base = base_url_for(document, override=base_url, source_url=source_url)
    if resolved_base is not None:
        check_http_url(resolved_base, "--base-url" if base_url else "the server URL the document gives")
    allowed = []
    if allow_hosts:
        from ...forms.sources.remote_items import parse_allowed_host

        allowed = [parse_allowed_host(entry) for entry in allow_hosts]
    no_base_url = no_base_url_message(document)
    if base_url is None and resolved_base is not None and source_url is not None:
        refused = foreign_server_message(source_url, resolved_base, allowed)
        if refused is not None:
            resolved_base, no_base_url = None, refused
    caller = ApiCaller(
        resolved_base,
        client=client if client is not None else HttpxClient(timeout=timeout),
        credentials=credentials,
    )
    context = ToolContext(
        caller=caller,
        base_url=resolved_base,
        no_base_url=no_base_url,
        locale=locale,
        max_string_length=max_string_length,
        max_error_length=max_error_length,
    )
    # Tools in document order: an editor group's eight where its write operation is.
    entries: list[tuple[Operation, list[Tool]]] = [
        (p.operation, [build_plain_tool(p.operation, p.tool_input, context)]) for p in analysis.plain
    ]
    loaded = OpenApiTools(source, analysis, ToolSet("openapi", []), resolved_base)
    if analysis.editors:
        from .editor_source import EditorEndpoint
        from .editor_tools import EditorContext, api_hints, editor_session_group, editor_skill

        editor_context = EditorContext(
            EditorEndpoint(
                caller,
                resolved_base,
                context.no_base_url,
                document,
                document_text=source.text if source is not None else None,
            ),
            store=store,
            identity=identity,
            allow_hosts=tuple(allow_hosts),
            allow_invalid=allow_invalid,
        )
        for group in analysis.editors:
            sessions = editor_session_group(group, editor_context)
            loaded.editor_sessions[group.name] = sessions
            loaded.editor_skills.append(editor_skill(group, sessions))
            entries.append((group.write, api_hints(sessions.tools(), group)))
    order = {pointer: index for index, (_, _, pointer, _) in enumerate(iter_operations(document))}
    entries.sort(key=lambda entry: order.get(entry[0].pointer, len(order)))
    loaded.toolset = ToolSet("openapi", [t for _, tools in entries for t in tools], instructions=loaded.instructions)
    return loaded
