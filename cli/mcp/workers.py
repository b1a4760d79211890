"""Where and how the server runs tool calls: off the event loop, several at once, each one
stoppable and telling its progress.

- Each context has a lane of its own, one thread that runs its calls in the order they arrive:
  one writer per file at a time, and a form session store used only from the thread that opened
  it. With per-client form sessions (HTTP), each client gets a lane per form context.
- Reads of a .docx (tools marked read-only) run on a shared pool of ``readers`` threads instead,
  so a long ``compare_versions`` by one client does not hold up another's ``read_document``, and
  no lane waits for them (a write replaces the file atomically, and reads parse their own copy).
- A call runs under a progress listener (``engine.progress``): its phases and steps are sent as
  progress notifications when the client asked for them, and each one is a checkpoint where a
  call the client cancelled stops (``Cancelled``), which frees its thread at once.
- Nothing a tool raises reaches the transport: ``MemoryError`` or any other surprise becomes a
  tool error and the server keeps serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NamedTuple

from deskcheck.engine.progress import Cancelled, listening
from deskcheck.engine.tools import ToolResult, fail

from .call_log import now_iso

if TYPE_CHECKING:
    from .call_log import CallLog
    from .catalogue import Catalogue

DEFAULT_READERS = 4
# Lanes kept for per-client form sessions; the least recently used one is closed past this.
MAX_CLIENT_LANES = 64
# Progress notifications of one call: at most one per this many seconds (phase changes included).
PROGRESS_INTERVAL = 0.1

Report = Callable[[float, str], None]


class Caller(NamedTuple):
    client: str | None = None
    session: str | None = None
    # The identity the caller's form sessions are kept under (None: the context's own).
    identity: str | None = None


NO_CALLER = Caller()


class CallListener:
    """An ``engine.progress`` listener for one call: a checkpoint at every phase and step, and
    progress reported (throttled) through ``report(progress, message)``."""

    def __init__(self, cancel: threading.Event, report: Report | None) -> None:
        self.cancel = cancel
        self.report = report
        self.steps = 0
        self.last = 0.0
        self.labels: list[str] = []

    def begin(self, label: str, total: int | None) -> Any:
        self._checkpoint()
        self.labels.append(label)
        self._tell(force=True)
        return [label, total, 0]

    def advance(self, handle: Any, amount: int) -> None:
        self._checkpoint()
        handle[2] += amount
        self.steps += amount
        self._tell(handle=handle)

    def end(self, handle: Any) -> None:
        if self.labels:
            self.labels.pop()

    def _checkpoint(self) -> None:
        if self.cancel.is_set():
            raise Cancelled

    def _tell(self, *, force: bool = False, handle: Any = None) -> None:
        if self.report is None:
            return
        now = time.monotonic()
        if not force and now - self.last < PROGRESS_INTERVAL:
            return
        self.last = now
        message = self.labels[-1] if self.labels else ""
        if handle is not None and handle[1]:
            message = f"{handle[0]} ({handle[2]:,} of {handle[1]:,})"
        self.steps += 1  # progress must increase with every notification
        self.report(float(self.steps), message)


class ToolRunner:
    """Runs calls on the lanes and the readers' pool, timing and logging each."""

    def __init__(self, catalogue: Catalogue, log: CallLog | None, *, readers: int = DEFAULT_READERS) -> None:
        self.catalogue = catalogue
        self.log = log
        self._readers = ThreadPoolExecutor(max_workers=max(1, readers), thread_name_prefix="deskcheck-read")
        self._lanes: OrderedDict[tuple[int, str | None], ThreadPoolExecutor] = OrderedDict()
        self._lock = threading.Lock()
        self._closed = False

    async def call(
        self, name: str, arguments: Any, caller: Caller = NO_CALLER, report: Report | None = None
    ) -> ToolResult:
        """The tool's result; cancelling the awaiting task stops the call at its next checkpoint."""
        queued = time.perf_counter()
        cancel = threading.Event()
        future = self.submit(name, arguments, caller, queued, cancel, report)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            cancel.set()
            future.cancel()
            raise

    def submit(
        self,
        name: str,
        arguments: Any,
        caller: Caller,
        queued: float,
        cancel: threading.Event,
        report: Report | None = None,
    ) -> Future[ToolResult]:
        executor = self._executor_for(name, caller.identity)
        return executor.submit(self._run, name, arguments, caller, queued, cancel, report)

    def _executor_for(self, name: str, identity: str | None) -> ThreadPoolExecutor:
        lane = self.catalogue.lane(name, identity)
        if lane is None:
            return self._readers
        with self._lock:
            executor = self._lanes.get(lane)
            if executor is None:
                executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"deskcheck-lane{lane[0]}")
                self._lanes[lane] = executor
                client_lanes = [key for key in self._lanes if key[1] is not None]
                if len(client_lanes) > MAX_CLIENT_LANES:
                    self._lanes.pop(client_lanes[0]).shutdown(wait=False)
            self._lanes.move_to_end(lane)
            return executor

    def _run(
        self,
        name: str,
        arguments: Any,
        caller: Caller,
        queued: float,
        cancel: threading.Event,
        report: Report | None,
    ) -> ToolResult:
        at, started = now_iso(), time.perf_counter()
        try:
            with listening(CallListener(cancel, report)):
                result = self.catalogue.call(name, arguments, caller.identity)
        except Cancelled:
            result = fail(f"{name} was cancelled by the client; it stopped before writing anything.", code="cancelled")
        except BaseException as exc:
            result = surprise(name, exc)
        finished = time.perf_counter()
        if self.log is not None:
            try:
                self.log.call(
                    name,
                    arguments,
                    result,
                    at=at,
                    ms=(finished - started) * 1000,
                    waited_ms=(started - queued) * 1000,
                    client=caller.client,
                    session=caller.session,
                )
            except Exception:
                self.log.failed()
        return result

    def warm_up(self) -> None:
        """Have a reader parse the documents while the client reads the tool list (a call that
        comes meanwhile finds the document parsed, or parses its own copy)."""
        self._readers.submit(self._quietly, self.catalogue.warm_up)

    @staticmethod
    def _quietly(work: Callable[[], object]) -> None:
        # A failed warm-up is reported by the call that needs the document.
        with contextlib.suppress(Exception):
            work()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for executor in [*self._lanes.values(), self._readers]:
            executor.shutdown(wait=True, cancel_futures=True)


def surprise(name: str, exc: BaseException) -> ToolResult:
    """The tool error that stands for anything ``name`` raised that no tool should."""
    if isinstance(exc, MemoryError):
        return fail(
            f"{name} ran out of memory on this input; nothing was written and the server goes on. Try a smaller "
            "part (a page of blocks, one section).",
            code="outOfMemory",
        )
    return fail(
        f"{name} failed unexpectedly ({type(exc).__name__}). This is a bug in deskcheck; the server goes on. "
        "Please report it with the arguments you used.",
        code="internalError",
    )
