"""The six form tools (``<prefix>_getData``, ``_setData``, ``_describeState``,
``_setFieldValue``, ``_getFieldSuggestions``, ``_editArray``) for a host that supplies the state.

A host is a function that takes the arguments that identify a form (for a file-backed form:
none; for an editor group over an API: the write operation's path parameters) and returns a
context manager yielding the ``FormState`` for this call. It loads the state on entry and keeps
whatever the tool changed on exit (a session layer writes ``state.snapshot()`` back to its
store). The host's own arguments are declared with ``parameters`` (name -> JSON Schema) and
``required_parameters``; they are added to every tool's input schema and passed to the host,
never to the tool.

``form_tools(open_state, prefix="form", title="record")`` gives the tools;
``form_toolset(state, ...)`` is the simplest host: one in-memory state, for tests and embedding.
Saving and reloading are a session's business: a session layer appends its own ``saveForm`` and
``reloadForm`` tools, and its section of the guide (``fill_form_guide(extra_sections=...)``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ...errors import DeskcheckError
from ...tools import READ_ONLY, TEXT_OUTPUT, Tool, ToolAnnotations, ToolSet, unknown_arguments_error
from ..schema.values import UNSET
from ..state import text
from ..state.state import FormState
from .guide import fill_form_guide

StateOpener = Callable[[dict[str, Any]], AbstractContextManager[FormState]]

VERBS = ("getData", "setData", "describeState", "setFieldValue", "getFieldSuggestions", "editArray")
PATH_SENTENCE = (
    'A field path as describeState prints it (for example "/address/city"); the data path of a value '
    "(its JSON pointer) works too."
)
WRITE = ToolAnnotations(read_only=False, destructive=False, idempotent=False)
VERB_TITLES = {
    "getData": "Get the form's data",
    "setData": "Replace the form's data",
    "describeState": "Describe the form",
    "setFieldValue": "Set a field",
    "getFieldSuggestions": "Suggest values for a field",
    "editArray": "Edit a list",
}
# getData answers a JSON object (the record under "data"); the other tools answer text.
GET_DATA_OUTPUT = {
    "type": "object",
    "properties": {"data": {"description": "The record as the form holds it."}},
    "required": ["data"],
}


def _own_schemas(title: str) -> dict[str, tuple[str, dict[str, Any], list[str], ToolAnnotations]]:
    quoted = f'"{title}"'
    return {
        "getData": (
            f"Read the {quoted} document and whether it is valid. The answer is JSON: "
            '{"data": ..., "valid": true|false}, or {"unset": true, "valid": ...} for a field without a value, '
            'with "notices" when the session has something to say (its file changed on disk, say). Values are '
            "never shortened, so on a large form pass a path to read only the part you need.",
            {"path": {"type": "string", "description": PATH_SENTENCE + " Leave it out for the whole document."}},
            [],
            READ_ONLY,
        ),
        "setData": (
            f"Write many values of {quoted} at once, when you already know them: the object is merged into the "
            "document (nested objects merge, lists are replaced). To change a single field, setFieldValue is "
            "better. The answer lists the errors left, keys that match no field, and fields shown or hidden.",
            {
                "data": {"description": "The values to write, as a JSON object shaped like the document."},
                "merge": {
                    "type": "boolean",
                    "description": "true (the default) merges into the document; false replaces the whole "
                    "document, dropping every key you leave out.",
                },
            },
            ["data"],
            WRITE,
        ),
        "describeState": (
            f"Describe the {quoted} form: one line per field with its path, type, constraints, value and error "
            "(and the schema's default when the field has no value: shown, not in the document until written), "
            "and the validity of the whole. A part the document does not have yet is one line saying what it can "
            "hold. Pass a path to describe one part, with its own errors. A long list shows a page of its items "
            "and a line saying how to read the next page (fromItem, maxItems).",
            {
                "path": {"type": "string", "description": PATH_SENTENCE + " Leave it out for the whole form."},
                "fromItem": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "With a path naming a list: the index of the first item to list (default 0).",
                },
                "maxItems": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 500,
                    "description": "Most items of each list to list (default 50); the answer says what it left out.",
                },
            },
            [],
            READ_ONLY,
        ),
        "setFieldValue": (
            f"Set one field of {quoted} by its path. For a variant-selector field, the value is the number of "
            "the variant to use, and the answer lists the fields of that variant. A path one key below a map "
            "field (type map, such as /env/NAME) adds that key with the value. null removes the field's key "
            "from the document. The errors in the answer are those of the field written; others are counted.",
            {
                "path": {"type": "string", "description": PATH_SENTENCE},
                "value": {
                    "description": "The value to write (any JSON value; null clears the field). For a "
                    "variant selector, the variant's number. Not together with suggestionIndex."
                },
                "suggestionIndex": {
                    "type": "integer",
                    "description": "The index of an option from the last getFieldSuggestions call on this "
                    "same path. Not together with value.",
                },
            },
            ["path"],
            WRITE,
        ),
        "getFieldSuggestions": (
            f'List the accepted values of a field of {quoted} that describeState marks "suggestions", '
            "optionally filtered by a query. A field whose line already shows values=[...] needs no call: "
            "write one of those values. Each option comes with an index and a title (and its value when it is "
            "short). To choose one, call setFieldValue with the same path and suggestionIndex set to the "
            "option's index: the full value of the option is written.",
            {
                "path": {"type": "string", "description": PATH_SENTENCE},
                "query": {"type": "string", "description": "Text to look for in the options' titles."},
            },
            ["path"],
            READ_ONLY,
        ),
        "editArray": (
            f"Add or remove an item of a list in {quoted}, or add, remove or rename a key of an object: the "
            "entries of a map field (type map, whose keys you choose, such as services or environment "
            "variables), or a key the form does not accept. For a list give index; for an object give key "
            "(and newKey to rename). What was added is returned with its fields, to fill with setFieldValue "
            "(a map entry's path is the map's path and the key, e.g. /services/web/image). The errors in the "
            "answer are those of this list or object; others are counted.",
            {
                "path": {"type": "string", "description": PATH_SENTENCE + " It must name a list or an object."},
                "action": {
                    "type": "string",
                    "enum": ["add", "remove", "rename"],
                    "description": "add or remove (lists and objects), rename (a key of an object).",
                },
                "index": {
                    "type": "integer",
                    "description": "Lists: where to add (default: at the end) or which item to remove (default: "
                    "the last).",
                },
                "key": {"type": "string", "description": "Objects: the key to add, remove or rename."},
                "newKey": {"type": "string", "description": "rename: the key's new name; its value stays as it is."},
                "value": {"description": "add: the new item or the new key's value; by default an empty one."},
            },
            ["path", "action"],
            WRITE,
        ),
    }


def _run(verb: str, state: FormState, args: dict[str, Any]) -> str:
    if verb == "getData":
        import json

        from ..schema.values import json_default

        return json.dumps(state.get_data(args.get("path")), ensure_ascii=False, default=json_default)
    if verb == "setData":
        if "data" not in args:
            raise DeskcheckError("data is required: the object of values to write.", code="missingData")
        merge = args.get("merge", True)
        if not isinstance(merge, bool):
            raise DeskcheckError("merge must be true or false.", code="badMerge")
        return text.set_data_report(state.set_data(args["data"], merge=merge))
    if verb == "describeState":
        return text.describe(state, args.get("path"), args.get("fromItem"), args.get("maxItems"))
    if verb == "setFieldValue":
        report = state.set_field_value(
            args.get("path"), args.get("value", UNSET), suggestion_index=args.get("suggestionIndex")
        )
        return text.write_report(state, report)
    if verb == "getFieldSuggestions":
        node, listing, base = state.list_suggestions(args.get("path"), args.get("query"))
        return text.suggestions_report(node, listing, base)
    if verb == "editArray":
        report = state.edit_array(
            args.get("path"),
            args.get("action"),
            args.get("index"),
            args.get("value", UNSET),
            key=args.get("key"),
            new_key=args.get("newKey"),
        )
        return text.array_report(state, report)
    raise DeskcheckError(f"unknown form verb {verb!r}")


def form_tools(
    open_state: StateOpener,
    *,
    prefix: str = "form",
    title: str = "form",
    parameters: Mapping[str, dict[str, Any]] | None = None,
    required_parameters: Sequence[str] = (),
) -> list[Tool]:
    """The six tools, named ``<prefix>_<verb>`` (just ``<verb>`` when the prefix is empty)."""
    parameters = dict(parameters or {})
    tools = []
    for verb, (description, own, own_required, hints) in _own_schemas(title).items():
        clash = set(parameters) & set(own)
        if clash:
            raise ValueError(f"host parameters {sorted(clash)} clash with the arguments of {verb}")
        schema = {
            "type": "object",
            "properties": {**parameters, **own},
            "required": [*required_parameters, *own_required],
            "additionalProperties": False,
        }
        tools.append(
            Tool(
                name=f"{prefix}_{verb}" if prefix else verb,
                description=description,
                input_schema=schema,
                execute=_executor(verb, open_state, parameters, own),
                annotations=hints,
                title=VERB_TITLES.get(verb),
                output_schema=GET_DATA_OUTPUT if verb == "getData" else TEXT_OUTPUT,
            )
        )
    return tools


def _executor(verb: str, open_state: StateOpener, parameters: dict[str, Any], own: dict[str, Any]):
    def execute(args: dict[str, Any]) -> str:
        host_args = {name: args[name] for name in parameters if name in args}
        tool_args = {name: value for name, value in args.items() if name not in parameters}
        unknown = set(tool_args) - set(own)
        if unknown:
            raise unknown_arguments_error(verb, unknown, [*parameters, *own])
        with open_state(host_args) as state:
            return _run(verb, state, tool_args)

    return execute


def form_toolset(
    state: FormState,
    *,
    prefix: str = "form",
    title: str = "form",
    extra_tools: Sequence[Tool] = (),
    extra_guide_sections: Sequence[str] = (),
) -> ToolSet:
    """The tools over one in-memory state, with the fill-form guide as instructions."""

    @contextlib.contextmanager
    def open_state(_args: dict[str, Any]) -> Iterator[FormState]:
        yield state

    tools = [*form_tools(open_state, prefix=prefix, title=title), *extra_tools]
    guide = fill_form_guide(title, prefix, agent_guide=state.form.agent_guide, extra_sections=extra_guide_sections)
    return ToolSet("form", tools, instructions=guide)
