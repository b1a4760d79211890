"""Why each ``openapi check`` rule exists and how to fix what it reports, for ``deskcheck openapi
rule NAME`` (the rule table itself, ``rules.RULES``, says what each one finds and its default
severity).

A rule the table gains without an entry here is still explained, from its area's general text
(``AREA_DOCS``): every rule of the table can be looked up.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .rules import RULES, Rule


@dataclass(frozen=True)
class RuleDoc:
    """A rule as ``openapi rule`` tells it."""

    id: str
    severity: str
    area: str
    what: str
    why: str
    fix: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


# area -> (why, fix) for a rule without its own entry.
AREA_DOCS = {
    "spec": (
        "The OpenAPI specification does not allow it: validators, code generators and gateways may refuse the "
        "document or read it differently from what you meant.",
        "Correct the document at the JSON pointer the finding gives.",
    ),
    "x-agent": (
        "The tools deskcheck builds from the annotations would not load, or would mislead the agent that calls them.",
        "Correct the x-agent annotation at the JSON pointer the finding gives (the README's OpenAPI annotations "
        "section describes each key).",
    ),
    "live": (
        "The running API answered in a way that makes the editor group fail for an agent, although the document "
        "itself is valid.",
        "Fix the API's answer (or the annotation that asks for it), then run the check with --live again.",
    ),
}

# rule id -> (why it matters, how to fix it)
DOCS: dict[str, tuple[str, str]] = {
    "openapi-version": (
        "deskcheck reads OpenAPI 3.0, 3.1 and 3.2 only; a Swagger 2.0 or unversioned document gives no tools.",
        'Convert a Swagger 2.0 document to OpenAPI 3 (swagger2openapi does it), or set "openapi": "3.1.0".',
    ),
    "document-unreadable": (
        "Nothing else can be checked in a document that cannot be read.",
        "Check the path or URL, and that the file is JSON or YAML that parses; the finding quotes the parser's "
        "error with its line.",
    ),
    "openapi-schema": (
        "The official OpenAPI JSON Schema rejects the document, so standard tooling will too.",
        "Fix the value at the reported pointer; the message names the keyword that failed.",
    ),
    "operation-id-duplicate": (
        "operationIds name operations uniquely; tools are named after them, so two would collide.",
        "Give one of the two operations another operationId.",
    ),
    "path-parameter-undeclared": (
        "A request to that path cannot be built: nothing says what fills the {name}.",
        "Declare a parameter with in: path, required: true and that name, on the path or the operation.",
    ),
    "path-parameter-not-in-path": (
        "A path parameter that the template does not contain can never be sent.",
        "Rename it to match a {name} of the path, or remove it.",
    ),
    "parameter-duplicate": (
        "Two parameters with one name and location are ambiguous; the specification forbids it.",
        "Remove the duplicate, or give it another name or location.",
    ),
    "tag-duplicate": (
        "Tag names must be unique; tools and documentation group operations by them.",
        "Merge the two tag objects into one.",
    ),
    "header-name-invalid": (
        "HTTP cannot send a header with that name (a space, a colon, a character outside the token set).",
        "Rename the header to letters, digits and - (for example X-Request-Id).",
    ),
    "server-variable-default-not-in-enum": (
        "OpenAPI 3.1 requires a server variable's default to be one of its enum values; the URL built from it "
        "would otherwise be one the API does not offer.",
        "Make the default one of the enum values, or add it to the enum.",
    ),
    "pattern-invalid": (
        "A pattern that does not compile makes validation fail for every value, or be skipped.",
        "Fix the regular expression (ECMA-262 syntax); the message gives the compiler's error.",
    ),
    "pattern-backtracking": (
        "Back-references and look-around need a backtracking engine: slow on long values, and unsupported by "
        "some validators (deskcheck tests such patterns within bounds).",
        "Rewrite the pattern without them when you can, or set the rule to off if the values are always short.",
    ),
    "ref-unresolvable": (
        "A $ref that leads nowhere leaves that part of the document undefined.",
        "Correct the file name or the JSON pointer after #; the message says which part is missing.",
    ),
    "ref-not-allowed": (
        "The specification takes a $ref only where a Reference Object is allowed; elsewhere it is ignored or rejected.",
        "Inline the object, or move the $ref to a place that accepts one (a schema, a parameter, a response).",
    ),
    "ref-wrong-kind": (
        "A $ref to the wrong kind of object (a schema where a parameter is expected) reads as nonsense.",
        "Point the $ref at an object of the kind its place expects (components/parameters for a parameter, ...).",
    ),
    "ref-not-followed": (
        "deskcheck does not fetch URLs unless allowed, so whatever the $ref names was not checked.",
        "Allow its host with --allow-host HOST, vendor the file next to the document, or set the rule to off.",
    ),
    "default-invalid": (
        "A client that fills the default sends a value the API's own schema refuses.",
        "Change the default to a value the schema accepts, or correct the schema.",
    ),
    "required-undeclared": (
        "A required property that no part of the schema declares is often a typo or a leftover, and forms cannot "
        "offer a field for it.",
        "Declare the property (in the schema or one of its allOf parts), or remove it from required.",
    ),
    "structure-not-checked": (
        "Part of the document could not be validated (too large, or a validator limit was reached), so problems "
        "there may be missed.",
        "Split the document or simplify the part the message names; set the rule to off to accept it.",
    ),
    "base-url-missing": (
        "Without an absolute server URL the tools do not know where to send requests.",
        'Add servers: [{"url": "https://api.example.org"}], or give --base-url when calling the tools.',
    ),
    "x-agent-invalid": (
        "An annotation outside the x-agent vocabulary is ignored or misread, so the tool is not what you meant.",
        "Correct the key or value at the reported pointer; the message names the allowed ones.",
    ),
    "skill-description-too-long": (
        "Agent Skills cap a skill's description; a longer one is cut or refused by hosts that enforce it.",
        "Shorten the description, moving detail into the skill's body.",
    ),
    "profile-include-undeclared": (
        "An include of a profile that does not exist selects nothing: its tools silently go missing.",
        "Declare the profile under x-agent.profiles, or remove it from includes.",
    ),
    "profile-include-cycle": (
        "Profiles that include each other have no defined set of tools.",
        "Remove one of the includes that close the cycle.",
    ),
    "profile-undeclared": (
        "An operation listed only in undeclared profiles is loaded by none: its tool silently disappears.",
        "Declare the profile under x-agent.profiles, or correct the name.",
    ),
    "operation-id-missing": (
        "Tools are named after operationIds; an annotated operation without one cannot become a tool.",
        "Give the operation an operationId, or an x-agent.name.",
    ),
    "parameter-invalid": (
        "A parameter without a name cannot be sent or offered to the agent.",
        "Give the parameter a name (and an in: location).",
    ),
    "ref-external": (
        "Tools are built from one document; a $ref into another file in an annotated operation is not followed "
        "when tools load.",
        "Bundle the document (inline the referenced parts), or move them into its components.",
    ),
    "tool-name-duplicate": (
        "Two tools with one name in a profile clash: an agent can call only one of them.",
        "Give one of the operations another x-agent.name (or operationId).",
    ),
    "body-fields-invalid": (
        "bodyFields names properties the request body does not have, so the tool's arguments would not reach the API.",
        "Correct bodyFields to properties of the JSON request body.",
    ),
    "select-param-invalid": (
        "response.selectParam must name a query parameter that selects fields; otherwise the tool cannot trim "
        "its answers.",
        "Point it at an existing query parameter that takes field names, or remove it.",
    ),
    "scalar-example-for-array": (
        "A description that shows one quoted value for an array parameter teaches the agent to send a string "
        "where a list is expected.",
        'Show a list in the description (["a", "b"]) or describe the items instead.',
    ),
    "comma-separated-array": (
        "The tool takes a JSON array; telling the agent to write a comma-separated list makes it send one string.",
        "Describe the parameter as a list of values, without mentioning commas.",
    ),
    "quoted-value-not-in-enum": (
        "An agent copies quoted values from descriptions; one the enum refuses makes its call fail.",
        "Quote only allowed values, or add the value to the enum.",
    ),
    "editor-json-body-missing": (
        "saveForm sends the whole record as JSON; a write operation without an application/json body cannot take it.",
        "Give the write operation an application/json request body, or annotate another operation.",
    ),
    "editor-operation-missing": (
        "The editor cannot read its schema or record through an operation that does not exist.",
        "Correct the operationId, or add the operation.",
    ),
    "editor-operation-ambiguous": (
        "Several operations share that operationId, so which one the editor calls is undefined.",
        "Make the operationIds unique (see operation-id-duplicate).",
    ),
    "editor-path-parameter-missing": (
        "The named operation needs a path parameter that the write operation does not have, so a form session "
        "cannot fill it.",
        "Add the parameter to the write operation's path, or use an operation with the same parameters.",
    ),
    "editor-path-parameter-clash": (
        "A path parameter named like a form tool argument (path, value, data...) would be mistaken for it.",
        "Rename the path parameter.",
    ),
    "editor-live-parameter-missing": (
        "The schema request needs a path parameter value that the check was not given.",
        "Pass it with --param name=value.",
    ),
    "editor-live-request-failed": (
        "The editor's schema or record could not be fetched, so an agent's form session would fail the same way.",
        "Check --base-url, the credentials (--token, --header) and that the API answers the request the message shows.",
    ),
    "editor-live-schema-unusable": (
        "A form cannot be built from the schema the API returned, so the editor group's tools fail.",
        "Fix the schema the API serves; the message names the part deskcheck could not use.",
    ),
    "editor-live-schema-unchecked": (
        "Part of the served schema (an unresolvable reference, an invalid keyword) is skipped, so values there "
        "are not validated.",
        "Fix or remove the part the message names.",
    ),
    "editor-live-field-unfixable": (
        "A required column hidden from the form can never be filled, so no record can be saved through it.",
        "Make the column optional, give it a default, or show it in the form.",
    ),
    "editor-live-field-required-hidden": (
        "A record without that column could never be saved, since the form cannot offer it.",
        "Show the column in the form, or make it optional.",
    ),
    "editor-live-record-invalid": (
        "The record already fails its own schema: an agent's first save would be refused until it is fixed.",
        "Fix the record, or the schema if the record is right.",
    ),
    "editor-live-options-host": (
        "Fetching a field's options from another host sends requests where the user may not expect them.",
        "Serve the options from the API's own host, or allow the other host explicitly with --allow-host.",
    ),
}


def rule_doc(rule: Rule) -> RuleDoc:
    why, fix = DOCS.get(rule.id) or AREA_DOCS.get(rule.area) or AREA_DOCS["spec"]
    return RuleDoc(rule.id, rule.severity, rule.area, rule.summary, why, fix)


def all_rule_docs() -> list[RuleDoc]:
    """Every rule of the table, in its order."""
    return [rule_doc(rule) for rule in RULES.values()]
