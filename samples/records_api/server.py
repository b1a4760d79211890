"""``SampleApi``: start the sample records API in a background thread, use it, stop it.

    with SampleApi() as api:                  # 127.0.0.1, a free port, a fresh seeded database
        httpx.get(f"{api.base_url}/datasets")
        api.fail_next("PUT", status=500)      # the next PUT answers 500
        api.update_line("associations", "asso-001", {"statut": "en sommeil"})  # a concurrent edit

Everything a test or the demo needs is here: the URLs, the tokens, fault injection, and direct
access to records for provoking conflicts.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .app import RecordsApp
from .auth import DEFAULT_READ_TOKEN, DEFAULT_WRITE_TOKEN, Tokens
from .context import ApiContext
from .document import API_PREFIX
from .endpoints_lines import server_side_update
from .faults import Fault, FaultInjector
from .handler import SampleHttpServer
from .seed import seed
from .store import RecordStore, StoreError

DEFAULT_HOST = "127.0.0.1"
# The port `deskcheck sample-api` listens on unless told otherwise (0 picks a free one).
DEFAULT_PORT = 8642
# How long stop() waits for open connections to finish.
STOP_TIMEOUT_SECONDS = 5.0
# How often the accept loop checks whether stop() was called.
_POLL_SECONDS = 0.05


class SampleApiError(Exception):
    """The server cannot start: the port is taken, the database file is unusable, bad tokens."""


class SampleApi:
    """The sample dataset-records API, served from a background thread.

    ``port=0`` (the default here) picks a free port. ``db_path=None`` uses a fresh temporary
    database, deleted by ``stop()``; a given path is kept, and seeded only when it is empty.
    ``etags=False`` serves records with Last-Modified only (for testing a client's fallback).
    ``fault_injection_over_http=True`` mounts ``/_faults`` (see faults.py); in-process fault
    injection (``inject_fault``, ``fail_next``, ``hang_next``) works either way.
    ``request_log`` receives one line per request (nothing is logged without it).
    """

    def __init__(
        self,
        *,
        host: str = DEFAULT_HOST,
        port: int = 0,
        db_path: str | Path | None = None,
        write_token: str = DEFAULT_WRITE_TOKEN,
        read_token: str = DEFAULT_READ_TOKEN,
        seed: bool = True,
        etags: bool = True,
        fault_injection_over_http: bool = False,
        request_log: Callable[[str], None] | None = None,
    ) -> None:
        try:
            self.tokens = Tokens(write=write_token, read=read_token)
        except ValueError as exc:
            raise SampleApiError(str(exc)) from None
        self.host = host
        self._requested_port = port
        self._db_path = Path(db_path) if db_path is not None else None
        self._seed = seed
        self._etags = etags
        self._fault_endpoint = fault_injection_over_http
        self._request_log = request_log
        self._temp_dir: str | None = None
        self._store: RecordStore | None = None
        self._httpd: SampleHttpServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._faults = FaultInjector(self._stopping)
        self._context: ApiContext | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> SampleApi:
        if self._httpd is not None:
            return self
        self._stopping.clear()
        store = self._open_store()
        self._context = ApiContext(store, self.tokens, self._faults, self._etags)
        app = RecordsApp(self._context, fault_endpoint=self._fault_endpoint)
        try:
            httpd = SampleHttpServer((self.host, self._requested_port), app, request_log=self._request_log)
        except OSError as exc:
            self._close_store()
            reason = exc.strerror or str(exc)
            raise SampleApiError(
                f"cannot listen on {self.host} port {self._requested_port}: {reason}. "
                "Stop the program using it, or pick another port (0 picks a free one)."
            ) from None
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": _POLL_SECONDS}, name="sample-api", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting, end open connections (and any fault still waiting), close the
        database, and delete it if it was temporary. Safe to call twice."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        httpd.close_connections(STOP_TIMEOUT_SECONDS)
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT_SECONDS)
            self._thread = None
        self._close_store()

    def __enter__(self) -> SampleApi:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._httpd is not None

    def _open_store(self) -> RecordStore:
        if self._db_path is None:
            self._temp_dir = tempfile.mkdtemp(prefix="deskcheck-sample-api-")
            path = Path(self._temp_dir) / "records.sqlite"
        else:
            path = self._db_path
            if not path.parent.is_dir():
                raise SampleApiError(f"cannot create the database {path}: the folder {path.parent} does not exist.")
        try:
            store = RecordStore(path)
            if self._seed and store.is_empty():
                seed(store)
        except StoreError as exc:
            self._remove_temp_dir()
            raise SampleApiError(str(exc)) from None
        self._store = store
        return store

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
        self._remove_temp_dir()

    def _remove_temp_dir(self) -> None:
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)
            self._temp_dir = None

    # -- where it is ----------------------------------------------------------------------

    def _server(self) -> SampleHttpServer:
        if self._httpd is None:
            raise SampleApiError("the sample API is not running; call start() or use it as a context manager.")
        return self._httpd

    @property
    def port(self) -> int:
        return self._server().server_address[1]

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``: where the OpenAPI document (``/openapi.json``) is."""
        return self._server().origin

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/api/v1``: the API's base URL (the document's server)."""
        return self.origin + API_PREFIX

    @property
    def openapi_url(self) -> str:
        return self.origin + "/openapi.json"

    @property
    def db_path(self) -> Path:
        if self._store is None:
            raise SampleApiError("the sample API is not running.")
        return self._store.path

    @property
    def database_is_temporary(self) -> bool:
        return self._db_path is None

    @property
    def write_token(self) -> str:
        return self.tokens.write

    @property
    def read_token(self) -> str:
        return self.tokens.read

    def auth_headers(self, access: str = "write") -> dict[str, str]:
        """``{"Authorization": "Bearer ..."}`` for the write token, or the read-only one with
        ``access="read"``."""
        if access not in ("write", "read"):
            raise ValueError('access must be "write" or "read"')
        token = self.tokens.write if access == "write" else self.tokens.read
        return {"Authorization": f"Bearer {token}"}

    # -- fault injection ------------------------------------------------------------------

    def inject_fault(
        self,
        method: str | None = None,
        *,
        path: str | None = None,
        status: int | None = None,
        message: str | None = None,
        delay: float = 0.0,
        times: int = 1,
    ) -> Fault:
        """Make the next ``times`` requests matching ``method`` and the shell-style ``path``
        pattern (both optional) wait ``delay`` seconds, then answer ``status`` with
        ``{"message": message}`` (or go through when no status is given)."""
        return self._faults.add(method=method, path=path, status=status, message=message, delay=delay, times=times)

    def fail_next(self, method: str = "PUT", *, status: int = 500, message: str | None = None, times: int = 1) -> Fault:
        """The next ``times`` requests with ``method`` answer ``status`` and change nothing."""
        return self.inject_fault(method, status=status, message=message, times=times)

    def hang_next(self, method: str = "PUT", *, seconds: float = 30.0, times: int = 1) -> Fault:
        """The next ``times`` requests with ``method`` get no answer for ``seconds`` (then 504);
        ``stop()`` ends the wait early."""
        return self.inject_fault(
            method,
            status=504,
            delay=seconds,
            message=f"Injected hang: the sample API waited {seconds:g} s before answering.",
            times=times,
        )

    def clear_faults(self) -> None:
        self._faults.clear()

    def pending_faults(self) -> list[Fault]:
        return self._faults.pending()

    # -- direct access to the data --------------------------------------------------------

    def _ctx(self) -> ApiContext:
        self._server()
        assert self._context is not None
        return self._context

    def get_line(self, dataset_id: str, line_id: str) -> dict[str, Any]:
        """A record as ``GET .../lines/{lineId}`` shows it (with ``_id`` and ``_updatedAt``)."""
        ctx = self._ctx()
        return ctx.line(ctx.dataset(dataset_id), line_id).to_json()

    def line_etag(self, dataset_id: str, line_id: str) -> str:
        ctx = self._ctx()
        return ctx.line(ctx.dataset(dataset_id), line_id).etag

    def update_line(self, dataset_id: str, line_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Change some fields of a record as another client would: validated like a PUT, a new
        version (new ETag, later Last-Modified). A None value removes the field. Raises
        ``messages.ApiError`` (status 400/404) when the change is refused."""
        return server_side_update(self._ctx(), dataset_id, line_id, changes).to_json()

    def set_schema(self, dataset_id: str, schema: dict[str, Any]) -> None:
        """Replace a dataset's record schema (its schema endpoint then serves a new ETag)."""
        ctx = self._ctx()
        ctx.dataset(dataset_id)
        ctx.store.set_schema(dataset_id, schema)

    def dataset_schema(self, dataset_id: str) -> dict[str, Any]:
        """The stored record schema (``x-fromUrl`` paths not yet made absolute)."""
        return self._ctx().dataset(dataset_id).schema
