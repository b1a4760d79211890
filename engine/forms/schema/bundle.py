"""A schema whose references leave its own document, bundled into one document that refers only
to itself.

The form engine reads one document: its skeletons follow ``#/...`` pointers, and its validator is
built from that document alone. A real schema is often spread over files (``package.json``'s
schema refers to ``eslintrc.json``, which refers to ``partial-eslint-plugins.json``), names
itself by its ``$id`` (``https://json.schemastore.org/catalog-info.json#/definitions/x``), uses
anchors, or writes a pointer a URI parser refuses as it stands (``#/definitions/Inputs<String>``).
``bundle`` resolves every reference with ``referencing`` (the library ``jsonschema`` resolves
with, so the rules of each draft for ``$id``, ``id`` and anchors are its rules) and rewrites each
one as a JSON pointer into the bundle, percent-encoded where a URI needs it:

- a document another one refers to is copied whole under the root's ``definitions`` (draft 4 to
  7) or ``$defs``, keyed by its file name;
- ``$id``/``id`` below the root and ``$schema`` of copied documents are taken out once every
  reference is a pointer: left in, they would change what the pointers are relative to;
- a reference that cannot be followed (a host nobody allowed, a file that is not there, a pointer
  to nothing) is left out, so the schema around it still works, and is named in the bundle's
  ``x-deskcheck-left-out`` list (describeState shows it under "Not checked").

Where other documents come from is the caller's ``retrieve(uri)``: ``schema_files.SchemaFiles``
reads the files next to a schema file (and, when allowed, the network). Without one, only the
JSON Schema meta-schemas, which ``jsonschema`` ships, are found.

Bounded: at most ``MAX_DOCUMENTS`` documents, and the walk visits each schema object once.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin

from ... import jsonpointer
from ...errors import InputError

# Where the problems of a bundle are listed, in the bundle itself: a prepared schema is stored and
# compiled again in other processes, and its problems must travel with it.
LEFT_OUT = "x-deskcheck-left-out"
# The name a schema without an absolute $id goes by while its references are resolved.
ROOT_URI = "urn:deskcheck:schema"
MAX_DOCUMENTS = 256
# Characters a URI fragment may hold as they are (RFC 3986: pchar, "/" and "?"); the rest of a
# pointer is percent-encoded.
_FRAGMENT_SAFE = "/?:@!$&'()*+,;=-._~"
_DATA_KEYWORDS = frozenset(("enum", "const", "default", "examples"))
# Keywords whose value maps names (of properties, definitions...) to schemas.
_NAMED_SCHEMAS = frozenset(
    ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
)
# A reference that is already a pointer (or an anchor's name) in its own document, written as a
# URI allows: it needs no rewriting.
_PLAIN_POINTER = re.compile(r"^#(/[A-Za-z0-9_\-.~:@!$&'()*+,;=/%]*|[A-Za-z][A-Za-z0-9_\-.:]*|)$")

Retrieve = Callable[[str], Any]


class RetrievalRefused(Exception):
    """A document a reference names that was not read; the message says why and what to do."""


def needs_bundling(schema: Any) -> bool:
    """Whether ``schema`` has a reference that is not a plain pointer into itself, or an ``$id``
    below its root (which changes what the references below it mean)."""
    for node, depth in _schema_objects(schema):
        ref = node.get("$ref")
        if isinstance(ref, str) and not _PLAIN_POINTER.match(ref):
            return True
        if depth and isinstance(node.get("$id"), str):
            return True
    return False


def bundle(schema: dict[str, Any], *, base_uri: str | None = None, retrieve: Retrieve | None = None) -> dict[str, Any]:
    """A copy of ``schema`` whose references are all pointers into itself (see the module
    docstring). ``base_uri`` is where the schema was read from (a ``file:`` URI), against which a
    schema without an absolute ``$id`` resolves relative references."""
    if _refers_only_to_itself(schema):
        return _encode_local_refs(copy.deepcopy(schema))
    return _Bundler(schema, base_uri or ROOT_URI, retrieve or _meta_schemas_only).run()


def _refers_only_to_itself(schema: Any) -> bool:
    """Every reference is a fragment of this document, and no ``$id`` below the root moves what
    fragments mean: nothing to resolve, at most fragments to encode."""
    for node, depth in _schema_objects(schema):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            return False
        if depth and (isinstance(node.get("$id"), str) or isinstance(node.get("id"), str)):
            return False
    return True


def _encode_local_refs(schema: Any) -> Any:
    """``schema`` with each fragment written as a URI allows (``#/definitions/In<T>`` becomes
    ``#/definitions/In%3CT%3E``); both the skeletons and the validator decode them."""
    for node, _depth in _schema_objects(schema):
        ref = node.get("$ref")
        if isinstance(ref, str) and not _PLAIN_POINTER.match(ref):
            node["$ref"] = "#" + quote(unquote(ref[1:]), safe=_FRAGMENT_SAFE)
    return schema


def left_out(schema: Any) -> list[str]:
    """The references a bundle left out, as sentences."""
    found = schema.get(LEFT_OUT) if isinstance(schema, dict) else None
    return [str(entry) for entry in found] if isinstance(found, list) else []


class _Bundler:
    def __init__(self, schema: dict[str, Any], base_uri: str, retrieve: Retrieve) -> None:
        import referencing.jsonschema as specs
        from referencing import Registry

        self.specs = specs
        self.root = copy.deepcopy(schema)
        self.spec = _specification(self.root)
        self.retrieve = retrieve
        self.documents: dict[str, Any] = {}  # URI without fragment -> contents, as retrieved
        self.refused: dict[str, str] = {}
        self.placed: dict[int, tuple[str, ...]] = {}  # id() of every object of the bundle -> its path
        self.keys: dict[str, str] = {}  # document URI -> its key in the definitions
        self.problems: list[str] = []
        self.copied: list[Any] = []
        declared = self.spec.id_of(self.root)
        self.root_uri = urljoin(base_uri, declared) if isinstance(declared, str) else base_uri
        self.root_uri = urldefrag(self.root_uri).url or base_uri
        self.document_uris: dict[int, str] = {}  # id() of each copied document -> the URI it came from
        self.document_specs: dict[int, Any] = {}  # and its draft
        self.uri_documents: dict[str, Any] = {self.root_uri: self.root}  # and the other way
        self.registry = (
            Registry(retrieve=self._resource).with_resource(self.root_uri, self.spec.create_resource(self.root)).crawl()
        )
        self.container = "$defs" if self.spec in (specs.DRAFT201909, specs.DRAFT202012) else "definitions"

    def run(self) -> dict[str, Any]:
        self._place(self.root, "")
        pending: list[tuple[Any, str, Any]] = [(self.root, self.root_uri, self.spec)]
        scanned: set[int] = set()
        while pending:
            start, base, spec = pending.pop()
            for node, node_base, parent in self._walk(start, base, spec, scanned):
                ref = node.get("$ref")
                if not isinstance(ref, str):
                    continue
                target = self._target(ref, node_base, node)
                if target is None:
                    _leave_out(parent, node)
                    continue
                node["$ref"] = "#" + quote(target, safe=_FRAGMENT_SAFE)
                contents = jsonpointer.resolve(self.root, target)
                if isinstance(contents, (dict, list)) and id(contents) not in scanned:
                    # Reached by reference, perhaps not by containment (a $defs the draft does not know).
                    pending.append((contents, *self._base_at(target)))
            # A copied document is scanned whole: its references must all become pointers, used
            # or not, for the bundle to stand alone.
            pending.extend(
                (document, self.document_uris[id(document)], self.document_specs[id(document)])
                for document in self.copied
                if id(document) not in scanned
            )
        for document in [self.root, *self.copied]:
            spec = self.document_specs.get(id(document), self.spec)
            _drop_inner_ids(document, keep_root=document is self.root, draft4=_draft4(spec))
        if self.problems:
            self.root[LEFT_OUT] = sorted(set(self.problems))
        return self.root

    def _walk(
        self, start: Any, base: str, spec: Any, scanned: set[int]
    ) -> Iterator[tuple[dict[str, Any], str, tuple[dict[str, Any], str] | None]]:
        """``(schema object, its base URI, (parent, keyword))`` below ``start``, whose base is
        ``base`` and draft ``spec``, skipping what ``scanned`` holds (and adding what it yields).
        A copied document's base is the URI it was read from, and its draft its own; below it,
        each ``$id`` (``id`` in draft 4) moves the base."""
        stack: list[tuple[Any, str, Any, Any, bool]] = [(start, base, spec, None, False)]
        while stack:
            node, node_base, node_spec, parent, names = stack.pop()
            if id(node) in scanned:
                continue
            scanned.add(id(node))
            if id(node) in self.document_uris:
                node_base, node_spec = self.document_uris[id(node)], self.document_specs[id(node)]
            if isinstance(node, dict) and names:
                # The keys of `properties` (and the like) are names: "default" may be one.
                stack.extend((value, node_base, node_spec, None, False) for value in node.values())
            elif isinstance(node, dict):
                node_base = _moved_base(node, node_base, node_spec)
                yield node, node_base, parent
                stack.extend(
                    (value, node_base, node_spec, (node, key), key in _NAMED_SCHEMAS)
                    for key, value in node.items()
                    if key not in _DATA_KEYWORDS and isinstance(value, (dict, list))
                )
            elif isinstance(node, list):
                stack.extend((value, node_base, node_spec, None, False) for value in node)

    def _base_at(self, pointer: str) -> tuple[str, Any]:
        """``(base URI, draft)`` in force at ``pointer`` of the bundle, before the ``$id`` of what
        is there: the walk from the root, through the documents and the ``$id``s on the way."""
        base, spec, node = self.root_uri, self.spec, self.root
        for token in jsonpointer.split(pointer) if pointer else []:
            if id(node) in self.document_uris:
                base, spec = self.document_uris[id(node)], self.document_specs[id(node)]
            if isinstance(node, dict):
                base = _moved_base(node, base, spec)
                node = node.get(token)
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                break
        if id(node) in self.document_uris:
            return self.document_uris[id(node)], self.document_specs[id(node)]
        return base, spec

    # -- references -----------------------------------------------------------------------------

    def _target(self, ref: str, base: str, holder: dict[str, Any]) -> str | None:
        """The pointer in the bundle of what ``ref`` (in ``holder``, under ``base``) names, or
        None (noted) when it cannot be followed."""
        from referencing.exceptions import Unresolvable

        document = self.uri_documents.get(base)
        if document is not None and ref.startswith("#/"):
            # A pointer into a document already here: no need for the general resolution.
            try:
                found = jsonpointer.resolve(document, unquote(ref[1:]))
            except jsonpointer.PointerError:
                found = None
            if isinstance(found, (dict, list)) and id(found) in self.placed:
                return jsonpointer.join(self.placed[id(found)])
        site = jsonpointer.join(self.placed.get(id(holder), ()))
        document_uri = urldefrag(urljoin(base, ref)).url
        try:
            resolved = self.registry.resolver(base).lookup(ref)
        except Unresolvable:
            from ...urls import redact

            reason = self.refused.get(document_uri) or f"it leads nowhere in {redact(document_uri) or 'this schema'}"
            self.problems.append(
                f"{site or '/'}: $ref {redact(ref)!r} is not followed ({reason}), so what it names is not checked"
            )
            return None
        contents = resolved.contents
        if isinstance(contents, bool):
            return self._pointer_of_bool(contents)
        if id(contents) not in self.placed:
            self._copy_document(document_uri)
        path = self.placed.get(id(contents))
        if path is None:
            self.problems.append(f"{site or '/'}: $ref {ref!r} names a part of another document that was not copied")
            return None
        return jsonpointer.join(path)

    def _pointer_of_bool(self, value: bool) -> str:
        definitions = self.root.setdefault(self.container, {})
        name = "x-deskcheck-true" if value else "x-deskcheck-false"
        definitions.setdefault(name, value)
        return jsonpointer.join([self.container, name])

    def _resource(self, uri: str) -> Any:
        """The ``referencing`` resource of a document another one names (the registry's hook)."""
        from referencing.exceptions import NoSuchResource

        if uri not in self.documents:
            if uri in self.refused:
                raise NoSuchResource(ref=uri)
            if len(self.documents) >= MAX_DOCUMENTS:
                self.refused[uri] = f"the schema refers to more than {MAX_DOCUMENTS} documents"
                raise NoSuchResource(ref=uri)
            try:
                contents = self.retrieve(uri)
            except RetrievalRefused as exc:
                self.refused[uri] = str(exc)
                raise NoSuchResource(ref=uri) from None
            except InputError as exc:
                self.refused[uri] = exc.message.rstrip(".")
                raise NoSuchResource(ref=uri) from None
            if not isinstance(contents, (dict, bool)):
                self.refused[uri] = f"{uri} is not a JSON Schema"
                raise NoSuchResource(ref=uri)
            # Ours to rewrite: a retriever may hand out shared objects (the meta-schemas).
            self.documents[uri] = copy.deepcopy(contents)
        contents = self.documents[uri]
        from referencing import Resource

        return Resource.from_contents(contents, default_specification=self.spec)

    def _copy_document(self, uri: str) -> None:
        """Copy the document retrieved for ``uri`` into the definitions, once."""
        if uri in self.keys or uri not in self.documents:
            return
        contents = self.documents[uri]
        definitions = self.root.setdefault(self.container, {})
        if not isinstance(definitions, dict):
            return
        name = _document_name(uri)
        key, number = name, 1
        while key in definitions:
            number += 1
            key = f"{name}-{number}"
        definitions[key] = contents
        self.keys[uri] = key
        self.copied.append(contents)
        self.document_uris[id(contents)] = uri
        self.uri_documents[uri] = contents
        self._place(contents, jsonpointer.join([self.container, key]))
        dialect = contents.get("$schema") if isinstance(contents, dict) else None
        spec = self.specs.specification_with(dialect, default=self.spec) if isinstance(dialect, str) else self.spec
        self.document_specs[id(contents)] = spec
        self.registry = self.registry.with_resource(uri, spec.create_resource(contents)).crawl()

    def _place(self, document: Any, pointer: str) -> None:
        """Remember where each object of ``document`` (placed at ``pointer``) is."""
        stack: list[tuple[tuple[str, ...], Any]] = [(tuple(jsonpointer.split(pointer)) if pointer else (), document)]
        placed = self.placed
        while stack:
            where, value = stack.pop()
            if id(value) in placed:
                continue
            placed[id(value)] = where
            if isinstance(value, dict):
                stack.extend(((*where, k), v) for k, v in value.items() if isinstance(v, (dict, list)))
            else:
                stack.extend(((*where, str(i)), v) for i, v in enumerate(value) if isinstance(v, (dict, list)))


def _specification(schema: Any) -> Any:
    """The ``referencing`` specification of a schema's draft, as the form's validator reads it."""
    import referencing.jsonschema as specs

    from .validation import draft_of

    return {
        4: specs.DRAFT4,
        6: specs.DRAFT6,
        7: specs.DRAFT7,
        2019: specs.DRAFT201909,
        2020: specs.DRAFT202012,
    }[draft_of(schema)]


def _meta_schemas_only(uri: str) -> Any:
    return meta_schema(uri)


def meta_schema(uri: str) -> Any:
    """The JSON Schema meta-schema at ``uri``, from the copies ``jsonschema`` ships (never the
    network); ``RetrievalRefused`` for any other URI."""
    from jsonschema_specifications import REGISTRY

    for candidate in (uri, uri.rstrip("#"), uri.rstrip("#") + "#"):
        try:
            return REGISTRY.contents(candidate)
        except LookupError:
            continue
    raise RetrievalRefused(f"{uri} is another document, and this schema is read on its own")


def _document_name(uri: str) -> str:
    path = uri.split("?", 1)[0].rstrip("/")
    name = path.rsplit("/", 1)[-1] or "document"
    return name[:80]


def _leave_out(parent: tuple[dict[str, Any], str] | None, node: dict[str, Any]) -> None:
    """Without its target a reference checks nothing: the schema holding it accepts anything,
    except under ``not``, where that would refuse everything: there the ``not`` goes."""
    if parent is not None and parent[1] == "not":
        del parent[0]["not"]
    else:
        del node["$ref"]


def _schema_objects(schema: Any) -> Iterator[tuple[dict[str, Any], int]]:
    """``(schema object, depth)`` for every object in ``schema`` outside data keywords (the
    values of ``properties`` and the like are schemas whatever their names)."""
    stack: list[tuple[Any, int, bool]] = [(schema, 0, False)]
    while stack:
        node, depth, names = stack.pop()
        if isinstance(node, dict) and names:
            stack.extend((v, depth + 1, False) for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, dict):
            yield node, depth
            stack.extend(
                (v, depth + 1, k in _NAMED_SCHEMAS)
                for k, v in node.items()
                if k not in _DATA_KEYWORDS and isinstance(v, (dict, list))
            )
        elif isinstance(node, list):
            stack.extend((v, depth + 1, False) for v in node if isinstance(v, (dict, list)))


def _draft4(spec: Any) -> bool:
    """Whether ``spec`` names its resources with ``id`` rather than ``$id``."""
    return spec.name in ("draft-03", "draft-04")


def _moved_base(node: dict[str, Any], base: str, spec: Any) -> str:
    """The base URI inside ``node``: ``base`` moved by its ``$id`` (``id`` in draft 4), unless
    that only names an anchor (``#name``)."""
    declared = node.get("$id")
    if not isinstance(declared, str) and _draft4(spec):
        declared = node.get("id")
    if isinstance(declared, str) and declared and not declared.startswith("#"):
        return urldefrag(urljoin(base, declared)).url
    return base


def _drop_inner_ids(document: Any, *, keep_root: bool, draft4: bool) -> None:
    """Take out ``$id`` (``id`` in draft 4) below the root, and a copied document's own with its
    ``$schema``: once every reference is a pointer from the root, they would only move what the
    pointers mean."""
    keywords = ("$id", "id") if draft4 else ("$id",)
    for node, depth in _schema_objects(document):
        if depth == 0 and keep_root:
            continue
        for keyword in keywords:
            if isinstance(node.get(keyword), str):
                del node[keyword]
        if depth == 0:
            node.pop("$schema", None)
