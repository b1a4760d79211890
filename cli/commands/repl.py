"""``deskcheck repl``: a live form session or a docx review at a prompt (see ``cli.repl``).

Usage::

    deskcheck repl --spec SPEC NAME [KEY=VALUE...]    an editor group's record
    deskcheck repl --schema S --data F                a file-backed form session
    deskcheck repl --docx FILE                        a review of a .docx
    ... --script FILE                                 run commands from FILE (stdin when it is not a terminal)
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..context import ContextOptions
from ..env import current_env
from ..options import with_context_options
from .form_verbs import FORM_OPTIONS

# The form verbs' options, --docx, and the review options.
REPL_OPTIONS = (
    "docx",
    *FORM_OPTIONS,
    "mode",
    "table_revisions",
    "operation_types",
    "max_operations",
    "require_document_version",
    "author",
    "output",
)

PositionalArgs = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[NAME] [KEY=VALUE...]",
        help="With --spec: the editor group's name, then the record's path parameters as KEY=VALUE.",
        show_default=False,
    ),
]
ScriptOpt = Annotated[
    str | None,
    typer.Option(
        "--script",
        metavar="FILE",
        help="Run the commands in FILE (- for stdin) and exit; the exit code is the first failing command's. "
        "Without it, commands are read from stdin when stdin is not a terminal.",
        show_default=False,
    ),
]
AllowInvalidOpt = Annotated[bool, typer.Option("--allow-invalid", help="Forms: `save` sends an invalid record too.")]


@with_context_options(only=REPL_OPTIONS)
def repl(
    positionals: PositionalArgs = None,
    script: ScriptOpt = None,
    allow_invalid: AllowInvalidOpt = False,
    *,
    context: ContextOptions,
) -> None:
    """Work on a form session (--spec SPEC NAME KEY=VALUE..., or --schema S --data F) or review a .docx
    (--docx FILE) at a prompt with completion, history and a status toolbar; `help` lists the commands.
    A review edits a working copy: `save` writes the file (to -o/--output when given)."""
    from ..repl.start import run

    raise typer.Exit(run(context, positionals or [], current_env(), script=script, allow_invalid=allow_invalid))
