"""The rules ``openapi check`` reports: each one's default severity and a one-line description.

The severity model: what stops the tools from loading or working, and what the OpenAPI
specification forbids, is an error; what is questionable rather than wrong (a default that its
own schema refuses, a description that may mislead, a part that could not be checked) is a
warning. ``--severity RULE=error|warning|off`` and the configuration file change a rule's
severity (``check_config``); docs/openapi-check.md lists every rule from this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..document.problems import ERROR, WARNING

OFF = "off"
SEVERITIES = (ERROR, WARNING, OFF)


@dataclass(frozen=True)
class Rule:
    id: str
    severity: str  # the default: error or warning
    summary: str  # one sentence: what it reports
    area: str  # "spec" (the OpenAPI specification), "x-agent" (the tools), "live" (--live)
    why: str  # why it matters (SARIF's fullDescription, with the summary)
    fix: str  # how to fix what it reports (SARIF's help)

    @property
    def explanation(self) -> str:
        """Why it matters and what to do, in one paragraph."""
        return f"{self.why} {self.fix}"


def _rules(*rules: Rule) -> dict[str, Rule]:
    return {rule.id: rule for rule in rules}


RULES: dict[str, Rule] = _rules(
    # -- the OpenAPI specification ------------------------------------------------------------
    Rule(
        "openapi-version",
        ERROR,
        "The document is not OpenAPI 3.x.",
        "spec",
        "deskcheck reads OpenAPI 3.0, 3.1 and 3.2 documents.",
        'Convert a Swagger 2.0 document to OpenAPI 3 (swagger2openapi does it), or set "openapi": "3.1.0".',
    ),
    Rule(
        "document-unreadable",
        ERROR,
        "The document (or a file a $ref names) cannot be read or parsed.",
        "spec",
        "The file is missing, not UTF-8, not valid JSON or YAML, too large or too deep, or holds a value no JSON "
        "reader takes (NaN, a number beyond a 64-bit float, a lone surrogate). The message gives the line and column "
        "where reading stopped.",
        "Check the path or URL, and that the file is JSON or YAML that parses; the finding quotes the parser's error "
        "with its line.",
    ),
    Rule(
        "openapi-schema",
        ERROR,
        "The document breaks the OpenAPI specification's JSON Schema.",
        "spec",
        "The document is checked against the official JSON Schema of its OpenAPI version (Schema Objects against the "
        "document's JSON Schema dialect). A missing required member, a member the object does not take or a value of "
        "the wrong type makes tools and code generators refuse or misread the document.",
        "Fix the value at the reported pointer; the message names the keyword that failed.",
    ),
    Rule(
        "operation-id-duplicate",
        ERROR,
        "Two operations have the same operationId.",
        "spec",
        "operationId MUST be unique among all operations (OpenAPI, Operation Object): generated clients and tools are "
        "named after it, and one of the two would be lost.",
        "Give one of the two operations another operationId.",
    ),
    Rule(
        "path-template-duplicate",
        ERROR,
        "Two path templates differ only in the names of their {parameters}.",
        "spec",
        "Templated paths with the same hierarchy but different templated names MUST NOT exist (OpenAPI, Paths "
        "Object): /users/{id} and /users/{name} match the same requests, so a router cannot tell which one is meant.",
        "Merge the two paths, or give one of them a literal segment.",
    ),
    Rule(
        "path-parameter-undeclared",
        ERROR,
        "A {name} of a path template has no path parameter.",
        "spec",
        "Each template expression of a path MUST correspond to a path parameter of the path item or of each of its "
        "operations (OpenAPI, Path Templating). Without one a client cannot fill the URL.",
        "Declare a parameter with in: path, required: true and that name, on the path or the operation.",
    ),
    Rule(
        "path-parameter-not-in-path",
        ERROR,
        "A path parameter names no {name} of its path template.",
        "spec",
        "A parameter with in: path MUST name a template expression of its path (OpenAPI, Parameter Object), on an "
        "operation or on the path item, with or without operations. Its value has nowhere to go: correct the name or "
        "the path.",
        "Rename it to match a {name} of the path, or remove it.",
    ),
    Rule(
        "parameter-duplicate",
        ERROR,
        "A parameter list names the same name and location twice.",
        "spec",
        "A parameter list MUST NOT include duplicated parameters, a unique parameter being a name and a location "
        "(OpenAPI, Operation Object and Path Item Object).",
        "Remove the duplicate, or give it another name or location.",
    ),
    Rule(
        "tag-duplicate",
        ERROR,
        "Two tags have the same name.",
        "spec",
        "Each tag name in the tags list MUST be unique (OpenAPI, OpenAPI Object).",
        "Merge the two tag objects into one.",
    ),
    Rule(
        "header-name-invalid",
        ERROR,
        "A header parameter or response header has a name HTTP does not allow.",
        "spec",
        "An HTTP field name is a token: letters, digits and !#$%&'*+-.^_`|~ (RFC 9110). A client cannot send, nor a "
        "server return, a header with spaces or separators in its name.",
        "Rename the header to letters, digits and - (for example X-Request-Id).",
    ),
    Rule(
        "server-variable-default-not-in-enum",
        ERROR,
        "A server variable's default is not one of its enum values (OpenAPI 3.1 and later).",
        "spec",
        "From OpenAPI 3.1 on, a server variable's default MUST be one of its enum values when enum is given.",
        "Make the default one of the enum values, or add it to the enum.",
    ),
    Rule(
        "pattern-invalid",
        ERROR,
        "A pattern is not a valid regular expression.",
        "spec",
        "pattern (and patternProperties keys) are ECMA-262 regular expressions; a validator that cannot compile one "
        "fails or accepts everything. The message says where the expression breaks.",
        "Fix the regular expression (ECMA-262 syntax); the message gives the compiler's error.",
    ),
    Rule(
        "pattern-backtracking",
        WARNING,
        "A pattern needs backtracking (a back-reference or look-around): slow on long values in many validators.",
        "spec",
        "Back-references and look-around force a backtracking engine, which can take exponential time on a long "
        "value. deskcheck bounds the steps it gives such a pattern; write it without them if you can.",
        "Rewrite the pattern without them when you can, or set the rule to off if the values are always short.",
    ),
    Rule(
        "ref-unresolvable",
        ERROR,
        "A $ref leads nowhere: no such file, or nothing at its pointer.",
        "spec",
        "The reference names a file that does not exist or cannot be read, a pointer with nothing at it, or a chain "
        "of references that loops.",
        "Correct the file name or the JSON pointer after #; the message says which part is missing.",
    ),
    Rule(
        "ref-not-allowed",
        ERROR,
        "A $ref stands where the specification takes no reference (an operation, a description).",
        "spec",
        "Only the places the specification marks as Reference Object take a $ref. Bundlers of multi-file documents "
        "inline such references, other tools refuse the document: bundle it, or move the reference.",
        "Inline the object, or move the $ref to a place that accepts one (a schema, a parameter, a response).",
    ),
    Rule(
        "ref-wrong-kind",
        ERROR,
        "A $ref leads to an object of another kind than its place expects.",
        "spec",
        "A parameter that refers to a schema, a response that refers to a request body: the target is read as the "
        "kind of object the place expects and breaks its rules.",
        "Point the $ref at an object of the kind its place expects (components/parameters for a parameter, ...).",
    ),
    Rule(
        "ref-not-followed",
        WARNING,
        "A $ref to a URL (or past the limits of what is read) was not followed, so its target is not checked.",
        "spec",
        "deskcheck fetches a URL only from the document's own host or a host allowed with --allow-host, and reads at "
        "most 5,000 files; what lies beyond is not checked.",
        "Allow its host with --allow-host HOST, vendor the file next to the document, or set the rule to off.",
    ),
    Rule(
        "default-type-mismatch",
        ERROR,
        "A schema's default is not of the type its schema declares (OpenAPI 3.0).",
        "spec",
        "OpenAPI 3.0 requires a default to be of the type of the Schema Object at the same level: a string default "
        "for an integer, an object default for an array breaks it, and a client sending the default sends a value the "
        "API refuses. Only the type is an error; what other keywords refuse (pattern, enum, minimum...), and from "
        "OpenAPI 3.1 on, where a default is a JSON Schema annotation, the type too, is default-invalid, a warning.",
        "Give the default a value of the schema's type, or correct the type.",
    ),
    Rule(
        "default-invalid",
        WARNING,
        "A schema's default does not match the schema (beyond its type).",
        "spec",
        "The default has the declared type but another keyword of its schema refuses it (pattern, enum, format, "
        "minimum, a property's type...); from OpenAPI 3.1 on, a wrong type too. The specification requires no more "
        "than the type of a 3.0 default (default-type-mismatch, an error), so this is a warning.",
        "Change the default to a value the schema accepts, or correct the schema.",
    ),
    Rule(
        "example-invalid",
        WARNING,
        "An example does not validate against its schema.",
        "spec",
        "An example or examples value of a parameter, header, media type or schema that its schema refuses misleads "
        "readers, mock servers and models copying it. Examples serialized as text for a media type that is not JSON "
        "(an XML string) and externalValue examples are not checked.",
        "Correct the example (the finding shows the first failures), or the schema if the example is right.",
    ),
    Rule(
        "ref-siblings-ignored",
        WARNING,
        "Keywords beside a $ref that the OpenAPI version ignores.",
        "spec",
        "In OpenAPI 3.0 an object with $ref is replaced by its target and every other keyword in it is ignored "
        "(nullable: true beside a $ref is lost); from 3.1 on a Reference Object keeps only summary and description.",
        "Wrap the reference in allOf, or move the keywords into the target.",
    ),
    Rule(
        "required-undeclared",
        WARNING,
        "required, beside allOf, names a property no part of the schema declares.",
        "spec",
        "A required property that no properties of the schema or of its allOf parts declares is often a typo; it "
        "makes every value without that property invalid.",
        "Declare the property (in the schema or one of its allOf parts), or remove it from required.",
    ),
    Rule(
        "structure-not-checked",
        WARNING,
        "Part of the validation against the OpenAPI specification could not run.",
        "spec",
        "An OpenAPI version or JSON Schema dialect deskcheck does not know, or a part that could not be compiled, was "
        "left unchecked, or the validation against the OpenAPI schema stopped after more violations than a report "
        "lists; the message says which, and from where.",
        "Split the document or simplify the part the message names; set the rule to off to accept it.",
    ),
    Rule(
        "findings-limit",
        WARNING,
        "More findings than a report lists (50,000); the rest are counted, not listed.",
        "spec",
        "A report lists at most 50,000 findings, errors first; this finding counts the others, and is an error when "
        "errors are among them.",
        "Fix those listed, or turn off the rules that report the most, and check again.",
    ),
    Rule(
        "base-url-missing",
        WARNING,
        "The document gives no absolute server URL; requests need --base-url.",
        "spec",
        "Tools send requests to servers[0].url. Without an absolute one, every call needs --base-url; give a servers "
        "entry with the API's address.",
        'Add servers: [{"url": "https://api.example.org"}], or give --base-url when calling the tools.',
    ),
    # -- x-agent annotations and the tools they give --------------------------------------------
    Rule(
        "x-agent-invalid",
        ERROR,
        "An x-agent annotation does not match the vocabulary.",
        "x-agent",
        "The annotation has a key the vocabulary does not define, or a value of the wrong type; the tool it describes "
        "would not load. docs/openapi.md lists the vocabulary.",
        "Correct the key or value at the reported pointer; the message names the allowed ones.",
    ),
    Rule(
        "skill-description-too-long",
        WARNING,
        "A skill description is longer than Agent Skills allow.",
        "x-agent",
        "Agent Skills cap a skill's description (1,024 characters); a longer one is cut where an agent lists it.",
        "Shorten the description, moving detail into the skill's body.",
    ),
    Rule(
        "profile-include-undeclared",
        ERROR,
        "A profile includes a profile that is not declared.",
        "x-agent",
        "x-agent.profiles.NAME.include names a profile that x-agent.profiles does not declare.",
        "Declare the profile under x-agent.profiles, or remove it from includes.",
    ),
    Rule(
        "profile-include-cycle",
        ERROR,
        "Profile includes form a cycle.",
        "x-agent",
        "Profiles that include each other in a loop have no defined set of tools.",
        "Remove one of the includes that close the cycle.",
    ),
    Rule(
        "profile-undeclared",
        ERROR,
        "An operation or tag lists a profile that is not declared.",
        "x-agent",
        "A profile named on an operation or a tag but not declared in x-agent.profiles selects nothing: the tool "
        "silently disappears from every load.",
        "Declare the profile under x-agent.profiles, or correct the name.",
    ),
    Rule(
        "operation-id-missing",
        ERROR,
        "An annotated operation has no operationId to name its tool after.",
        "x-agent",
        "A tool is named after its operation's operationId (or x-agent.name).",
        "Give the operation an operationId, or an x-agent.name.",
    ),
    Rule(
        "parameter-invalid",
        ERROR,
        "A parameter of an annotated operation has no name.",
        "x-agent",
        "A parameter without a usable name and location cannot become a tool argument.",
        "Give the parameter a name (and an in: location).",
    ),
    Rule(
        "ref-external",
        ERROR,
        "An annotated operation uses a $ref to another file; tools are built from one document.",
        "x-agent",
        "Tools are built from one document: bundle the description before annotating it (redocly bundle, swagger-cli "
        "bundle).",
        "Bundle the document (inline the referenced parts), or move them into its components.",
    ),
    Rule(
        "tool-name-duplicate",
        ERROR,
        "Two tools of one profile would have the same name.",
        "x-agent",
        "An agent calls tools by name: two with one name in one profile cannot both be offered.",
        "Give one of the operations another x-agent.name (or operationId).",
    ),
    Rule(
        "body-fields-invalid",
        ERROR,
        "bodyFields does not fit the request body.",
        "x-agent",
        "x-agent.bodyFields spreads the request body's properties into tool arguments; the body must be a JSON object "
        "whose properties do not clash with the parameters.",
        "Correct bodyFields to properties of the JSON request body.",
    ),
    Rule(
        "select-param-invalid",
        ERROR,
        "response.selectParam does not name a usable parameter.",
        "x-agent",
        "x-agent.response.selectParam must name a query parameter of the operation that takes a list of fields.",
        "Point it at an existing query parameter that takes field names, or remove it.",
    ),
    Rule(
        "scalar-example-for-array",
        ERROR,
        "An array parameter's description shows a single quoted value.",
        "x-agent",
        "A model copies what a description shows: a quoted single value makes it send a string where an array is "
        "expected.",
        'Show a list in the description (["a", "b"]) or describe the items instead.',
    ),
    Rule(
        "comma-separated-array",
        ERROR,
        "An array parameter's description talks of a comma-separated list.",
        "x-agent",
        "The request joins an array's values itself; a description that asks for a comma-separated list makes a model "
        "send one string.",
        "Describe the parameter as a list of values, without mentioning commas.",
    ),
    Rule(
        "quoted-value-not-in-enum",
        ERROR,
        "A description quotes a value the parameter's enum does not allow.",
        "x-agent",
        "A model sends the values a description quotes; one outside the enum is refused by the API.",
        "Quote only allowed values, or add the value to the enum.",
    ),
    Rule(
        "editor-json-body-missing",
        ERROR,
        "An editor's write operation has no application/json request body.",
        "x-agent",
        "An editor group saves the form as a JSON request body; the write operation must take one.",
        "Give the write operation an application/json request body, or annotate another operation.",
    ),
    Rule(
        "editor-operation-missing",
        ERROR,
        "An editor names an operationId the document does not have.",
        "x-agent",
        "x-agent.editor names the operations that read the schema and the record by operationId; correct the name.",
        "Correct the operationId, or add the operation.",
    ),
    Rule(
        "editor-operation-ambiguous",
        ERROR,
        "An editor names an operationId that several operations share.",
        "x-agent",
        "The editor cannot tell which of the operations with that operationId to call; make the ids unique.",
        "Make the operationIds unique (see operation-id-duplicate).",
    ),
    Rule(
        "editor-path-parameter-missing",
        ERROR,
        "An editor's named operation needs a path parameter the write operation lacks.",
        "x-agent",
        "The form tools take the write operation's path parameters and pass them to the operations the editor names; "
        "one of those needs a parameter the write operation does not have.",
        "Add the parameter to the write operation's path, or use an operation with the same parameters.",
    ),
    Rule(
        "editor-path-parameter-clash",
        ERROR,
        "An editor's path parameter has the name of a form tool argument.",
        "x-agent",
        "A path parameter named like a form tool's own argument (path, value, data...) would be shadowed.",
        "Rename the path parameter.",
    ),
    # -- openapi check --live ------------------------------------------------------------------------
    Rule(
        "editor-live-parameter-missing",
        ERROR,
        "No --param value for an editor's schema operation.",
        "live",
        "--live requests each editor group's schema: give its path parameters with --param name=value.",
        "Pass it with --param name=value.",
    ),
    Rule(
        "editor-live-request-failed",
        ERROR,
        "An editor's schema or record request failed.",
        "live",
        "The API refused or did not answer the request the form would make; the message gives the status or the error.",
        "Check --base-url, the credentials (--token, --header) and that the API answers the request the message shows.",
    ),
    Rule(
        "editor-live-schema-unusable",
        ERROR,
        "The form cannot be built from an editor's schema.",
        "live",
        "The schema the API served is not one the form engine can build a form from; the message says why.",
        "Fix the schema the API serves; the message names the part deskcheck could not use.",
    ),
    Rule(
        "editor-live-schema-unchecked",
        WARNING,
        "Part of an editor's schema is not checked (a reference that cannot be followed, a keyword that is not "
        "valid JSON Schema).",
        "live",
        "The form works, but values in that part of the schema are not validated before saving.",
        "Fix or remove the part the message names.",
    ),
    Rule(
        "editor-live-field-unfixable",
        ERROR,
        "A column hidden from the form (attachment, computed) keeps the record from ever being saved.",
        "live",
        "The schema requires a field the form never shows, so no record an agent fills in can be saved.",
        "Make the column optional, give it a default, or show it in the form.",
    ),
    Rule(
        "editor-live-field-required-hidden",
        WARNING,
        "A required column is hidden from the form, so a record without it could never be saved.",
        "live",
        "Existing records keep the value; a new one made through the form would lack it.",
        "Show the column in the form, or make it optional.",
    ),
    Rule(
        "editor-live-record-invalid",
        WARNING,
        "The record read does not satisfy its own schema.",
        "live",
        "The record the API served fails its schema: an agent could not save it back without fixing it first.",
        "Fix the record, or the schema if the record is right.",
    ),
    Rule(
        "editor-live-options-host",
        WARNING,
        "A field's options come from another host than the API.",
        "live",
        "Option lists are fetched only from the API's own origin unless --allow-host names the other host.",
        "Serve the options from the API's own host, or allow the other host explicitly with --allow-host.",
    ),
)


def default_severity(rule: str, emitted: str) -> str:
    """The severity a finding of ``rule`` gets without configuration: the table's, or for a rule
    the table does not know, the one its check gave it."""
    known = RULES.get(rule)
    return known.severity if known is not None else emitted
