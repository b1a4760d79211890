"""Where a form's schema and data come from, and where a save goes.

``sources`` defines the source protocol and the file and function sources; ``http_source`` reads
and saves one record of an API, ``remote_items`` fetches the options a schema lists by URL,
``schema_files`` follows a schema file's references, ``file_reading`` reads and parses a file for
both, ``file_settings`` reads a form's settings file.

Imports ``state``, ``schema``, the shared HTTP client (``engine/http``) and the engine's shared
modules; never the openapi family.
"""
