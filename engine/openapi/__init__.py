"""Annotated OpenAPI documents as tools.

``load_openapi(spec, profiles=..., base_url=..., credentials=...)`` reads a document (a file, a
URL, or parsed data), validates its ``x-agent`` annotations and returns ``OpenApiTools``: a
``ToolSet`` of plain tools (one request each) and of the eight form tools of each editor group
(``editor_tools``: form sessions over the API, ``editor_source``), the selected skills and the
instructions text. ``check.check_source`` reports everything a load would refuse, with positions
(and with ``live``, what the running API reveals about each editor group: ``live_check``). Heavy
libraries (httpx, jsonschema, jsonschema-rs, yaml, the form engine) are imported only when needed;
openapi-spec-validator is never imported (its schema files are read).

Four layers (engine/openapi/README.md): ``document`` (reading a document), ``rules`` and ``tools``
side by side above it (the check's static rules; the tools a load builds), ``check`` on top. The
HTTP client is the engine's (``engine/http``), shared with the forms family.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_exports

# Public name -> the module that defines it, imported on first use (see engine/lazy_exports.py).
_EXPORTS = {
    "OpenApiTools": "tools.load",
    "load_openapi": "tools.load",
    "check_source": "check.check",
}

__all__ = ["OpenApiTools", "check_source", "load_openapi"]

if TYPE_CHECKING:
    from .check.check import check_source
    from .tools.load import OpenApiTools, load_openapi


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
