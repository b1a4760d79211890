"""What to offer at the cursor: a pure function of the line typed so far and a ``Catalog`` of
plain data (command names, field paths, block ids, comment ids, ...), tested with strings.

The first word completes to a command name. After it, each position of the command's arguments
has a kind (``ArgKinds`` of ``commands``): the catalog lists the candidates of each kind, and
some kinds depend on the word before (the variants of the selector just named, the items of the
list just named). Matching goes from strict to loose: exact-case prefix, any-case prefix (a
path may be typed without its leading slash), then, for two characters or more, the typed text
anywhere in the candidate or in its description (typing words of a paragraph offers its block id).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .parse import quote_if_needed, unquote, words

# Kinds whose candidates depend on the previous word (its value is the key).
DEPENDENT_KINDS = frozenset({"variant", "item"})
# At the end of a command's argument kinds: the last kind repeats (accept ID ID ...).
REPEAT = "..."
# Typed text this long or longer is also looked for inside candidates and their descriptions.
MIN_SUBSTRING = 2
# At most this many completions are offered at once (a document has thousands of blocks).
MAX_SUGGESTIONS = 200


class Candidate(NamedTuple):
    text: str
    meta: str = ""


class Suggestion(NamedTuple):
    """A completion: ``text`` replaces the ``-start`` characters before the cursor."""

    text: str
    start: int
    meta: str = ""
    display: str | None = None


class CommandInfo(NamedTuple):
    name: str
    summary: str
    args: tuple[str, ...] = ()


@dataclass
class Catalog:
    """The candidates of each kind, as plain data the REPL refreshes after every command."""

    commands: Sequence[CommandInfo] = ()
    values: dict[str, list[Candidate]] = field(default_factory=dict)
    # kind -> previous word -> candidates (e.g. "variant" -> "/shape/$oneOf" -> variants)
    dependent: dict[str, dict[str, list[Candidate]]] = field(default_factory=dict)

    def command(self, name: str) -> CommandInfo | None:
        return next((c for c in self.commands if c.name == name), None)

    def candidates(self, kind: str, previous: str | None) -> list[Candidate]:
        if kind in DEPENDENT_KINDS:
            return list(self.dependent.get(kind, {}).get(previous or "", []))
        if kind == "command":
            return [Candidate(c.name, c.summary) for c in self.commands]
        return list(self.values.get(kind, []))


def suggest(text_before_cursor: str, catalog: Catalog) -> list[Suggestion]:
    """The completions for the line typed so far (the cursor at its end)."""
    typed = words(text_before_cursor)
    at_word_end = bool(text_before_cursor) and not text_before_cursor[-1].isspace()
    current = typed[-1] if typed and at_word_end else ""
    before = typed[:-1] if typed and at_word_end else typed
    if not before:
        return _offer(current, catalog.candidates("command", None))
    command = catalog.command(before[0])
    if command is None:
        return []
    kind = kind_at(command.args, len(before) - 1)
    if kind is None:
        return []
    position = len(before) - 1
    previous = unquote(before[-1]) if position > 0 else None
    return _offer(current, catalog.candidates(kind, previous))


def kind_at(args: Sequence[str], position: int) -> str | None:
    """The kind of argument ``position``; a final ``...`` repeats the kind before it."""
    if args and args[-1] == REPEAT:
        args = args[:-1]
        position = min(position, len(args) - 1)
    return args[position] if position < len(args) else None


def _offer(current: str, candidates: Sequence[Candidate]) -> list[Suggestion]:
    typed = current
    if current.startswith('"'):
        # A quoted word being typed has no closing quote yet: what follows the opening one counts.
        typed = unquote(current) if len(current) > 1 and current.endswith('"') else current[1:]
    out = []
    for candidate in match(typed, candidates)[:MAX_SUGGESTIONS]:
        text = quote_if_needed(candidate.text)
        # A quoted candidate is shown as it reads, inserted as it must be typed.
        out.append(Suggestion(text, -len(current), candidate.meta, candidate.text if text != candidate.text else None))
    return out


def match(typed: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates for ``typed``, strictest rule first (see the module docstring)."""
    if not typed:
        return list(candidates)
    exact = [c for c in candidates if c.text.startswith(typed)]
    if exact:
        return exact
    folded = typed.casefold()
    bare = folded.lstrip("/")
    loose = [
        c for c in candidates if c.text.casefold().startswith(folded) or c.text.casefold().lstrip("/").startswith(bare)
    ]
    if loose or len(typed) < MIN_SUBSTRING:
        return loose
    return [c for c in candidates if folded in c.text.casefold() or folded in c.meta.casefold()]
