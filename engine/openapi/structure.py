"""The document against the OpenAPI schema itself, with openapi-spec-validator.

What it finds is reported as warnings: anything the tools depend on is checked (as an error) by
deskcheck's own passes. The validator is slow on large documents (seconds for a 0.6 MB one), so
its findings are cached by the document's exact bytes: re-checking an unchanged document (a
pre-commit hook, a CI re-run on the same machine) costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from .. import jsonpointer
from .problems import WARNING, Problem
from .schema_messages import error_messages

# Cached results kept per cache directory (the oldest are removed beyond this).
MAX_CACHE_ENTRIES = 64
# Several hundred findings say the document is not OpenAPI at all; more would only be noise.
MAX_FINDINGS = 500


def structural_problems(document: dict[str, Any], text: str, *, cache_dir: Path | None = None) -> list[Problem]:
    try:
        from importlib.metadata import version

        validator_version = version("openapi-spec-validator")
    except Exception:  # the package is a dependency; without it, say so instead of failing the check
        return [
            Problem(
                "structure-not-checked",
                "the document was not validated against the OpenAPI schema: openapi-spec-validator is not installed.",
                "",
                WARNING,
            )
        ]
    key = hashlib.sha256(f"{validator_version}\0{text}".encode()).hexdigest()
    cached = _read_cache(cache_dir, key)
    if cached is not None:
        return cached
    problems = list(_validate(document))
    _write_cache(cache_dir, key, problems)
    return problems


def _validate(document: dict[str, Any]) -> Iterator[Problem]:
    from jsonschema_path import SchemaPath
    from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator
    from openapi_spec_validator.validation.keywords import ValueValidator

    version = str(document.get("openapi", ""))
    base = OpenAPIV30SpecValidator if version.startswith("3.0") else OpenAPIV31SpecValidator
    label = "OpenAPI 3.0" if base is OpenAPIV30SpecValidator else "OpenAPI 3.1"

    def located(cls: type) -> type:
        # Keyword validators receive the SchemaPath they check; tag what they yield with it, so a
        # finding names its place (the validator's own errors do not).
        class Located(cls):  # type: ignore[misc, valid-type]
            def __call__(self, *args: Any, **kwargs: Any):
                where = next((a for a in args if isinstance(a, SchemaPath)), None)
                for error in super().__call__(*args, **kwargs):
                    if where is not None and not hasattr(error, "deskcheck_parts"):
                        parts = list(where.parts)
                        if issubclass(cls, ValueValidator):
                            parts.append("default")
                        error.deskcheck_parts = parts
                    yield error

        Located.__name__ = cls.__name__
        return Located

    class Validator(base):  # type: ignore[misc, valid-type]
        keyword_validators: ClassVar = {name: located(cls) for name, cls in base.keyword_validators.items()}

    validator = Validator(document)
    count = 0
    try:
        for error in validator.schema_validator.iter_errors(document):
            for pointer, message in error_messages([error]):
                yield _problem(document, pointer, message, label)
                count += 1
            if count >= MAX_FINDINGS:
                return
        for error in validator.root_validator(validator.schema_path):
            parts = getattr(error, "deskcheck_parts", [])
            pointer = jsonpointer.join(parts)
            message = error.message if hasattr(error, "message") and isinstance(error.message, str) else str(error)
            if hasattr(error, "absolute_path") and error.absolute_path:
                pointer = jsonpointer.append(pointer, *error.absolute_path)
            yield _problem(document, pointer, message.splitlines()[0], label)
            count += 1
            if count >= MAX_FINDINGS:
                return
    except RecursionError:
        yield Problem(
            "structure-not-checked",
            "the document is nested too deeply for the OpenAPI schema validation to finish.",
            "",
            WARNING,
        )


def _problem(document: dict[str, Any], pointer: str, message: str, label: str) -> Problem:
    where = canonical_pointer(document, pointer)
    return Problem(
        "openapi-schema",
        f"{label} schema: {message}. The tools do not depend on this, but other OpenAPI tools may refuse it.",
        where,
        WARNING,
    )


def canonical_pointer(document: Any, pointer: str) -> str:
    """``pointer`` with every step through a ``$ref`` replaced by the referenced place, so it names
    text that exists in the document."""
    from ..refs import RefError, RefResolver

    resolver = RefResolver(document)
    current, node = "", document
    for token in jsonpointer.split(pointer):
        seen = 0
        while isinstance(node, dict) and "$ref" in node and token not in node and seen < 32:
            try:
                current, node = resolver.lookup(node["$ref"])
            except RefError:
                return pointer
            seen += 1
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return pointer
        current = jsonpointer.append(current, token)
    return current


def _read_cache(cache_dir: Path | None, key: str) -> list[Problem] | None:
    if cache_dir is None:
        return None
    try:
        entries = json.loads((cache_dir / f"{key}.json").read_text(encoding="utf-8"))
        return [Problem(e["rule"], e["message"], e["pointer"], e["severity"]) for e in entries]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_cache(cache_dir: Path | None, key: str, problems: list[Problem]) -> None:
    if cache_dir is None:
        return
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        target = cache_dir / f"{key}.json"
        temporary = target.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps([p.__dict__ for p in problems], ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, target)
        entries = sorted(cache_dir.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[MAX_CACHE_ENTRIES:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be written only costs time
