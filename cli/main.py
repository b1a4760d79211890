"""The console-script entry point.

Start-up cost matters for a tool scripts call hundreds of times: ``--version`` answers before
Typer is imported, a form tool verb's plain line is run without Typer (``cli.form_line``), and
nothing heavy (lxml, httpx, jsonschema, yaml, prompt_toolkit) is imported until a command needs it.
"""

from __future__ import annotations

import sys

# Flags that apply to every command, accepted anywhere before a literal "--".
_GLOBAL_FLAGS = {"--json": "json", "--quiet": "quiet", "--no-color": "no_color"}


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
    if argv == ["--version"]:
        from deskcheck.engine import __version__

        print(f"deskcheck {__version__}")
        return 0
    from .env import GlobalFlags, set_global_flags

    set_global_flags(GlobalFlags(**flags))

    from .env import current_env
    from .errors import UsageError
    from .output.emit import emit_usage_error

    try:
        if argv[:1] == ["form"]:
            # A form tool verb's plain line is read without Typer (see cli.form_line).
            from .form_line import read_form_line, run_form_line

            line = read_form_line(argv)
            if line is not None:
                code = run_form_line(line)
                if ends_process:
                    # What is left is garbage for the exit. Python's cycle collector would walk
                    # every object the call imported or built several times over while the
                    # interpreter shuts down (10-20 ms); frozen objects are skipped. The call
                    # closed its session store itself, so nothing waits on the collector.
                    import gc

                    gc.freeze()
                return code
        from .app import app

        app(args=argv, prog_name="deskcheck", standalone_mode=True)
    except SystemExit as exc:
        return _exit_status(exc.code)
    except UsageError as exc:
        return int(emit_usage_error(current_env(), exc.message))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


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
