"""The documents one check reads: the OpenAPI document and the files its ``$ref``s name.

A reference to another file (``schemas/pet.yaml#/Pet``) is resolved against the file that holds
it, read once (JSON or YAML, with the same limits as the document itself) and checked where it
points. A reference to a URL is followed only to a host the user allowed (``allow_hosts``, or
the host the document itself came from); nothing else is ever fetched. What a check may read
besides the document is bounded: ``MAX_DOCUMENTS`` files, ``MAX_TOTAL_BYTES`` and
``MAX_TOTAL_VALUES`` in all (no more than one document may hold: many files of tiny values cost
what one would).

Places are *locations*: a JSON pointer (``/components/schemas/Pet``) for the document itself,
``<uri>#<pointer>`` for another file. A pointer is empty or starts with ``/`` and a URI starts
with its scheme, so the two never mix, and locations concatenate like pointers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from ...errors import InputError
from ...refs import RefError, RefResolver
from .source import MAX_DOCUMENT_BYTES, MAX_YAML_NODES, Source, is_url, read_source

# Real multi-file descriptions (DigitalOcean's has ~2,900 files) stay under these; a document
# built to make a check read the disk or a host without end does not.
MAX_DOCUMENTS = 5_000
MAX_TOTAL_BYTES = MAX_DOCUMENT_BYTES
MAX_TOTAL_VALUES = MAX_YAML_NODES
# The URI of a document that was not read from a file or a URL (parsed data, text).
INLINE_URI = "urn:deskcheck:document"


class NotFollowed(Exception):
    """A reference deskcheck chose not to follow (a URL to a host not allowed, a limit reached)."""


class Unresolvable(Exception):
    """A reference whose target does not exist or cannot be read."""


@dataclass
class DocumentSet:
    root: Source
    allow_hosts: tuple[str, ...] = ()
    root_uri: str = ""
    documents: dict[str, Source] = field(default_factory=dict)
    _failures: dict[str, Exception] = field(default_factory=dict)
    _resolvers: dict[str, RefResolver] = field(default_factory=dict)
    _bytes: int = 0
    _values: int = 0

    def __post_init__(self) -> None:
        self.root_uri = self.root_uri or document_uri(self.root)
        self.documents[self.root_uri] = self.root

    # -- locations -----------------------------------------------------------------------------------

    def split(self, location: str) -> tuple[str, str]:
        """``(document URI, pointer)`` of a location."""
        if location == "" or location.startswith("/"):
            return self.root_uri, location
        uri, _, pointer = location.partition("#")
        return uri, pointer

    def location(self, uri: str, pointer: str) -> str:
        return pointer if uri == self.root_uri else f"{uri}#{pointer}"

    def display(self, uri: str) -> str:
        """How a finding names the document at ``uri``: a URL as is, a file by its path as seen
        from where the root document was given (``api/schemas/pet.yaml`` beside ``api/openapi.yaml``)."""
        if uri == self.root_uri:
            return self.root.location
        if not uri.startswith("file:"):
            return uri
        path = _file_path(uri)
        if not self.root_uri.startswith("file:"):
            return str(path)
        relative = os.path.relpath(path, _file_path(self.root_uri).parent)
        return Path(os.path.normpath(os.path.join(os.path.dirname(self.root.location), relative))).as_posix()

    def data(self, location: str) -> Any:
        """The document holding ``location``."""
        return self.documents[self.split(location)[0]].data

    # -- references --------------------------------------------------------------------------------

    def lookup(self, site: str, ref: str) -> tuple[str, Any]:
        """``(location, target)`` of ``ref`` written at ``site``. Raises ``RefError`` for a local
        reference that leads nowhere, ``Unresolvable`` for another file that does not exist or
        cannot be read (or has nothing at the pointer), ``NotFollowed`` for a URL deskcheck does
        not fetch."""
        base, _ = self.split(site)
        if not isinstance(ref, str):
            raise RefError(f"$ref must be a string, not {type(ref).__name__}.")
        if ref.startswith("#"):
            pointer, target = self._resolver(base).lookup(ref)
            return self.location(base, pointer), target
        target_uri, fragment = urldefrag(urljoin(base, ref))
        if target_uri == base or (not target_uri and base == INLINE_URI):
            pointer, target = self._resolver(base).lookup("#" + fragment)
            return self.location(base, pointer), target
        self.load(target_uri, ref)
        try:
            pointer, target = self._resolver(target_uri).lookup("#" + fragment)
        except RefError as exc:
            raise Unresolvable(
                f"{self.display(target_uri)} has nothing at {_fragment_label(fragment)} ({_reason(exc)})"
            ) from None
        return self.location(target_uri, pointer), target

    def load(self, uri: str, ref: str) -> Source:
        """The document at ``uri`` (read on first use)."""
        if uri in self.documents:
            return self.documents[uri]
        if uri in self._failures:
            raise self._failures[uri]
        try:
            source = self._read(uri, ref)
        except (NotFollowed, Unresolvable) as exc:
            self._failures[uri] = exc
            raise
        self.documents[uri] = source
        return source

    def _read(self, uri: str, ref: str) -> Source:
        scheme = urlsplit(uri).scheme
        if self.root_uri == INLINE_URI and scheme == "":
            raise NotFollowed(
                f"$ref {ref!r} names another file, but the document was not read from a file, so there is "
                "nothing to resolve it against"
            )
        if len(self.documents) >= MAX_DOCUMENTS:
            raise NotFollowed(f"$ref {ref!r} was not followed: the check already read {MAX_DOCUMENTS} documents")
        budget = MAX_TOTAL_BYTES - self._bytes
        if budget <= 0:
            raise NotFollowed(f"$ref {ref!r} was not followed: the check already read {MAX_TOTAL_BYTES:,} bytes")
        values = MAX_TOTAL_VALUES - self._values
        if values <= 0:
            raise NotFollowed(
                f"$ref {ref!r} was not followed: the files read besides the document already hold "
                f"{MAX_TOTAL_VALUES:,} values"
            )
        try:
            source = self._open(uri, ref, scheme, budget, values)
        except InputError as exc:
            if exc.code == "tooLarge" and (budget < MAX_DOCUMENT_BYTES or values < MAX_YAML_NODES):
                raise NotFollowed(
                    f"$ref {ref!r} was not followed: with {self.display(uri)}, the files read besides the document "
                    f"would hold more than {MAX_TOTAL_BYTES:,} bytes or {MAX_TOTAL_VALUES:,} values"
                ) from None
            raise Unresolvable(exc.message) from None
        self._bytes += len(source.text.encode("utf-8"))
        self._values += source.values
        source.location = self.display(uri)
        return source

    def _open(self, uri: str, ref: str, scheme: str, budget: int, values: int) -> Source:
        """The document at ``uri``, read within ``budget`` bytes and ``values`` values (an
        ``InputError`` says why it cannot be)."""
        if scheme in ("http", "https"):
            if not self._host_allowed(uri):
                host = urlsplit(uri).netloc
                raise NotFollowed(
                    f"deskcheck does not fetch {uri} (host {host}); allow the host with --allow-host {host} to "
                    "check what it holds"
                )
            return read_source(uri, max_bytes=budget, max_values=values)
        if scheme == "file":
            path = _file_path(uri)
            if not path.is_file():
                what = "is a directory" if path.is_dir() else "does not exist"
                raise Unresolvable(f"{self.display(uri)} {what}")
            try:
                return read_source(str(path), max_bytes=budget, max_values=values)
            except InputError as exc:
                raise InputError(exc.message.replace(str(path), self.display(uri), 1), code=exc.code) from None
        raise NotFollowed(
            f"$ref {ref!r} uses the scheme {scheme or 'of a relative name'}, which deskcheck does not follow"
        )

    def _host_allowed(self, url: str) -> bool:
        from ...http.client import same_origin

        if self.root.url and same_origin(url, self.root.url):
            return True
        parts = urlsplit(url)
        return any(parts.netloc == host or parts.hostname == host for host in self.allow_hosts)

    def _resolver(self, uri: str) -> RefResolver:
        resolver = self._resolvers.get(uri)
        if resolver is None:
            resolver = self._resolvers[uri] = RefResolver(self.documents[uri].data)
        return resolver


def document_uri(source: Source) -> str:
    """The base URI the references of ``source`` resolve against."""
    if source.url:
        return source.url
    if source.location and not is_url(source.location) and source.location != "<document>":
        try:
            return Path(source.location).resolve().as_uri()
        except (OSError, ValueError):
            return INLINE_URI
    return INLINE_URI


def _file_path(uri: str) -> Path:
    return Path(unquote(urlsplit(uri).path))


def _fragment_label(fragment: str) -> str:
    return unquote(fragment) or "its root"


def _reason(exc: RefError) -> str:
    return exc.message.rstrip(".")
