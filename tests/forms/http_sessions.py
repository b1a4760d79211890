"""A form-session group over the sample API's records, built directly from its URLs (as an
editor group would build it from its operations): ``record_group(base_url, ...)``.

Also runnable, to use one session from several processes:

    python -m tests.forms.http_sessions BASE_URL TOKEN TOOL ARGS_JSON

prints the tool's envelope as one JSON line (the state directory comes from the environment).
"""

from __future__ import annotations

import json
import sys
from urllib.parse import quote

from deskcheck.engine.forms.sessions.session import SessionOptions
from deskcheck.engine.forms.sources.http_source import HttpRecordSource
from deskcheck.engine.forms.sources.remote_items import RemoteItems
from deskcheck.engine.forms.tools.session_tools import SessionGroup
from deskcheck.engine.http.client import ApiCaller, Credentials, HttpRequest, HttpxClient

SCHEMA_QUERY = "mimeType=application%2Fschema%2Bjson&extension=true"
EDIT_PARAMETERS = {"id": {"type": "string"}, "lineId": {"type": "string"}}
CREATE_PARAMETERS = {"id": {"type": "string"}}


def record_group(
    base_url: str,
    *,
    token: str | None = None,
    timeout: float = 10.0,
    allow_hosts: tuple[str, ...] = (),
    identity: str | None = None,
    create: bool = False,
    store=None,
    client=None,
) -> SessionGroup:
    """The tools ``line_<verb>`` (edit a record: parameters id, lineId) or, with ``create``,
    ``new_line_<verb>`` (add a record to dataset id). ``client``: an HTTP client to use instead
    of a new ``HttpxClient`` (a ``RecordingClient`` to look at what was sent)."""
    client = client if client is not None else HttpxClient(timeout=timeout)
    caller = ApiCaller(base_url, client=client, credentials=Credentials.from_options((), token))

    def source_for(params: dict) -> HttpRecordSource:
        dataset = f"{base_url}/datasets/{quote(params['id'], safe='')}"
        schema = HttpRequest("GET", f"{dataset}/schema?{SCHEMA_QUERY}")
        if create:
            return HttpRecordSource(
                caller, "new dataset record", write=HttpRequest("POST", f"{dataset}/lines"), schema_request=schema
            )
        line = f"{dataset}/lines/{quote(params['lineId'], safe='')}"
        return HttpRecordSource(
            caller,
            "dataset record",
            write=HttpRequest("PUT", line),
            read=HttpRequest("GET", line),
            schema_request=schema,
        )

    return SessionGroup(
        name="new_line" if create else "line",
        title="new dataset record" if create else "dataset record",
        source_for=source_for,
        store=store,
        identity=identity,
        parameters=CREATE_PARAMETERS if create else EDIT_PARAMETERS,
        options=SessionOptions(fetcher=RemoteItems(caller, allow_hosts=allow_hosts)),
    )


class RecordingClient:
    """Sends through ``inner`` (default: an ``HttpxClient``) and keeps ``(request, status)``."""

    def __init__(self, inner=None, *, timeout: float = 10.0) -> None:
        self.inner = inner if inner is not None else HttpxClient(timeout=timeout)
        self.sent: list[tuple[HttpRequest, int]] = []

    def send(self, request: HttpRequest):
        response = self.inner.send(request)
        self.sent.append((request, response.status))
        return response

    def requests(self, method: str | None = None) -> list[tuple[HttpRequest, int]]:
        return [(r, status) for r, status in self.sent if method is None or r.method == method]


def main(argv: list[str]) -> int:
    base_url, token, tool, args = argv
    group = record_group(base_url, token=token or None, create=tool.startswith("new_line_"))
    result = group.toolset().call(tool, json.loads(args))
    print(json.dumps(result.envelope(), ensure_ascii=False))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
