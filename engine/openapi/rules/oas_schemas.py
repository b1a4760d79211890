"""The official OpenAPI 3.0, 3.1 and 3.2 JSON Schemas, compiled with jsonschema-rs.

The schemas are the ones the OpenAPI Initiative publishes. deskcheck keeps no copy: it reads them
from the installed openapi-spec-validator (the document schemas) and openapi-schema-validator (the
schema dialects of 3.1 and 3.2), which are dependencies for exactly this. Those packages are located, never
imported: importing openapi-spec-validator costs ~0.45 s, reading three JSON files a few ms.

OpenAPI 3.0's schema describes Schema Objects itself. From 3.1 on they are left open (a
``$dynamicRef`` to ``#meta``) so that a document may pick its JSON Schema dialect; the schema built
here binds that anchor to the document's dialect (``jsonSchemaDialect``, by default the OpenAPI
dialect of that version), so schema objects are checked too, as the specification's "schema-base"
variant does.

No reference is ever fetched: every schema that is needed is registered, and the retriever refuses.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Other dialects a 3.1 document may declare, and where jsonschema (a dependency) keeps their
# meta-schemas. 2020-12 itself is built into jsonschema-rs.
_DRAFT_FILES = ("jsonschema_specifications", "schemas")
JSON_SCHEMA_DRAFTS = {
    "https://json-schema.org/draft/2019-09/schema": "draft201909",
    "http://json-schema.org/draft-07/schema": "draft7",
    "http://json-schema.org/draft-06/schema": "draft6",
    "http://json-schema.org/draft-04/schema": "draft4",
}


@dataclass(frozen=True)
class Family:
    """One OpenAPI minor version: where its document schema is, and (from 3.1 on) its default
    schema dialect with the files that define it."""

    name: str
    document_schema: tuple[str, ...]
    dialect: str | None = None
    dialect_files: tuple[tuple[str, ...], ...] = ()


_SPEC_SCHEMAS = ("openapi_spec_validator", "resources", "schemas")
_DIALECTS = ("openapi_schema_validator", "schemas")
FAMILIES = {
    "3.0": Family("3.0", (*_SPEC_SCHEMAS, "v3.0", "schema.json")),
    "3.1": Family(
        "3.1",
        (*_SPEC_SCHEMAS, "v3.1", "schema.json"),
        "https://spec.openapis.org/oas/3.1/dialect/base",
        ((*_DIALECTS, "oas3.1", "metaschema.json"), (*_DIALECTS, "oas3.1", "vocabularies", "base")),
    ),
    "3.2": Family(
        "3.2",
        (*_SPEC_SCHEMAS, "v3.2", "schema.json"),
        "https://spec.openapis.org/oas/3.2/dialect/2025-09-17",
        ((*_DIALECTS, "oas3.2", "dialect", "2025-09-17.json"), (*_DIALECTS, "oas3.2", "meta", "2025-09-17.json")),
    ),
}
# Stands for a dialect deskcheck does not know: any object or boolean passes as a schema.
ANY_DIALECT = "urn:deskcheck:any-schema"
# The identifier of the composed schemas (one per part); never dereferenced.
_COMPOSED_ID = "urn:deskcheck:openapi-with-dialect"


def _accept(_value: str) -> bool:
    return True


# The document schemas' formats that are checked: an e-mail address must be one. URI formats are
# not (the published 3.0 and 3.1 schemas mark templated server URLs and relative references with
# formats they do not satisfy, and later schemas dropped or loosened them); a pattern's syntax is
# the pattern-invalid rule's, judged as ECMA-262 rather than by the validator's dialect.
_FORMAT_OPTIONS: dict[str, Any] = {
    "validate_formats": True,
    "formats": {name: _accept for name in ("uri", "uri-reference", "iri", "iri-reference", "uri-template", "regex")},
}


def _repaired(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The document schema with the defects its later revisions fixed. The 3.1 schema of
    2022-10-07 (the one openapi-spec-validator 0.9 ships) calls the Link Object's ``server``
    ``body``, and lets ``example`` and ``examples`` appear together, which the specification
    forbids; the OpenAPI Initiative's current 3.1 schema has both right."""
    if name != "3.1":
        return schema
    definitions = schema.get("$defs", {})
    link = definitions.get("link", {}).get("properties", {})
    if "body" in link and "server" not in link:
        link["server"] = link.pop("body")
    examples = definitions.get("examples")
    if isinstance(examples, dict) and "not" not in examples:
        examples["not"] = {"required": ["example", "examples"]}
    return schema


class SchemasUnavailable(Exception):
    """The installed packages do not hold the schema files where they are expected."""


class UnknownDialect(Exception):
    """The document names a JSON Schema dialect whose meta-schema deskcheck does not have."""


def family_of(version: Any) -> Family | None:
    """The family of an ``openapi`` version string ("3.1.0" is 3.1), None for one we cannot check."""
    if isinstance(version, str):
        for name, family in FAMILIES.items():
            if version == name or version.startswith(name + "."):
                return family
    return None


def document_validator(family: Family, dialect: str | None = None) -> Any:
    """A jsonschema-rs validator of whole documents of ``family``. ``dialect`` is the document's
    ``jsonSchemaDialect`` (3.1 and later), by default the family's own."""
    return part_validator(family, None, dialect)


def part_validator(family: Family, part: str | None, dialect: str | None = None) -> Any:
    """A validator of one kind of object (``part`` is a definition of the document schema, such as
    ``Parameter`` in 3.0 or ``parameter`` from 3.1), or of whole documents when ``part`` is None."""
    if family.dialect is None:
        return _plain_validator(family.name, part)
    dialect = dialect or family.dialect
    known = (family.dialect, DRAFT_2020_12, ANY_DIALECT, *JSON_SCHEMA_DRAFTS)
    if dialect not in known and dialect.removesuffix("#") not in known:
        raise UnknownDialect(dialect)
    return _composed_validator(family.name, part, dialect)


@cache
def _plain_validator(name: str, part: str | None) -> Any:
    import jsonschema_rs

    schema = _read(FAMILIES[name].document_schema)
    if part is None:
        return jsonschema_rs.validator_for(schema, retriever=refuse_retrieval, **_FORMAT_OPTIONS)
    # OpenAPI 3.0's schema is draft 4, identified by "id".
    registry = jsonschema_rs.Registry([(schema["id"], schema)], draft=jsonschema_rs.Draft4, retriever=refuse_retrieval)
    return jsonschema_rs.Draft4Validator(
        {"$ref": f"{schema['id']}#/definitions/{part}"},
        registry=registry,
        retriever=refuse_retrieval,
        **_FORMAT_OPTIONS,
    )


@cache
def _composed_validator(name: str, part: str | None, dialect: str) -> Any:
    import jsonschema_rs

    family = FAMILIES[name]
    document_schema = _repaired(name, _read(family.document_schema))
    resources = [(document_schema["$id"], document_schema), *_dialect_resources(family, dialect)]
    target = document_schema["$id"] + ("" if part is None else f"#/$defs/{part}")
    composed = {
        "$schema": DRAFT_2020_12,
        "$id": f"{_COMPOSED_ID}:{part or 'document'}",
        "$ref": target,
        "$defs": {"dialect": {"$dynamicAnchor": "meta", "$ref": dialect.removesuffix("#")}},
    }
    registry = jsonschema_rs.Registry(resources, retriever=refuse_retrieval)
    return jsonschema_rs.validator_for(composed, registry=registry, retriever=refuse_retrieval, **_FORMAT_OPTIONS)


def _dialect_resources(family: Family, dialect: str) -> list[tuple[str, Any]]:
    if dialect == family.dialect:
        return [(resource["$id"], resource) for resource in map(_read, family.dialect_files)]
    if dialect == ANY_DIALECT:
        return [(ANY_DIALECT, {"$schema": DRAFT_2020_12, "$id": ANY_DIALECT, "type": ["object", "boolean"]})]
    folder = JSON_SCHEMA_DRAFTS.get(dialect.removesuffix("#"))
    if folder is None:  # 2020-12
        return []
    resources = [(dialect.removesuffix("#"), _read((*_DRAFT_FILES, folder, "metaschema.json")))]
    vocabularies = _package_dir(_DRAFT_FILES[0]).joinpath(*_DRAFT_FILES[1:], folder, "vocabularies")
    if vocabularies.is_dir():
        for path in sorted(vocabularies.iterdir()):
            resource = _read((*_DRAFT_FILES, folder, "vocabularies", path.name))
            resources.append((resource["$id"], resource))
    return resources


def refuse_retrieval(uri: str) -> Any:
    raise ValueError(f"deskcheck does not fetch {uri}: only schemas it carries are used.")


def _read(parts: tuple[str, ...]) -> Any:
    package, *inside = parts
    path = _package_dir(package).joinpath(*inside)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemasUnavailable(f"{package} has no readable {'/'.join(inside)} ({exc}).") from None


def _package_dir(package: str) -> Path:
    # find_spec on a top-level package locates it without running its __init__.
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not locations:
        raise SchemasUnavailable(f"{package} is not installed.")
    return Path(locations[0])
