"""suggest_changes: the versioned batch of edit operations, from the caller's JSON to tracked
changes in the document.

Modules: ``limits`` (caps), ``fields`` (schema + decoder per property), ``spec`` (what an
operation type is), ``registry`` (the contract's types in order and their handler modules),
``options`` (the host's ``SuggestOptions``), ``decode`` (lenient decoding, normalisations),
``schema`` (the tool's schema and capabilities text, generated from the specs), ``context``
(what handlers get), ``textmap`` (editing a paragraph's text by UTF-16 offsets), ``execute``
(replay, version check, resolve, overlap, apply with rollback), ``replay`` (applied ids inside the
.docx), ``explain`` (skip code -> reason), ``queue`` (parked batches); one module per family of
operation types (``text_replace``, ``comment_ops``, ``format_range``, ``insert_block``,
``replace_block``, ``delete_block``, ``split_merge``, ``paragraph_properties``).

How to add an operation type (for example a table operation), in one module:

1. Create ``edit/<name>.py`` (no lxml import at module level) defining ``SPECS = (
   OperationSpec(name=..., summary=..., fields=(...), resolve=..., apply=...),)``:

   - ``fields``: the type's own properties, built with ``fields.block_id_field``,
     ``string_field``, ``integer_field``, ``enum_field``, ``string_list_field`` ... (or a
     ``Field`` with its own decoder). ``id``, ``type``, ``precondition``, ``severity``, ``area``
     and (unless ``comment=False``) ``comment`` are added by the framework. ``check`` validates
     across fields at decode time (raise ``DecodeError``).
   - ``resolve(ctx: ResolveContext, op: Operation, block) -> Plan``: runs before anything changes;
     ``block`` is the target block (``blockId`` or the range's), already checked against the
     precondition. Raise ``Skip(code, **details)`` (codes and messages in ``explain``). Return
     ``Plan(op, order, claims, reverse_ties=..., touches=[elements], **data)``: ``order`` is a
     tuple sorted descending at apply time (use ``(block.index, sub, offset)``); ``claims`` are
     ``Claim(key, start, end, exclusive)`` (e.g. ``Claim(("table", tbl))``) — a later operation
     whose claim conflicts is skipped as overlappingOperation; ``touches`` are the elements the
     apply step may change (they and their parents' child lists are backed up and restored if
     the operation is skipped while applying; ``keeps_siblings=True`` in the plan's data skips
     the parents' lists for an operation that never adds or removes siblings).
   - ``apply(ctx: ApplyContext, plan) -> Applied(affected, comment_span)``: edit the tree;
     ``ctx.tracked`` tells the mode, ``ctx.revisions`` stamps revision elements (see
     ``wml.revisions``: ``mark_row``, ``mark_cell``, ``insert_runs``, ``mark_paragraph`` ...),
     ``ctx.new_paragraph(like, seed)`` makes a paragraph with a fresh id. ``affected`` is the
     receipt's list of typed targets (e.g. ``{"type": "tableRow", "story": "main",
     "anchorBlockId": ..., "effect": "deleted"}``).
   - ``modes``: ``("direct",)`` for a direct-only type (tracked mode then skips it with
     unsupportedMode); ``default=False`` keeps it out of the default operationTypes.

2. Put the module name next to the type in ``registry.OPERATION_MODULES``.

The schema, the capabilities text, the CLI flags and the decoding follow from the spec.

May import ``review``, ``model``, ``package`` and ``wml`` (and the engine's shared modules);
never ``versions`` or ``tools``.
"""
