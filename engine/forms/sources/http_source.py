"""A record behind an HTTP API as a form session's source: read with a GET, saved whole with a
PUT or POST carrying a precondition, its schema fetched with a conditional GET (or declared).

Requests go through ``engine.openapi.http`` (``ApiCaller``): credentials are added only for the
API's own origin and redirects are not followed. What to request is given as ``HttpRequest``s
already built (an editor group builds them from its operations and path parameters):

- ``read``: the GET that returns the record; None is create mode (the form starts from ``{}``,
  nothing is requested, and every save creates a record);
- ``write``: the method and URL of the save (its body is the whole document);
- ``schema_request``: the GET whose response body is the schema (its version is a hash of the
  body; with an ``ETag`` the next request is conditional and a 304 keeps the known version),
  or ``declared_schema``: a schema known in advance (with ``schema_document`` when it refers
  into a larger document, and ``declared_version`` naming it).

Optimistic concurrency: the record's ``ETag`` (a strong one), else its ``Last-Modified`` date,
is the version; a save sends it back as ``If-Match`` / ``If-Unmodified-Since`` and a 409 or 412
answer is a ``SaveConflict``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import DeskcheckError
from ...http.client import ApiCaller, HttpRequest, HttpResponse
from ...http.responses import server_message
from ...urls import redact, shown_url
from .sources import DocumentVersion, FetchedSchema, Loaded, SaveConflict, Saved, SchemaTag, SourceError

CONFLICT_STATUSES = (409, 412)


@dataclass
class HttpRecordSource:
    """One record of an API (or, in create mode, the record about to be created)."""

    caller: ApiCaller
    title: str
    write: HttpRequest
    read: HttpRequest | None = None
    schema_request: HttpRequest | None = None
    declared_schema: Any = None
    schema_document: Any = None
    declared_version: str | None = None
    schema_key: str = ""
    # Applied to the prepared schema (an editor group hides attachment and computed columns).
    adjust: Callable[[dict[str, Any]], dict[str, Any]] | None = field(default=None, repr=False)
    read_only: bool = False
    check_schema_each_call: bool = False

    def __post_init__(self) -> None:
        if self.schema_request is None and self.declared_schema is None:
            raise ValueError("an HTTP record source needs a schema_request or a declared_schema")
        if not self.schema_key:
            # Stored: never with the password of a user:password@ URL.
            if self.schema_request is not None:
                self.schema_key = "http:" + redact(self.schema_request.url)
            else:
                self.schema_key = "declared:" + (self.declared_version or redact(self.write.url))

    @property
    def creates(self) -> bool:
        return self.read is None

    @property
    def request_deadline(self) -> float | None:
        """The longest one request may take (the client's total ``timeout``; None: unknown), so
        that a save's lease outlives its request."""
        timeout = getattr(self.caller.client, "timeout", None)
        return float(timeout) if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else None

    # -- the record ---------------------------------------------------------------------------

    def load(self) -> Loaded:
        if self.read is None:
            return Loaded({}, None)
        request = replace(self.read, headers={"accept": "application/json", **self.read.headers})
        response = self._send(request, "load")
        if not response.ok:
            raise SourceError(f"{_label(request)} answered {_status_text(response)}.", code="loadFailed")
        return Loaded(_json_body(response, request), version_of(response))

    def save(self, data: Any, *, version: DocumentVersion | None, base: Any) -> Saved:
        headers = {"accept": "application/json", "content-type": "application/json", **self.write.headers}
        headers.update(precondition_headers(version))
        request = HttpRequest(self.write.method, self.write.url, headers, data, True)
        response = self._send(request, "save")
        if response.status in CONFLICT_STATUSES:
            raise SaveConflict(f"{_label(request)} answered {_status_text(response)}", code="conflict")
        if not response.ok:
            raise SourceError(f"{_label(request)} answered {_status_text(response)}", code="saveFailed")
        return Saved(version_of(response), response.headers.get("location"))

    # -- the schema ---------------------------------------------------------------------------

    def schema(self, known: SchemaTag | None) -> FetchedSchema:
        if self.schema_request is None:
            from ..schema.compile import content_version

            version = self.declared_version or content_version(self.declared_schema, self.schema_document)
            if known is not None and known.version == version:
                return FetchedSchema(version)
            return FetchedSchema(version, self.declared_schema, document=self.schema_document)
        headers = {"accept": "application/schema+json, application/json", **self.schema_request.headers}
        if known is not None and known.etag:
            headers["if-none-match"] = known.etag
        request = replace(self.schema_request, headers=headers)
        response = self._send(request, "fetch the schema of")
        if response.status == 304 and known is not None:
            return FetchedSchema(known.version, None, known.etag)
        if not response.ok:
            raise SourceError(
                f"the schema of {self.title} could not be fetched: {_label(request)} answered "
                f"{_status_text(response)}.",
                code="schemaFailed",
            )
        body = _json_body(response, request)
        digest = "sha256:" + hashlib.sha256(response.text.encode("utf-8")).hexdigest()
        return FetchedSchema(digest, body, response.headers.get("etag"))

    def adjust_schema(self, prepared: dict[str, Any]) -> dict[str, Any]:
        return self.adjust(prepared) if self.adjust is not None else prepared

    def _send(self, request: HttpRequest, doing: str) -> HttpResponse:
        try:
            return self.caller.send(request)
        except DeskcheckError as exc:
            raise SourceError(f"could not {doing} {self.title}: {exc.message}", code="requestFailed") from None


def version_of(response: HttpResponse) -> DocumentVersion | None:
    """A strong ``ETag``, else ``Last-Modified``. A weak tag cannot serve ``If-Match`` (which
    compares strongly, so it would never match): the date is used instead, when there is one.
    A version that cannot be sent back (not ASCII text) is an error: a save without it would not
    be guarded against other writers."""
    from ...http.client import header_value_problem

    etag = response.headers.get("etag")
    if etag and not etag.startswith("W/"):
        version = DocumentVersion("etag", etag)
    else:
        modified = response.headers.get("last-modified")
        version = DocumentVersion("last-modified", modified) if modified else None
    if version is not None:
        name = "ETag" if version.kind == "etag" else "Last-Modified"
        problem = header_value_problem(version.value)
        if problem:
            raise SourceError(
                f"the API answered with an {name} header that {problem}; deskcheck cannot send it back to guard a "
                "save against other writers, so it does not edit this record. The API must send ASCII versions.",
                code="badVersion",
            )
    return version


def precondition_headers(version: DocumentVersion | None) -> dict[str, str]:
    """The header that makes a save conditional on the loaded version."""
    if version is None:
        return {}
    if version.kind == "etag":
        return {"if-match": version.value}
    if version.kind == "last-modified":
        return {"if-unmodified-since": version.value}
    return {}


def _status_text(response: HttpResponse) -> str:
    message = server_message(response)
    return f"{response.status}: {message}" if message else f"{response.status} without a message"


def _label(request: HttpRequest) -> str:
    return f"{request.method} {shown_url(request.url)}"


def _json_body(response: HttpResponse, request: HttpRequest) -> Any:
    from ...http.responses import ResponseError, response_json

    try:
        return response_json(response, f"the answer of {_label(request)}")
    except ResponseError as exc:
        raise SourceError(exc.message, code="notJson" if exc.code == "badJson" else exc.code) from None
