"""Endpoints about datasets as a whole: the index, the OpenAPI document, the dataset list, one
dataset's description, its schema, and the referentials that lookup fields search."""

from __future__ import annotations

from typing import Any

from . import schema_views
from .conditions import cacheable_json
from .context import ApiContext
from .document import API_PREFIX, served_document
from .messages import ApiError, Request, Response, json_response
from .search import page_url, search_referential, words
from .seed import referentials
from .store import Dataset

DATASET_FIELDS = ("id", "title", "description", "count", "createdAt", "updatedAt", "href")
DEFAULT_DATASET_PAGE = 10
MAX_DATASET_PAGE = 100
DEFAULT_REFERENTIAL_PAGE = 20
MAX_REFERENTIAL_PAGE = 200


def index(ctx: ApiContext, request: Request) -> Response:
    return json_response(
        {
            "title": "deskcheck sample dataset-records API",
            "openapi": f"{request.origin}/openapi.json",
            "api": f"{request.origin}{API_PREFIX}",
            "datasets": f"{request.origin}{API_PREFIX}/datasets",
        }
    )


def openapi(ctx: ApiContext, request: Request) -> Response:
    return cacheable_json(request, served_document(request.origin))


def summary(ctx: ApiContext, dataset: Dataset, origin: str) -> dict[str, Any]:
    count, last_line = ctx.store.line_stats(dataset.id)
    return {
        "id": dataset.id,
        "title": dataset.title,
        "description": dataset.description,
        "count": count,
        "createdAt": dataset.created_at,
        "updatedAt": max(filter(None, (last_line, dataset.schema_updated_at))),
        "href": f"{origin}{API_PREFIX}/datasets/{dataset.id}",
    }


def list_datasets(ctx: ApiContext, request: Request) -> Response:
    size = request.int_param("size", default=DEFAULT_DATASET_PAGE, minimum=0, maximum=MAX_DATASET_PAGE)
    page = request.int_param("page", default=1, minimum=1, maximum=10_000)
    select = request.list_param("select")
    unknown = [name for name in select if name not in DATASET_FIELDS]
    if unknown:
        raise ApiError(400, f"select names unknown fields ({', '.join(unknown)}); fields: {', '.join(DATASET_FIELDS)}.")
    wanted = words(request.param("q") or "")
    found = []
    for dataset in ctx.store.datasets():
        text = words(f"{dataset.id} {dataset.title} {dataset.description}")
        if all(any(word.startswith(term) for word in text) for term in wanted):
            found.append(summary(ctx, dataset, request.origin))
    start = (page - 1) * size
    results = [{k: v for k, v in item.items() if not select or k in select} for item in found[start : start + size]]
    body: dict[str, Any] = {"count": len(found), "results": results}
    if size and start + size < len(found):
        body["next"] = page_url(request, page + 1)
    return json_response(body)


def read_dataset(ctx: ApiContext, request: Request, id: str) -> Response:
    dataset = ctx.dataset(id)
    description = summary(ctx, dataset, request.origin)
    description["schema"] = schema_views.column_list(dataset, origin=request.origin, extensions=True)
    return json_response(description)


def read_schema(ctx: ApiContext, request: Request, id: str) -> Response:
    dataset = ctx.dataset(id)
    mime_type = request.param("mimeType") or "application/json"
    if mime_type not in schema_views.SCHEMA_MIME_TYPES:
        raise ApiError(
            400,
            f'mimeType "{mime_type}" is not supported; use one of {", ".join(schema_views.SCHEMA_MIME_TYPES)}.',
        )
    extensions = request.bool_param("extension", default=False)
    if mime_type == "application/schema+json":
        value: Any = schema_views.record_schema(dataset, origin=request.origin, extensions=extensions)
    else:
        value = schema_views.column_list(dataset, origin=request.origin, extensions=extensions)
    return cacheable_json(request, value)


def search_referential_items(ctx: ApiContext, request: Request, name: str) -> Response:
    referential = referentials().get(name)
    if referential is None:
        raise ApiError(404, f'There is no referential "{name}"; referentials: {", ".join(referentials())}.')
    size = request.int_param("size", default=DEFAULT_REFERENTIAL_PAGE, minimum=0, maximum=MAX_REFERENTIAL_PAGE)
    count, results = search_referential(
        ctx.store.referential(name),
        key=referential.key,
        title=referential.title_field,
        query=request.param("q") or "",
        size=size,
    )
    return json_response({"count": count, "results": results})
