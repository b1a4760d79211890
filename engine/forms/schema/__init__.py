"""The compiled schema: a JSON Schema prepared for forms and checked against.

``compile`` turns a schema into a ``CompiledForm`` (after ``bundle`` inlines local references and
``compat_v2`` translates vjsf-v2 keywords); ``validation`` checks data with jsonschema-rs, worded
by ``messages``, with the ``formats`` and ``patterns`` deskcheck allows; ``expressions`` runs the
schema's JavaScript in a sandbox (``lockdown``), ``layout`` reads its layout keywords; ``values``
(unset, equality, type coercion) and ``record`` (the base of the small value classes) are shared by
every layer above.

The lowest forms layer: it imports only the engine's shared modules, no other forms layer.
"""
