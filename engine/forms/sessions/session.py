"""Form sessions: one form over a source (``sources``), kept in the persistent store (``store``)
between calls and processes, with a save gate, optimistic concurrency and reload.

A ``FormSession`` is a handle: cheap to make, holding nothing but its key, its source, its store
and options. Each operation reads the stored session, works, and writes it back inside one
store transaction, so any number of processes can use the same session one call after the
other. Statuses: ``closed`` (nothing stored), ``opening`` (loading, in this process), ``ready``,
``stale`` (the source's copy changed since the load: reload and re-apply), ``saving`` (a save is
in flight, in some process) and ``error`` (the last save failed; the edits are kept).

- ``edit()``: a context manager yielding the ``FormState`` of this call; the session is opened
  (schema and document loaded) when there is none; what the call changed is stored on exit,
  nothing when it raises. Every access slides the expiry.
- ``save()``: the gate (closed, read-only, save in flight, invalid unless allowed), then the
  whole document goes to the source with the loaded version (``If-Match`` /
  ``If-Unmodified-Since`` for HTTP, the content hash for a file); the version it returns is
  adopted. No lock is held during the request: edits made meanwhile stay as local changes.
  A conflict makes the session stale; any other failure keeps the edits, status ``error``.
- ``reload()``: the source's current copy replaces the session, local changes are discarded.
- ``discard()``, ``restore()`` (a draft left by an expired session, re-applied onto the
  source's current copy).

Schemas: each version is prepared once and kept in the store, so another process compiles it
from there (``compile_prepared``) and a schema fetched again with the same content is not
prepared again; the last version and ``ETag`` of each schema request are kept for a
conditional request.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ...errors import DeskcheckError
from ...textdoc.nodes import equal_data
from ..schema.compile import CompiledForm, CompileOptions, cached_form, compile_prepared, prepare_schema
from ..schema.values import UNSET
from ..sources.sources import ABSENT, DocumentVersion, FormSource, Loaded, SaveConflict, Saved, SchemaTag
from ..state.rebase import changed_pointers, rebase
from ..state.state import FormState
from ..state.suggestions import Fetcher
from ..state.tree import lookup as _value_at
from .store_base import BaseStore, Draft, SessionRecord

STATUSES = ("closed", "opening", "ready", "stale", "saving", "error")
# How long a save may be in flight before another process may start one (the owner process
# being gone ends it sooner). A source that knows how long its request may take at most
# (``request_deadline``: an HTTP client's total timeout) gets a lease that long plus the margin,
# whichever is longer: a second save never starts while the first request can still arrive.
SAVE_LEASE_SECONDS = 120.0
SAVE_LEASE_MARGIN_SECONDS = 30.0
# Errors quoted in the message of a refused save; the rest are counted.
MAX_QUOTED_ERRORS = 5
# Changed paths quoted in messages; the rest are counted.
MAX_QUOTED_PATHS = 12
# Where a session record keeps, beside the state's snapshot, the places of the values its source
# shares (``Loaded.shared``).
SHARED_KEY = "sharedValues"


class SessionError(DeskcheckError):
    """A session operation that cannot go on; ``code`` is ``closed``, ``readonly``, ``saving``,
    ``invalid``, ``conflict``, ``saveFailed``, ``noDraft``, ``unsavedEdits``..."""


class SessionKey(NamedTuple):
    """Identity (empty: none), tool group and path parameters (name, value) in declared order."""

    group: str
    params: tuple[tuple[str, str], ...] = ()
    identity: str = ""

    @classmethod
    def of(
        cls, group: str, params: Mapping[str, Any] | Sequence[tuple[str, Any]] = (), identity: str | None = None
    ) -> SessionKey:
        pairs = params.items() if isinstance(params, Mapping) else params
        return cls(group, tuple((str(name), _text(value)) for name, value in pairs), identity or "")

    @property
    def text(self) -> str:
        return json.dumps([self.identity, self.group, [list(p) for p in self.params]], ensure_ascii=False)

    def describe(self) -> str:
        params = " ".join(f"{name}={value}" for name, value in self.params)
        who = f" (identity {self.identity})" if self.identity else ""
        return f"{self.group}{' ' + params if params else ''}{who}"


class SessionOptions(NamedTuple):
    """``allow_invalid``: saves may send a document that fails validation. ``fill_defaults``: the
    form writes the schema's defaults and constants where the document has no value (a source
    that creates records always does; otherwise a loaded document changes only where a tool
    writes). ``context`` is what schema expressions read as ``context``; ``fetcher`` lists
    options behind URLs."""

    prefix: str = "form"
    allow_invalid: bool = False
    fill_defaults: bool = False
    compile_options: CompileOptions | None = None
    context: Any = None
    fetcher: Fetcher | None = None
    save_lease: float = SAVE_LEASE_SECONDS


class SaveOutcome(NamedTuple):
    version: str | None
    location: str | None = None
    created: bool = False
    pending: list[str] | None = None  # fields changed while the save was in flight
    detached: bool = False  # the session was reloaded or discarded while the save was in flight


class ReloadOutcome(NamedTuple):
    discarded: list[str]
    kept: tuple[str, ...] = ()  # edits re-applied onto the new copy (keep_edits)
    conflicts: tuple[str, ...] = ()  # of those, fields the source changed too (the edit's value won)


class RestoreOutcome(NamedTuple):
    draft: int
    changed: list[str]
    conflicts: list[str]


class FormSession:
    def __init__(
        self, source: FormSource, store: BaseStore, key: SessionKey, options: SessionOptions | None = None
    ) -> None:
        self.source = source
        self.store = store
        self.key = key
        self.options = options or SessionOptions()
        self._opening = False
        self._failure: str | None = None
        # Things the next answer should mention (a session that expired into a draft).
        self.notices: list[str] = []
        # The path the call writes a whole value at (setFieldValue), when it does: a value
        # written in place of an alias replaces it (``shared_values``).
        self.replaced_path: str | None = None

    @property
    def title(self) -> str:
        return self.source.title

    def _tool(self, verb: str) -> str:
        return f"{self.options.prefix}_{verb}" if self.options.prefix else verb

    # -- reading --------------------------------------------------------------------------------

    def record(self) -> SessionRecord | None:
        """The stored session (None when closed or expired)."""
        record = self.store.get(self.key.text)
        if record is None or record.expires_at < self.store.now():
            return None
        return record

    @property
    def status(self) -> str:
        if self._opening:
            return "opening"
        record = self.record()
        if record is None:
            return "error" if self._failure else "closed"
        if record.status == "saving" and not self._lease_alive(record):
            return "error"
        return record.status

    @contextlib.contextmanager
    def peek(self) -> Iterator[FormState | None]:
        """The state as stored, without taking the lock or writing anything (None when closed)."""
        record = self.record()
        yield None if record is None else self._state(record)[0]

    # -- one call -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def edit(self) -> Iterator[FormState]:
        """The state for one call, opened when needed; stored back when the call changed it
        (nothing is stored when the call raises, except that an opening is kept)."""
        current_schema = self._resolve_schema(count=False) if self.source.check_schema_each_call else None
        current = self._probe()
        opened: tuple[int, int, FormState] | None = None
        moved: SessionRecord | None = None
        for _ in range(4):
            if moved is not None:
                self._follow_source(moved, current)
                current = moved = None
            with self.store.transaction():
                self._expire()
                record = self.store.get(self.key.text)
                if record is not None and self._source_moved(record, current):
                    moved = record  # followed outside the lock, then read again
                    continue
                if record is not None:
                    if opened is not None and opened[:2] == (record.generation, record.revision):
                        state, changed_schema = opened[2], False  # the state just opened, unchanged since
                    else:
                        state, changed_schema = self._state(record, current_schema)
                    yield from self._one_call(record, state, changed_schema)
                    return
            # Nothing stored: load outside the lock (it may be an HTTP request), then store it
            # unless another process opened the session meanwhile (its copy wins).
            fresh, fresh_state = self._load_fresh_state()
            with self.store.transaction():
                if self.store.get(self.key.text) is None:
                    self.store.put(fresh)
                    opened = (fresh.generation, fresh.revision, fresh_state)
        raise SessionError(f'"{self.title}" could not be opened: it kept disappearing from the store; try again.')

    def _one_call(self, record: SessionRecord, state: FormState, changed_schema: bool) -> Iterator[FormState]:
        """Yield ``state`` to the call, then store what it changed (inside the caller's
        transaction). What may change is compared without copying the documents: a write
        rebuilds the state's data, so the same object means the same data."""
        data, base, marks = state.data, state.base, _marks(state)
        yield state
        changed = (
            changed_schema
            or _marks(state) != marks
            or (state.data is not data and state.data != data)
            or (state.base is not base and state.base != base)
        )
        if changed:
            self._follow_shared(record, data, state)
            del data, base  # (the documents as they were: not needed to store the new ones)
            self._keep(record, state)
            self.store.put(record)
        else:
            self.store.touch(record)

    def _expire(self) -> None:
        for key, draft_id in self.store.expire():
            if key == self.key.text and draft_id is not None:
                self.notices.append(
                    f"The previous session of {self.key.describe()} expired with unsaved edits; they were kept as "
                    f"draft {draft_id} (`deskcheck form restore --draft {draft_id}` re-applies them)."
                )

    def _keep(self, record: SessionRecord, state: FormState) -> None:
        shared = record.snapshot.get(SHARED_KEY) if isinstance(record.snapshot, dict) else None
        # The state never changes its documents in place (a write builds new ones), so the
        # record may hold them as they are until the store writes it out.
        record.snapshot = state.snapshot(copy=False)
        if shared:
            record.snapshot[SHARED_KEY] = shared
        record.schema_version = state.form.version
        record.modified = state.modified
        record.valid = state.valid
        record.error_count = len(state.errors)
        record.expires_at = self.store.now() + self.store.ttl

    def open(self) -> SessionRecord:
        """Open the session (load it from the source) unless it is open already."""
        with self.edit():
            pass
        record = self.record()
        assert record is not None
        return record

    # -- save -----------------------------------------------------------------------------------

    def save(self, *, allow_invalid: bool | None = None) -> SaveOutcome:
        title = self.title
        allow = self.options.allow_invalid if allow_invalid is None else allow_invalid
        import secrets

        token = secrets.token_hex(8)
        current = self._probe()
        with self.store.transaction():
            # Committed on its own: a session that expired becomes a draft even though this save
            # is then refused, and the refusal says where the edits went.
            self._expire()
        with self.store.transaction():
            record = self.store.get(self.key.text)
            moved = record is not None and self._source_moved(record, current)
            if not moved:
                data, base, version, started = self._start_saving(record, token, allow)
        if moved:
            assert record is not None and current is not None
            self._follow_source(record, current)
            with self.store.transaction():
                data, base, version, started = self._start_saving(self.store.get(self.key.text), token, allow)
        try:
            saved = self.source.save(data, version=version, base=base)
        except SaveConflict as exc:
            edits = changed_pointers(base, data)
            reason = exc.message.rstrip(".")
            message = (
                f'"{title}" changed at its source since it was loaded ({reason}). Your edits are still in the '
                f'session{_paths_note(edits)}. {self._tool("reloadForm")} with {{"keepEdits": true}} gets the '
                "current copy and re-applies them onto it (without keepEdits it discards them); check them and save "
                "again."
            )
            self._save_failed(token, "stale", message)
            raise SessionError(message, code="conflict") from None
        except DeskcheckError as exc:
            message = (
                f'saving "{title}" failed: {exc.message.rstrip(".")}. Your edits are still in the session; fix the '
                f"cause (credentials, a read-only token, a value the server refuses) and call "
                f"{self._tool('saveForm')} again."
            )
            self._save_failed(token, "error", message)
            raise SessionError(message, code=exc.code or "saveFailed") from None
        except BaseException:
            self._save_failed(token, "error", f'saving "{title}" stopped before the source answered.')
            raise
        del base
        return self._save_done(token, data, saved, started)

    def _start_saving(self, record: SessionRecord | None, token: str, allow: bool) -> tuple[Any, Any, Any, int]:
        """Inside a transaction: the gate of a save (open, writable, no save in flight, valid
        unless allowed), then the record marked as being saved. The document to send, its base,
        the version it was loaded at, and the record's revision once marked."""
        title = self.title
        if record is None:
            raise SessionError(
                " ".join(
                    [
                        f'"{title}" is not open, so there is nothing to save: open it with '
                        f"{self._tool('describeState')} (or any other form tool), make your changes, then save.",
                        *self.notices,
                    ]
                ),
                code="closed",
            )
        if self.source.read_only:
            raise SessionError(f'"{title}" is read-only: this session has no way to save it.', code="readonly")
        if record.status == "saving" and self._lease_alive(record):
            raise SessionError(
                f'"{title}" is already being saved: wait for that save to report before starting another.',
                code="saving",
            )
        if record.valid or allow:
            # The stored verdict is the state's (kept at every call): no state is rebuilt.
            data, base = record.snapshot.get("data"), record.snapshot.get("base")
        else:
            state, _ = self._state(record)
            if not state.valid:
                raise SessionError(_invalid_message(title, state, self._tool("describeState")), code="invalid")
            data, base = state.document, state.base
        version = record.doc_version
        record.status, record.message = "saving", None
        record.save_token = token
        record.save_deadline = self.store.now() + self._lease_seconds()
        record.save_owner = _owner()
        record.expires_at = self.store.now() + self.store.ttl
        self.store.put(record)
        return data, base, version, record.revision

    def _save_failed(self, token: str, status: str, message: str) -> None:
        with self.store.transaction():
            record = self.store.get(self.key.text)
            if record is None or record.save_token != token:
                return
            record.status, record.message = status, message
            record.save_token = record.save_deadline = record.save_owner = None
            self.store.put(record)

    def _save_done(self, token: str, sent: Any, saved: Saved, started: int) -> SaveOutcome:
        version = saved.version.value if saved.version else None
        with self.store.transaction():
            record = self.store.get(self.key.text)
            if record is None or record.save_token != token:
                return SaveOutcome(version, saved.location, self.source.creates, detached=True)
            now = record.snapshot.get("data")
            if record.revision == started:
                # Nothing was written since the save began: the data is what was sent (the base
                # may be that very object, which the store then writes once).
                pending, sent = [], now
            else:
                pending = [] if equal_data(sent, now) else changed_pointers(sent, now)
            if self.source.creates and not pending:
                # Created: the form starts again from an empty record for the next one (saving
                # this one again would create a second record).
                state, _ = self._state(record)
                loaded = self.source.load()
                state = self._new_state(state.form, loaded.data, loaded.data, _nothing_there(loaded))
                record.doc_version = loaded.version
                self._keep(record, state)
            else:
                # What was sent is the new base; edits made while the request was in flight stay
                # modified against it. (The data did not change, so neither did its validity:
                # no state is rebuilt for this.)
                record.snapshot = {**record.snapshot, "base": sent}
                record.modified = bool(pending)
                record.doc_version = saved.version
                record.expires_at = self.store.now() + self.store.ttl
            record.status, record.message = "ready", None
            record.save_token = record.save_deadline = record.save_owner = None
            self.store.put(record)
        return SaveOutcome(version, saved.location, self.source.creates and not pending, pending or None)

    def _lease_seconds(self) -> float:
        deadline = getattr(self.source, "request_deadline", None)
        if isinstance(deadline, (int, float)) and deadline > 0:
            return max(self.options.save_lease, deadline + SAVE_LEASE_MARGIN_SECONDS)
        return self.options.save_lease

    def _lease_alive(self, record: SessionRecord) -> bool:
        if record.save_deadline is None or record.save_deadline < self.store.now():
            return False
        import socket

        host, _, pid = (record.save_owner or "").rpartition(":")
        if host == socket.gethostname() and pid.isdigit():
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                return False  # the saving process is gone: its save will never report
            except PermissionError:
                return True
        return True

    # -- reload, discard, drafts ----------------------------------------------------------------

    def reload(self, *, keep_edits: bool = False) -> ReloadOutcome:
        """Replace the session with the source's current copy. Local changes are discarded, or
        with ``keep_edits`` re-applied onto the new copy (as ``restore`` does with a draft)."""
        old = self.record()
        try:
            fresh = self._load_fresh()
        except DeskcheckError as exc:
            self._note_failure(f'reloading "{self.title}" failed: {exc.message} The session was left as it was.')
            raise SessionError(
                f'reloading "{self.title}" failed: {exc.message.rstrip(".")}. The session was left as it was, '
                "with its edits; try again when the source answers.",
                code=exc.code or "reloadFailed",
            ) from None
        kept: list[str] = []
        conflicts: list[str] = []
        if keep_edits and old is not None and old.modified:
            base = fresh.snapshot.get("base")
            merged, conflicts = rebase(old.snapshot.get("base"), old.snapshot.get("data"), base)
            form = self._compiled(fresh.schema_version)
            self._keep(fresh, self._new_state(form, merged, base, fresh.snapshot.get("fillDefaults")))
            kept = changed_pointers(base, merged)
        with self.store.transaction():
            current = self.store.get(self.key.text)
            discarded: list[str] = []
            if current is not None:
                fresh.generation = current.generation + 1
                fresh.revision = current.revision
                if current.modified and not kept:
                    discarded = changed_pointers(current.snapshot.get("base"), current.snapshot.get("data"))
            self.store.put(fresh)
        return ReloadOutcome(discarded, tuple(kept), tuple(conflicts))

    # -- the source's copy changing under the session -----------------------------------------

    def _probe(self) -> DocumentVersion | None:
        """The version the source holds now, for a source that can tell cheaply (a file: the
        hash of its bytes); None otherwise, or when it cannot be read now (the call itself
        reports it if it needs the document)."""
        probe = getattr(self.source, "current_version", None)
        if probe is None:
            return None
        try:
            return probe()
        except DeskcheckError:
            return None

    def _source_moved(self, record: SessionRecord, current: DocumentVersion | None) -> bool:
        return current is not None and record.status != "saving" and current != record.doc_version

    def _follow_source(self, record: SessionRecord, current: DocumentVersion) -> None:
        """The source's copy moved since the session loaded it (``_source_moved``), as seen
        before a call or a save. A session without unsaved edits then shows the new copy; one
        with edits keeps them and becomes ``stale``. Either way the answer says so (``notices``)."""
        what = self.source.describe_change(current) if hasattr(self.source, "describe_change") else self.title
        if not record.modified:
            self._adopt_new_copy(record, what)
            return
        edits = changed_pointers(record.snapshot.get("base"), record.snapshot.get("data"))
        message = (
            f"{what} since this session loaded it. Your unsaved edits are kept{_paths_note(edits)}, and saving "
            f"would overwrite the new content, so {self._tool('saveForm')} refuses for now: "
            f'{self._tool("reloadForm")} with {{"keepEdits": true}} loads the file as it is now and re-applies '
            "your edits onto it; without keepEdits it discards them."
        )
        with self.store.transaction():
            latest = self.store.get(self.key.text)
            if latest is not None and latest.revision == record.revision:
                latest.status, latest.message = "stale", message
                self.store.put(latest)
        self.notices.append(message)

    def _adopt_new_copy(self, record: SessionRecord, what: str) -> None:
        """The session had no unsaved edits: it takes the source's new copy."""
        try:
            fresh = self._load_fresh()
        except DeskcheckError as exc:
            self.notices.append(
                f"{what} since this session loaded it, and cannot be read now ({exc.message.rstrip('.')}); the "
                "session still shows the copy it loaded."
            )
            return
        with self.store.transaction():
            latest = self.store.get(self.key.text)
            if latest is None or latest.revision != record.revision:
                return  # another process wrote meanwhile: its call decides
            fresh.generation = latest.generation + 1
            fresh.revision = latest.revision
            self.store.put(fresh)
        changed = changed_pointers(record.snapshot.get("base"), fresh.snapshot.get("base"))
        self.notices.append(
            f"{what} since this session loaded it; the session had no unsaved edits, so it now shows the file as "
            f"it is{_paths_note(changed)}."
        )

    def _follow_shared(self, record: SessionRecord, before: Any, state: FormState) -> None:
        """A change to a value the source shares between places (a YAML anchor and its aliases)
        is made in each place (``shared_values``); the answer names them."""
        groups = record.snapshot.get(SHARED_KEY) if isinstance(record.snapshot, dict) else None
        if not groups or state.data is UNSET:
            return
        from ..state.shared_values import follow_shared

        replaced = None
        if self.replaced_path is not None:
            with contextlib.suppress(DeskcheckError):
                replaced = state.node(self.replaced_path).data_path
        after, followed = follow_shared(before, state.document, groups, replaced=replaced)
        if not followed:
            return
        for places in followed.values():
            for place in places:
                try:
                    state.set_field_value(place, _value_at(after, place))
                except DeskcheckError:
                    state.set_data(after, merge=False)
                    break
        for source, places in followed.items():
            self.notices.append(
                f"{source or '/'} is one value that {self.title} writes once and uses again (a YAML anchor and its "
                f"aliases): the change was made at {', '.join(places)} too, and a save writes it once, where the "
                "anchor is."
            )

    def _note_failure(self, message: str) -> None:
        with self.store.transaction():
            record = self.store.get(self.key.text)
            if record is not None and record.status != "saving":
                record.status, record.message = "error", message
                self.store.put(record)

    def discard(self) -> SessionRecord | None:
        """Drop the session and its unsaved edits; returns what was dropped (None: nothing)."""
        with self.store.transaction():
            record = self.store.get(self.key.text)
            if record is not None:
                self.store.delete(self.key.text)
        return record

    def drafts(self) -> list[Draft]:
        return self.store.drafts(key=self.key.text)

    def restore(self, draft_id: int | None = None) -> RestoreOutcome:
        """Re-apply a draft's edits (the latest by default) onto the source's current copy, as
        the session's local changes. Refused while the session has unsaved edits of its own."""
        drafts = self.drafts()
        draft = next((d for d in drafts if d.id == draft_id), None) if draft_id is not None else (drafts or [None])[0]
        if draft is None:
            if draft_id is not None and self.store.draft(draft_id) is not None:
                raise SessionError(
                    f"draft {draft_id} belongs to another form, not {self.key.describe()}; "
                    "`deskcheck form sessions --drafts` lists each draft with its form.",
                    code="noDraft",
                )
            raise SessionError(
                f"there is no draft of {self.key.describe()}"
                + (f" numbered {draft_id}" if draft_id is not None else "")
                + ": `deskcheck form sessions --drafts` lists the drafts kept.",
                code="noDraft",
            )
        self._refuse_if_edited("restore a draft over them")
        fresh = self._load_fresh()
        merged, conflicts = rebase(draft.snapshot.get("base"), draft.snapshot.get("data"), fresh.snapshot.get("base"))
        form = self._compiled(fresh.schema_version)
        state = self._new_state(form, merged, fresh.snapshot.get("base"), fresh.snapshot.get("fillDefaults"))
        with self.store.transaction():
            self._refuse_if_edited("restore a draft over them")
            old = self.store.get(self.key.text)
            if old is not None:
                fresh.generation, fresh.revision = old.generation + 1, old.revision
            self._keep(fresh, state)
            self.store.put(fresh)
            self.store.delete_draft(draft.id)
        return RestoreOutcome(draft.id, changed_pointers(fresh.snapshot.get("base"), state.document), conflicts)

    def _refuse_if_edited(self, doing: str) -> None:
        record = self.record()
        if record is not None and record.modified:
            raise SessionError(
                f'"{self.title}" has unsaved edits of its own; save them or discard them '
                f"(`deskcheck form discard`) before you {doing}.",
                code="unsavedEdits",
            )

    # -- opening and schemas --------------------------------------------------------------------

    def _load_fresh(self) -> SessionRecord:
        """A new session record from the source (not stored yet): schema, then document."""
        return self._load_fresh_state()[0]

    def _load_fresh_state(self) -> tuple[SessionRecord, FormState]:
        """``_load_fresh`` and the state it was made from."""
        self._opening = True
        try:
            version = self._resolve_schema()
            loaded = self.source.load()
            form = self._compiled(version)
            # A file's data was just read for this state: it is handed over, not copied (twice).
            owned = getattr(self.source, "hands_over_data", False)
            state = self._new_state(form, loaded.data, loaded.data, _nothing_there(loaded), owned=owned)
            self.notices.extend(getattr(loaded, "notes", ()))
        except DeskcheckError as exc:
            self._failure = exc.message
            raise
        finally:
            self._opening = False
        self._failure = None
        now = self.store.now()
        record = SessionRecord(
            key=self.key.text,
            identity=self.key.identity,
            group=self.key.group,
            params=[list(p) for p in self.key.params],
            title=self.title,
            status="ready",
            schema_key=self.source.schema_key,
            schema_version=form.version,
            snapshot={SHARED_KEY: [list(group) for group in loaded.shared]} if getattr(loaded, "shared", ()) else {},
            doc_version=loaded.version,
            created_at=now,
        )
        self._keep(record, state)
        return record, state

    def _resolve_schema(self, *, count: bool = True) -> str:
        """The schema's current version, asking the source (conditionally when the store knows
        the last answer); a version seen for the first time is prepared and stored. ``count``
        records reuses in the store's counters (opening; not the check a file source makes on
        every call)."""
        store, options = self.store, self.options.compile_options
        tag = store.schema_tag(self.source.schema_key)
        known = None
        if tag is not None and (cached_form(tag[0], options) is not None or store.has_schema(tag[0])):
            known = SchemaTag(tag[0], tag[1])
        fetched = self.source.schema(known)
        if fetched.unchanged:
            if count:
                store.count("schemaNotModified")
        elif cached_form(fetched.version, options) is not None or store.has_schema(fetched.version):
            if count:
                store.count("schemaReused")
        else:
            self._prepare_and_keep(fetched.version, fetched.schema, fetched.document)
        if tag is None or tag[0] != fetched.version or (fetched.etag and tag[1] != fetched.etag):
            store.put_schema_tag(self.source.schema_key, fetched.version, fetched.etag or (tag[1] if tag else None))
        return fetched.version

    def _prepare_and_keep(self, version: str, schema: Any, document: Any) -> CompiledForm:
        prepared = self.source.adjust_schema(prepare_schema(schema, document=document))
        self.store.put_schema(version, prepared)
        return compile_prepared(prepared, version, self.options.compile_options)

    def _compiled(self, version: str) -> CompiledForm:
        options = self.options.compile_options
        form = cached_form(version, options)
        if form is not None:
            return form
        prepared = self.store.prepared_schema(version)
        if prepared is not None:
            return compile_prepared(prepared, version, options)
        # The store no longer has this version (forgotten, or a store from elsewhere): ask the
        # source again; a changed schema comes back under its new version.
        fetched = self.source.schema(None)
        return self._prepare_and_keep(fetched.version, fetched.schema, fetched.document)

    def _state(self, record: SessionRecord, current_schema: str | None = None) -> tuple[FormState, bool]:
        """The state of ``record``; rebuilt from its data alone when the schema changed."""
        version = current_schema or record.schema_version
        form = self._compiled(version)
        snapshot = record.snapshot
        if form.version != record.schema_version:
            return self._new_state(form, snapshot.get("data"), snapshot.get("base"), snapshot.get("fillDefaults")), True
        state = FormState.from_snapshot(
            form,
            snapshot,
            context=self._context(),
            fetcher=self.options.fetcher,
            fill_defaults=self._fill_defaults(snapshot.get("fillDefaults")),
            owned=True,  # decoded from the store for this call: nothing else changes it
        )
        return state, False

    def _new_state(
        self, form: CompiledForm, data: Any, base: Any, fill_chosen: bool | None, *, owned: bool = False
    ) -> FormState:
        """A state of ``data`` edited from ``base``, with this session's options (see
        ``_fill_defaults`` for ``fill_chosen``; ``owned``: see ``FormState``)."""
        return FormState(
            form,
            data,
            base=base,
            fill_defaults=self._fill_defaults(fill_chosen),
            context=self._context(),
            fetcher=self.options.fetcher,
            owned=owned,
        )

    def _fill_defaults(self, chosen: bool | None) -> bool:
        """Whether the state fills defaults: always for a record being created or when asked
        for; otherwise what the session chose when it opened (a file that did not exist yet is
        a new record; an existing one, even empty, is never filled on its own)."""
        if self.options.fill_defaults or self.source.creates:
            return True
        return bool(chosen)

    def _context(self) -> Any:
        return self.options.context


def _marks(state: FormState) -> str:
    """What a call may change in a state besides its documents (choices, memories, the count of
    writes), as text to compare."""
    parts = [
        state.variants,
        state.active_items,
        state.branches,
        state.suggestions.as_json(),
        state.variants_memo,
        state.edit_count,
        state.fill_defaults,
    ]
    return json.dumps(parts, sort_keys=True, default=str)


def _nothing_there(loaded: Loaded) -> bool:
    """The source has no document at all yet (a file that does not exist): a new record."""
    return loaded.data is None and loaded.version is not None and loaded.version.value == ABSENT


def _owner() -> str:
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"


def _text(value: Any) -> str:
    # Parameters arrive as JSON values: 1 and "1" name the same record.
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value)


def _paths_note(paths: list[str]) -> str:
    if not paths:
        return ""
    shown = ", ".join(paths[:MAX_QUOTED_PATHS])
    more = f" and {len(paths) - MAX_QUOTED_PATHS} more" if len(paths) > MAX_QUOTED_PATHS else ""
    return f" ({shown}{more})"


def _invalid_message(title: str, state: FormState, describe_tool: str) -> str:
    errors = state.errors
    quoted = "; ".join(f"{e.path}: {e.message}" for e in errors[:MAX_QUOTED_ERRORS])
    more = f"; and {len(errors) - MAX_QUOTED_ERRORS} more" if len(errors) > MAX_QUOTED_ERRORS else ""
    return (
        f'"{title}" is not valid ({len(errors)} error(s): {quoted}{more}). Fix the reported errors '
        f"({describe_tool} lists them) and save again, or allow invalid saves (--allow-invalid)."
    )
