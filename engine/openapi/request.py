"""From a tool's arguments to an HTTP request: path encoding, query serialisation (exploded or
comma-joined arrays, spread objects), headers, the JSON body, the base URL."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, urlencode, urljoin

from ..errors import DeskcheckError
from ..urls import PATH_SAFE, dot_segment
from .http import HttpRequest
from .inputs import Binding
from .operations import Operation


class RequestBuildError(DeskcheckError):
    """The arguments cannot make a request (a path parameter is missing, or would change which
    path is called)."""


def base_url_for(document: dict[str, Any], *, override: str | None = None, source_url: str | None = None) -> str | None:
    """``--base-url``, else the document's first server (variables at their defaults; a relative
    URL resolved against the URL the document came from). None when there is none to use."""
    if override:
        return override
    servers = document.get("servers")
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
        return None
    server = servers[0]
    url = server.get("url")
    if not isinstance(url, str) or not url:
        return None
    variables = server.get("variables") if isinstance(server.get("variables"), dict) else {}

    def substitute(match: re.Match[str]) -> str:
        variable = variables.get(match.group(1))
        default = variable.get("default") if isinstance(variable, dict) else None
        return str(default) if default is not None else match.group(0)

    url = re.sub(r"\{([^{}]+)\}", substitute, url)
    if url.startswith(("http://", "https://")):
        return url
    if source_url:
        return urljoin(source_url, url)
    return None


def no_base_url_message(document: dict[str, Any]) -> str:
    servers = document.get("servers")
    if isinstance(servers, list) and servers and isinstance(servers[0], dict) and servers[0].get("url"):
        return (
            f'the document\'s server URL "{servers[0]["url"]}" is relative and the document was read from a file; '
            "pass --base-url with the API's address."
        )
    return "the document declares no server; pass --base-url with the API's address."


def build_request(
    operation: Operation,
    bindings: list[Binding],
    args: dict[str, Any],
    base_url: str,
) -> HttpRequest:
    fixed = dict(operation.agent.get("fixed") or {}) if isinstance(operation.agent.get("fixed"), dict) else {}
    path = operation.path
    query: list[tuple[str, str]] = []
    headers = {"accept": accept_for(operation)}
    body_props: dict[str, Any] = {}
    body: Any = None
    has_body = False
    for binding in bindings:
        value = args.get(binding.property)
        if binding.kind == "path":
            if value is None:
                raise RequestBuildError(f'missing path parameter "{binding.property}".')
            path = path.replace("{" + binding.api_name + "}", path_segment(value, binding.property))
        elif binding.kind == "query":
            if value is not None:
                query += query_pairs(binding.api_name, value, binding.explode)
        elif binding.kind == "header":
            if value is not None:
                headers[binding.api_name] = js_string(value)
        elif binding.kind == "fields":
            if isinstance(value, list) and value:
                fixed.pop(binding.api_name, None)
                query += query_pairs(binding.api_name, value, binding.explode)
        elif binding.kind == "bodyProp":
            if binding.property in args:
                body_props[binding.api_name] = value
        elif binding.kind == "body" and binding.property in args:
            body, has_body = value, True
    if not has_body and operation.request_body is not None and (body_props or operation.request_body["required"]):
        body, has_body = body_props, True
    for name, value in fixed.items():
        if value is not None:
            query += query_pairs(name, value, False)
    if has_body:
        headers["content-type"] = "application/json"
    url = base_url.rstrip("/") + "/" + path.lstrip("/")
    if query:
        url += "?" + urlencode(query)
    return HttpRequest(operation.method.upper(), url, headers, body, has_body)


def path_segment(value: Any, name: str) -> str:
    """A path parameter's value as one encoded path segment (a list comma-joined, a ``/`` kept
    inside the segment). A value holding a ``.`` or ``..`` segment is refused: the client or the
    server would resolve it, and the request would reach another path (``engine.urls``)."""
    text = ",".join(map(js_string, value)) if isinstance(value, list) else js_string(value)
    if dot_segment(text):
        raise RequestBuildError(
            f'the path parameter "{name}" is {_shown(text)}: a path parameter cannot be '
            '"." or ".." or hold such a segment (it would change which path is called). Give the identifier '
            "itself.",
            code="dotSegment",
        )
    return quote(text, safe=PATH_SAFE)


def _shown(text: str) -> str:
    return json.dumps(text if len(text) <= 60 else text[:57] + "...", ensure_ascii=False)


def query_pairs(name: str, value: Any, explode: bool | None) -> list[tuple[str, str]]:
    """Query pairs for one parameter: arrays repeated (or comma-joined when ``explode`` is False),
    objects spread as their own keys, scalars as text."""
    if isinstance(value, list):
        if explode is False:
            return [(name, ",".join(map(js_string, value)))]
        return [(name, js_string(item)) for item in value]
    if isinstance(value, dict):
        pairs = []
        for key, item in value.items():
            if item is None:
                continue
            pairs.append((key, ",".join(map(js_string, item)) if isinstance(item, list) else js_string(item)))
        return pairs
    return [(name, js_string(value))]


def accept_for(operation: Operation) -> str:
    if "text/markdown" in operation.response_media_types:
        return "text/markdown"
    return "application/json"


def js_string(value: Any) -> str:
    """A value as text the way a query string shows it (``true``, ``10``, ``1.5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)
