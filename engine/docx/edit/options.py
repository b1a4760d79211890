"""The options that shape suggest_changes for one host, shared by the schema, the capabilities
text and the executor (so what a model is told and what the executor accepts are one thing)."""

from __future__ import annotations

from typing import NamedTuple

from ...errors import InputError
from . import registry
from .limits import DEFAULT_MAX_OPERATIONS, MAX_OPERATIONS, MIN_OPERATIONS
from .spec import MODES

TABLE_REVISIONS = ("cells", "rows")  # see row_replacement (kept here: the CLI imports no lxml)

REVIEW_META = ("optional", "required")


class SuggestOptions(NamedTuple):
    # The types the host chose (contract order), or () for the default set.
    chosen_types: tuple[str, ...]
    review_meta: str = "optional"
    max_operations: int = DEFAULT_MAX_OPERATIONS
    require_document_version: bool = False
    mode: str = "tracked-changes"
    # How tracked column, merge and split changes are written: "cells" or "rows" (row_replacement).
    table_revisions: str = "cells"

    @property
    def operation_types(self) -> tuple[str, ...]:
        """The enabled types. The default set depends on every spec, so it loads every handler
        module: ``allows`` answers for one type without that."""
        return self.chosen_types or registry.default_types()

    def allows(self, name: str) -> bool:
        if self.chosen_types:
            return name in self.chosen_types
        return registry.is_available(name) and registry.get_spec(name).default

    @classmethod
    def build(
        cls,
        operation_types: tuple[str, ...] | list[str] = (),
        review_meta: str = "optional",
        max_operations: int = DEFAULT_MAX_OPERATIONS,
        require_document_version: bool = False,
        mode: str = "tracked-changes",
        table_revisions: str = "cells",
    ) -> SuggestOptions:
        """Checked options; ``InputError`` (bad usage) names the value to fix. An empty
        ``operation_types`` means the defaults."""
        if mode not in MODES:
            raise InputError(f"the mode must be one of {', '.join(MODES)}, not {mode!r}.", code="badOption")
        if table_revisions not in TABLE_REVISIONS:
            raise InputError(
                f"tableRevisions must be one of {', '.join(TABLE_REVISIONS)}, not {table_revisions!r}.",
                code="badOption",
            )
        if review_meta not in REVIEW_META:
            raise InputError(
                f"reviewMeta must be one of {', '.join(REVIEW_META)}, not {review_meta!r}.", code="badOption"
            )
        if isinstance(max_operations, bool) or not MIN_OPERATIONS <= max_operations <= MAX_OPERATIONS:
            raise InputError(
                f"maxOperations must be between {MIN_OPERATIONS} and {MAX_OPERATIONS}, not {max_operations!r}.",
                code="badOption",
            )
        chosen: list[str] = []
        for name in operation_types:
            if name not in registry.CONTRACT_TYPES:
                raise InputError(
                    f"{name!r} is not a suggest_changes operation type; choose from "
                    f"{', '.join(registry.available_types())}.",
                    code="badOption",
                )
            if not registry.is_available(name):
                raise InputError(
                    f"{name} is part of the suggest_changes contract but deskcheck does not implement it yet; "
                    f"choose from {', '.join(registry.available_types())}.",
                    code="badOption",
                )
            if name not in chosen:
                chosen.append(name)
        types = tuple(t for t in registry.CONTRACT_TYPES if t in chosen)
        return cls(types, review_meta, max_operations, require_document_version, mode, table_revisions)

    @classmethod
    def from_docx_options(cls, options) -> SuggestOptions:
        """From the docx family's ``DocxOptions`` (the CLI's review flags)."""
        return cls.build(
            options.operation_types,
            options.review_meta,
            options.max_operations,
            options.require_document_version,
            options.mode,
            options.table_revisions,
        )
