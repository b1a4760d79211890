"""The API as a function from Request to Response: the route table, then fault injection and
error handling around it. Knows nothing about sockets (see handler.py)."""

from __future__ import annotations

import logging
import traceback

from . import endpoints_datasets as datasets
from . import endpoints_faults as faults
from . import endpoints_lines as lines
from .context import ApiContext
from .document import API_PREFIX
from .messages import ApiError, Request, Response
from .routing import Router

FAULTS_PATH = "/_faults"

log = logging.getLogger(__name__)


def build_router(*, fault_endpoint: bool) -> Router:
    router = Router()
    router.add("GET", "/", datasets.index)
    router.add("GET", "/openapi.json", datasets.openapi)
    router.add("GET", f"{API_PREFIX}/datasets", datasets.list_datasets)
    router.add("GET", f"{API_PREFIX}/datasets/{{id}}", datasets.read_dataset)
    router.add("GET", f"{API_PREFIX}/datasets/{{id}}/schema", datasets.read_schema)
    router.add("GET", f"{API_PREFIX}/datasets/{{id}}/lines", lines.read_lines)
    router.add("POST", f"{API_PREFIX}/datasets/{{id}}/lines", lines.create_line)
    router.add("GET", f"{API_PREFIX}/datasets/{{id}}/lines/{{lineId}}", lines.read_line)
    router.add("PUT", f"{API_PREFIX}/datasets/{{id}}/lines/{{lineId}}", lines.update_line)
    router.add("DELETE", f"{API_PREFIX}/datasets/{{id}}/lines/{{lineId}}", lines.delete_line)
    router.add("GET", f"{API_PREFIX}/referentials/{{name}}", datasets.search_referential_items)
    if fault_endpoint:
        router.add("GET", FAULTS_PATH, faults.list_faults)
        router.add("POST", FAULTS_PATH, faults.add_fault)
        router.add("DELETE", FAULTS_PATH, faults.clear_faults)
    return router


class RecordsApp:
    def __init__(self, context: ApiContext, *, fault_endpoint: bool = False) -> None:
        self.context = context
        self.router = build_router(fault_endpoint=fault_endpoint)

    def handle(self, request: Request) -> Response:
        """The response to ``request``; never raises."""
        try:
            if request.path != FAULTS_PATH:
                fault = self.context.faults.take(request.method, request.path)
                if fault is not None:
                    injected = self.context.faults.apply(fault)
                    if injected is not None:
                        return injected
            handler, params = self.router.resolve(request.method, request.path)
            return handler(self.context, request, **params)
        except ApiError as error:
            return error.to_response()
        except Exception as exc:  # the server must answer, whatever went wrong inside
            log.error("sample API error on %s %s:\n%s", request.method, request.path, traceback.format_exc())
            return ApiError(500, f"The sample API failed on this request ({type(exc).__name__}: {exc}).").to_response()
