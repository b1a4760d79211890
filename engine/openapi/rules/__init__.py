"""The static rules of ``openapi check``: ``rules`` lists them with their severities,
``structure`` checks the document against the OpenAPI schema (``oas_schemas``), ``oas_rules`` and
``schema_values`` check what that schema cannot say, ``misplaced_refs`` words a reference where
none may stand, ``rule_docs`` explains a rule.

Imports ``document``, the forms ``schema`` layer and the engine's shared modules; not ``tools``
(the two sit side by side).
"""
