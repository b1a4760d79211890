"""What is wrong with an annotated OpenAPI document, as data.

Every stage of loading (vocabulary, profiles, operations, inputs, editor groups, references)
reports ``Problem`` values into a ``Problems`` collector instead of stopping at the first one, so
``openapi check`` can list them all and ``load`` can refuse with the whole list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...errors import InputError
from .text import printable

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One finding about the document. ``pointer`` is a JSON pointer into the raw document (the
    most precise place we know); ``rule`` is a stable machine name (``x-agent-invalid``, …)."""

    rule: str
    message: str
    pointer: str = ""
    severity: str = ERROR

    def __post_init__(self) -> None:
        # Messages quote the document (names, keys, values); a line break or an escape sequence
        # in one must not reach a terminal or a CI log as such, in any format.
        object.__setattr__(self, "message", printable(self.message))


class Problems:
    """An ordered collection of problems without duplicates."""

    def __init__(self) -> None:
        self._items: dict[tuple[str, str, str, str], Problem] = {}

    def add(self, rule: str, message: str, pointer: str = "", severity: str = ERROR) -> None:
        problem = Problem(rule, message, pointer, severity)
        self._items.setdefault((rule, message, pointer, severity), problem)

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self._items.setdefault((problem.rule, problem.message, problem.pointer, problem.severity), problem)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self._items.values() if p.severity == ERROR]

    def raise_if_errors(self, source: str) -> None:
        errors = self.errors
        if errors:
            raise SpecLoadError(source, errors)


class SpecLoadError(InputError):
    """The document cannot be turned into tools. Carries every error found, not just the first."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.problems = problems
        count = len(problems)
        lines = [f"  - {p.message}" for p in problems[:20]]
        if count > 20:
            lines.append(f"  … and {count - 20} more")
        noun = "problem" if count == 1 else "problems"
        source = printable(source)
        message = (
            f"{source} cannot be loaded as tools ({count} {noun}):\n"
            + "\n".join(lines)
            + f"\nRun `deskcheck openapi check {source}` to see each one with its line."
        )
        super().__init__(message, code="specInvalid")


class SpecUsageError(InputError):
    """A load option that does not fit the document (an undeclared profile, no profile at all)."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))  # it names profiles the document declares
