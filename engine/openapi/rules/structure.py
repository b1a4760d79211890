"""The document against the OpenAPI specification itself: its official JSON Schema, and the rules
that schema cannot express.

Two passes, both fast enough to run on every check (a 0.6 MB document in ~0.1 s):
- the whole document against the OpenAPI 3.0/3.1/3.2 JSON Schema, Schema Objects included
  (``oas_schemas``: the published schemas, validated with jsonschema-rs);
- the cross-object rules (``oas_rules``): unique operationIds and tags, path templates against
  path parameters, repeated parameters, references (into other files too), defaults against
  their schemas, regular expressions, ``required`` beside ``allOf``.

Each finding has its own rule (``rules.RULES`` gives its severity: what the specification forbids
is an error) and points at the place where the fix goes. Every finding is reported, up to the
report's limit: past it, the validation against the schema stops and says where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import jsonpointer
from ..document.documents import DocumentSet
from ..document.problems import ERROR, WARNING, Problem
from ..document.schema_messages import error_messages
from .misplaced_refs import misplaced_message, misplaced_reference
from .rules import default_severity

if TYPE_CHECKING:
    from .schema_parts import Part

# Errors of the schema a check gathers per finding a report lists, at most (each costs ~0.1 ms).
ERRORS_PER_FINDING = 4


def structural_problems(documents: DocumentSet, limit: int | None = None) -> list[Problem]:
    """What the specification forbids in ``documents``. Past ``limit`` violations of the OpenAPI
    schema, the rest of the document is not validated against it (a warning says from where)."""
    from . import oas_schemas

    document = documents.root.data
    family = oas_schemas.family_of(document.get("openapi"))
    if family is None:
        return [
            _not_checked(
                f"OpenAPI {document.get('openapi')} documents are not validated against an OpenAPI schema "
                f"(deskcheck has those of {', '.join(oas_schemas.FAMILIES)}).",
                "/openapi",
            )
        ]
    label = f"OpenAPI {family.name}"
    problems: list[Problem] = []
    dialect = document.get("jsonSchemaDialect") if family.dialect else None
    try:
        try:
            validator = oas_schemas.document_validator(family, dialect if isinstance(dialect, str) else None)
        except oas_schemas.UnknownDialect:
            problems.append(
                _not_checked(
                    f"the schemas of this document were not validated: its jsonSchemaDialect {dialect!r} is not "
                    "one deskcheck knows (the OpenAPI dialect, or JSON Schema draft-04 to 2020-12).",
                    "/jsonSchemaDialect",
                )
            )
            validator = oas_schemas.document_validator(family, oas_schemas.ANY_DIALECT)
    except oas_schemas.SchemasUnavailable as exc:
        return [_not_checked(f"the document was not validated against the OpenAPI schema: {exc}", "")]
    try:
        problems += _schema_problems(validator, document, label, limit)
    except ValueError as exc:  # a value the validator cannot take as JSON
        problems.append(_not_checked(f"the document could not be validated against the OpenAPI schema: {exc}", ""))
    from .oas_rules import rule_findings

    findings, unchecked = rule_findings(documents, family, dialect if isinstance(dialect, str) else None)
    problems += [_not_checked(sentence, "") for sentence in unchecked]
    for rule, location, message in findings:
        uri, pointer = documents.split(location)
        where = documents.location(uri, _existing_place(documents.documents[uri].data, pointer))
        problems.append(Problem(rule, f"{label}: {message}.", where, default_severity(rule, ERROR)))
    return problems


def _schema_problems(validator: Any, document: dict[str, Any], label: str, limit: int | None) -> list[Problem]:
    from .schema_parts import parts

    problems: dict[tuple[str, str], Problem] = {}
    gathered = 0  # the validator's errors, each branch of a oneOf or anyOf counted (what costs)
    for part in parts(document):
        if limit is not None and (len(problems) > limit or gathered > ERRORS_PER_FINDING * limit):
            stopped = _not_checked(
                f"the validation against the {label} schema stopped after {len(problems):,} findings ({gathered:,} "
                f"errors of the schema), more than a report lists; from {part.start or '/'} on, the document was not "
                "validated against it. Fix those listed and check again.",
                part.start,
            )
            return [*problems.values(), stopped]
        gathered += _part_problems(validator, part, document, label, problems)
    return list(problems.values())


def _part_problems(
    validator: Any, part: Part, document: dict[str, Any], label: str, problems: dict[tuple[str, str], Problem]
) -> int:
    """Adds the part's findings to ``problems``; how many errors the validator gave."""
    gathered = 0
    for error in validator.iter_errors(part.document):
        gathered += _count(error)
        # The 3.1 dialect reaches some keywords along several paths: one finding per place.
        for pointer, message in error_messages([error]):
            if message.startswith(("must NOT have additional properties (", "must NOT have unevaluated properties (")):
                pointer = jsonpointer.append(pointer, message[message.index("(") + 1 : -1])
            pointer = _existing_place(document, part.pointer(pointer))
            misplaced = misplaced_reference(document, pointer)
            if misplaced is not None:
                ref = jsonpointer.resolve(document, misplaced)
                message = f"{label}: {misplaced_message(ref)}."
                problems.setdefault((misplaced, ""), Problem("ref-not-allowed", message, misplaced, ERROR))
                continue
            problems.setdefault(
                (pointer, message), Problem("openapi-schema", f"{label} schema: {message}.", pointer, ERROR)
            )
    return gathered


def _count(error: Any) -> int:
    """The error and every error of the branches it holds."""
    context = getattr(error.kind, "context", None) or []
    return 1 + sum(_count(inner) for branch in context for inner in branch)


def _existing_place(document: Any, pointer: str) -> str:
    """``pointer``, or its nearest ancestor that exists in the document. jsonschema-rs leaves
    members with an empty name out of the paths it reports (0.61), so a path through one names
    no place; its parent still does."""
    while pointer and not jsonpointer.exists(document, pointer):
        pointer = pointer.rsplit("/", 1)[0]
    return pointer


def _not_checked(message: str, pointer: str) -> Problem:
    return Problem("structure-not-checked", message, pointer, WARNING)
