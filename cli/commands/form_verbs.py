"""What a ``deskcheck form <verb>`` tool command does once its line is parsed, without Typer.

Both readers of the line share it: the Typer commands of ``cli.commands.form`` (help, errors,
every unusual spelling) and ``cli.form_line``, which reads the common spellings of a tool verb's
line directly so that a script calling ``deskcheck form set-field-value`` hundreds of times does
not import Typer each time.
"""

from __future__ import annotations

from ..args import read_args
from ..context import ContextOptions, open_form_group, preflight
from ..env import current_env
from ..errors import UsageError
from ..exit import ExitCode
from ..output.emit import emit_result

# The context options a form verb takes (``build_context`` keywords).
FORM_OPTIONS = (
    "spec",
    "schema",
    "data",
    "data_format",
    "yaml_version",
    "document",
    "profile",
    "base_url",
    "header",
    "token",
    "allow_host",
    "identity",
    "store",
    "timeout",
    "fill_defaults",
)

_TOOL_VERBS: dict[str, tuple[str, str]] = {}


def verb(tool_verb: str) -> str:
    """``setFieldValue`` -> ``set-field-value``."""
    return "".join(f"-{c.lower()}" if c.isupper() else c for c in tool_verb)


def _template_tools():
    """The form tools of a group over nothing, only to read their names, descriptions and input
    schemas (no source is built)."""
    from deskcheck.engine.forms.tools.session_tools import SessionGroup

    template = SessionGroup(name="form", title="record", source_for=lambda _params: None)  # type: ignore[arg-type,return-value]
    return template.tools()


def tool_schemas() -> dict[str, dict]:
    """Tool verb (``setFieldValue``) -> its input schema."""
    return {tool.name.removeprefix("form_"): dict(tool.input_schema) for tool in _template_tools()}


def tool_verbs() -> dict[str, tuple[str, str]]:
    """Command name -> (tool verb, one-line summary), in the session group's tool order:
    ``set-field-value`` -> (``setFieldValue``, ...)."""
    if not _TOOL_VERBS:
        for tool in _template_tools():
            tool_verb = tool.name.removeprefix("form_")
            first = tool.description.split(". ")[0].rstrip(".")
            first = first.replace('the "record" ', "the ").replace('"record"', "the record")
            _TOOL_VERBS[verb(tool_verb)] = (
                tool_verb,
                f"{first}. (tool form_{tool_verb}, or NAME_{tool_verb} with --spec)",
            )
    return _TOOL_VERBS


def split_positionals(context: ContextOptions, positionals: list[str] | None) -> tuple[str | None, str | None]:
    """(group name, ARGS) from the positional arguments, which depend on the context."""
    given = list(positionals or [])
    expected = 2 if context.spec is not None else 1
    if len(given) > expected:
        shape = "NAME and ARGS" if context.spec is not None else "ARGS (a JSON object, @file.json or -)"
        raise UsageError(f"unexpected argument {given[expected]!r}: give only {shape}.")
    given += [None] * (expected - len(given))  # type: ignore[list-item]
    return (given[0], given[1]) if context.spec is not None else (None, given[0])


def run_tool_verb(
    tool_verb: str, positionals: list[str] | None, context: ContextOptions, allow_invalid: bool
) -> ExitCode:
    """Run the group's tool ``tool_verb`` with the line's ARGS, print its result, return the exit code."""
    env = current_env()
    name, args = split_positionals(context, positionals)
    arguments = read_args(args, env.stdin)
    preflight(context)
    group = open_form_group(context, name, allow_invalid=allow_invalid)
    try:
        result = group.toolset().call(f"{group.name}_{tool_verb}", arguments)
        # getData answers JSON text, shown as keys and values on a terminal; the others' text coloured.
        return emit_result(env, result, "form:getData" if tool_verb == "getData" else "form:text")
    finally:
        group.close()  # now rather than whenever the collector reaches the connection's cycle
