"""The sample dataset-records API: a real HTTP server (standard library ``http.server``, one
thread per connection) over SQLite, described by an OpenAPI 3.1 document annotated with
``x-agent``.

Endpoints (under ``/api/v1``; the document itself is ``/openapi.json``):

    GET    /datasets                          listDatasets     q, size, page, select
    GET    /datasets/{id}                     readDataset      metadata + columns
    GET    /datasets/{id}/schema              readSchema       mimeType=application/schema+json, extension=true
    GET    /datasets/{id}/lines               readLines        q, size, page, sort, select, <column>_<op>, hint
    POST   /datasets/{id}/lines               createLine       write token; 201 + Location + ETag
    GET    /datasets/{id}/lines/{lineId}      readLine         ETag, Last-Modified, If-None-Match → 304
    PUT    /datasets/{id}/lines/{lineId}      updateLine       write token; If-Match → 412 when stale
    DELETE /datasets/{id}/lines/{lineId}      deleteLine       write token; If-Match
    GET    /referentials/departements         searchDepartements  q, size (the x-fromUrl of lookups)

Python API: ``SampleApi`` (see server.py), ``openapi_path()``, ``openapi_document()``.
"""

from .auth import DEFAULT_READ_TOKEN, DEFAULT_WRITE_TOKEN
from .document import API_PREFIX, openapi_document, openapi_path
from .faults import Fault
from .messages import ApiError
from .server import DEFAULT_HOST, DEFAULT_PORT, SampleApi, SampleApiError

__all__ = [
    "API_PREFIX",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "DEFAULT_READ_TOKEN",
    "DEFAULT_WRITE_TOKEN",
    "ApiError",
    "Fault",
    "SampleApi",
    "SampleApiError",
    "openapi_document",
    "openapi_path",
]
