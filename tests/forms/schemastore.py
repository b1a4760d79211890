"""SchemaStore material for the form tests: open a schema file with its instances as a
file-backed session opens them, and ask an independent validator (Python's ``jsonschema``, with
``referencing`` resolving the schemas next to it) for its verdict.

The reference validator uses the form's own format checkers (a form checks formats on purpose;
``jsonschema`` alone treats them as annotations) and reads ``pattern`` as JavaScript writes named
groups (``(?<name>...)``, which Python spells ``(?P<name>...)``). A schema or instance it cannot
decide (a pattern Python's ``re`` refuses) answers None.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deskcheck.engine.forms import CompiledForm, compile_form
from deskcheck.engine.forms.schema.formats import CHECKERS
from deskcheck.engine.forms.schema.values import json_default
from deskcheck.engine.forms.sources.schema_files import bundle_schema_file
from deskcheck.engine.forms.sources.sources import _parse

INSTANCE_SUFFIXES = (".json", ".yaml", ".yml")
# Hosts SchemaStore's schemas call themselves by: a file NAME.json of the folder is also found
# under these names, as SchemaStore's own test runner finds it.
SCHEMASTORE_HOSTS = ("https://json.schemastore.org/", "https://www.schemastore.org/")


def read(path: Path) -> Any:
    """A schema or an instance, read as a file-backed session reads it."""
    return _parse(path.read_bytes(), path, "the file")


def open_form(schema_path: Path) -> tuple[Any, CompiledForm]:
    """``(schema as written, compiled form)``: the schema bundled with the files next to it."""
    schema = read(schema_path)
    return schema, compile_form(bundle_schema_file(schema, schema_path))


def instances(root: Path, name: str) -> Iterator[tuple[bool, Path]]:
    """``(expected valid, path)`` of the instances of schema ``name`` under ``root``."""
    for kind, expected in (("test", True), ("negative_test", False)):
        folder = root / kind / name
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.suffix in INSTANCE_SUFFIXES:
                    yield expected, path


class Reference:
    """``jsonschema``'s verdict on instances of the schemas of one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @functools.cached_property
    def registry(self) -> Any:
        """Schemas of the folder, read when a reference names them: by their file URI, by
        SchemaStore's addresses for them (with or without ``.json``), or by their own ``$id``."""
        import referencing
        import referencing.jsonschema

        def retrieve(uri: str) -> Any:
            name = uri.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            for candidate in (name, name + ".json"):
                path = self.folder / candidate
                if not path.is_file():
                    continue
                contents = json.loads(path.read_text(encoding="utf-8-sig"))
                declared = contents.get("$id", contents.get("id")) if isinstance(contents, dict) else None
                names_it = (
                    "://" not in uri
                    or uri.startswith(("file:", *SCHEMASTORE_HOSTS))
                    or (isinstance(declared, str) and declared.split("#", 1)[0] == uri.split("#", 1)[0])
                )
                if names_it:
                    return referencing.Resource.from_contents(
                        contents, default_specification=referencing.jsonschema.DRAFT7
                    )
            raise referencing.exceptions.NoSuchResource(ref=uri)

        return referencing.Registry(retrieve=retrieve)

    def is_valid(self, schema: Any, schema_path: Path, instance: Any) -> bool | None:
        """The verdict, or None when ``jsonschema`` cannot decide (a pattern ``re`` refuses)."""
        import jsonschema
        import referencing
        import referencing.jsonschema

        cls = _ecma_patterns(jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator))
        own = referencing.Resource.from_contents(schema, default_specification=referencing.jsonschema.DRAFT7)
        registry = self.registry.with_resource(schema_path.resolve().as_uri(), own)
        validator = cls(schema, registry=registry, format_checker=format_checker())
        try:
            # A YAML date is its ISO text, as the form reads it (JSON has no date type).
            return validator.is_valid(json.loads(json.dumps(instance, default=json_default)))
        except (re.error, RecursionError, referencing.exceptions.Unresolvable):
            return None  # a pattern Python cannot read, or a document nobody may fetch


@functools.cache
def format_checker() -> Any:
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name, check in CHECKERS.items():
        checker.checks(name)(lambda value, check=check: not isinstance(value, str) or check(value))
    return checker


@functools.cache
def _ecma_patterns(cls: Any) -> Any:
    import jsonschema

    def pattern(validator: Any, expected: Any, instance: Any, schema: Any) -> Any:
        string = validator.is_type(instance, "string") and isinstance(expected, str)
        if string and not re.search(_python_regex(expected), instance):
            yield jsonschema.ValidationError(f"{instance!r} does not match {expected!r}")

    return jsonschema.validators.extend(cls, {"pattern": pattern})


def _python_regex(pattern: str) -> str:
    return re.sub(r"\(\?<(?![=!])", "(?P<", pattern)
