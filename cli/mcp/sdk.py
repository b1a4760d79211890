"""The official MCP SDK (the ``mcp`` package), imported lean.

``import mcp.server.lowlevel`` runs the package's ``__init__`` first, which imports the SDK's
client, its high-level ``MCPServer`` and everything they use: about a fifth of the SDK's import
time (0.15-0.2 s of CPU here), none of which a server that registers its handlers on the
low-level ``Server`` needs. ``load()`` therefore registers the ``mcp`` and ``mcp.server``
packages without running their ``__init__`` modules, then imports the low-level server and the
transports. Should a release need something from those ``__init__`` modules, the import fails,
the two packages are initialised as usual and the import is tried again, so the worst case is
the ordinary cost, never a broken server (``tests/mcp`` checks the lean path is the one taken).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType, SimpleNamespace

LEAN_PACKAGES = ("mcp", "mcp.server")
_loaded: SimpleNamespace | None = None


def load() -> SimpleNamespace:
    """The SDK pieces the server uses: ``Server``, ``stdio_server``, ``types`` (the protocol
    models) and ``lean`` (whether the lean path was taken)."""
    global _loaded
    if _loaded is None:
        lean = _register_packages_without_init()
        try:
            _loaded = _import(lean)
        except ImportError:
            if not lean:
                raise
            _initialise_packages()
            _loaded = _import(False)
    return _loaded


def _import(lean: bool) -> SimpleNamespace:
    import mcp_types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    return SimpleNamespace(
        Server=Server,
        stdio_server=stdio_server,
        types=mcp_types,
        lean=lean,
    )


def _register_packages_without_init() -> bool:
    """Put the two packages in ``sys.modules`` as empty package modules (their submodules import
    normally); False when they are imported already or cannot be found."""
    if any(name in sys.modules for name in LEAN_PACKAGES):
        return False
    modules: list[tuple[str, ModuleType]] = []
    for name in LEAN_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            return False
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        modules.append((name, module))
    parent, child = modules[0][1], modules[1][1]
    parent.server = child  # type: ignore[attr-defined]
    return True


def _initialise_packages() -> None:
    """Run the ``__init__`` modules skipped by the lean path (into the same module objects)."""
    for name in LEAN_PACKAGES:
        module = sys.modules[name]
        spec = module.__spec__
        if spec is not None and spec.loader is not None:
            spec.loader.exec_module(module)
    importlib.invalidate_caches()
