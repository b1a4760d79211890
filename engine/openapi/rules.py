"""The rules ``openapi check`` reports, with a one-line description each (SARIF lists them)."""

from __future__ import annotations

RULES: dict[str, str] = {
    "openapi-version": "The document is not OpenAPI 3.x.",
    "openapi-schema": (
        "The document breaks the OpenAPI specification (its JSON Schema, or a rule across objects such as "
        "unique operationIds) in a place the tools do not depend on."
    ),
    "x-agent-invalid": "An x-agent annotation does not match the vocabulary (unknown key, wrong type, bad name).",
    "skill-description-too-long": "A skill description is longer than the Agent Skills format allows.",
    "profile-include-undeclared": "A profile includes a profile that is not declared.",
    "profile-include-cycle": "Profile includes form a cycle.",
    "operation-id-missing": "An annotated operation has no operationId to name its tool after.",
    "parameter-invalid": "A parameter of an annotated operation has no name.",
    "path-parameter-undeclared": "A path placeholder of an annotated operation has no path parameter.",
    "ref-external": "A $ref points outside the document; only local references are followed.",
    "ref-unresolvable": "A $ref leads nowhere in the document.",
    "tool-name-duplicate": "Two tools of one profile would have the same name.",
    "body-fields-invalid": "bodyFields does not fit the request body.",
    "select-param-invalid": "response.selectParam does not name a usable parameter.",
    "editor-json-body-missing": "An editor's write operation has no application/json request body.",
    "editor-operation-missing": "An editor names an operationId the document does not have.",
    "editor-operation-ambiguous": "An editor names an operationId that several operations share.",
    "editor-path-parameter-missing": "An editor's named operation needs a path parameter the write operation lacks.",
    "editor-path-parameter-clash": "An editor's path parameter has the name of an argument of the form tools.",
    "editor-live-parameter-missing": "openapi check --live has no --param value for an editor's schema operation.",
    "editor-live-request-failed": "openapi check --live: an editor's schema or record request failed.",
    "editor-live-schema-unusable": "openapi check --live: the form cannot be built from an editor's schema.",
    "editor-live-schema-unchecked": (
        "openapi check --live: part of an editor's schema is not checked (a reference that cannot be followed, "
        "a keyword that is not valid JSON Schema)."
    ),
    "editor-live-field-unfixable": (
        "openapi check --live: a column hidden from the form (attachment, computed) keeps the document invalid."
    ),
    "editor-live-record-invalid": "openapi check --live: the record read does not satisfy its own schema.",
    "editor-live-options-host": "openapi check --live: a field's options come from a host other than the API.",
    "scalar-example-for-array": "An array parameter's description shows a single quoted value.",
    "comma-separated-array": "An array parameter's description talks of a comma-separated list.",
    "quoted-value-not-in-enum": "A description quotes a value the parameter's enum does not allow.",
    "base-url-missing": "The document gives no absolute server URL; requests need --base-url.",
    "structure-not-checked": "Part of the validation against the OpenAPI specification could not run.",
    "pattern-backtracking": (
        "A pattern needs backtracking (a back-reference or look-around): slow on long values in many validators."
    ),
}
