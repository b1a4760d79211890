"""``/_faults``: fault injection over HTTP, mounted only when the server was built with
``fault_injection_over_http=True``. It needs the write token.

- ``POST /_faults`` with ``{"method", "path", "status", "message", "delay", "times"}`` (all
  optional but one of status/delay) adds a fault and answers it with 201;
- ``GET /_faults`` lists the pending faults; ``DELETE /_faults`` removes them all.
"""

from __future__ import annotations

from .auth import require_write
from .context import ApiContext
from .messages import ApiError, Request, Response, json_response, no_content

_FIELDS = ("method", "path", "status", "message", "delay", "times")


def add_fault(ctx: ApiContext, request: Request) -> Response:
    require_write(request, ctx.tokens)
    body = request.json()
    if not isinstance(body, dict):
        raise ApiError(400, f"Send a JSON object with some of: {', '.join(_FIELDS)}.")
    unknown = sorted(set(body) - set(_FIELDS))
    if unknown:
        raise ApiError(400, f"Unknown fault fields {', '.join(unknown)}; known: {', '.join(_FIELDS)}.")
    try:
        fault = ctx.faults.add(**body)
    except (TypeError, ValueError) as exc:
        raise ApiError(400, f"This fault cannot be set up: {exc}.") from None
    return json_response(fault.to_json(), status=201)


def list_faults(ctx: ApiContext, request: Request) -> Response:
    require_write(request, ctx.tokens)
    return json_response({"faults": [fault.to_json() for fault in ctx.faults.pending()]})


def clear_faults(ctx: ApiContext, request: Request) -> Response:
    require_write(request, ctx.tokens)
    ctx.faults.clear()
    return no_content()
