"""What every part of the demo works with: the running sample API, the session store, the HTTP
client, and where the files are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deskcheck.engine.forms.sessions.store import SessionStore
    from deskcheck.engine.http.client import HttpxClient
    from deskcheck.samples.records_api import SampleApi


@dataclass
class DemoContext:
    api: SampleApi
    store: SessionStore  # the demo's own (a temporary one unless --state-dir is given)
    client: HttpxClient  # one connection pool for every request, closed at the end
    openapi_path: Path  # the sample API's annotated OpenAPI document
    contract_path: Path  # the shipped sample contract (read, never written)
    output_dir: Path  # where the reviewed contract goes (./deskcheck-demo)
