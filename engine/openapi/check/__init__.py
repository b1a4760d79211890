"""``openapi check``: ``check.check_source`` runs the rules (and, with ``live``, ``live_check``
against the running API) and returns findings; ``report`` and ``sarif`` render them,
``check_config`` reads the severities a project sets.

The top openapi layer: it may import every layer below it.
"""
