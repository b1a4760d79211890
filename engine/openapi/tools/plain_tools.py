"""One tool per annotated operation (or view): check the arguments, send one request, render the
answer. Executing never raises for an expected failure: the result says what went wrong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...http.client import ApiCaller, RequestFailed
from ...http.responses import ResponseError, response_json
from ...tools import Tool, ToolAnnotations, ToolResult, fail, ok
from ...urls import shown_url
from ..document.text import localize, truncate
from .arguments import argument_errors, fill_defaults
from .inputs import BODY_PROPERTY, FIELDS_PROPERTY, FORMAT_PROPERTY, ToolInput
from .operations import Operation
from .render import MAX_STRING_LENGTH, render
from .request import RequestBuildError, build_request

# The API's own error text is how an agent corrects its call; keep it, but not without bound.
MAX_ERROR_LENGTH = 4000


@dataclass
class ToolContext:
    """What every plain tool of one load shares."""

    caller: ApiCaller
    base_url: str | None
    no_base_url: str  # the sentence to answer with when base_url is None
    locale: str = "en"
    max_string_length: int = MAX_STRING_LENGTH
    max_error_length: int = MAX_ERROR_LENGTH


def tool_description(operation: Operation, locale: str) -> str:
    text = localize(operation.agent.get("description"), locale)
    if text is None:
        raw = operation.raw
        parts = [raw.get(key) for key in ("summary", "description")]
        text = "\n\n".join(p.strip() for p in parts if isinstance(p, str) and p.strip())
    return text.strip() or (operation.operation_id or operation.label)


def tool_annotations(operation: Operation) -> ToolAnnotations:
    # What the HTTP method says the call does: a request reaches a system beyond deskcheck (open
    # world); PUT and PATCH overwrite, DELETE removes, and a POST may do either (MCP's default,
    # destructive, unless the annotation says otherwise).
    hints = {
        "read_only": operation.method in ("get", "head", "options"),
        "destructive": operation.method in ("put", "patch", "delete", "post"),
        "idempotent": operation.method in ("get", "head", "put", "delete", "options"),
        "open_world": True,
    }
    given = operation.agent.get("annotations")
    if isinstance(given, dict):
        for key, field in (
            ("readOnlyHint", "read_only"),
            ("destructiveHint", "destructive"),
            ("idempotentHint", "idempotent"),
            ("openWorldHint", "open_world"),
        ):
            if isinstance(given.get(key), bool):
                hints[field] = given[key]
    return ToolAnnotations(**hints)


def build_plain_tool(operation: Operation, tool_input: ToolInput, context: ToolContext) -> Tool:
    def execute(args: dict[str, Any]) -> ToolResult:
        return run_operation(operation, tool_input, context, args)

    return Tool(
        name=operation.tool_name,
        description=tool_description(operation, context.locale),
        input_schema=tool_input.schema,
        execute=execute,
        annotations=tool_annotations(operation),
        title=localize(operation.agent.get("title"), context.locale) or _title(operation),
    )


def _title(operation: Operation) -> str:
    """A title for a tool whose annotation gives none: the operation's summary, or its label."""
    summary = operation.raw.get("summary")
    if isinstance(summary, str) and summary.strip():
        return summary.strip().splitlines()[0][:100]
    return operation.label


def check_credential_headers(tool_input: ToolInput, args: dict[str, Any], caller: ApiCaller) -> None:
    """Refuse a header argument that names one of the user's credential headers: the credential
    would replace it, and the agent must not learn that by trying."""
    own = caller.credential_names()
    for binding in tool_input.bindings:
        if binding.kind == "header" and args.get(binding.property) is not None and binding.api_name.lower() in own:
            raise RequestBuildError(
                f'"{binding.property}" would set the {binding.api_name} header, which carries the credentials given '
                "to deskcheck (--header or --token); a tool argument cannot set it. Leave it out.",
                code="headerNotSettable",
            )


def run_operation(operation: Operation, tool_input: ToolInput, context: ToolContext, args: dict[str, Any]):
    args = fill_defaults(tool_input.schema, args)
    problems = argument_errors(tool_input.schema, args, root="params")
    if problems:
        return fail(f"Invalid parameters: {problems}. Fix the arguments and call {operation.tool_name} again.")
    compact = tool_input.body_schema is not None and any(b.kind == "body" for b in tool_input.bindings)
    if compact and BODY_PROPERTY in args:
        body_problems = argument_errors(tool_input.body_schema, args[BODY_PROPERTY], root="body")
        if body_problems:
            return fail(f"Invalid body: {body_problems}. No request was sent.")
    if context.base_url is None:
        return fail(f"{operation.tool_name} cannot send its request: {context.no_base_url}")
    try:
        request = build_request(operation, tool_input.bindings, args, context.base_url)
        check_credential_headers(tool_input, args, context.caller)
        response = context.caller.send(request)
    except (RequestBuildError, RequestFailed) as exc:
        return fail(f"Request failed: {exc.message}")
    if not response.ok:
        if 300 <= response.status < 400 and response.headers.get("location"):
            return fail(
                f"HTTP {response.status}: the API redirected {request.method} {shown_url(request.url)} to "
                f"{shown_url(response.headers['location'])}; deskcheck does not follow redirects (your credentials "
                "would go along). If that is the API's address, pass it with --base-url."
            )
        body = truncate(response.text.strip(), context.max_error_length)
        return fail(f"HTTP {response.status}: {body}" if body else f"HTTP {response.status} (no message).")
    if not response.text.strip():
        return ok("OK")
    media = response.content_type.split(";", 1)[0].strip().lower()
    if media == "application/json" or media.endswith("+json"):
        try:
            data = response_json(response, f"the answer of {request.method} {shown_url(request.url)}")
        except ResponseError as exc:
            return fail(f"Invalid JSON response: {exc.message}")
        response_agent = operation.agent.get("response")
        return ok(
            render(
                data,
                schema=operation.response_schema,
                response=response_agent if isinstance(response_agent, dict) else None,
                fields=args.get(FIELDS_PROPERTY) if any(b.kind == "fields" for b in tool_input.bindings) else None,
                response_format=args.get(FORMAT_PROPERTY),
                locale=context.locale,
                max_string_length=context.max_string_length,
            )
        )
    return ok(response.text)
