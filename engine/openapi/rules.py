"""The rules ``openapi check`` reports: each one's default severity and a one-line description.

The severity model: what stops the tools from loading or working, and what the OpenAPI
specification forbids, is an error; what is questionable rather than wrong (a default that its
own schema refuses, a description that may mislead, a part that could not be checked) is a
warning. ``--severity RULE=error|warning|off`` and the configuration file change a rule's
severity (``check_config``); the README lists every rule from this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import ERROR, WARNING

OFF = "off"
SEVERITIES = (ERROR, WARNING, OFF)


@dataclass(frozen=True)
class Rule:
    id: str
    severity: str  # the default: error or warning
    summary: str
    area: str  # "spec" (the OpenAPI specification), "x-agent" (the tools), "live" (--live)


def _rules(*rules: Rule) -> dict[str, Rule]:
    return {rule.id: rule for rule in rules}


RULES: dict[str, Rule] = _rules(
    # -- the OpenAPI specification ------------------------------------------------------------
    Rule("openapi-version", ERROR, "The document is not OpenAPI 3.x.", "spec"),
    Rule("document-unreadable", ERROR, "The document (or a file a $ref names) cannot be read or parsed.", "spec"),
    Rule("openapi-schema", ERROR, "The document breaks the OpenAPI specification's JSON Schema.", "spec"),
    Rule("operation-id-duplicate", ERROR, "Two operations have the same operationId.", "spec"),
    Rule("path-parameter-undeclared", ERROR, "A {name} of a path template has no path parameter.", "spec"),
    Rule("path-parameter-not-in-path", ERROR, "A path parameter names no {name} of its path template.", "spec"),
    Rule("parameter-duplicate", ERROR, "A parameter list names the same name and location twice.", "spec"),
    Rule("tag-duplicate", ERROR, "Two tags have the same name.", "spec"),
    Rule("header-name-invalid", ERROR, "A header parameter or response header has a name HTTP does not allow.", "spec"),
    Rule(
        "server-variable-default-not-in-enum",
        ERROR,
        "A server variable's default is not one of its enum values (OpenAPI 3.1 and later).",
        "spec",
    ),
    Rule("pattern-invalid", ERROR, "A pattern is not a valid regular expression.", "spec"),
    Rule(
        "pattern-backtracking",
        WARNING,
        "A pattern needs backtracking (a back-reference or look-around): slow on long values in many validators.",
        "spec",
    ),
    Rule("ref-unresolvable", ERROR, "A $ref leads nowhere: no such file, or nothing at its pointer.", "spec"),
    Rule(
        "ref-not-allowed",
        ERROR,
        "A $ref stands where the specification takes no reference (an operation, a description).",
        "spec",
    ),
    Rule("ref-wrong-kind", ERROR, "A $ref leads to an object of another kind than its place expects.", "spec"),
    Rule(
        "ref-not-followed",
        WARNING,
        "A $ref to a URL (or past the limits of what is read) was not followed, so its target is not checked.",
        "spec",
    ),
    Rule("default-invalid", WARNING, "A schema's default does not match the schema.", "spec"),
    Rule(
        "required-undeclared",
        WARNING,
        "required, beside allOf, names a property no part of the schema declares.",
        "spec",
    ),
    Rule(
        "structure-not-checked",
        WARNING,
        "Part of the validation against the OpenAPI specification could not run.",
        "spec",
    ),
    Rule("base-url-missing", WARNING, "The document gives no absolute server URL; requests need --base-url.", "spec"),
    # -- x-agent annotations and the tools they give --------------------------------------------
    Rule("x-agent-invalid", ERROR, "An x-agent annotation does not match the vocabulary.", "x-agent"),
    Rule("skill-description-too-long", WARNING, "A skill description is longer than Agent Skills allow.", "x-agent"),
    Rule("profile-include-undeclared", ERROR, "A profile includes a profile that is not declared.", "x-agent"),
    Rule("profile-include-cycle", ERROR, "Profile includes form a cycle.", "x-agent"),
    Rule("profile-undeclared", ERROR, "An operation or tag lists a profile that is not declared.", "x-agent"),
    Rule("operation-id-missing", ERROR, "An annotated operation has no operationId to name its tool after.", "x-agent"),
    Rule("parameter-invalid", ERROR, "A parameter of an annotated operation has no name.", "x-agent"),
    Rule(
        "ref-external",
        ERROR,
        "An annotated operation uses a $ref to another file; tools are built from one document.",
        "x-agent",
    ),
    Rule("tool-name-duplicate", ERROR, "Two tools of one profile would have the same name.", "x-agent"),
    Rule("body-fields-invalid", ERROR, "bodyFields does not fit the request body.", "x-agent"),
    Rule("select-param-invalid", ERROR, "response.selectParam does not name a usable parameter.", "x-agent"),
    Rule("scalar-example-for-array", ERROR, "An array parameter's description shows a single quoted value.", "x-agent"),
    Rule(
        "comma-separated-array", ERROR, "An array parameter's description talks of a comma-separated list.", "x-agent"
    ),
    Rule(
        "quoted-value-not-in-enum",
        ERROR,
        "A description quotes a value the parameter's enum does not allow.",
        "x-agent",
    ),
    Rule(
        "editor-json-body-missing",
        ERROR,
        "An editor's write operation has no application/json request body.",
        "x-agent",
    ),
    Rule("editor-operation-missing", ERROR, "An editor names an operationId the document does not have.", "x-agent"),
    Rule(
        "editor-operation-ambiguous", ERROR, "An editor names an operationId that several operations share.", "x-agent"
    ),
    Rule(
        "editor-path-parameter-missing",
        ERROR,
        "An editor's named operation needs a path parameter the write operation lacks.",
        "x-agent",
    ),
    Rule(
        "editor-path-parameter-clash",
        ERROR,
        "An editor's path parameter has the name of a form tool argument.",
        "x-agent",
    ),
    # -- openapi check --live ------------------------------------------------------------------------
    Rule("editor-live-parameter-missing", ERROR, "No --param value for an editor's schema operation.", "live"),
    Rule("editor-live-request-failed", ERROR, "An editor's schema or record request failed.", "live"),
    Rule("editor-live-schema-unusable", ERROR, "The form cannot be built from an editor's schema.", "live"),
    Rule(
        "editor-live-schema-unchecked",
        WARNING,
        "Part of an editor's schema is not checked (a reference that cannot be followed, a keyword that is not "
        "valid JSON Schema).",
        "live",
    ),
    Rule(
        "editor-live-field-unfixable",
        ERROR,
        "A column hidden from the form (attachment, computed) keeps the record from ever being saved.",
        "live",
    ),
    Rule(
        "editor-live-field-required-hidden",
        WARNING,
        "A required column is hidden from the form, so a record without it could never be saved.",
        "live",
    ),
    Rule("editor-live-record-invalid", WARNING, "The record read does not satisfy its own schema.", "live"),
    Rule("editor-live-options-host", WARNING, "A field's options come from another host than the API.", "live"),
)


def default_severity(rule: str, emitted: str) -> str:
    """The severity a finding of ``rule`` gets without configuration: the table's, or for a rule
    the table does not know, the one its check gave it."""
    known = RULES.get(rule)
    return known.severity if known is not None else emitted
