"""Samples shipped with deskcheck: things to point the tools at on a fresh machine.

- ``deskcheck.samples.records_api``: a small dataset-records API (a real HTTP server on
  127.0.0.1 over SQLite) with an OpenAPI 3.1 document annotated with ``x-agent``.

Nothing here is imported by the CLI at start-up; ``deskcheck sample-api`` and ``deskcheck demo``
import what they need when they run.
"""
