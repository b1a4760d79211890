"""A document turned into tools: ``load.load_openapi`` builds ``OpenApiTools``.

``operations`` and ``profiles`` pick the operations a load exposes; ``inputs``, ``arguments``,
``schema_summary`` and ``render`` describe their inputs; ``request`` and ``plain_tools`` make one
call each; ``editors``, ``editor_source`` and ``editor_tools`` build form sessions over the API,
on the forms family; ``skills`` holds the skill texts, ``lint`` finds x-agent descriptions that
contradict their schema, ``profile_hint`` names the profile that offers a missing tool.

Imports ``document``, the forms family, the shared HTTP client and the engine's shared modules;
not ``rules``.
"""
