"""``Record`` and ``FrozenRecord``: the base of the engine's small value classes.

A subclass names its fields in ``__slots__`` and sets them in its own ``__init__``; it gets
equality and a repr by field (``FrozenRecord``: also a hash, and no assignment after
``__init__``). Why not ``dataclasses``: a dataclass compiles generated code when its class is
defined, about half a millisecond each, and a ``deskcheck form`` process defines a dozen of these
classes before it answers; a plain class costs a hundredth of that.
"""

from __future__ import annotations

from typing import Any


class Record:
    __slots__ = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable: like a dataclass, not hashable

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class FrozenRecord(Record):
    __slots__ = ()

    def _set(self, **values: Any) -> None:
        """Set the fields, in ``__init__``."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: make a new one")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._values())
