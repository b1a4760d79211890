"""The one tool protocol shared by the docx, form and OpenAPI families.

A ``Tool`` is data plus one function: a name, a description, an input JSON Schema, annotations
(hints for a host about side effects) and ``execute(args)``. Executing goes through ``run_tool``,
the only place where an exception becomes a result, so a bad argument or a failed request
always comes back as ``ToolResult(ok=False, error=...)`` and never as a raise; each execution gets
its own time budget for a schema's expressions and patterns (``engine.budget``).

A ``ToolSet`` is what a family hands to the CLI, the REPL or a host: the tools of one context
(one .docx file, one OpenAPI document, one form), looked up by name, plus optional instructions.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .budget import call_budget
from .errors import DeskcheckError, InputError, UnknownToolError
from .json_text import check_shape

JSON = Any


@dataclass(frozen=True)
class ToolAnnotations:
    """Hints for a host, in the vocabulary MCP uses (readOnlyHint, destructiveHint, ...)."""

    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False

    def as_mcp(self) -> dict[str, bool]:
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


READ_ONLY = ToolAnnotations(read_only=True, idempotent=True)

# The output schema of a tool that answers plain text (a form's state, an API's rendered answer):
# hosts that take structured results get it as {"text": ...}.
TEXT_OUTPUT: Mapping[str, JSON] = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "The answer, as text for the model to read."}},
    "required": ["text"],
}


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one tool call.

    ``value`` is the tool's JSON result (docx and plain OpenAPI tools may return structures,
    form tools return text). ``error`` is a plain-language message the caller can act on.
    ``code`` is an optional machine tag; ``input_error`` marks failures of the input itself
    (missing file, not a docx, unknown tool), which the CLI answers with exit code 2.
    """

    ok: bool
    value: JSON = None
    error: str | None = None
    code: str | None = None
    input_error: bool = False

    def envelope(self) -> dict[str, JSON]:
        """The contract's JSON envelope: exactly ``ok`` and ``result`` or ``error``."""
        if self.ok:
            return {"ok": True, "result": self.value}
        return {"ok": False, "error": self.error}


def ok(value: JSON = None) -> ToolResult:
    return ToolResult(ok=True, value=value)


def fail(message: str, *, code: str | None = None, input_error: bool = False) -> ToolResult:
    return ToolResult(ok=False, error=message, code=code, input_error=input_error)


Executor = Callable[[dict[str, JSON]], "ToolResult | JSON"]


@dataclass(frozen=True)
class Tool:
    """One tool. ``execute`` receives the arguments as a dict and returns either a
    ``ToolResult`` or a plain JSON value (taken as success); it signals an expected failure by
    returning ``fail(...)`` or raising ``DeskcheckError``."""

    name: str
    description: str
    input_schema: Mapping[str, JSON]
    execute: Executor = field(repr=False, compare=False)
    annotations: ToolAnnotations = ToolAnnotations()
    title: str | None = None
    # The JSON Schema of ``structured(value)`` for a successful result (MCP's outputSchema).
    output_schema: Mapping[str, JSON] = field(default_factory=lambda: TEXT_OUTPUT, compare=False)

    def definition(self) -> dict[str, JSON]:
        """The provider-neutral definition (our own JSON shape; see ``providers`` for others)."""
        out: dict[str, JSON] = {"name": self.name}
        if self.title:
            out["title"] = self.title
        out["description"] = self.description
        out["inputSchema"] = dict(self.input_schema)
        out["annotations"] = self.annotations.as_mcp()
        out["outputSchema"] = dict(self.output_schema)
        return out

    def structured(self, value: JSON) -> dict[str, JSON]:
        """A successful result as the object ``output_schema`` describes: an object as it is,
        text as ``{"text": ...}`` unless the schema describes the JSON object the text holds
        (a form's getData)."""
        return structured_result(self.output_schema, value)


def structured_result(schema: Mapping[str, JSON], value: JSON) -> dict[str, JSON]:
    """``value`` as an object valid against ``schema`` (see ``Tool.structured``)."""
    if isinstance(value, dict):
        return value
    text_answer = "text" in (schema.get("required") or ())
    if isinstance(value, str) and not text_answer:
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False)
    return {"text": value}


def run_tool(tool: Tool, args: JSON) -> ToolResult:
    """Execute ``tool`` with ``args``. The only catch-all in deskcheck: whatever happens inside,
    the caller gets a ``ToolResult``."""
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return fail(
            f"{tool.name}: arguments must be a JSON object, not {json_type_name(args)}; "
            "pass {} when the tool needs no arguments."
        )
    try:
        check_shape(args, f"{tool.name}'s arguments", text=True, numbers=True)
        with call_budget():
            outcome = tool.execute(args)
    except InputError as exc:
        return fail(exc.message, code=exc.code, input_error=True)
    except DeskcheckError as exc:
        return fail(exc.message, code=exc.code)
    except RecursionError:
        return fail(f"{tool.name}: the input is nested too deeply to process.", code="tooDeep")
    except MemoryError:
        return fail(
            f"{tool.name} ran out of memory on this input; nothing was written. Try a smaller part (a page of "
            "blocks, one section), or the command line on a machine with more memory.",
            code="outOfMemory",
        )
    except Exception as exc:  # the one boundary where a surprise becomes a result
        return fail(
            f"{tool.name} failed unexpectedly ({type(exc).__name__}: {exc}). "
            "This is a bug in deskcheck; please report it with the arguments you used.",
            code="internalError",
        )
    if isinstance(outcome, ToolResult):
        return outcome
    return ok(outcome)


def json_type_name(value: JSON) -> str:
    """The JSON name of a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class ToolSet:
    """The tools of one context, by name.

    ``unsupported`` maps names a caller may reasonably try (for example a live-editor tool of the
    reference system) to a sentence explaining why this context cannot do it; such names are
    callable, fail with that sentence, and are never exported.
    """

    def __init__(
        self,
        family: str,
        tools: Iterable[Tool],
        *,
        instructions: str = "",
        unsupported: Mapping[str, str] | None = None,
    ) -> None:
        self.family = family
        self.instructions = instructions
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"duplicate tool name {tool.name!r} in the {family} tools")
            self._tools[tool.name] = tool
        self._unsupported = dict(unsupported or {})

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    @property
    def unsupported(self) -> dict[str, str]:
        """The callable-but-unsupported names and their explanations (a copy)."""
        return dict(self._unsupported)

    def get(self, name: str) -> Tool:
        """The tool called ``name``; raises ``UnknownToolError`` naming close matches."""
        try:
            return self._tools[name]
        except KeyError:
            raise UnknownToolError(self.unknown_tool_message(name), code="unknownTool") from None

    def unknown_tool_message(self, name: str) -> str:
        return unknown_tool_message(name, self.family, self.names)

    def call(self, name: str, args: JSON) -> ToolResult:
        """Run one tool by name. An unknown name is an input error; an unsupported one a
        tool error carrying the explanation."""
        if not isinstance(name, str) or not name:
            return fail("the tool name must be a non-empty string.", code="unknownTool", input_error=True)
        if name in self._unsupported and name not in self._tools:
            return fail(self._unsupported[name], code="unsupportedTool")
        try:
            tool = self.get(name)
        except UnknownToolError as exc:
            return fail(exc.message, code=exc.code, input_error=True)
        return run_tool(tool, args)

    def definitions(self) -> list[dict[str, JSON]]:
        return [tool.definition() for tool in self._tools.values()]


def unknown_tool_message(name: str, family: str, names: list[str]) -> str:
    """Why ``name`` cannot be called in a context of ``family`` offering ``names``: the close
    matches, then every name."""
    if not names:
        return f"unknown tool {name!r}: the {family} context offers no tools."
    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    return f"unknown tool {name!r} for {family}.{hint} Available tools: {', '.join(names)}."


def unknown_arguments_error(tool: str, unknown: Iterable[str], accepted: Iterable[str]) -> InputError:
    """The error for argument keys ``tool`` does not take: bad input (exit 2 at the CLI), naming
    the close matches among ``accepted`` (``maxBlock``: did you mean ``maxBlocks``?) and every
    accepted key."""
    from .close_matches import did_you_mean

    unknown, accepted = sorted(unknown), list(accepted)
    hints = [did_you_mean(key, accepted).strip() for key in unknown]
    hint = " ".join(hint for hint in hints if hint)
    listed = ", ".join(accepted) if accepted else "no arguments"
    return InputError(
        f"{tool} does not take {', '.join(unknown)}.{' ' + hint if hint else ''} It accepts {listed}.",
        code="unknownArgument",
    )


def check_arguments(schema: Mapping[str, JSON], args: JSON, *, where: str = "arguments") -> str | None:
    """Validate ``args`` against a JSON Schema; return one plain message for the first error, or
    None when valid. Patterns are tested within bounds (``engine.forms.patterns``): a schema's
    regular expression cannot make a call hang. The validator is imported here, not at start-up."""
    from .forms.schema.validation import bounded_validator

    _, validator = bounded_validator(dict(schema))
    error = next(iter(validator.iter_errors(args)), None)
    if error is None:
        return None
    location = where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.instance_path)
    return f"{location}: {error.message}"
