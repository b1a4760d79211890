"""Progress of long work, told to whoever listens: the engine names its phases (reading a package,
aligning two versions, writing tracked changes...) and counts their steps; a host decides whether
and how to show them (the CLI draws them on a terminal's stderr). The engine never prints.

    with progress.phase("comparing paragraphs", total=len(events)) as step:
        for event in events:
            ...
            step.advance()

Nobody listens by default, and then a phase costs a context-variable read and ``advance`` an
attribute test. A host listens for the length of a call with ``listening(listener)``.

Every phase boundary and every step is also a checkpoint where a host may stop the work: a
listener that raises ``Cancelled`` from ``begin`` or ``advance`` unwinds the call there (before a
"writing" phase begins, so a stopped edit writes nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Cancelled(BaseException):
    """Raised at a checkpoint when the host stopped the call. A ``BaseException``, so that the
    tool protocol's catch-all (``engine.tools.run_tool``) does not turn it into a result."""


class Listener(Protocol):
    """What a host implements to follow the work; ``begin`` returns a handle for the others."""

    def begin(self, label: str, total: int | None) -> Any: ...

    def advance(self, handle: Any, amount: int) -> None: ...

    def end(self, handle: Any) -> None: ...


_LISTENER: ContextVar[Listener | None] = ContextVar("deskcheck_progress_listener", default=None)


class Phase:
    """A running phase: ``advance`` counts its steps (a no-op when nobody listens)."""

    __slots__ = ("_handle", "_listener")

    def __init__(self, listener: Listener | None, handle: Any) -> None:
        self._listener = listener
        self._handle = handle

    def advance(self, amount: int = 1) -> None:
        if self._listener is not None:
            self._listener.advance(self._handle, amount)


_SILENT = Phase(None, None)


@contextmanager
def phase(label: str, total: int | None = None) -> Iterator[Phase]:
    """A phase of work named ``label`` (lower case, what is being done: "reading a.docx"), of
    ``total`` steps when they can be counted."""
    listener = _LISTENER.get()
    if listener is None:
        yield _SILENT
        return
    handle = listener.begin(label, total)
    try:
        yield Phase(listener, handle)
    finally:
        listener.end(handle)


def each(items: Sequence[T], label: str, item_label: Callable[[T], str] | None = None) -> Iterator[T]:
    """``items`` one by one, as a phase counting them (each item a phase of its own, named by
    ``item_label``, while the loop's body works on it)."""
    with phase(label, total=len(items)) as step:
        for item in items:
            if item_label is None:
                yield item
            else:
                with phase(item_label(item)):
                    yield item
            step.advance()


@contextmanager
def listening(listener: Listener | None) -> Iterator[None]:
    """Tell ``listener`` about the phases run inside the block (None: nobody)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
