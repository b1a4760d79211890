"""Names a package exports without importing their modules until first use.

A family's ``__init__`` lists what it offers; importing the package must stay cheap (the CLI
imports packages on paths that never use most of their names), so each name's module is
imported when the name is first read and the value is then kept in the package.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_exports(
    package: str, exports: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose ``namespace`` (its ``globals()``)
    gets each name of ``exports`` (name -> submodule, relative to the package) on first use."""

    def get(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def listing() -> list[str]:
        return sorted([*namespace, *exports])

    return get, listing
