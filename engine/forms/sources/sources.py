"""Where a form session's document and schema come from, and where a save goes: a *source*.

A source is any object with

- ``title``: what the form edits, in a few words ("dataset record", "contact.json");
- ``schema_key``: names the schema request, so that sessions whose sources share it share what
  the store remembers about it (its last version and ``ETag``);
- ``read_only`` (no save) and ``creates`` (each save makes a new record: create mode);
- ``check_schema_each_call``: re-read the schema on every call (cheap for a file) instead of
  only when the session opens or reloads (an HTTP request);
- ``load() -> Loaded``: the document (None when there is none yet) and its version;
- ``save(data, *, version, base) -> Saved``: persist the whole document; raise ``SaveConflict``
  when the stored copy changed since ``version`` (the session becomes stale) and
  ``SourceError`` for any other refusal (the session keeps its edits);
- ``schema(known) -> FetchedSchema``: the JSON Schema and its version; given what was known
  before (``SchemaTag``), a source may answer "unchanged" without the body (an HTTP 304);
- optionally ``request_deadline``: the most seconds one save request may take (an HTTP client's
  total timeout), which the save lease always outlives.

Versions of documents are ``DocumentVersion``s: an HTTP ``ETag`` (sent back as ``If-Match``),
a ``Last-Modified`` date (sent back as ``If-Unmodified-Since``) or a content hash (a file).

This module has the file source (``FileSource``, JSON, YAML or TOML, atomic saves that keep
the format) and ``FunctionSource`` (plain functions, with the ``{data, version}`` /
``{schema, version}`` envelopes). ``http_source.HttpRecordSource`` is a record behind an API.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from ...errors import DeskcheckError, InputError
from ...files import write_atomically
from ...json_text import check_json_size, check_shape
from .file_reading import SUFFIXES, _decode, _parse, _read_bytes

YAML_SUFFIXES = (".yaml", ".yml")
VERSION_KINDS = ("etag", "last-modified", "hash")


class SourceError(DeskcheckError):
    """The source refused or could not answer (a load, a schema request or a save). The message
    says what happened, with the server's own message when there is one."""


class SaveConflict(SourceError):
    """The stored document changed since the session loaded it (HTTP 409/412, a file changed on
    disk): saving would overwrite someone else's change."""


# The value types are named tuples: a command-line call imports this module, and a named tuple
# costs a tenth of a dataclass to define.


class DocumentVersion(NamedTuple):
    """The version of a loaded or saved document: ``kind`` is ``etag``, ``last-modified`` or
    ``hash``; ``value`` is the header's or the hash's text."""

    kind: str
    value: str

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "value": self.value}

    @classmethod
    def from_json(cls, data: Any) -> DocumentVersion | None:
        if isinstance(data, dict) and data.get("kind") in VERSION_KINDS and isinstance(data.get("value"), str):
            return cls(data["kind"], data["value"])
        return None

    def __str__(self) -> str:
        return self.value


class Loaded(NamedTuple):
    """A loaded document (None: there is none yet, as for a record being created). ``notes``:
    what the session should say once about how it was read (a key written twice). ``shared``:
    values the stored copy writes once and uses in several places (a YAML anchor and its
    aliases), each as the JSON pointers of its copies, the anchor first."""

    data: Any
    version: DocumentVersion | None = None
    notes: tuple[str, ...] = ()
    shared: tuple[tuple[str, ...], ...] = ()


class Saved(NamedTuple):
    """What a save reported: the new version (None when the source reports none: the next save
    then sends no precondition), and where a create put the new record, when it says."""

    version: DocumentVersion | None = None
    location: str | None = None


class SchemaTag(NamedTuple):
    """What a store remembers about a schema request: the version it had and the ``ETag`` that
    came with it (for a conditional request)."""

    version: str
    etag: str | None = None


class FetchedSchema(NamedTuple):
    """A schema answer. ``schema`` is None when the source says it is unchanged since the
    ``SchemaTag`` it was given (then ``version`` is that tag's). ``document`` is the larger
    document the schema's local ``$ref``s point into, if any (see ``prepare_schema``)."""

    version: str
    schema: Any = None
    etag: str | None = None
    document: Any = None

    @property
    def unchanged(self) -> bool:
        return self.schema is None


class FormSource(Protocol):
    title: str
    schema_key: str
    read_only: bool
    creates: bool
    check_schema_each_call: bool

    def load(self) -> Loaded: ...

    def save(self, data: Any, *, version: DocumentVersion | None, base: Any) -> Saved: ...

    def schema(self, known: SchemaTag | None) -> FetchedSchema: ...

    def adjust_schema(self, prepared: dict[str, Any]) -> dict[str, Any]: ...


def content_hash(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# -- files --------------------------------------------------------------------------------------


class FileSource:
    """A JSON Schema file and the record file it edits: JSON, YAML or TOML, by ``format`` when
    given, else by its suffix (``.json``, ``.yaml``/``.yml``, ``.toml``), else by its content
    (``.prettierrc``, ``.clang-format``; see ``textdoc.detect_kind``). YAML is read as 1.2
    unless ``yaml_version`` is "1.1" (or the file declares its version); ``document`` picks a
    document of a YAML stream (counted from 0; by default the only one with content).

    The record's version is the hash of its bytes: ``current_version`` reads it again, so a
    session can tell at every call whether the file changed on disk, and a save first checks
    that the file is still the one loaded (or still absent), refusing with ``SaveConflict``
    otherwise. A save changes only the bytes of the values that changed
    (``textdoc.write_document``: comments, key order, quoting, number spellings, layout and the
    other documents of a YAML stream stay as they were; a save with no change leaves the file
    untouched), and writes atomically through ``files.write_atomically`` (to the file a
    symbolic link points to, keeping hard links, mode and owner). A record file that does not
    exist yet is an empty record; saving creates it."""

    read_only = False
    creates = False
    check_schema_each_call = True
    # ``load`` returns data read just now, which nothing else holds: a session may keep it.
    hands_over_data = True

    def __init__(
        self,
        schema_path: str | Path,
        data_path: str | Path,
        *,
        title: str | None = None,
        allow_hosts: tuple[str, ...] = (),
        timeout: float = 30.0,
        format: str | None = None,
        yaml_version: str | None = None,
        document: int | None = None,
    ) -> None:
        self.schema_path = Path(schema_path)
        self.data_path = Path(data_path)
        self.title = title or self.data_path.name
        self.schema_key = "file:" + str(self.schema_path.resolve())
        # Hosts the schema's references may be fetched from (--allow-host); files next to the
        # schema are read without asking.
        self.allow_hosts = allow_hosts
        self.timeout = timeout
        self.format, self.yaml_version, self.document = format, yaml_version, document

    # The schema -----------------------------------------------------------------------------

    def schema(self, known: SchemaTag | None) -> FetchedSchema:
        from .schema_files import bundle_schema_file, schema_version

        raw = _read_bytes(self.schema_path, "the schema file")
        version = schema_version(raw, self.schema_path)
        if known is not None and known.version == version:
            return FetchedSchema(version)
        schema = _parse(raw, self.schema_path, "the schema file")
        bundled = bundle_schema_file(schema, self.schema_path, allow_hosts=self.allow_hosts, timeout=self.timeout)
        return FetchedSchema(version, bundled)

    def adjust_schema(self, prepared: dict[str, Any]) -> dict[str, Any]:
        return prepared

    # The record -----------------------------------------------------------------------------

    def load(self) -> Loaded:
        from ...textdoc import read_text

        raw = self._current_bytes()
        if raw is None:
            return Loaded(None, DocumentVersion("hash", ABSENT))
        what = f"the data file {self.data_path}"
        text = _decode(raw, what)
        fmt = self.text_format(text)
        if fmt.kind == "json":
            check_json_size(text, what)  # before parsing: 30 MB of "[]," is 1.5 GB of lists
        reading = read_text(text, fmt, what)
        check_shape(reading.data, what, depth=None)
        notes = tuple(_duplicate_note(self.data_path, d) for d in reading.duplicates[:MAX_NOTED_DUPLICATES])
        if len(reading.duplicates) > MAX_NOTED_DUPLICATES:
            notes += (f"... and {len(reading.duplicates) - MAX_NOTED_DUPLICATES} more keys written twice.",)
        shared = tuple(tuple(group) for group in reading.shared)
        return Loaded(reading.data, DocumentVersion("hash", content_hash(raw)), notes, shared)

    def current_version(self) -> DocumentVersion:
        """The version of the file on disk now (cheap: a read and a hash, no parsing)."""
        raw = self._current_bytes()
        return DocumentVersion("hash", ABSENT if raw is None else content_hash(raw))

    def describe_change(self, current: DocumentVersion) -> str:
        return f"{self.data_path} {'was deleted' if current.value == ABSENT else 'changed on disk'}"

    def text_format(self, text: str | None) -> Any:
        """How the record file is read and written (``textdoc.TextFormat``)."""
        from ...textdoc import TextFormat, detect_kind

        kind = self.format or SUFFIXES.get(self.data_path.suffix.lower())
        if kind is None:
            kind = detect_kind(text) if text is not None else "json"
        return TextFormat(kind, self.yaml_version, self.document)

    def save(self, data: Any, *, version: DocumentVersion | None, base: Any) -> Saved:
        from ...file_lock import updating

        # Held from the version check to the write: two saves of one version cannot both land.
        with updating(self.data_path):
            return self._save(data, version, base)

    def _save(self, data: Any, version: DocumentVersion | None, base: Any) -> Saved:
        current = self._current_bytes()
        current_version = ABSENT if current is None else content_hash(current)
        if version is not None and version.value != current_version:
            what = "was deleted" if current is None else "was changed on disk"
            raise SaveConflict(f"{self.data_path} {what} since the session loaded it")
        from ...textdoc import DocumentEditError, write_document
        from ...textdoc.nodes import equal_data

        if current is not None and version is not None and equal_data(data, base):
            return Saved(version)  # the file is the one loaded and nothing changed: nothing to write

        what = f"the data file {self.data_path}"
        known = self.format or SUFFIXES.get(self.data_path.suffix.lower())
        fmt = self.text_format(None if current is None or known else _decode(current, what))
        try:
            new = write_document(current, data, fmt, what)
        except DocumentEditError as exc:
            raise SourceError(exc.message, code="unwritable") from None
        if new != current:
            write_atomically(self.data_path, new)
        return Saved(DocumentVersion("hash", content_hash(new)))

    def _current_bytes(self) -> bytes | None:
        try:
            return _read_bytes(self.data_path, "the data file")
        except InputError:
            if not self.data_path.exists():
                return None
            raise


ABSENT = "absent"
# Keys written twice that the opening of a session names; the rest are counted.
MAX_NOTED_DUPLICATES = 5


def _duplicate_note(path: Path, duplicate: Any) -> str:
    return (
        f'{path} writes the key "{duplicate.key}" twice in one object (lines {duplicate.first_line} and '
        f"{duplicate.last_line}): the last one counts, as most JSON and YAML readers take it; a change is written "
        "there, and removing the key removes both."
    )


# -- plain functions ------------------------------------------------------------------------------


class FunctionSource:
    """A source made of functions, for hosts that embed the session layer.

    ``load()`` returns the document, or an envelope ``{"data": ..., "version": ...}`` (exactly
    those two keys); ``schema()`` the schema or ``{"schema": ..., "version": ...}``; ``save(data,
    version, base)`` (optional: without it the session is read-only) returns None or
    ``{"version": ...}``, and raises ``SaveConflict`` (or any ``DeskcheckError`` with code
    ``conflict``) when the stored copy changed. Versions given as plain strings are taken as
    opaque tags (``kind="etag"``)."""

    check_schema_each_call = False

    def __init__(
        self,
        *,
        title: str,
        load: Callable[[], Any],
        schema: Callable[[], Any],
        save: Callable[..., Any] | None = None,
        schema_key: str | None = None,
        creates: bool = False,
    ) -> None:
        self.title = title
        self._load, self._schema, self._save = load, schema, save
        self.schema_key = schema_key or f"function:{id(schema)}"
        self.read_only = save is None
        self.creates = creates

    def load(self) -> Loaded:
        value, version = unwrap_envelope(self._load(), "data")
        return Loaded(value, _as_version(version))

    def schema(self, known: SchemaTag | None) -> FetchedSchema:
        from ..schema.compile import content_version

        value, version = unwrap_envelope(self._schema(), "schema")
        return FetchedSchema(str(version) if version is not None else content_version(value), value)

    def adjust_schema(self, prepared: dict[str, Any]) -> dict[str, Any]:
        return prepared

    def save(self, data: Any, *, version: DocumentVersion | None, base: Any) -> Saved:
        if self._save is None:
            raise SourceError(f'"{self.title}" is read-only: it has no save function.', code="readonly")
        try:
            outcome = self._save(data, version=None if version is None else version.value, base=base)
        except SaveConflict:
            raise
        except DeskcheckError as exc:
            if exc.code == "conflict":
                raise SaveConflict(exc.message) from None
            raise
        if isinstance(outcome, dict) and "version" in outcome:
            return Saved(_as_version(outcome["version"]))
        return Saved(None)


def unwrap_envelope(result: Any, key: str) -> tuple[Any, Any]:
    """``(value, version)`` from ``{key: value, "version": v}`` (exactly those two keys); any
    other value is the value itself, without a version."""
    if isinstance(result, dict) and set(result) == {key, "version"}:
        return result[key], result["version"]
    return result, None


def _as_version(value: Any) -> DocumentVersion | None:
    if value is None:
        return None
    if isinstance(value, DocumentVersion):
        return value
    return DocumentVersion("etag", str(value))
