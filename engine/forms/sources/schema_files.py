"""The documents a schema file's references name: the files next to it, and the network only
where the user allowed a host.

``SchemaFiles(schema_path, allow_hosts=...)`` is a ``retrieve`` for ``bundle.bundle``. A URI is
read from a local file when

- it is a ``file:`` URI inside the schema's folder;
- it lies below the folder of a URI a local document declares as its ``$id`` (SchemaStore's
  ``package.json`` is ``https://json.schemastore.org/package.json``, so its ``eslintrc.json``
  is the ``eslintrc.json`` beside it); a name without a suffix also finds ``NAME.json``
  (``tsconfig#/definitions/...``, as SchemaStore's own server answers);
- or a file named like its last segment sits in the schema's folder and declares exactly that
  URI as its ``$id`` (``https://www.schemastore.org/prettierrc.json`` is ``prettierrc.json``).

Local reads stay inside the schema's folder: a schema cannot make deskcheck read a file beside
it in a parent folder. Any other ``http(s)`` URI is fetched only when its host is one the user
allowed (``--allow-host``), with the HTTP layer's timeout and size limit, without credentials or
redirects; otherwise it is refused with the option to pass. The JSON Schema meta-schemas come
from the copies ``jsonschema`` ships.

``schema_version(path)`` is the version of a schema file and the local files it refers to: a
hash of their bytes, found without parsing (any ``"$ref"`` value is taken as a file name), so a
changed referenced file makes a new version while an unchanged set costs only reading bytes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

from ...errors import InputError
from ...files import read_regular_file
from ..schema.bundle import RetrievalRefused, meta_schema
from .file_reading import MAX_FILE_BYTES

# Referenced files a version hash follows: past this a schema is hashed with what was found.
MAX_VERSION_FILES = 256
# Bytes of referenced documents one schema may read in all (each file has the file limit too).
MAX_TOTAL_BYTES = 64 * 1024 * 1024
_REF_VALUE = re.compile(rb"""\$ref["']?\s*:\s*["']?([^"'#\s,}\]]+)""")


class SchemaFiles:
    """A ``retrieve`` for the documents a schema file refers to (see the module docstring)."""

    def __init__(
        self,
        schema_path: str | Path,
        *,
        allow_hosts: Iterable[str] = (),
        timeout: float = 30.0,
        root_id: str | None = None,
    ) -> None:
        from .remote_items import parse_allowed_host

        self.path = Path(schema_path).resolve()
        self.folder = self.path.parent
        self.allowed = [parse_allowed_host(entry) for entry in allow_hosts]
        self.timeout = timeout
        # URI folder -> local folder, from the $id of each local document read.
        self.mirrors: dict[str, Path] = {}
        if isinstance(root_id, str):
            self._mirror(root_id, self.path)
        self._client: Any = None
        self._read = 0  # bytes of documents read so far

    @property
    def base_uri(self) -> str:
        return self.path.as_uri()

    def __call__(self, uri: str) -> Any:
        uri = urldefrag(uri).url
        path = self._local(uri)
        if path is not None:
            self._count(path.stat().st_size)
            document = _read_document(path)
            declared = document.get("$id", document.get("id")) if isinstance(document, dict) else None
            if isinstance(declared, str):
                self._mirror(declared, path)
            return document
        parts = urlsplit(uri)
        if parts.hostname in ("json-schema.org", "www.json-schema.org"):
            return meta_schema(uri)
        if parts.scheme in ("http", "https") and parts.hostname:
            from ...urls import redact
            from .remote_items import allowed_url

            if allowed_url(uri, self.allowed):
                return self._fetch(uri)
            host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
            exact = host if parts.port is None else f"{host}:{parts.port}"
            raise RetrievalRefused(
                f"{redact(uri)} is on {exact}, which deskcheck does not contact unless allowed: save it next to "
                f"the schema, or pass --allow-host {exact}"
            )
        if parts.scheme == "file":
            raise RetrievalRefused(f"{unquote(parts.path)} is not a file inside the schema's folder {self.folder}")
        raise RetrievalRefused(f"{uri} names no file next to the schema")

    # -- local files ----------------------------------------------------------------------------

    def _local(self, uri: str) -> Path | None:
        parts = urlsplit(uri)
        if parts.scheme == "file":
            return self._inside(Path(unquote(parts.path)))
        for prefix, folder in self.mirrors.items():
            if uri.startswith(prefix):
                found = self._inside(folder / unquote(uri[len(prefix) :]))
                if found is not None:
                    return found
        name = unquote(parts.path.rsplit("/", 1)[-1])
        for candidate in _with_suffix(self.folder / name) if name else ():
            found = self._inside(candidate)
            if found is not None and _declared_id(found) in (uri, uri + "#"):
                return found
        return None

    def _inside(self, path: Path) -> Path | None:
        """``path`` (or ``path.json`` for a name without a suffix) when it is a file inside the
        schema's folder."""
        for candidate in _with_suffix(path):
            try:
                resolved = candidate.resolve()
            except (OSError, RuntimeError):
                continue
            if resolved.is_file() and resolved.is_relative_to(self.folder):
                return resolved
        return None

    def _mirror(self, declared: str, path: Path) -> None:
        uri = urldefrag(declared).url
        if "://" in uri and "/" in uri.split("://", 1)[1]:
            self.mirrors.setdefault(uri.rsplit("/", 1)[0] + "/", path.parent)

    def _count(self, size: int) -> None:
        self._read += size
        if self._read > MAX_TOTAL_BYTES:
            raise RetrievalRefused(
                f"the documents this schema refers to are larger than {MAX_TOTAL_BYTES // (1024 * 1024)} MiB in all"
            )

    # -- the network ----------------------------------------------------------------------------

    def _fetch(self, uri: str) -> Any:
        from ...errors import DeskcheckError
        from ...http.client import HttpRequest, HttpxClient

        if self._client is None:
            self._client = HttpxClient(timeout=self.timeout)
        try:
            response = self._client.send(HttpRequest("GET", uri, headers={"Accept": "application/schema+json"}))
        except DeskcheckError as exc:
            raise RetrievalRefused(exc.message.rstrip(".")) from None
        if not response.ok:
            raise RetrievalRefused(f"GET {uri} answered HTTP {response.status}")
        self._count(len(response.text))
        try:
            return _parse_text(response.text, uri)
        except InputError as exc:
            raise RetrievalRefused(exc.message.rstrip(".")) from None


def bundle_schema_file(
    schema: Any, schema_path: str | Path, *, allow_hosts: Iterable[str] = (), timeout: float = 30.0
) -> Any:
    """``schema`` (read from ``schema_path``) with the documents it refers to bundled in (see
    ``bundle``); unchanged when it refers to nothing outside itself."""
    from ..schema.bundle import bundle, needs_bundling

    if not isinstance(schema, dict) or not needs_bundling(schema):
        return schema
    declared = schema.get("$id", schema.get("id"))
    files = SchemaFiles(
        schema_path, allow_hosts=allow_hosts, timeout=timeout, root_id=declared if isinstance(declared, str) else None
    )
    return bundle(schema, base_uri=files.base_uri, retrieve=files)


def schema_version(raw: bytes, schema_path: str | Path) -> str:
    """``sha256:...`` of the schema's bytes and of every local file its references may name."""
    folder = Path(schema_path).resolve().parent
    digest = hashlib.sha256(raw)
    seen: set[Path] = set()
    pending = [raw]
    while pending and len(seen) < MAX_VERSION_FILES:
        text = pending.pop()
        for match in _REF_VALUE.finditer(text):
            name = match.group(1).decode("utf-8", errors="replace")
            tail = unquote(urlsplit(name).path)
            for candidate in (*_with_suffix(folder / tail), *_with_suffix(folder / tail.rsplit("/", 1)[-1])):
                try:
                    resolved = candidate.resolve()
                except (OSError, RuntimeError):
                    continue
                if resolved in seen or not resolved.is_relative_to(folder) or not resolved.is_file():
                    continue
                seen.add(resolved)
                try:  # too large, or not a regular file: the bundle refuses it anyway
                    content = read_regular_file(resolved, MAX_FILE_BYTES, subject=str(resolved), wanted="a schema")
                except InputError:
                    continue
                digest.update(b"\0" + str(resolved.relative_to(folder)).encode() + b"\0" + content)
                pending.append(content)
    return "sha256:" + digest.hexdigest()


def _with_suffix(path: Path) -> tuple[Path, ...]:
    return (path,) if path.suffix else (path, path.with_name(path.name + ".json"))


def _declared_id(path: Path) -> str | None:
    try:
        document = _read_document(path)
    except InputError:
        return None
    declared = document.get("$id", document.get("id")) if isinstance(document, dict) else None
    return urldefrag(declared).url if isinstance(declared, str) else None


def _read_document(path: Path) -> Any:
    from .file_reading import _parse, _read_bytes

    return _parse(_read_bytes(path, "the referenced schema"), path, "the referenced schema")


def _parse_text(text: str, where: str) -> Any:
    from .file_reading import _parse

    return _parse(text.encode("utf-8"), Path(urlsplit(where).path or "schema.json"), f"the schema at {where}")
