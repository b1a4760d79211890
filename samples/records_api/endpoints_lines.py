"""Endpoints about records ("lines"): search, read, create, replace, delete.

Reads are open. Writes need the write token, are validated against the dataset's schema, and
honour If-Match / If-Unmodified-Since; each answer carries the record's ETag and Last-Modified.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from .auth import access_of, require_write
from .conditions import check_write_preconditions, http_date, if_modified_since_hit, none_match
from .context import ApiContext
from .document import API_PREFIX
from .messages import Request, Response, json_response, no_content, not_modified
from .records import prepare_for_write
from .search import search_lines
from .store import Line


def version_headers(ctx: ApiContext, line: Line) -> dict[str, str]:
    headers = {"Last-Modified": http_date(line.updated_at), "Cache-Control": "private, no-cache"}
    if ctx.etags:
        headers["ETag"] = line.etag
    return headers


def read_lines(ctx: ApiContext, request: Request, id: str) -> Response:
    access_of(request, ctx.tokens)  # an unknown token is refused even where none is needed
    dataset = ctx.dataset(id)
    page = search_lines(dataset, ctx.store.lines(dataset.id), request)
    body: dict[str, Any] = {"total": page.total, "results": page.results}
    if page.next_url:
        body["next"] = page.next_url
    if page.hints:
        body["meta"] = {"hints": page.hints}
    return json_response(body)


def read_line(ctx: ApiContext, request: Request, id: str, lineId: str) -> Response:
    access_of(request, ctx.tokens)
    line = ctx.line(ctx.dataset(id), lineId)
    headers = version_headers(ctx, line)
    if (ctx.etags and none_match(request, line.etag)) or if_modified_since_hit(request, line.updated_at):
        return not_modified(line.etag, headers) if ctx.etags else _not_modified_by_date(headers)
    return json_response(line.to_json(), headers=headers)


def _not_modified_by_date(headers: dict[str, str]) -> Response:
    return Response(304, b"", headers)


def create_line(ctx: ApiContext, request: Request, id: str) -> Response:
    require_write(request, ctx.tokens)
    dataset = ctx.dataset(id)
    body = request.json()
    with ctx.store.transaction():
        data = prepare_for_write(ctx.store, dataset, body)
        line = ctx.store.insert_line(dataset.id, _new_line_id(ctx, dataset.id), data, datetime.now(UTC))
    headers = version_headers(ctx, line)
    headers["Location"] = f"{request.origin}{API_PREFIX}/datasets/{dataset.id}/lines/{line.id}"
    return json_response(line.to_json(), status=201, headers=headers)


def _new_line_id(ctx: ApiContext, dataset_id: str) -> str:
    while True:
        candidate = secrets.token_urlsafe(7)
        if ctx.store.line(dataset_id, candidate) is None:
            return candidate


def update_line(ctx: ApiContext, request: Request, id: str, lineId: str) -> Response:
    require_write(request, ctx.tokens)
    dataset = ctx.dataset(id)
    with ctx.store.transaction():
        current = ctx.store.line(dataset.id, lineId)
        if current is None:
            if request.header("If-Match") is not None:
                check_write_preconditions(request, etag=None, last_modified=None)
            ctx.line(dataset, lineId)  # raises the 404
        check_write_preconditions(request, etag=current.etag, last_modified=current.updated_at)
        # The body is read after the preconditions: a stale copy is the first thing to fix.
        data = prepare_for_write(ctx.store, dataset, request.json())
        line = ctx.store.replace_line(current, data)
    return json_response(line.to_json(), headers=version_headers(ctx, line))


def delete_line(ctx: ApiContext, request: Request, id: str, lineId: str) -> Response:
    require_write(request, ctx.tokens)
    dataset = ctx.dataset(id)
    with ctx.store.transaction():
        current = ctx.line(dataset, lineId)
        check_write_preconditions(request, etag=current.etag, last_modified=current.updated_at)
        ctx.store.delete_line(dataset.id, lineId)
    return no_content()


def server_side_update(ctx: ApiContext, dataset_id: str, line_id: str, changes: dict[str, Any]) -> Line:
    """Change some fields of a record as another client would (validated, new version), without
    HTTP. A None value removes the field."""
    dataset = ctx.dataset(dataset_id)
    with ctx.store.transaction():
        current = ctx.line(dataset, line_id)
        merged = {key: value for key, value in {**current.data, **changes}.items() if value is not None}
        line = ctx.store.replace_line(current, prepare_for_write(ctx.store, dataset, merged))
    return line
