"""Annotated OpenAPI documents as tools.

``load_openapi(spec, profiles=..., base_url=..., credentials=...)`` reads a document (a file, a
URL, or parsed data), validates its ``x-agent`` annotations and returns ``OpenApiTools``: a
``ToolSet`` of plain tools (one request each) and of the eight form tools of each editor group
(``editor_tools``: form sessions over the API, ``editor_source``), the selected skills and the
instructions text. ``check.check_source`` reports everything a load would refuse, with positions
(and with ``live``, what the running API reveals about each editor group: ``live_check``). Heavy
libraries (httpx, jsonschema, jsonschema-rs, yaml, the form engine) are imported only when needed;
openapi-spec-validator is never imported (its schema files are read).
"""
