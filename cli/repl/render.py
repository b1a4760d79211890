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


class Printer:
    def __init__(self, out: TextIO, err: TextIO, *, color: bool, interactive: bool = True, pager: bool = False) -> None:
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
        self.interactive = interactive
        self.pager = pager  # a view taller than the screen goes through the pager (``output.pager``)
        self.out = console(out)
        self.err = console(err)

    def print(self, text: Any = "", style: str | None = None) -> None:
        """A line (a str is printed as it is, never read as markup)."""
        self._say(self.out, text, style)

    def _say(self, console: Any, text: Any, style: str | None, end: str = "\n") -> None:
        # Labels, values and messages come from schemas, records and APIs: no control character
        # of theirs reaches the terminal (rich passes ESC through).
        console.print(_safe(text), style=style, end=end, markup=False, highlight=False)

    def lines(self, lines: list[Any]) -> None:
        """Many lines at once (str or rich ``Text``): one rendering on a terminal, plain text
        written as it is otherwise (rich costs ~0.5 ms a line, which a 300-field `show` feels)."""
        if not lines:
            return
        lines = [_safe(line) for line in lines]
        if self.color:
            from rich.text import Text

            self.out.print(Text("\n").join(Text(x) if isinstance(x, str) else x for x in lines), markup=False)
        else:
            self.out.file.write("".join(f"{x if isinstance(x, str) else x.plain}\n" for x in lines))

    def view(self, view: list[Any]) -> None:
        """A view of ``cli.render`` (shared with the CLI and the demo), drawn at the terminal's
        width; a transcript (not a terminal) keeps every text whole."""
        from ..output.pager import show_lines
        from ..output.pretty import styler_for
        from ..render.draw import TRANSCRIPT_WIDTH, draw

        width = self.out.width if self.out.is_terminal else TRANSCRIPT_WIDTH
        lines = draw(view, width, styler_for(self.out))
        show_lines(self.out.file, lines, page=self.pager, height=self.out.height, width=self.out.width)

    def greet(self, text: str, style: str | None = None) -> None:
        """What a person at the prompt is told on arrival (what is open, how to get help); a
        script's output holds only what its commands print, so it gets none of it."""
        if self.interactive:
            self._say(self.out, text, style)

    def notice(self, text: str, style: str | None = None) -> None:
        """Something worth knowing that no command asked for (unsaved edits resumed or kept):
        shown at the prompt, on stderr for a script."""
        self._say(self.out if self.interactive else self.err, text, style)

    def note(self, text: str) -> None:
        self._say(self.out, text, "dim")

    def success(self, text: str) -> None:
        self._say(self.out, text, "green")

    def warn(self, text: str) -> None:
        self._say(self.out, text, "yellow")

    def error(self, text: str) -> None:
        self._say(self.err, "error: ", "bold red", end="")
        self._say(self.err, text, None)

    def json(self, value: Any) -> None:
        """Indented JSON, highlighted on a terminal."""
        if self.color:
            from rich.json import JSON

            self.out.print(JSON(_safe(json.dumps(value, ensure_ascii=False, default=str))))
        else:
            self._say(self.out, json.dumps(value, ensure_ascii=False, indent=2, default=str), None)

    def envelope(self, result: ToolResult) -> None:
        """The CLI's envelope of a tool call, as `deskcheck call` prints it (one JSON line;
        highlighted and indented on a terminal)."""
        from ..output.emit import outcome

        envelope = outcome(result, decode_text=False)[0]
        if self.color:
            self.json(envelope)
        else:
            self._say(self.out, dumps(envelope), None)


def _safe(text: Any) -> Any:
    """``text`` (a str or rich ``Text``) with its control characters shown as symbols."""
    from ..render.draw import safe_text

    if isinstance(text, str):
        return safe_text(text)
    plain = getattr(text, "plain", None)
    if isinstance(plain, str) and not plain.isprintable():
        text = text.copy()
        text.plain = safe_text(plain)  # one symbol a character: the styles stay where they were
    return text
