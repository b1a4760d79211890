"""Where an editor group's form comes from and where it goes: the session source of one record.

An ``EditorSource`` is the ``FormSource`` (``engine.forms.sources``) of one editor-group session,
named by the write operation's path parameter values. It builds the requests from the group's
operations and hands them to the forms layer's ``HttpRecordSource``, which sends them through the
load's ``ApiCaller`` (credentials only to the API's origin, no redirects) with the precondition
headers of optimistic concurrency. Nothing is requested until the session needs it.

- the record: a GET on the read operation (its path parameters taken by name), or ``{}`` with no
  request in create mode (no read operation: every save creates a record);
- a save: the whole document through the write operation (its method, PUT or POST);
- the schema: the response of the schema operation (its path parameters by name, the
  annotation's ``schemaParams`` as extra query parameters; conditional on its ``ETag``), or the
  write operation's declared JSON body schema (its local ``$ref``s bundled from the document).

The schema is prepared as the seed says: the forms engine's preparation (vjsf-v2 keywords,
string layouts), then ``hide_unfillable_columns``: attachment columns (``x-refersTo`` a
``DigitalDocument``, unless already a text field) and computed ``x-extension`` columns are given
the component ``none``, so the form neither shows nor takes them (their values stay in the
document and go back unchanged with a save).

Versions: a fetched schema's version is a hash of its body, a declared schema's names the write
operation (and a hash of the document it comes from, since the store keeps prepared schemas
across processes and documents). Both carry the ``SCHEMA_VARIANT`` tag: a schema prepared with the
columns hidden must never share a compiled form with the same body prepared without.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...http.client import ApiCaller, HttpRequest, HttpResponse, RequestFailed
from ...refs import RefResolver
from ...urls import redact
from .editors import EditorGroup
from .operations import Operation
from .request import path_segment, query_pairs

if TYPE_CHECKING:
    from ...forms.sources.http_source import HttpRecordSource
    from ...forms.sources.sources import DocumentVersion, FetchedSchema, Loaded, Saved, SchemaTag

# Tags the versions of schemas prepared for editor groups (see the module docstring).
SCHEMA_VARIANT = "openapi-editor"
# Attachment columns: a file an agent has no way to upload (data-fair writes http://).
DIGITAL_DOCUMENT = ("http://schema.org/DigitalDocument", "https://schema.org/DigitalDocument")
# The one component under which an attachment column is plain text an agent can write.
TEXT_COMPONENT = "text-field"


def hide_unfillable_columns(prepared: dict[str, Any]) -> dict[str, Any]:
    """``prepared`` (a schema after ``forms.prepare_schema``) with its attachment and computed
    columns hidden (``layout.comp = "none"``); a new object when anything changed, the input
    itself otherwise (it is never modified). A root that is a local ``$ref`` (a declared body
    schema usually is) is replaced by its target first, so that its columns are top-level."""
    prepared = _root_inlined(prepared)
    properties = prepared.get("properties")
    if not isinstance(properties, dict):
        return prepared
    hidden = {}
    for name, column in properties.items():
        if isinstance(column, dict) and _unfillable(column):
            layout = column.get("layout") if isinstance(column.get("layout"), dict) else {}
            hidden[name] = {**column, "layout": {**layout, "comp": "none"}}
    if not hidden:
        return prepared
    return {**prepared, "properties": {**properties, **hidden}}


def prepare_editor_schema(schema: Any, *, document: Any = None) -> dict[str, Any]:
    """A fetched (or declared) schema as an editor group's form compiles it: the forms engine's
    preparation (``forms.prepare_schema``: local references bundled from ``document``, vjsf-v2
    keywords translated, string layouts normalised), then ``hide_unfillable_columns``. The input
    is never modified."""
    from ...forms.schema.compile import prepare_schema

    return hide_unfillable_columns(prepare_schema(schema, document=document))


def hidden_columns(prepared: dict[str, Any]) -> list[str]:
    """The top-level columns ``hide_unfillable_columns`` hides in ``prepared``."""
    properties = _root_inlined(prepared).get("properties")
    if not isinstance(properties, dict):
        return []
    return [name for name, column in properties.items() if isinstance(column, dict) and _unfillable(column)]


def _root_inlined(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return schema
    from ...refs import RefError

    try:
        _, target = RefResolver(schema).lookup(ref)
    except RefError:
        return schema  # the forms engine reports a broken reference itself
    if not isinstance(target, dict) or "$ref" in target:
        return schema
    siblings = {key: value for key, value in schema.items() if key != "$ref"}
    return {**target, **siblings}


def _unfillable(column: dict[str, Any]) -> bool:
    if "x-extension" in column:
        return True  # computed by the API: a value sent is replaced
    if column.get("x-refersTo") in DIGITAL_DOCUMENT:
        layout = column.get("layout")
        component = layout.get("comp") if isinstance(layout, dict) else layout
        return component != TEXT_COMPONENT
    return False


# -- requests ----------------------------------------------------------------------------------


def operation_url(
    operation: Operation,
    values: Mapping[str, Any],
    base_url: str,
    extra_query: Mapping[str, Any] | None = None,
) -> str:
    """The URL of ``operation`` for path parameter ``values`` (taken by name), with the
    operation's own ``x-agent.fixed`` values and ``extra_query`` (an editor's ``schemaParams``:
    sent even when the document does not declare them) as query parameters."""
    path = operation.path
    for parameter in operation.path_parameters:
        segment = path_segment(values[parameter.name], parameter.name, parameter.schema)
        path = path.replace("{" + parameter.name + "}", segment)
    pairs: list[tuple[str, str]] = []
    for name, value in {**_fixed(operation), **(extra_query or {})}.items():
        if value is not None:
            pairs += query_pairs(name, value, None)
    url = base_url.rstrip("/") + "/" + path.lstrip("/")
    if pairs:
        from urllib.parse import urlencode

        url += "?" + urlencode(pairs)
    return url


def _fixed(operation: Operation) -> dict[str, Any]:
    # A named operation is resolved without its annotation (editor references ignore x-agent),
    # but its own fixed values are part of how the API must be called.
    agent = operation.agent if operation.agent else operation.raw.get("x-agent")
    fixed = agent.get("fixed") if isinstance(agent, dict) else None
    return dict(fixed) if isinstance(fixed, dict) else {}


def declared_body_schema(document: dict[str, Any], operation: Operation) -> Any:
    """The write operation's JSON body schema as the document writes it (``$ref``s kept, so that
    the forms engine bundles them and a recursive schema stays recursive)."""
    resolver = RefResolver(document)
    body = resolver.deref(operation.raw.get("requestBody"))
    content = body.get("content") if isinstance(body, dict) else None
    for media, entry in (content or {}).items():
        if media.split(";", 1)[0].strip().lower() == "application/json" and isinstance(entry, dict):
            return entry.get("schema", {})
    return (operation.request_body or {}).get("schema", {})


class _NoBaseUrlClient:
    """The client of an API whose address is unknown: every request is refused with the
    sentence saying how to give it (the session reports it; nothing is sent anywhere)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def send(self, request: HttpRequest) -> HttpResponse:
        raise RequestFailed(self.message)


@dataclass
class EditorEndpoint:
    """What every source of one load shares: the caller, the API's base URL (None: unknown,
    ``no_base_url`` says how to give it), and the document (for declared schemas)."""

    caller: ApiCaller
    base_url: str | None
    no_base_url: str
    document: dict[str, Any]
    document_text: str | None = None
    _digest: str | None = field(default=None, repr=False)

    @property
    def document_digest(self) -> str:
        """A hash of the document, computed once (its text when it was read from text)."""
        if self._digest is None:
            text = self.document_text
            if text is None:
                text = json.dumps(self.document, sort_keys=True, ensure_ascii=False, default=str)
            self._digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        return self._digest


class EditorSource:
    """The source of one editor-group session (see the module docstring). ``values`` are the
    write operation's path parameter values, by name."""

    read_only = False
    check_schema_each_call = False

    def __init__(self, group: EditorGroup, values: Mapping[str, Any], endpoint: EditorEndpoint) -> None:
        self.group = group
        self.values = dict(values)
        self.endpoint = endpoint
        self.title = group.title
        self.creates = group.create_mode
        api = redact(endpoint.base_url or "")  # the key is stored: no password in it
        if group.schema_operation is not None:
            own = {p.name: self.values.get(p.name) for p in group.schema_operation.path_parameters}
            request = [group.schema_operation.operation_id, own, group.schema_params]
            self.schema_key = f"{SCHEMA_VARIANT}:{api}:" + json.dumps(request, sort_keys=True, default=str)
        else:
            self.schema_key = f"{SCHEMA_VARIANT}:{api}:declared:{group.write.operation_id}"
        self._http: HttpRecordSource | None = None

    @property
    def http(self) -> HttpRecordSource:
        """The forms layer's HTTP record source, built on first use."""
        if self._http is None:
            self._http = self._build()
        return self._http

    def _build(self) -> HttpRecordSource:
        from ...forms.sources.http_source import HttpRecordSource

        group, endpoint = self.group, self.endpoint
        caller = endpoint.caller
        base = endpoint.base_url
        if base is None:
            # Requests are built against a placeholder and refused by the client, so the
            # session says why (no --base-url) when it first needs the API.
            caller = ApiCaller(None, client=_NoBaseUrlClient(endpoint.no_base_url))
            base = "http://base-url.invalid"
        write = HttpRequest(group.write.method.upper(), operation_url(group.write, self.values, base))
        read = HttpRequest("GET", operation_url(group.read, self.values, base)) if group.read is not None else None
        if group.schema_operation is not None:
            url = operation_url(group.schema_operation, self.values, base, group.schema_params)
            return HttpRecordSource(
                caller,
                self.title,
                write=write,
                read=read,
                schema_request=HttpRequest("GET", url),
                schema_key=self.schema_key,
            )
        return HttpRecordSource(
            caller,
            self.title,
            write=write,
            read=read,
            declared_schema=declared_body_schema(endpoint.document, group.write),
            schema_document=endpoint.document,
            declared_version=f"{SCHEMA_VARIANT}:{group.write.operation_id}:{endpoint.document_digest}",
            schema_key=self.schema_key,
        )

    # -- the FormSource protocol ------------------------------------------------------------------

    @property
    def request_deadline(self) -> float | None:
        return self.http.request_deadline

    def load(self) -> Loaded:
        return self.http.load()

    def save(self, data: Any, *, version: DocumentVersion | None, base: Any) -> Saved:
        return self.http.save(data, version=version, base=base)

    def schema(self, known: SchemaTag | None) -> FetchedSchema:
        fetched = self.http.schema(known)
        if self.group.schema_operation is not None and not fetched.unchanged:
            # The fetched body's hash, tagged: this body is prepared with columns hidden.
            return fetched._replace(version=f"{SCHEMA_VARIANT}:{fetched.version}")
        return fetched

    def adjust_schema(self, prepared: dict[str, Any]) -> dict[str, Any]:
        return hide_unfillable_columns(prepared)
