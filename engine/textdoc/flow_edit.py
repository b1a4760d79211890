"""Adding and removing members of a bracketed collection: every JSON object and array, and YAML's
flow ``{...}`` / ``[...]``.

Two shapes are handled in place. *One member per line* (pretty-printed JSON): a removed member
takes its lines, comma and same-line comment with it; an added one is a new line indented like
its neighbours; commas are moved so that only the last member lacks one (or, in a file that
puts a comma after the last member too, none does). *Anything else* (``[1, 2, 3]``, wrapped
lists): the text between the brackets is rebuilt from the kept members' own text, the
separators the file used between them, and the new members.
"""

from __future__ import annotations

import re

from .layout import first_on_line, line_end, line_start
from .nodes import Mapping, Sequence
from .splices import Splice, apply_splices

# What may follow a member on its line in the one-per-line shape: a comma and a comment.
LINE_TAIL = re.compile(r"[ \t]*(,)?[ \t]*(//.*|#.*|/\*.*\*/[ \t]*)?\r?$")


class Member:
    """A member's text span: from its key (or value) to the end of its value."""

    __slots__ = ("end", "start")

    def __init__(self, start: int, end: int) -> None:
        self.start, self.end = start, end


def change_flow(
    text: str,
    node: Mapping | Sequence,
    members: list[Member],
    removed: set[int],
    inserted: list[tuple[int, str]],
    children: list[Splice],
    newline: str,
    default_comma: str,
) -> list[Splice]:
    """Splices that remove the members numbered in ``removed`` and add each ``(after, text)``
    of ``inserted`` after member ``after`` (-1: first). ``children`` are the splices already
    planned inside kept members; they are part of the result. Line breaks in the new texts
    become ``newline``."""
    open_, close = node.open, node.close
    if newline != "\n":
        inserted = [(after, new.replace("\n", newline)) for after, new in inserted]
    # The members in their new order: ("old", index) or ("new", index into ``inserted``).
    final: list[tuple[str, int]] = []
    for after in range(-1, len(members)):
        if after >= 0 and after not in removed:
            final.append(("old", after))
        final.extend(("new", k) for k, (at, _) in enumerate(inserted) if at == after)
    if not final:
        return [Splice(open_ + 1, close, "")]
    if one_per_line(text, close, members):
        return children + _line_splices(text, members, removed, inserted, final, newline)
    return [_rebuild(text, open_, close, members, final, inserted, children, default_comma)]


def one_per_line(text: str, close: int, members: list[Member]) -> bool:
    if "\n" not in text[members[0].start : close]:
        return False
    for member in members:
        if not first_on_line(text, member.start):
            return False
        if not LINE_TAIL.fullmatch(text, member.end, line_end(text, member.end)):
            return False
    return line_end(text, members[-1].end) < close


def comma_after(text: str, member: Member) -> int | None:
    match = LINE_TAIL.fullmatch(text, member.end, line_end(text, member.end))
    return match.start(1) if match and match.group(1) else None


def next_line(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def _line_splices(
    text: str,
    members: list[Member],
    removed: set[int],
    inserted: list[tuple[int, str]],
    final: list[tuple[str, int]],
    newline: str,
) -> list[Splice]:
    trailing = comma_after(text, members[-1]) is not None  # the file puts a comma after the last one too
    pad = text[line_start(text, members[0].start) : members[0].start]
    last = final[-1]
    splices = []
    for index, member in enumerate(members):
        if index in removed:
            splices.append(Splice(line_start(text, member.start), next_line(text, member.end), ""))
            continue
        comma = comma_after(text, member)
        wants = ("old", index) != last or trailing
        if wants and comma is None:
            splices.append(Splice(member.end, member.end, ","))
        elif not wants and comma is not None:
            splices.append(Splice(comma, comma + 1, ""))
    for k, (after, new) in enumerate(inserted):
        at = line_start(text, members[0].start) if after < 0 else next_line(text, members[after].end)
        comma = "," if ("new", k) != last or trailing else ""
        splices.append(Splice(at, at, pad + new + comma + newline))
    return splices


def _rebuild(
    text: str,
    open_: int,
    close: int,
    members: list[Member],
    final: list[tuple[str, int]],
    inserted: list[tuple[int, str]],
    children: list[Splice],
    default_comma: str,
) -> Splice:
    def own(index: int) -> str:
        member = members[index]
        inside = [s for s in children if member.start <= s.start and s.end <= member.end]
        return apply_splices(text, inside, member.start, member.end)

    separators = [text[members[i].end : members[i + 1].start] for i in range(len(members) - 1)]
    comma = separators[0] if separators and "#" not in separators[0] and "/" not in separators[0] else default_comma
    lead = text[open_ + 1 : members[0].start]
    tail = text[members[-1].end : close]
    out = [lead]
    for position, (kind, index) in enumerate(final):
        if position:
            before_kind, before = final[position - 1]
            adjacent = kind == before_kind == "old" and index == before + 1
            out.append(separators[before] if adjacent else comma)
        out.append(own(index) if kind == "old" else inserted[index][1])
    out.append(tail)
    return Splice(open_ + 1, close, "".join(out))
