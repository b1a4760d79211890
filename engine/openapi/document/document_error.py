"""The error for a document that does not parse, shared by the JSON and YAML readers (``source``,
``yaml_source``) so that neither imports the other for it."""

from __future__ import annotations

from ...errors import InputError


class DocumentError(InputError):
    """A document that does not parse, with the line and column where reading stopped (when known)."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
