"""Highlighting of the line being typed: the command word (known or not), the ``=>`` of a
replacement, and JSON values (objects, arrays, strings, numbers, literals) with Pygments' JSON
lexer; plus the style of the prompt, the toolbar and the completion menu."""

from __future__ import annotations

from prompt_toolkit.lexers import Lexer
from prompt_toolkit.styles import Style

from .parse import ARROW


class ReplLexer(Lexer):
    def __init__(self, command_names: frozenset[str]) -> None:
        self.command_names = command_names

    def lex_document(self, document):
        lines = document.lines

        def get_line(number: int):
            return _line_tokens(lines[number], self.command_names) if number < len(lines) else []

        return get_line


def _line_tokens(line: str, command_names: frozenset[str]) -> list[tuple[str, str]]:
    stripped = line.lstrip()
    lead = line[: len(line) - len(stripped)]
    word, _, _ = stripped.partition(" ")
    if not word:
        return [("", line)]
    style = "class:command" if word in command_names else "class:unknown-command"
    tokens: list[tuple[str, str]] = [("", lead), (style, word)]
    rest = stripped[len(word) :]
    json_start = next((i for i, c in enumerate(rest) if c in "{["), None)
    if json_start is not None:
        tokens += _plain(rest[:json_start])
        tokens += _json_tokens(rest[json_start:])
    else:
        tokens += _plain(rest)
    return tokens


def _plain(text: str) -> list[tuple[str, str]]:
    before, arrow, after = text.partition(ARROW)
    if not arrow:
        return [("", text)]
    return [("", before), ("class:arrow", arrow), ("", after)]


def _json_tokens(text: str) -> list[tuple[str, str]]:
    from pygments.lexers.data import JsonLexer
    from pygments.token import Keyword, Name, Number, String

    out = []
    for token, value in JsonLexer().get_tokens(text):
        if token in Name.Tag:
            style = "class:json.key"
        elif token in String:
            style = "class:json.string"
        elif token in Number:
            style = "class:json.number"
        elif token in Keyword:
            style = "class:json.literal"
        else:
            style = ""
        out.append((style, value))
    if out and out[-1][1].endswith("\n") and not text.endswith("\n"):
        out[-1] = (out[-1][0], out[-1][1][:-1])  # the lexer ends its output with a newline
    return out


def repl_style() -> Style:
    return Style.from_dict(
        {
            "prompt": "bold",
            "command": "bold ansiblue",
            "unknown-command": "ansired",
            "arrow": "bold ansimagenta",
            "json.key": "ansiblue",
            "json.string": "ansigreen",
            "json.number": "ansicyan",
            "json.literal": "ansiyellow",
            "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
            "bottom-toolbar.title": "noreverse bg:#303030 bold #ffffff",
            "bottom-toolbar.ok": "noreverse bg:#303030 #5fd75f",
            "bottom-toolbar.warn": "noreverse bg:#303030 bold #ffaf00",
            "bottom-toolbar.hint": "noreverse bg:#303030 #8a8a8a",
        }
    )
