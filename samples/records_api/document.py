"""The API's OpenAPI 3.1 document, annotated with ``x-agent``.

The file shipped in the package (``openapi.json`` next to this module) names two servers: first
``http://127.0.0.1:{port}/api/v1`` with ``port`` defaulting to 8642, the port of a default
``deskcheck sample-api``; then ``/api/v1``, relative to wherever the document was fetched from.
For a server on another port, a client reading the file passes the API URL
(``--base-url http://127.0.0.1:PORT/api/v1``). The copy a running server serves at
``/openapi.json`` names that server's absolute API URL instead, so it works with no option.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any

API_PREFIX = "/api/v1"
DOCUMENT_NAME = "openapi.json"


def openapi_path() -> Path:
    """Where the shipped document is on disk (a regular file in a source tree or a wheel)."""
    return Path(str(resources.files(__package__).joinpath(DOCUMENT_NAME)))


@functools.cache
def _document_text() -> str:
    return resources.files(__package__).joinpath(DOCUMENT_NAME).read_text(encoding="utf-8")


def openapi_document() -> dict[str, Any]:
    """The shipped document (a fresh copy each call)."""
    return json.loads(_document_text())


def served_document(origin: str) -> dict[str, Any]:
    """The document as a running server serves it: its server is the absolute API URL."""
    document = copy.deepcopy(openapi_document())
    document["servers"] = [{"url": origin + API_PREFIX, "description": "This running sample API."}]
    return document
