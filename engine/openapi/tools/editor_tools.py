"""The eight form tools of an editor group, over the form-session layer.

``editor_session_group(group, context)`` turns a resolved ``EditorGroup`` into the forms layer's
``SessionGroup``: tools ``<name>_getData``, ``_setData``, ``_describeState``, ``_setFieldValue``,
``_getFieldSuggestions``, ``_editArray``, ``_saveForm`` and ``_reloadForm``, each taking the write
operation's path parameters (API names and schemas, all required) besides its own arguments.

A call names its session by those parameter values: the session key is the identity, the group
name, every path parameter value in declared order, and the API's base URL (so one document used
against two servers never mixes their records). A create-mode group's write operation has no
record id among its path parameters, so a second "add a record" resumes the first draft. The
session's source is an ``EditorSource`` (``editor_source``); sessions live in the persistent
store and are shared by every process.

Building the tools sends no request, compiles nothing and opens no store: that happens when a
tool runs. ``editor_skill`` is the group's entry in the load's skills (its body is the forms
engine's fill-form guide with the saving section).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...urls import redact
from .editor_source import EditorEndpoint, EditorSource
from .editors import EditorGroup
from .operations import Parameter
from .skills import Skill

if TYPE_CHECKING:
    from ...forms.sessions.store_base import BaseStore
    from ...forms.tools.session_tools import SessionGroup
    from ...tools import Tool

# Skill names follow the Agent Skills format: lowercase letters, digits and dashes, 64 at most.
MAX_SKILL_NAME = 64


@dataclass
class EditorContext:
    """What the editor groups of one load share: where requests go, the session store (None: the
    default one under the state directory, opened when a session first needs it), the identity
    that keeps sessions apart, the hosts option lists may reach besides the API, and whether
    saves may send an invalid document."""

    endpoint: EditorEndpoint
    store: BaseStore | None = None
    identity: str | None = None
    allow_hosts: Sequence[str] = ()
    allow_invalid: bool = False
    _fetcher: Any = field(default=None, repr=False)

    @property
    def fetcher(self) -> Any:
        """One fetcher of option lists for every group of the load (answers are cached per URL
        for the life of the process), made on its first request."""
        if self._fetcher is None:
            from ...forms.sources.remote_items import LazyRemoteItems, RemoteItems

            endpoint, hosts = self.endpoint, tuple(self.allow_hosts)
            self._fetcher = LazyRemoteItems(lambda: RemoteItems(endpoint.caller, allow_hosts=hosts))
        return self._fetcher


def editor_session_group(group: EditorGroup, context: EditorContext) -> SessionGroup:
    """The session group of ``group``: its tools, sessions and guide."""
    from ...forms.sessions.session import SessionOptions
    from ...forms.tools.session_tools import SessionGroup

    endpoint = context.endpoint

    def source_for(values: dict[str, Any]) -> EditorSource:
        return EditorSource(group, values, endpoint)

    return SessionGroup(
        name=group.name,
        title=group.title,
        source_for=source_for,
        store=context.store,
        identity=context.identity,
        parameters={p.name: parameter_schema(p) for p in group.path_parameters},
        required_parameters=[p.name for p in group.path_parameters],
        options=SessionOptions(allow_invalid=context.allow_invalid, fetcher=context.fetcher),
        # Stored with the session: never with the password of a user:password@ base URL.
        key_extra={"api": redact(endpoint.base_url)} if endpoint.base_url else None,
    )


def parameter_schema(parameter: Parameter) -> dict[str, Any]:
    """A path parameter as a tool argument: its API schema, with its description."""
    schema = dict(parameter.schema) if isinstance(parameter.schema, dict) else {"type": "string"}
    if parameter.description and "description" not in schema:
        schema["description"] = parameter.description
    return schema


def editor_skill(group: EditorGroup, sessions: SessionGroup) -> Skill:
    """The group's skill: how to use its eight tools (the fill-form guide and how saving works)."""
    name = re.sub(r"[^a-z0-9]+", "-", group.name.lower()).strip("-")[:MAX_SKILL_NAME].strip("-") or "editor"
    what = f"how to use the {group.name}_* form tools"
    description = f"{group.title}: {what}." if group.title else f"{what[:1].upper()}{what[1:]}."
    if group.description:
        description += " " + group.description.strip()
    profiles = tuple(p for p in group.profiles if isinstance(p, str)) if isinstance(group.profiles, list) else None
    return Skill(
        id=name,
        name=name,
        description=description,
        body=sessions.guide(),
        href=None,
        tools=tuple(group.tool_names),
        profiles=profiles,
    )


def api_hints(tools: Sequence[Tool], group: EditorGroup) -> list[Tool]:
    """The group's tools with the hints of what they really do here: every one may reach the API
    (loading the record, option lists), so none is closed-world; saveForm through a PUT or PATCH
    replaces the record (destructive), through a POST it adds one (not destructive)."""
    import dataclasses

    out = []
    for tool in tools:
        hints = dataclasses.replace(tool.annotations, open_world=True)
        if tool.name.endswith("_saveForm"):
            hints = dataclasses.replace(hints, destructive=group.write.method in ("put", "patch"))
        out.append(dataclasses.replace(tool, annotations=hints))
    return out
