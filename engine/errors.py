"""Expected failures, raised inside the engine and folded into tool results by ``run_tool``."""

from __future__ import annotations


class DeskcheckError(Exception):
    """A failure the user can act on. The message says what is wrong and what to do next.

    ``code`` is an optional machine-readable tag for in-process callers (never printed in the
    CLI envelope, which keeps exactly the contract's keys).
    """

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message


class InputError(DeskcheckError):
    """The input itself is unusable: a missing file, a file that is not a Word document, an
    OpenAPI document that does not parse. The CLI answers these with exit code 2."""


class UnknownToolError(InputError):
    """A tool name that the chosen family does not have."""
