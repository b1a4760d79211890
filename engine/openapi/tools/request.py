"""From a tool's arguments to an HTTP request: path encoding, query serialisation (the styles of
OpenAPI: form, spaceDelimited, pipeDelimited, deepObject), headers, the JSON body, the base URL.

What a tool argument may not do, since the agent writes it and the request carries the user's
credentials:

- change which path is called: a path parameter cannot be or hold a ``.`` / ``..`` segment, nor
  a ``/`` or ``\\`` in any spelling a server may decode or normalise into one
  (``engine.urls.path_separator``), unless the parameter's schema says it takes one: its
  ``pattern`` contains that character (``/``, or ``\\\\`` for a backslash) and the value matches the
  pattern;
- replace or repeat a query parameter the operation sets or declares: an object spread into the
  query (``style: form``, ``explode: true``) may not hold a key that is a declared query
  parameter, an ``x-agent.fixed`` one, or a key another object already spread (compared without
  case and up to a ``[``, since servers differ there);
- set a header that the request's framing, deskcheck or the credentials own (``HEADERS_NOT_SET``),
  or send a header value that is not printable ASCII.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

from ...errors import DeskcheckError
from ...http.client import HttpRequest, header_value_problem
from ...urls import PATH_SAFE, dot_segment, path_separator
from .inputs import Binding
from .operations import Operation

# Headers a header parameter cannot set: OpenAPI says parameters named Accept, Content-Type and
# Authorization are ignored (deskcheck and the credentials set them); the others decide how the
# request is framed or which site on the server answers it (Host) or carry credentials.
HEADERS_NOT_SET = frozenset(
    (
        "accept",
        "content-type",
        "authorization",
        "proxy-authorization",
        "cookie",
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "te",
        "trailer",
        "upgrade",
        "expect",
    )
)
_DELIMITERS = {"spaceDelimited": " ", "pipeDelimited": "|"}
# How a pattern that allows a separator writes it (a backslash is escaped in a pattern).
_IN_PATTERN = {"/": "/", "\\": "\\\\"}


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


def foreign_server_message(source_url: str, server: str, allowed: list[Any]) -> str | None:
    """Why the server a fetched document names is not used (None when it is): it is on another
    origin than the document (an absolute URL, ``//host``, a variable's default...), and the
    user named it neither with --base-url nor with --allow-host. Requests there would carry the
    user's credentials to a host only the document chose."""
    from ...forms.sources.remote_items import allowed_url
    from ...http.client import same_origin
    from ...urls import redact

    if same_origin(server, source_url) or allowed_url(server, allowed):
        return None
    parts = urlsplit(server)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
    port = parts.port or (443 if parts.scheme == "https" else 80)
    document = urlsplit(source_url)
    return (
        f"the document was fetched from {document.scheme}://{redact(document.netloc)} and names its API server "
        f"{redact(server)} (servers[0].url), another origin; deskcheck sends requests, and your credentials, only "
        f"where you point it. If that server is the API you mean, pass --base-url {redact(server)} or "
        f"--allow-host {host}:{port}."
    )


def build_request(
    operation: Operation,
    bindings: list[Binding],
    args: dict[str, Any],
    base_url: str,
) -> HttpRequest:
    fixed = dict(operation.agent.get("fixed") or {}) if isinstance(operation.agent.get("fixed"), dict) else {}
    path_schemas = {p.name: p.schema for p in operation.path_parameters}
    path = operation.path
    query: list[tuple[str, str]] = []
    headers = {"accept": accept_for(operation)}
    body_props: dict[str, Any] = {}
    body: Any = None
    has_body = False
    spread = _SpreadKeys(operation, fixed)
    for binding in bindings:
        value = args.get(binding.property)
        if binding.kind == "path":
            if value is None:
                raise RequestBuildError(f'missing path parameter "{binding.property}".')
            segment = path_segment(value, binding.property, path_schemas.get(binding.api_name))
            path = path.replace("{" + binding.api_name + "}", segment)
        elif binding.kind == "query":
            if value is not None:
                if isinstance(value, dict) and _spreads(binding.style, binding.explode):
                    spread.check(binding.property, value)
                query += query_pairs(binding.api_name, value, binding.explode, binding.style)
        elif binding.kind == "header":
            if value is not None:
                headers[binding.api_name] = header_parameter(binding, value)
        elif binding.kind == "fields":
            if isinstance(value, list) and value:
                fixed.pop(binding.api_name, None)
                query += query_pairs(binding.api_name, value, binding.explode, binding.style)
        elif binding.kind == "bodyProp":
            if binding.property in args:
                body_props[binding.api_name] = value
        elif binding.kind == "body" and binding.property in args:
            body, has_body = value, True
    if not has_body and operation.request_body is not None and (body_props or operation.request_body["required"]):
        body, has_body = body_props, True
    for name, value in fixed.items():
        if value is not None:  # arrays comma-joined, objects spread (as fixed values always were)
            query += query_pairs(name, value, None if isinstance(value, dict) else False)
    if has_body:
        headers["content-type"] = "application/json"
    url = base_url.rstrip("/") + "/" + path.lstrip("/")
    if query:
        url += "?" + urlencode(query)
    return HttpRequest(operation.method.upper(), url, headers, body, has_body)


def path_segment(value: Any, name: str, schema: Any = None) -> str:
    """A path parameter's value as one encoded path segment (a list comma-joined). A value
    holding a ``.`` or ``..`` segment is refused: the client or the server would resolve it, and
    the request would reach another path (``engine.urls``). So is one holding a ``/`` or ``\\``,
    in any spelling a server may turn into one, unless ``schema`` (the parameter's) allows it
    (see the module docstring)."""
    text = ",".join(map(js_string, value)) if isinstance(value, list) else js_string(value)
    if dot_segment(text):
        raise RequestBuildError(
            f'the path parameter "{name}" is {_shown(text)}: a path parameter cannot be '
            '"." or ".." or hold such a segment (it would change which path is called). Give the identifier '
            "itself.",
            code="dotSegment",
        )
    separator = path_separator(text)
    if separator is not None and not _schema_allows(schema, separator, text):
        raise RequestBuildError(
            f'the path parameter "{name}" is {_shown(text)}, which holds "{separator}" (as written, encoded '
            "or as a character servers read as one): many servers decode it before they route the request, so it "
            f'would change which path is called. Give the identifier itself; if this API takes "{separator}" '
            f'inside {name}, its schema must say so with a pattern that contains "{_IN_PATTERN[separator]}".',
            code="pathSeparator",
        )
    return quote(text, safe=PATH_SAFE)


def _schema_allows(schema: Any, separator: str, text: str) -> bool:
    pattern = schema.get("pattern") if isinstance(schema, dict) else None
    if not isinstance(pattern, str) or _IN_PATTERN[separator] not in pattern:
        return False
    from ...forms.schema.patterns import pattern_verdict

    return pattern_verdict(pattern, text) is True


def _shown(text: str) -> str:
    return json.dumps(text if len(text) <= 60 else text[:57] + "...", ensure_ascii=False)


def _spreads(style: str | None, explode: bool | None) -> bool:
    return style in (None, "form") and explode is not False


class _SpreadKeys:
    """The query keys an operation owns (its declared query parameters and ``fixed`` ones), and
    those objects spread so far: a spread key may be none of them."""

    def __init__(self, operation: Operation, fixed: dict[str, Any]) -> None:
        self.owned = {_query_key(p.name): p.name for p in operation.parameters if p.location == "query"}
        self.fixed = {_query_key(name): name for name in fixed}
        self.seen: dict[str, str] = {}

    def check(self, argument: str, value: dict[str, Any]) -> None:
        for key, item in value.items():
            if item is None:
                continue
            normal = _query_key(key)
            if normal in self.fixed:
                clash = f'the query parameter "{self.fixed[normal]}" that this operation always sets itself (fixed)'
            elif normal in self.owned:
                clash = f'the query parameter "{self.owned[normal]}" that this operation declares'
            elif normal in self.seen:
                clash = f'a key that "{self.seen[normal]}" already sends'
            else:
                self.seen[normal] = argument
                continue
            raise RequestBuildError(
                f'"{argument}" holds the key {_shown(key)}, which is {clash}; a key of {argument} cannot replace '
                f"or repeat another query parameter. Leave it out of {argument}.",
                code="queryCollision",
            )


def _query_key(name: str) -> str:
    # Servers differ: some compare names without case, some read "owner[x]" as "owner".
    return name.split("[", 1)[0].strip().casefold()


def header_parameter(binding: Binding, value: Any) -> str:
    """The text of a header parameter, refused when the header is one deskcheck, the credentials
    or the request's framing own, or when the text cannot be sent."""
    if binding.api_name.lower() in HEADERS_NOT_SET:
        raise RequestBuildError(
            f'"{binding.property}" would set the {binding.api_name} header, which a tool argument cannot set '
            "(deskcheck, your credentials or the HTTP connection set it). Leave it out.",
            code="headerNotSettable",
        )
    text = ",".join(map(js_string, value)) if isinstance(value, list) else js_string(value)
    problem = header_value_problem(text)
    if problem:
        raise RequestBuildError(f'"{binding.property}" cannot be sent as the {binding.api_name} header: {problem}.')
    return text


def query_pairs(name: str, value: Any, explode: bool | None, style: str | None = None) -> list[tuple[str, str]]:
    """Query pairs for one parameter, by its OpenAPI ``style``: arrays repeated (or joined by a
    comma, a space or a pipe when ``explode`` is False), objects spread as their own keys
    (``form``), ``name[key]`` pairs (``deepObject``) or one ``key,value,...`` pair (``form`` with
    ``explode`` False), scalars as text."""
    if isinstance(value, list):
        if explode is False:
            return [(name, _DELIMITERS.get(style or "", ",").join(map(js_string, value)))]
        return [(name, js_string(item)) for item in value]
    if isinstance(value, dict):
        items = [(key, _joined(item)) for key, item in value.items() if item is not None]
        if style == "deepObject":
            return [(f"{name}[{key}]", text) for key, text in items]
        if explode is False:
            return [(name, ",".join(part for pair in items for part in pair))]
        return items
    return [(name, js_string(value))]


def _joined(item: Any) -> str:
    return ",".join(map(js_string, item)) if isinstance(item, list) else js_string(item)


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
