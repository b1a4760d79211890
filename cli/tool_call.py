"""Running one tool of a context and printing its envelope: the work of ``deskcheck call`` and of
every docx verb, whichever reader (Typer, ``cli.plain_line``) read the command line. Typer-free,
so that a plain line never imports it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .context import ContextOptions


def call_tool(tool: str, args: str | None, context: ContextOptions) -> int:
    """Run ``tool`` with ``args`` (inline JSON, @file or -) in ``context``, print the result and
    return the exit code."""
    from deskcheck.engine import progress

    from .args import read_args
    from .context import open_toolset, preflight
    from .env import current_env
    from .output.emit import emit_result

    env = current_env()
    arguments = read_args(args, env.stdin)
    preflight(context)
    view = text_view(context.family, tool)
    sent = arguments
    if view == "docx:compare_versions" and not env.json_output and "format" not in arguments:
        # A person sees the comparison drawn as `docx compare` draws it, from its structured form.
        sent = {**arguments, "format": "json"}
    with progress.phase(f"running {tool}"):
        result = open_toolset(context).call(tool, sent)
    return int(emit_result(env, result, view, arguments))


# The form tools' verbs, as the end of a tool's name (form_setFieldValue, GROUP_getData).
_FORM_VERBS = ("getData", "setData", "describeState", "setFieldValue", "getFieldSuggestions", "editArray",
               "saveForm", "reloadForm")  # fmt: skip


def text_view(family: str, tool: str) -> str:
    """The view a tool's result is shown with on a terminal: docx tools answer JSON that their
    family's views draw; form tools answer text, coloured by ``render.forms``; an API tool answers
    Markdown (tables, key/value lines), drawn by ``render.markdown``."""
    if family == "docx":
        return f"docx:{tool}"
    verb = tool.rsplit("_", 1)[-1]
    if verb in _FORM_VERBS:
        return "form:getData" if verb == "getData" else "form:text"
    return "markdown:text"
