"""The REPL itself: a ``Shell`` that runs one line at a time against a mode (``FormMode`` or
``ReviewMode``), and the two ways to feed it: an interactive prompt (prompt_toolkit: completion,
fish-style suggestions from the history, a persistent history, a bottom toolbar, highlighting)
or a script (lines from a file or a pipe, stopping at the first failing command).

The shell handles the commands every mode has (help, call, tools, status, quit); the others
are ``do_<name>`` methods of the mode. After each command the mode refreshes the ``ReplState``
(toolbar) and the completion candidates, so the completer only reads plain data.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deskcheck.engine.errors import DeskcheckError

from ..errors import UsageError
from ..exit import ExitCode
from . import commands, parse
from .render import Printer
from .suggest import Candidate, Catalog

# A line longer than this is refused (a pasted document, most likely).
MAX_LINE_CHARS = 1_000_000


class Shell:
    def __init__(self, mode: Any, printer: Printer) -> None:
        self.mode = mode
        self.printer = printer
        self.commands = commands.table(mode.kind)
        self.catalog = Catalog([c.info() for c in self.commands])
        self.leaving = False

    @property
    def state(self):
        return self.mode.state

    def refresh(self) -> None:
        self.mode.refresh()
        values, dependent = self.mode.completion_values()
        tools = self.mode.call_tools()
        values["tool"] = [tool_candidate(tool) for tool in tools]
        self.catalog = Catalog(self.catalog.commands, values, dependent)

    def run_line(self, line: str) -> ExitCode:
        """Run one command line; returns its exit code (blank lines and # comments do nothing)."""
        text = line.strip()
        if not text or text.startswith("#"):
            return ExitCode.OK
        if len(text) > MAX_LINE_CHARS:
            self.printer.error(f"the line is longer than {MAX_LINE_CHARS:,} characters; nothing was run.")
            return ExitCode.USAGE
        name, rest = parse.split_first(text)
        command = commands.lookup(self.commands, name)
        if command is None:
            close = difflib.get_close_matches(name, [c.name for c in self.commands], n=3)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            self.printer.error(f"unknown command {name!r}.{hint} `help` lists the commands.")
            return ExitCode.USAGE
        handler = getattr(self, f"do_{command.name}", None) or getattr(self.mode, f"do_{command.name}")
        try:
            code = handler(rest)
        except UsageError as exc:
            self.printer.error(exc.message)
            code = ExitCode.USAGE
        except DeskcheckError as exc:
            self.printer.error(exc.message)
            code = ExitCode.TOOL_ERROR
        except KeyboardInterrupt:
            self.printer.error("interrupted; what the command had done so far stays as it is.")
            code = ExitCode.TOOL_ERROR
        except Exception as exc:  # the REPL's boundary: a bug in one command must not end a session
            self.printer.error(
                f"{command.name} failed unexpectedly ({type(exc).__name__}: {exc}). This is a bug in deskcheck; "
                "please report it with the command you typed. The session is unchanged by this command."
            )
            code = ExitCode.TOOL_ERROR
        self.refresh()
        return code

    # -- the common commands ----------------------------------------------------------------------

    def do_help(self, rest: str) -> ExitCode:
        name = rest.strip()
        if not name:
            width = max(len(c.usage) for c in self.commands)
            for command in self.commands:
                self.printer.print(f"  {command.usage:<{width}}  {command.summary}")
            self.printer.note("`help COMMAND` explains one. Tab completes; Ctrl-C cancels the line; Ctrl-D leaves.")
            return ExitCode.OK
        command = commands.lookup(self.commands, name)
        if command is None:
            raise UsageError(f"no command {name!r}; `help` lists them.")
        self.printer.print(command.usage, style="bold")
        self.printer.print(command.summary)
        if command.details:
            self.printer.print(command.details)
        if command.aliases:
            self.printer.note(f"Also: {', '.join(command.aliases)}")
        return ExitCode.OK

    def do_call(self, rest: str) -> ExitCode:
        from ..output.emit import exit_code_for

        tool, json_text = parse.split_first(rest)
        if not tool:
            raise UsageError("usage: call TOOL [JSON] (`tools` lists the tools)")
        args = parse.json_object(json_text, "the tool's arguments")
        result = self.mode.call_tools().call(tool, self.mode.call_arguments(tool, args))
        self.printer.envelope(result)
        return exit_code_for(result)

    def do_tools(self, rest: str) -> ExitCode:
        from deskcheck.engine.providers import export_tools

        from ..render.tools import tools_table

        self.printer.view([tools_table(export_tools(self.mode.call_tools(), "json"))])
        return ExitCode.OK

    def do_status(self, rest: str) -> ExitCode:
        self.printer.print(self.state.summary())
        return ExitCode.OK

    def do_quit(self, rest: str) -> ExitCode:
        self.leaving = True
        return ExitCode.OK


def tool_candidate(tool) -> Candidate:
    """A tool for `call`'s completion, described by its first sentence."""
    return Candidate(tool.name, tool.description.split(". ")[0][:70])


# -- feeding the shell ---------------------------------------------------------------------------------


def run_script(shell: Shell, lines: Iterable[str]) -> ExitCode:
    """Run ``lines`` in order; stop at the first failing command with its exit code. A script
    that ends with operations not applied fails too (they would be dropped)."""
    shell.refresh()
    for number, line in enumerate(lines, start=1):
        code = shell.run_line(line)
        if code != ExitCode.OK:
            shell.printer.error(f"line {number} failed: {line.strip()}")
            return code
        if shell.leaving:
            break
    return ExitCode.OK if shell.mode.leave(None) else ExitCode.TOOL_ERROR


def run_interactive(
    shell: Shell,
    *,
    history_path: Path | None,
    color: bool,
    input: Any = None,
    output: Any = None,
) -> ExitCode:
    """The prompt loop, until quit or Ctrl-D (asking before a pending batch is dropped)."""
    session = build_prompt_session(shell, history_path=history_path, color=color, input=input, output=output)

    def ask(question: str) -> bool:
        from prompt_toolkit import PromptSession

        try:
            answer = PromptSession(input=input, output=output).prompt(question)
        except (EOFError, KeyboardInterrupt):
            return False
        return answer.strip().lower() in ("y", "yes")

    shell.refresh()
    while True:
        try:
            line = session.prompt()
        except KeyboardInterrupt:
            continue  # Ctrl-C drops the line being typed
        except EOFError:
            if shell.mode.leave(ask):
                return ExitCode.OK
            continue
        shell.run_line(line)
        if shell.leaving:
            shell.leaving = False
            if shell.mode.leave(ask):
                return ExitCode.OK


def build_prompt_session(
    shell: Shell, *, history_path: Path | None, color: bool, input: Any = None, output: Any = None
):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.history import InMemoryHistory

    from .completer import ReplCompleter
    from .highlight import ReplLexer, repl_style
    from .keys import repl_bindings
    from .toolbar import create_toolbar

    history = InMemoryHistory() if history_path is None else private_file_history(history_path)
    names = frozenset(name for c in shell.commands for name in (c.name, *c.aliases))
    return PromptSession(
        message=prompt_message(shell),
        history=history,
        auto_suggest=AutoSuggestFromHistory(),
        completer=ReplCompleter(lambda: shell.catalog),
        complete_while_typing=True,
        bottom_toolbar=create_toolbar(lambda: shell.state),
        lexer=ReplLexer(names),
        style=repl_style(),
        color_depth=None if color else _monochrome(),
        key_bindings=repl_bindings(lambda word: shell.run_line(f"help {word}".strip())),
        enable_history_search=False,
        input=input,
        output=output,
    )


def _monochrome():
    from prompt_toolkit.output import ColorDepth

    return ColorDepth.MONOCHROME


def prompt_message(shell: Shell) -> Callable[[], Any]:
    def message():
        mark = "*" if shell.state.modified or shell.state.pending_ops else ""
        return [("class:prompt", f"{shell.mode.kind}{mark}> ")]

    return message


def private_file_history(path: Path):
    """The history file, readable by its owner only (lines may hold values typed into forms)."""
    import os

    from prompt_toolkit.history import FileHistory

    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.touch(mode=0o600)
    else:
        os.chmod(path, 0o600)
    return FileHistory(str(path))
