"""Where the REPL's output goes: a ``Printer`` over rich, writing results to one stream and
errors to another (the same terminal when interactive; stdout and stderr for a script).

JSON is highlighted on a terminal; with colours off (a pipe, ``NO_COLOR``, ``--no-color``) the
same text is printed plain, so a transcript can be compared line by line.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from deskcheck.engine.tools import ToolResult

from ..output.envelope import dumps

# Values printed on one line are folded past this many characters (`get` prints them whole).
FOLD_CHARS = 72


class Printer:
    def __init__(self, out: TextIO, err: TextIO, *, color: bool) -> None:
        from rich.console import Console

        def console(stream: TextIO):
            return Console(
                file=stream,
                force_terminal=color,
                no_color=not color,
                color_system="auto" if color else None,
                highlight=False,
                soft_wrap=True,
                emoji=False,
            )

        self.color = color
        self.out = console(out)
        self.err = console(err)

    def print(self, text: Any = "", style: str | None = None) -> None:
        """A line (a str is printed as it is, never read as markup)."""
        self.out.print(text, style=style, markup=False, highlight=False)

    def lines(self, lines: list[Any]) -> None:
        """Many lines at once (str or rich ``Text``): one rendering on a terminal, plain text
        written as it is otherwise (rich costs ~0.5 ms a line, which a 300-field `show` feels)."""
        if not lines:
            return
        if self.color:
            from rich.text import Text

            self.out.print(Text("\n").join(Text(x) if isinstance(x, str) else x for x in lines), markup=False)
        else:
            self.out.file.write("".join(f"{x if isinstance(x, str) else x.plain}\n" for x in lines))

    def note(self, text: str) -> None:
        self.out.print(text, style="dim", markup=False, highlight=False)

    def success(self, text: str) -> None:
        self.out.print(text, style="green", markup=False, highlight=False)

    def warn(self, text: str) -> None:
        self.out.print(text, style="yellow", markup=False, highlight=False)

    def error(self, text: str) -> None:
        self.err.print("error: ", style="bold red", end="", markup=False, highlight=False)
        self.err.print(text, markup=False, highlight=False)

    def json(self, value: Any) -> None:
        """Indented JSON, highlighted on a terminal."""
        if self.color:
            from rich.json import JSON

            self.out.print(JSON(json.dumps(value, ensure_ascii=False, default=str)))
        else:
            self.out.print(json.dumps(value, ensure_ascii=False, indent=2, default=str), markup=False, highlight=False)

    def envelope(self, result: ToolResult) -> None:
        """The CLI's envelope of a tool call, as `deskcheck call` prints it (one JSON line;
        highlighted and indented on a terminal)."""
        from ..output.emit import outcome

        envelope = outcome(result, decode_text=False)[0]
        if self.color:
            self.json(envelope)
        else:
            self.out.print(dumps(envelope), markup=False, highlight=False, soft_wrap=True)


def fold(text: str, limit: int = FOLD_CHARS) -> str:
    """``text`` cut to ``limit`` characters with a note of its full size."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} chars)"


def one_line(value: Any) -> str:
    """A JSON value on one line, folded."""
    return fold(json.dumps(value, ensure_ascii=False))
