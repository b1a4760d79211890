"""Validation of a form's data with jsonschema-rs, its errors as our own records.

Why jsonschema-rs (Rust): it imports in a few milliseconds where Python's jsonschema takes about
a tenth of a second (attrs, referencing and every bundled meta-schema), which was a third of a
``deskcheck form set-field-value`` process; and a whole 300-field document validates in well
under a millisecond, so the form validates all of it after every write, with no per-part cache.

The draft comes from ``$schema`` when the schema names one (draft 4, 6, 7, 2019-09, 2020-12;
``http`` or ``https``, with or without the final ``#``; draft 3, which jsonschema-rs does not
implement, is read as draft 4; an unknown one as 2020-12). Without it, a schema that uses draft-7
shapes (``definitions``, ``dependencies``, ``items`` as a list) is read as draft 7 and any other
as 2020-12, because validating a draft-7 schema under 2020-12 silently ignores its tuples and
dependencies. The validator never fetches anything: a reference it cannot find locally is refused.

Formats: our own checkers (``formats``); other formats are annotations. A YAML date in the data
or the schema is read as its ISO text (JSON has no date type).

``pattern``: jsonschema-rs reads JSON Schema's regular expressions (ECMA-262) with fancy-regex:
``\\d``, ``\\w`` and ``\\s`` mean what they mean in JavaScript, ``.`` does not match a line
break, and text is read by code points (JavaScript's ``u`` mode). A pattern without
back-references or look-around runs on a linear-time engine, so ``^(a+)+$`` is decided at once.
One with them, and one jsonschema-rs does not accept although it is valid JavaScript, is tested
by deskcheck one value at a time (``patterns``: at most ``BACKTRACK_LIMIT`` backtracking steps,
or the sandboxed JavaScript engine), so that every field whose value could not be checked is
reported as such; only schemas with the latter kind load the JavaScript engine.

A schema that breaks its draft's meta-schema somewhere (``"type": "strnig"``, a ``minLength``
that is a string, a ``$ref`` that leads nowhere) still validates: the broken keyword is left out
of the validator's copy and named in ``SchemaValidator.problems`` (describeState lists them), so
one mistake in a schema does not make the whole form unusable.

Errors come back as ``SchemaError`` records, in the order the schema declares its keywords (what
a reader of the schema expects, and what decides which error a field shows first), each with
what the messages and the field attachment need, read from the schema at the error's schema path:
the keyword and its value, the schema object holding it, the missing property, the unexpected
keys, the branch of each error of a ``oneOf`` / ``anyOf``.

jsonschema-rs is imported when the first validator is built: importing this module costs nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from datetime import date, datetime, time
from typing import Any
from urllib.parse import urljoin, urlsplit

from ... import jsonpointer
from ...errors import InputError
from .patterns import BACKTRACK_LIMIT, needs_backtracking, pattern_verdict

# Evaluation paths whose walk through the schema is remembered (a recursive schema has as many
# as its data is deep; a form's fields, a few hundred).
MAX_REMEMBERED_PATHS = 4096
# Broken keywords a schema may have before it is refused as a whole.
MAX_SCHEMA_PROBLEMS = 50
# The name the form's schema goes by in the registry that fragment validators resolve into.
ROOT_URI = "urn:deskcheck:form-schema"
# What a relative root ``$id`` is taken as relative to (a host that cannot exist: nothing is fetched).
RELATIVE_ROOT = "https://form-schema.deskcheck.invalid/"
# Stands for ``pattern`` in the validator's copy when deskcheck tests the pattern itself.
ECMA_PATTERN = "x-deskcheck-ecma-pattern"
UNDECIDED = "could not be checked against the pattern"
NO_MATCH = "does not match the pattern"

_DRAFT_URIS = {
    "json-schema.org/draft-03/schema": 4,
    "json-schema.org/draft-04/schema": 4,
    "json-schema.org/draft-06/schema": 6,
    "json-schema.org/draft-07/schema": 7,
    "json-schema.org/draft/2019-09/schema": 2019,
    "json-schema.org/draft/2020-12/schema": 2020,
}
_CLASSES = {
    4: ("Draft4Validator", "Draft4"),
    6: ("Draft6Validator", "Draft6"),
    7: ("Draft7Validator", "Draft7"),
    2019: ("Draft201909Validator", "Draft201909"),
    2020: ("Draft202012Validator", "Draft202012"),
}
# Values that are data, not schemas: never walked as schemas.
_DATA_KEYWORDS = ("enum", "const", "default", "examples")
_NOT_SCHEMAS = frozenset((*_DATA_KEYWORDS, "layout"))


def draft_of(schema: Any) -> int:
    """4, 6, 7, 2019 or 2020: the JSON Schema draft ``schema`` is read with."""
    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        uri = schema["$schema"].strip().rstrip("#").split("://", 1)[-1]
        return _DRAFT_URIS.get(uri, 2020)
    if isinstance(schema, dict) and _uses_draft7_shapes(schema):
        return 7
    return 2020


def _uses_draft7_shapes(schema: dict[str, Any]) -> bool:
    if "definitions" in schema and "$defs" not in schema:
        return True
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("items"), list) or isinstance(node.get("dependencies"), dict):
                return True
            if "prefixItems" in node or "dependentSchemas" in node or "$defs" in node:
                return False
            stack.extend(v for k, v in node.items() if k not in _NOT_SCHEMAS and isinstance(v, (dict, list)))
        else:
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return False


class SchemaError:
    """One validation error. ``keyword`` is the JSON Schema keyword that failed (``"false"`` for
    a ``false`` schema), ``expected`` its value in the schema, ``schema`` the schema object that
    holds it (None for ``false``), ``path`` the data path as tokens, ``context`` the errors of
    each branch of a ``oneOf`` / ``anyOf`` as ``(branch index, error)``. ``missing``: the
    property a ``required`` error is about; ``extra``: the keys an ``additionalProperties`` /
    ``unevaluatedProperties`` error refuses; ``several``: a ``oneOf`` that more than one branch
    matches; ``undecided``: a ``pattern`` that could not be checked; ``text``: the validator's
    own sentence, for keywords our messages do not cover."""

    __slots__ = (
        "context",
        "expected",
        "extra",
        "instance",
        "keyword",
        "missing",
        "path",
        "schema",
        "several",
        "text",
        "undecided",
    )

    def __init__(
        self,
        keyword: str,
        expected: Any,
        path: tuple[str | int, ...],
        instance: Any,
        schema: dict[str, Any] | None,
        text: str,
        *,
        context: list[tuple[int, SchemaError]] | None = None,
        missing: str | None = None,
        extra: list[str] | None = None,
        several: bool = False,
        undecided: bool = False,
    ) -> None:
        self.keyword = keyword
        self.expected = expected
        self.path = path
        self.instance = instance
        self.schema = schema
        self.text = text
        self.context = context or []
        self.missing = missing
        self.extra = extra or []
        self.several = several
        self.undecided = undecided

    def __repr__(self) -> str:
        return f"SchemaError({self.keyword!r} at {jsonpointer.join(self.path) or '/'}: {self.text!r})"


class SchemaValidator:
    """The validator of a form's whole schema (``iter_errors``), and of its fragments
    (``fragment``), whose references resolve in the whole."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.draft = draft_of(schema)
        self.problems: list[str] = []
        self._checked, self._validator = _build(schema, self.draft, problems=self.problems)
        self._registry: Any = None
        self._positions: dict[int, dict[str, int]] = {}
        self._steps: dict[tuple[Any, ...], tuple[tuple[int, bool], ...]] = {}
        self._targets: dict[str, Any] = {}
        self._resolver: Any = None

    def iter_errors(self, data: Any) -> list[SchemaError]:
        """Every error of ``data``, in the schema's order."""
        raw = _with_plain_data(lambda value: list(self._validator.iter_errors(value)), data)
        return [self._record(error) for error in self._ordered(raw)]

    def fragment(self, schema: Any) -> Fragment:
        """A validator of ``schema``, a part of this schema (its local references resolve in the
        whole schema), for ``is_valid`` checks: variant matching, ``if`` conditions."""
        if self._registry is None:
            import jsonschema_rs

            self._registry = jsonschema_rs.Registry(
                [(self._base(), self._checked)],
                draft=getattr(jsonschema_rs, _CLASSES[self.draft][1]),
                retriever=_refuse_retrieval,
            )
        base = self._base()
        _, validator = _build(
            _absolute_refs(schema, base, lambda ref: self._target(ref) is not None),
            self.draft,
            problems=[],
            registry=self._registry,
            known=base,
        )
        return Fragment(validator)

    def _base(self) -> str:
        """The URI the whole schema is registered under for its fragments' references. A
        relative ``$id`` (Docker Compose's ``compose_spec.json``) resolves against a
        hierarchical stand-in: the registry resolves it against the URI it is given."""
        declared = self.schema.get("$id") if isinstance(self.schema, dict) else None
        if not isinstance(declared, str) or not declared.strip("#"):
            return ROOT_URI
        declared = declared.split("#", 1)[0]
        if urlsplit(declared).scheme:
            return declared
        return urljoin(RELATIVE_ROOT, declared)

    # -- records --------------------------------------------------------------------------------

    def _record(self, error: Any) -> SchemaError:
        kind = error.kind
        kind_name = type(kind).__name__
        schema_path = list(error.schema_path)
        holder = self._at(schema_path[:-1])
        last = schema_path[-1] if schema_path else None
        path = tuple(error.instance_path)
        if kind_name == "FalseSchema":
            return SchemaError("false", False, path, error.instance, None, error.message)
        if kind_name == "Custom" and kind.keyword == ECMA_PATTERN:
            last, undecided = "pattern", kind.message == UNDECIDED
        else:
            undecided = kind_name in ("BacktrackLimitExceeded", "RegexEngineFailure")
        if isinstance(last, str) and isinstance(holder, dict) and last in holder:
            keyword, expected = last, holder[last]
        else:
            keyword, expected = kind.name, _kind_value(kind)
            holder = holder if isinstance(holder, dict) else None
        context = []
        if kind_name in ("AnyOf", "OneOfNotValid", "OneOfMultipleValid"):
            context = [
                (branch, self._record(sub))
                for branch, errors in enumerate(kind.context)
                for sub in self._ordered(list(errors))
            ]
        return SchemaError(
            keyword,
            expected,
            path,
            error.instance,
            holder,
            error.message,
            context=context,
            missing=kind.property if kind_name == "Required" else None,
            extra=list(kind.unexpected) if kind_name in ("AdditionalProperties", "UnevaluatedProperties") else None,
            several=kind_name == "OneOfMultipleValid",
            undecided=undecided,
        )

    def _at(self, tokens: list[Any]) -> Any:
        node = self.schema
        for token in tokens:
            if isinstance(node, dict):
                node = node.get("pattern" if token == ECMA_PATTERN else token)
            elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
                node = node[token]
            else:
                return None
        return node

    # -- order ----------------------------------------------------------------------------------

    def _ordered(self, errors: list[Any]) -> list[Any]:
        return sorted(errors, key=self._order_key) if len(errors) > 1 else errors

    def _order_key(self, error: Any) -> tuple[tuple[int, Any], ...]:
        """The order a reader of the schema meets the failing keyword in, walking schema and
        data together: each keyword's position among its siblings (through references), and
        where the schema goes into the data (a list item, a property matched by a pattern), the
        item's index or the key. Errors of item 0 come before errors of item 1."""
        path = tuple(getattr(error, "evaluation_path", None) or error.schema_path)
        steps = self._steps.get(path)
        if steps is None:
            if len(self._steps) >= MAX_REMEMBERED_PATHS:
                self._steps.clear()
            steps = self._steps[path] = self._walk(path)
        data = error.instance_path
        key: list[tuple[int, Any]] = []
        taken = 0
        for position, into_data in steps:
            key.append((0, position))
            if into_data and taken < len(data):
                key.append(_data_step(data[taken]))
                taken += 1
        key.extend(_data_step(token) for token in data[taken:])
        return tuple(key)

    def _walk(self, path: tuple[Any, ...]) -> tuple[tuple[int, bool], ...]:
        """``(position among its siblings, whether the step goes into the data)`` for each step
        of an evaluation path."""
        steps: list[tuple[int, bool]] = []
        node: Any = self.schema
        inside: str | None = None  # the keyword whose list or map of subschemas ``node`` is
        for token in path:
            if inside is None and isinstance(node, dict):
                name = "pattern" if token == ECMA_PATTERN else token
                value = node.get(name)
                into = name in _INTO_DATA and isinstance(value, (dict, bool))
                steps.append((self._position(node, name), into))
                if name == "$ref" and isinstance(value, str):
                    node = self._target(value)
                elif not into and (name in _MAPS or name in _LISTS):
                    node, inside = value, name
                else:
                    node = value
                continue
            if isinstance(node, dict):
                position, node = self._position(node, token), node.get(token)
            elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
                position, node = token, node[token]
            else:
                position, node = 0, None
            steps.append((position, inside in ("properties", "patternProperties", "prefixItems", "items")))
            inside = None
        return tuple(steps)

    def _position(self, node: dict[str, Any], key: Any) -> int:
        positions = self._positions.get(id(node))
        if positions is None:
            positions = self._positions[id(node)] = {k: i for i, k in enumerate(node)}
        return positions.get(key, len(positions))

    def _target(self, ref: str) -> Any:
        if ref not in self._targets:
            from ...refs import RefError, RefResolver

            if self._resolver is None:
                self._resolver = RefResolver(self.schema)
            try:
                self._targets[ref] = self._resolver.lookup(ref)[1]
            except RefError:
                self._targets[ref] = None
        return self._targets[ref]


class Fragment:
    """A validator of a part of a form's schema (see ``SchemaValidator.fragment``)."""

    def __init__(self, validator: Any) -> None:
        self._validator = validator

    def is_valid(self, data: Any) -> bool:
        return _with_plain_data(self._validator.is_valid, data)


# Keywords whose one subschema applies to items or properties of the data.
_INTO_DATA = frozenset(
    ("items", "additionalItems", "unevaluatedItems", "contains", "additionalProperties", "unevaluatedProperties")
)


def _data_step(token: Any) -> tuple[int, Any]:
    return (1, token) if isinstance(token, int) else (2, str(token))


def _kind_value(kind: Any) -> Any:
    """The expected value an error kind carries, when the schema cannot say (a keyword found
    through a reference to another resource)."""
    try:
        values = list(kind.as_dict().values())
    except (AttributeError, TypeError, ValueError):
        return None
    return values[0] if len(values) == 1 else None


# -- building -----------------------------------------------------------------------------------


class _EcmaPattern:
    """``pattern`` tested by deskcheck, one value at a time (``patterns.pattern_verdict``): a
    pattern that needs backtracking, or one jsonschema-rs does not take."""

    def __init__(self, _parent: Any, value: Any, _schema_path: Any) -> None:
        self.pattern = value

    def validate(self, instance: Any) -> None:
        if not isinstance(instance, str) or not isinstance(self.pattern, str):
            return
        verdict = pattern_verdict(self.pattern, instance)
        if verdict is None:
            raise ValueError(UNDECIDED)
        if not verdict:
            raise ValueError(NO_MATCH)


class _Annotation:
    """A keyword that describes and does not check. Draft 7 lets a validator check
    ``contentMediaType``/``contentEncoding``, and jsonschema-rs does; JSON Schema's own test
    suite, Python's jsonschema and later drafts read them as annotations, and so does a form."""

    def __init__(self, _parent: Any, _value: Any, _schema_path: Any) -> None:
        pass

    def validate(self, instance: Any) -> None:
        return None


_ANNOTATIONS = {"contentMediaType": _Annotation, "contentEncoding": _Annotation}


def bounded_validator(schema: Any) -> tuple[Any, Any]:
    """``(the schema it checks, a jsonschema-rs validator)`` of ``schema``, with deskcheck's formats
    and patterns tested within bounds, for a caller that reads jsonschema-rs errors itself (a
    tool's arguments). A pattern deskcheck tests is under ``ECMA_PATTERN`` in that schema."""
    return _build(schema, draft_of(schema), problems=[])


def _refuse_retrieval(uri: str) -> Any:
    raise ValueError(f"deskcheck does not fetch {uri}: a form's schema must carry what it refers to.")


def _build(
    schema: Any, draft: int, *, problems: list[str], registry: Any = None, known: str | None = None
) -> tuple[Any, Any]:
    """``(the schema the validator was built from, the validator)``. A copy replaces ``schema``
    when it must change: values JSON has no type for, keywords its meta-schema refuses (named in
    ``problems``), patterns tested in JavaScript."""
    import jsonschema_rs

    from .formats import format_functions

    cls = getattr(jsonschema_rs, _CLASSES[draft][0])
    options: dict[str, Any] = {
        "formats": format_functions(),
        "validate_formats": True,
        "pattern_options": jsonschema_rs.FancyRegexOptions(backtrack_limit=BACKTRACK_LIMIT),
        "keywords": {ECMA_PATTERN: _EcmaPattern, **_ANNOTATIONS},
        "retriever": _refuse_retrieval,
    }
    if registry is not None:
        options["registry"] = registry
    candidate, copied = schema, False
    if any(_backtracking(node) for _, _, node, _ in _schema_objects(schema)):
        candidate, copied = _plain(schema), True
        for _, _, node, _ in _schema_objects(candidate):
            if _backtracking(node):
                node[ECMA_PATTERN] = node.pop("pattern")
    for _ in range(MAX_SCHEMA_PROBLEMS + 1):
        try:
            return candidate, cls(candidate, **options)
        except jsonschema_rs.ValidationError as exc:  # the schema breaks its meta-schema
            if not copied:
                candidate, copied = _plain(schema), True
            problem = _set_aside(candidate, exc, known=known)
            if problem is None:
                raise _unusable(exc) from None
            if problem:
                problems.append(problem)
        except (ValueError, TypeError) as exc:  # a value JSON has no type for
            if copied:
                raise _unusable(exc) from None
            candidate, copied = _plain(schema), True
    raise InputError(
        f"the form's schema has more than {MAX_SCHEMA_PROBLEMS} keywords that are not valid JSON Schema: "
        "fix it and try again."
    )


def _backtracking(node: dict[str, Any]) -> bool:
    pattern = node.get("pattern")
    return isinstance(pattern, str) and needs_backtracking(pattern)


def _unusable(exc: Exception) -> InputError:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InputError(f"the form's schema cannot be used for validation: {first}. Fix the schema and try again.")


def _set_aside(schema: Any, exc: Any, *, known: str | None) -> str | None:
    """Take out of ``schema`` (a private copy) what ``exc`` (a meta-schema error) is about.
    Returns the sentence that names it ("" for a pattern moved to the JavaScript engine), or None
    when there is nothing to take out. References that start with ``known`` are good ones."""
    if type(exc.kind).__name__ == "Referencing":
        return _drop_broken_refs(schema, known)
    found = _culprit(schema, list(exc.instance_path))
    if found is None:
        return None
    container, key, what, pointer = found
    value = container[key]
    if what == "keyword" and key == "pattern" and isinstance(value, str):
        container[ECMA_PATTERN] = container.pop(key)
        return ""
    if what == "subschema":
        container[key] = {}  # not a schema: it accepts anything
    else:
        del container[key]  # a keyword, or a name in a map that is not a usable one
    shown = json.dumps(value, ensure_ascii=False, default=str)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"{pointer or '/'}: {shown} is not valid JSON Schema there, so it is not checked"


_SINGLE = frozenset(
    (
        "not",
        "if",
        "then",
        "else",
        "additionalProperties",
        "additionalItems",
        "contains",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contentSchema",
        "items",
    )
)
_LISTS = frozenset(("allOf", "anyOf", "oneOf", "prefixItems", "items"))
_MAPS = frozenset(("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"))


def _culprit(schema: Any, tokens: list[Any]) -> tuple[Any, Any, str, str] | None:
    """``(container, key, what, schema pointer)`` for a meta-schema error at ``tokens``: ``what``
    is ``"keyword"`` (a keyword of a schema object has a wrong value), ``"subschema"`` (an entry of
    a list or map of subschemas is not a schema) or ``"name"`` (an entry of ``patternProperties``
    whose name is not a regular expression, of ``dependencies`` that is not a list of names)."""
    node: Any = schema
    found: tuple[Any, Any, str, list[Any]] | None = None
    index = 0
    while index < len(tokens) and isinstance(node, dict) and tokens[index] in node:
        token = tokens[index]
        value = node[token]
        found = (node, token, "keyword", tokens[: index + 1])
        rest = tokens[index + 1 :]
        if not rest:
            break
        if token in _SINGLE and isinstance(value, (dict, bool)):
            node, index = value, index + 1
            continue
        entry_key = rest[0]
        in_list = token in _LISTS and isinstance(value, list) and isinstance(entry_key, int) and entry_key < len(value)
        in_map = token in _MAPS and isinstance(value, dict) and entry_key in value
        if not (in_list or in_map):
            break
        entry = value[entry_key]
        where = tokens[: index + 2]
        if token == "patternProperties" and len(rest) == 1:
            found = (value, entry_key, "name", where)
            break
        if token == "dependencies" and not isinstance(entry, (dict, bool)):
            found = (value, entry_key, "name", where)
            break
        if len(rest) == 1 or not isinstance(entry, dict):
            found = (value, entry_key, "subschema", where)
            break
        node, index = entry, index + 2
    if found is None:
        return None
    container, key, what, path = found
    return container, key, what, jsonpointer.join(path)


def _drop_broken_refs(schema: Any, known: str | None) -> str | None:
    from ...refs import RefError, RefResolver

    resolver = RefResolver(schema)
    dropped = []
    for parent, keyword, node, pointer in _schema_objects(schema):
        ref = node.get("$ref")
        if isinstance(ref, str) and not (known and ref.startswith(known + "#")):
            try:
                resolver.lookup(ref)
            except RefError:
                _leave_out_ref(parent, keyword, node)
                dropped.append(f"{pointer or '/'}: $ref {ref!r} leads nowhere, so what it names is not checked")
    return "; ".join(sorted(dropped)) or None


def _absolute_refs(schema: Any, base: str, resolves: Callable[[str], bool]) -> Any:
    """A copy of ``schema`` whose local references (``#/...``, ``#anchor``) name ``base``; one
    that leads nowhere (``resolves`` says) is left out, as the whole schema leaves it out."""
    if not isinstance(schema, dict):
        return schema
    if not any(isinstance(node.get("$ref"), str) for _, _, node, _ in _schema_objects(schema)):
        return schema  # nothing to rewrite: the validator only reads it
    out = copy.deepcopy(schema)
    for parent, keyword, node, _pointer in _schema_objects(out):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            if resolves(ref):
                node["$ref"] = base + ref
            else:
                _leave_out_ref(parent, keyword, node)
    return out


def _leave_out_ref(parent: dict[str, Any] | None, keyword: str | None, node: dict[str, Any]) -> None:
    """Without its target a reference checks nothing: the schema holding it accepts anything,
    except under ``not``, where that would refuse everything: there the ``not`` goes."""
    if parent is not None and keyword == "not":
        del parent["not"]
    else:
        del node["$ref"]


def _schema_objects(schema: Any) -> Iterator[tuple[dict[str, Any] | None, str | None, dict[str, Any], str]]:
    """``(parent, keyword, schema object, pointer)`` for every schema object in ``schema``;
    ``parent`` and ``keyword`` when it is the value of a keyword of ``parent`` (``not``,
    ``items``...), None in a list or a map of schemas. Changes to an object made before the next
    step are seen by the walk."""
    stack: list[tuple[Any, Any, Any, str]] = [(None, None, schema, "")]
    while stack:
        parent, keyword, node, pointer = stack.pop()
        if not isinstance(node, dict):
            continue
        yield parent, keyword, node, pointer
        for key, value in list(node.items()):
            if key in _DATA_KEYWORDS:
                continue
            at = jsonpointer.append(pointer, key)
            if isinstance(value, dict) and key in _MAPS:
                stack.extend((None, None, sub, jsonpointer.append(at, name)) for name, sub in value.items())
            elif isinstance(value, list):
                stack.extend((None, None, sub, jsonpointer.append(at, i)) for i, sub in enumerate(value))
            elif isinstance(value, dict):
                stack.append((node, key, value, at))


# -- data ---------------------------------------------------------------------------------------


def _with_plain_data(call: Any, data: Any) -> Any:
    try:
        return call(data)
    except (ValueError, TypeError):  # a value JSON has no type for: once more as JSON values
        return call(_plain(data))


def _plain(value: Any) -> Any:
    """``value`` as JSON values: dates as ISO text, keys as strings, tuples as lists, anything
    else JSON has no type for as its text."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (date, datetime, time)):
        return value.isoformat()
    return str(value)
