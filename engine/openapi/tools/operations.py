"""Annotated operations, resolved: parameters merged and deduplicated, bodies and responses with
their ``$ref``s inlined, one entry per view, filtered by profile."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import jsonpointer
from ...refs import ExternalRefError, RefError, RefResolver, reachable_ref_errors
from ..document.problems import Problems
from ..document.text import snake_case
from ..document.vocabulary import METHODS

PARAMETER_LOCATIONS = ("path", "query", "header")
_SUCCESS = re.compile(r"^2\d\d$")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


@dataclass
class Parameter:
    name: str
    location: str  # path, query or header
    required: bool
    schema: dict[str, Any]
    description: str | None
    style: str | None
    explode: bool | None
    agent: dict[str, Any]  # the parameter's own x-agent, then the operation's params[name], merged


@dataclass
class Operation:
    """One tool-to-be: an annotated operation, or one view of it."""

    method: str  # lowercase
    path: str
    operation_id: str | None
    pointer: str  # of the operation in the raw document
    agent: dict[str, Any]  # the x-agent object (or the view)
    agent_pointer: str  # of that object
    raw: dict[str, Any] = field(repr=False)
    tool_name: str = ""
    profiles: Any = True
    tags: list[str] = field(default_factory=list)
    parameters: list[Parameter] = field(default_factory=list)
    request_body: dict[str, Any] | None = None  # {"schema": ..., "required": bool}
    request_media_types: list[str] = field(default_factory=list)
    response_schema: Any = None
    response_media_types: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.operation_id or f"{self.method.upper()} {self.path}"

    @property
    def path_parameters(self) -> list[Parameter]:
        return [p for p in self.parameters if p.location == "path"]


class OperationIndex:
    """Every operation of a document, by operationId, for editor references (which ignore
    annotations and profiles)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.by_id: dict[str, list[tuple[str, str, str]]] = {}
        for path, method, pointer, operation in iter_operations(document):
            op_id = operation.get("operationId")
            if isinstance(op_id, str):
                self.by_id.setdefault(op_id, []).append((path, method, pointer))


def iter_operations(document: dict[str, Any]):
    """``(path, method, pointer, operation)`` in document order, methods in the fixed order."""
    paths = document.get("paths")
    if not isinstance(paths, dict):
        return
    for path, item in paths.items():
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                yield path, method, jsonpointer.append("/paths", path, method), operation


class OperationResolver:
    """Turns raw operations into ``Operation`` values, reporting what stops them from becoming
    tools. One resolver per document: references and tag profiles are looked up once."""

    def __init__(self, document: dict[str, Any], problems: Problems, *, name_prefix: str = "") -> None:
        self.document = document
        self.problems = problems
        self.prefix = name_prefix
        self.refs = RefResolver(document)
        self._ref_checked: set[str] = set()
        self.tag_profiles: dict[str, Any] = {}
        tags = document.get("tags")
        for tag in tags if isinstance(tags, list) else []:
            if isinstance(tag, dict) and isinstance(tag.get("name"), str):
                agent = tag.get("x-agent")
                if isinstance(agent, dict) and "profiles" in agent:
                    self.tag_profiles.setdefault(tag["name"], agent["profiles"])

    def annotated(self, selected: set[str] | None) -> list[Operation]:
        """Every annotated operation (each view separately) whose profiles match ``selected``
        (every one when ``selected`` is None), in document order."""
        out: list[Operation] = []
        for path, method, pointer, raw in iter_operations(self.document):
            if "x-agent" not in raw:
                continue
            agent = raw["x-agent"]
            views: list[tuple[dict[str, Any], str]]
            if isinstance(agent, list):
                views = [(v, f"{pointer}/x-agent/{i}") for i, v in enumerate(agent) if isinstance(v, dict)]
            elif isinstance(agent, dict):
                views = [(agent, f"{pointer}/x-agent")]
            else:
                continue  # reported by the vocabulary check
            for view, view_pointer in views:
                profiles = view.get("profiles", self._first_tag_profiles(raw))
                if selected is not None and not matches(profiles, selected):
                    continue
                operation = self.resolve(path, method, pointer, raw, view, view_pointer)
                if operation is not None:
                    operation.profiles = profiles
                    out.append(operation)
        return out

    def resolve(
        self, path: str, method: str, pointer: str, raw: dict[str, Any], agent: dict[str, Any], agent_pointer: str
    ) -> Operation | None:
        op_id = raw.get("operationId")
        if not isinstance(op_id, str) or not op_id:
            self.problems.add(
                "operation-id-missing",
                f"operation {method.upper()} {path} has x-agent but no operationId; tools are named after it, "
                "so give it one.",
                pointer,
            )
            return None
        if not self._references_ok(pointer, raw, path):
            return None
        name = agent.get("name") if isinstance(agent.get("name"), str) else snake_case(op_id)
        operation = Operation(
            method=method,
            path=path,
            operation_id=op_id,
            pointer=pointer,
            agent=agent,
            agent_pointer=agent_pointer,
            raw=raw,
            tool_name=self.prefix + name,
            tags=[t for t in raw.get("tags", []) if isinstance(t, str)] if isinstance(raw.get("tags"), list) else [],
        )
        try:
            operation.parameters = self._parameters(path, pointer, raw, agent)
            self._request_body(operation)
            self._response(operation)
        except RefError as exc:
            # A chain of references that never reaches an object (one that refers to itself):
            # every reference resolves, so _references_ok had nothing to say.
            self.problems.add(
                "ref-unresolvable",
                f"{operation.label}: {exc.message} No tool can be built from {method.upper()} {path} until it "
                "leads to an object.",
                pointer,
            )
            return None
        self._check_placeholders(operation)
        return operation

    def resolve_by_id(self, op_id: str, index: OperationIndex) -> Operation | None:
        """The operation named ``op_id`` as an editor reference sees it: annotations ignored."""
        entries = index.by_id.get(op_id) or []
        if len(entries) != 1:
            return None
        path, method, pointer = entries[0]
        raw = self.document["paths"][path][method]
        return self.resolve(path, method, pointer, raw, {}, pointer + "/x-agent")

    # -- parts -----------------------------------------------------------------------------

    def _first_tag_profiles(self, raw: dict[str, Any]) -> Any:
        tags = raw.get("tags")
        for tag in tags if isinstance(tags, list) else []:
            if tag in self.tag_profiles:
                return self.tag_profiles[tag]
        return True

    def _references_ok(self, pointer: str, raw: dict[str, Any], path: str) -> bool:
        item_pointer = jsonpointer.parent(pointer)[0]
        item = self.document["paths"][path]
        ok = True
        for where, node in ((pointer, raw), (item_pointer + "/parameters", item.get("parameters"))):
            for site, error in reachable_ref_errors(self.document, node, where):
                ok = False
                if site in self._ref_checked:
                    continue
                self._ref_checked.add(site)
                rule = "ref-external" if isinstance(error, ExternalRefError) else "ref-unresolvable"
                self.problems.add(rule, f"{error.message} (used by {raw.get('operationId') or path})", site)
        return ok

    def _parameters(self, path: str, pointer: str, raw: dict[str, Any], agent: dict[str, Any]) -> list[Parameter]:
        item = self.document["paths"][path]
        item_pointer = jsonpointer.parent(pointer)[0]
        merged: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
        for source, where in ((item.get("parameters"), item_pointer), (raw.get("parameters"), pointer)):
            for index, entry in enumerate(source if isinstance(source, list) else []):
                param_pointer = f"{where}/parameters/{index}"
                parameter = self.refs.deref(entry)
                if not isinstance(parameter, dict) or not isinstance(parameter.get("name"), str):
                    self.problems.add(
                        "parameter-invalid",
                        f"{raw.get('operationId')}: parameter {index} has no name; every parameter needs "
                        "a name and an in.",
                        param_pointer,
                    )
                    continue
                key = (str(parameter.get("in")), parameter["name"])
                merged[key] = (parameter, param_pointer)  # the operation's wins, in the first position
        overrides = agent.get("params") if isinstance(agent.get("params"), dict) else {}
        out = []
        for (location, name), (parameter, _) in merged.items():
            if location not in PARAMETER_LOCATIONS:
                continue  # cookies are the client's business
            own = parameter.get("x-agent") if isinstance(parameter.get("x-agent"), dict) else {}
            override = overrides.get(name) if isinstance(overrides.get(name), dict) else {}
            schema = parameter.get("schema")
            out.append(
                Parameter(
                    name=name,
                    location=location,
                    required=parameter.get("required") is True,
                    schema=self.refs.inline(schema) if isinstance(schema, dict) else {"type": "string"},
                    description=parameter.get("description") if isinstance(parameter.get("description"), str) else None,
                    style=parameter.get("style") if isinstance(parameter.get("style"), str) else None,
                    explode=parameter.get("explode") if isinstance(parameter.get("explode"), bool) else None,
                    agent={**own, **override},
                )
            )
        return out

    def _request_body(self, operation: Operation) -> None:
        body = self.refs.deref(operation.raw.get("requestBody"))
        if not isinstance(body, dict) or not isinstance(body.get("content"), dict):
            return
        operation.request_media_types = list(body["content"])
        media = _json_media(body["content"])
        if media is None:
            return
        entry = body["content"][media]
        schema = entry.get("schema") if isinstance(entry, dict) else None
        operation.request_body = {
            "schema": self.refs.inline(schema) if isinstance(schema, (dict, bool)) else {},
            "required": body.get("required") is True,
        }

    def _response(self, operation: Operation) -> None:
        responses = operation.raw.get("responses")
        if not isinstance(responses, dict):
            return
        for code, response in responses.items():
            if not _SUCCESS.match(str(code)):
                continue
            response = self.refs.deref(response)
            content = response.get("content") if isinstance(response, dict) else None
            if isinstance(content, dict):
                operation.response_media_types = list(content)
                media = _json_media(content)
                if media is not None and isinstance(content[media], dict) and "schema" in content[media]:
                    operation.response_schema = self.refs.inline(content[media]["schema"])
            return

    def _check_placeholders(self, operation: Operation) -> None:
        declared = {p.name for p in operation.path_parameters}
        for name in _PLACEHOLDER.findall(operation.path):
            if name not in declared:
                self.problems.add(
                    "path-parameter-undeclared",
                    f"{operation.label}: the path {operation.path} has {{{name}}} but no path parameter named "
                    f'"{name}" is declared, so no request could be built.',
                    operation.pointer,
                )


def _json_media(content: dict[str, Any]) -> str | None:
    """The application/json entry of a content map (a charset parameter is fine)."""
    for media in content:
        if media.split(";", 1)[0].strip().lower() == "application/json":
            return media
    return None


# Here rather than in profiles, which reads operations: an operation's own profiles against a selection.
def matches(operation_profiles: Any, selected: set[str]) -> bool:
    if operation_profiles is True:
        return True
    if isinstance(operation_profiles, list):
        return bool(selected.intersection(p for p in operation_profiles if isinstance(p, str)))
    return False
