"""An OpenAPI document as read: its text and where each value stands.

``source`` reads a file or URL (``yaml_source`` for YAML, ``unrepresentable`` for values JSON
cannot hold, ``positions`` for lines and columns, ``document_error`` for what does not parse);
``documents`` is the set of documents references reach; ``vocabulary`` the x-agent keywords;
``problems`` a finding with its place; ``schema_messages`` words schema errors; ``text`` the
small wording helpers.

The lowest openapi layer: it imports the shared HTTP client, the forms ``schema`` layer and the
engine's shared modules.
"""
