"""Annotated OpenAPI documents as tools.

``load_openapi(spec, profiles=..., base_url=..., credentials=...)`` reads a document (a file, a
URL, or parsed data), validates its ``x-agent`` annotations and returns ``OpenApiTools``: a
``ToolSet`` of plain tools (one request each), the editor groups (resolved, for the form engine),
the selected skills and the instructions text. ``check_document`` reports everything a load
would refuse, with positions. Heavy libraries (httpx, jsonschema, jsonschema-rs, yaml) are
imported only when needed; openapi-spec-validator is never imported (its schema files are read).
"""
