"""Editor tool groups, the static part: an operation annotated ``x-agent.editor`` is resolved into
a plain description of the form it edits (which operation saves it, where its schema comes from,
which operation reads the current record, which path parameters identify a record), checked
without any HTTP request.

The eight form tools (``<name>_describeState``, …) are built from an ``EditorGroup`` by
``editor_tools`` over the form-session layer; this module only resolves and checks the annotation.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..document.problems import Problems
from ..document.text import localize
from .operations import Operation, OperationIndex, OperationResolver, Parameter

# The eight form tools of a group, in the order they are listed; a tool is "<name>_<verb>".
FORM_VERBS = (
    "getData",
    "setData",
    "describeState",
    "setFieldValue",
    "getFieldSuggestions",
    "editArray",
    "saveForm",
    "reloadForm",
)
ROLES = ("schemaOperation", "readOperation")
# The form tools' own argument names. Every tool of a group also takes the write operation's path
# parameters, so a path parameter cannot be called one of these (a test keeps the list in step
# with the form tools).
FORM_ARGUMENTS = (
    "path",
    "data",
    "merge",
    "value",
    "suggestionIndex",
    "query",
    "action",
    "index",
    "key",
    "newKey",
    "fromItem",
    "maxItems",
    "keepEdits",
)


@dataclass
class EditorGroup:
    """One editor annotation, resolved.

    - ``write``: the annotated operation; ``saveForm`` sends the whole document through it (its
      method, PUT or POST, its path parameters, a JSON body).
    - ``schema_source``: ``"declared"`` (the write operation's JSON body schema, ``declared_schema``)
      or ``"operation"`` (the response of ``schema_operation``, called with its path parameters
      taken by name and ``schema_params`` as extra query parameters).
    - ``read``: the operation whose response is the current document; None is create mode (the
      form starts from ``{}`` and loads nothing).
    - ``path_parameters``: the write operation's path parameters, in declared order: every form
      tool takes them (API names and schemas), and they identify the session.
    """

    name: str
    title: str
    description: str | None
    profiles: Any
    pointer: str  # of the x-agent object
    write: Operation
    schema_source: str
    declared_schema: dict[str, Any] | None
    schema_operation: Operation | None
    schema_params: dict[str, Any] = field(default_factory=dict)
    read: Operation | None = None

    @property
    def path_parameters(self) -> list[Parameter]:
        return self.write.path_parameters

    @property
    def tool_names(self) -> list[str]:
        return [f"{self.name}_{verb}" for verb in FORM_VERBS]

    @property
    def create_mode(self) -> bool:
        return self.read is None

    def as_dict(self) -> dict[str, Any]:
        """A JSON description (for ``openapi tools`` and for hosts)."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "profiles": self.profiles,
            "mode": "create" if self.create_mode else "edit",
            "write": _operation_dict(self.write),
            "schema": {
                "source": self.schema_source,
                **(
                    {"operation": _operation_dict(self.schema_operation), "params": self.schema_params}
                    if self.schema_operation is not None
                    else {}
                ),
            },
            "read": _operation_dict(self.read) if self.read is not None else None,
            "pathParameters": [
                {"name": p.name, "schema": p.schema, **({"description": p.description} if p.description else {})}
                for p in self.path_parameters
            ],
            "tools": self.tool_names,
        }


def _operation_dict(operation: Operation) -> dict[str, Any]:
    return {
        "operationId": operation.operation_id,
        "method": operation.method.upper(),
        "path": operation.path,
        "pathParameters": [p.name for p in operation.path_parameters],
    }


def resolve_editor(
    operation: Operation,
    resolver: OperationResolver,
    index: OperationIndex,
    problems: Problems,
    locale: str = "en",
) -> EditorGroup | None:
    """The group for an operation whose x-agent has ``editor``; None (with problems reported)
    when the annotation cannot work."""
    editor = operation.agent.get("editor")
    if editor is not True and not isinstance(editor, dict):
        return None
    editor_pointer = operation.agent_pointer + "/editor"
    label = operation.operation_id
    healthy = True
    if operation.request_body is None:
        healthy = False
        media = ", ".join(operation.request_media_types) or "none"
        problems.add(
            "editor-json-body-missing",
            f"{label}: an editor needs a JSON request body (application/json) on the write operation; "
            f"{operation.method.upper()} {operation.path} declares {media}.",
            editor_pointer,
        )
    for parameter in operation.path_parameters:
        if parameter.name in FORM_ARGUMENTS:
            healthy = False
            problems.add(
                "editor-path-parameter-clash",
                f'{label}: the path parameter "{parameter.name}" has the name of an argument of the form tools, '
                "which also take every path parameter; rename the parameter in the document (the URL template "
                "and the parameter's name) to use this operation as an editor.",
                editor_pointer,
            )
    named: dict[str, Operation | None] = {role: None for role in ROLES}
    if isinstance(editor, dict):
        supplied = {p.name for p in operation.path_parameters}
        for role in ROLES:
            target_id = editor.get(role)
            if not isinstance(target_id, str):
                continue
            where = f"{editor_pointer}/{role}"
            matches = index.by_id.get(target_id) or []
            if not matches:
                healthy = False
                problems.add(
                    "editor-operation-missing",
                    f'{label}: editor.{role} names "{target_id}", which is not an operation in this document '
                    "(check the operationId's spelling).",
                    where,
                )
                continue
            if len(matches) > 1:
                healthy = False
                places = "; ".join(f"{method.upper()} {path}" for path, method, _ in matches)
                problems.add(
                    "editor-operation-ambiguous",
                    f'{label}: editor.{role} names "{target_id}", which several operations use as operationId '
                    f"({places}); operationIds must be unique.",
                    where,
                )
                continue
            target = resolver.resolve_by_id(target_id, index)
            if target is None:
                healthy = False
                continue
            for parameter in target.path_parameters:
                if parameter.name not in supplied:
                    healthy = False
                    problems.add(
                        "editor-path-parameter-missing",
                        f'{label}: editor.{role} "{target_id}" needs path parameter "{parameter.name}", which '
                        f"{label} does not supply (path parameters are matched by name).",
                        where,
                    )
            named[role] = target
    if not healthy:
        return None
    schema_params = editor.get("schemaParams") if isinstance(editor, dict) else None
    schema_operation = named["schemaOperation"]
    return EditorGroup(
        name=operation.tool_name,
        title=localize(operation.agent.get("title"), locale) or (operation.operation_id or operation.label),
        description=localize(operation.agent.get("description"), locale),
        profiles=operation.profiles,
        pointer=operation.agent_pointer,
        write=operation,
        schema_source="operation" if schema_operation is not None else "declared",
        declared_schema=copy.deepcopy((operation.request_body or {}).get("schema")),
        schema_operation=schema_operation,
        schema_params=dict(schema_params) if isinstance(schema_params, dict) else {},
        read=named["readOperation"],
    )
