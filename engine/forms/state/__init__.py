"""The form state: one record's data against a compiled schema, as the form tools see it.

``state.FormState`` holds the data, its conditions (``tree``), errors on fields (``errors``),
paths (``paths``), the options of choice fields (``suggestions``) and renders as text (``text``);
``rebase`` finds what changed between two copies and replays local changes onto a newer one;
``shared_values`` keeps a value a file writes once and uses in several places (a YAML anchor)
shared while it is edited.

Imports ``schema`` and the engine's shared modules only.
"""
