"""The console-script entry point.

Start-up cost matters for a tool scripts call hundreds of times: ``--version`` answers before
Typer is imported, a form or docx tool verb's plain line is run without Typer
(``cli.plain_line``), and nothing heavy (lxml, httpx, jsonschema, yaml, prompt_toolkit) is
imported until a command needs it.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

# Commands that export a foreign format: their stdout holds that format or nothing (errors go to
# stderr), whatever the global flags say.
EXPORTERS = {("docx", "tools"), ("openapi", "tools")}
# Flags that apply to every command, accepted anywhere before a literal "--".
_GLOBAL_FLAGS = {"--json": "json", "--quiet": "quiet", "--no-color": "no_color", "--no-pager": "no_pager"}


def split_global_flags(argv: list[str]) -> tuple[dict[str, bool], list[str]]:
    """The global flags found in ``argv`` (as ``GlobalFlags`` keywords) and the other arguments."""
    found: dict[str, bool] = {}
    rest: list[str] = []
    for index, arg in enumerate(argv):
        if arg == "--":
            rest.extend(argv[index:])
            break
        if arg in _GLOBAL_FLAGS:
            found[_GLOBAL_FLAGS[arg]] = True
        else:
            rest.append(arg)
    return found, rest


def run(argv: list[str] | None = None, *, ends_process: bool = False) -> int:
    """Run the CLI with ``argv`` (default: the process arguments) and return the exit code.
    ``ends_process``: the process exits right after (the console script), nothing else runs in it."""
    argv = list(sys.argv[1:] if argv is None else argv)
    flags, argv = split_global_flags(argv)
    if argv in (["--version"], ["-V"]):
        from deskcheck.engine import __version__

        print(f"deskcheck {__version__}")
        return 0
    from .env import GlobalFlags, set_global_flags

    set_global_flags(GlobalFlags(**flags))
    if argv[:1] == ["help"]:  # `deskcheck help docx compare` is `deskcheck docx compare --help`
        argv = [*argv[1:], "--help"]

    from deskcheck.engine.errors import DeskcheckError

    from .env import current_env
    from .errors import UsageError
    from .output.emit import emit_usage_error

    cleanup = contextlib.ExitStack()
    cleanup.enter_context(_progress(flags))
    try:
        plain = _plain_line(argv)
        if plain is not None:
            code = plain()
            if ends_process:
                # What is left is garbage for the exit. Python's cycle collector would walk every
                # object the call imported or built several times over while the interpreter
                # shuts down (10-40 ms); frozen objects are skipped. The verbs close what they
                # open (session store, written files) themselves, so nothing waits on it.
                import gc

                gc.freeze()
            return code
        from .app import app

        app(args=argv, prog_name="deskcheck", standalone_mode=True)
    except SystemExit as exc:
        return _exit_status(exc.code)
    except UsageError as exc:
        if tuple(argv[:2]) in EXPORTERS:
            from .output.emit import emit_export_error

            return int(emit_export_error(current_env(), exc.message))
        return int(emit_usage_error(current_env(), exc.message))
    except DeskcheckError as exc:  # an engine failure no command turned into a result (a damaged store)
        from deskcheck.engine.errors import InputError
        from deskcheck.engine.tools import fail

        from .output.emit import emit_result

        return int(emit_result(current_env(), fail(exc.message, input_error=isinstance(exc, InputError))))
    except RecursionError:  # a structure nested past what any command recurses through
        return int(emit_usage_error(current_env(), "the input is nested too deeply to process."))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        cleanup.close()
        _forget_store_choice()
    return 0


def _forget_store_choice() -> None:
    """``--store`` holds for one command (``run`` may be called again in the same process)."""
    chosen = sys.modules.get("deskcheck.engine.forms.sessions.store_url")
    if chosen is not None:
        chosen.choose_store(None)


def _progress(flags: dict[str, bool]) -> contextlib.AbstractContextManager:
    """Where the engine's phases go: drawn on stderr when it is a terminal (see
    ``output.progress``), nowhere otherwise (and then nothing of it is imported)."""
    import os

    from .env import isatty

    if not isatty(sys.stderr):
        return contextlib.nullcontext()
    from .output.progress import progress_on_terminal

    color = not flags.get("no_color") and "NO_COLOR" not in os.environ
    return progress_on_terminal(quiet=bool(flags.get("quiet")), color=color)


def _plain_line(argv: list[str]) -> Callable[[], int] | None:
    """A form tool verb's or a docx tool's plain line, read without Typer (see
    ``cli.plain_line``), as the call that runs it; None for any other line."""
    if argv[:1] == ["form"]:
        from .form_line import read_form_line, run_form_line

        form = read_form_line(argv)
        return None if form is None else lambda: run_form_line(form)
    if argv[:1] in (["docx"], ["call"]):
        from .docx_line import read_docx_line, run_docx_line

        docx = read_docx_line(argv)
        return None if docx is None else lambda: run_docx_line(docx)
    return None


def main() -> None:
    try:
        code = run(ends_process=True)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`deskcheck ... | head`): not an error worth a traceback.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


def _exit_status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
