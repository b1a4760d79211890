"""A route table: ``(method, "/api/v1/datasets/{id}")`` → handler, matched segment by segment.

Each path segment is percent-decoded on its own, so an id containing ``%2F`` stays one segment.
A path that exists under another method answers 405 with ``Allow``; an unknown path 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from .messages import ApiError

Handler = Callable[..., Any]


class Router:
    def __init__(self) -> None:
        self._routes: list[tuple[str, list[str], Handler]] = []

    def add(self, method: str, template: str, handler: Handler) -> None:
        self._routes.append((method, _segments(template, decode=False), handler))

    def resolve(self, method: str, path: str) -> tuple[Handler, dict[str, str]]:
        segments = _segments(path, decode=True)
        allowed: list[str] = []
        for route_method, template, handler in self._routes:
            params = _match(template, segments)
            if params is None:
                continue
            if route_method == method or (method == "HEAD" and route_method == "GET"):
                return handler, params
            allowed.append(route_method)
        if allowed:
            if "GET" in allowed:
                allowed.append("HEAD")
            raise ApiError(
                405,
                f"{method} is not allowed on {path}; allowed: {', '.join(allowed)}.",
                headers={"Allow": ", ".join(allowed)},
            )
        raise ApiError(404, f"Nothing here ({path}). The API is under /api/v1; its description is /openapi.json.")


def _segments(path: str, *, decode: bool) -> list[str]:
    stripped = path.strip("/")
    if not stripped:
        return []
    parts = stripped.split("/")
    return [unquote(part) for part in parts] if decode else parts


def _match(template: list[str], segments: list[str]) -> dict[str, str] | None:
    if len(template) != len(segments):
        return None
    params = {}
    for expected, actual in zip(template, segments, strict=True):
        if expected.startswith("{") and expected.endswith("}"):
            if not actual:
                return None
            params[expected[1:-1]] = actual
        elif expected != actual:
            return None
    return params
