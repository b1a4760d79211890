"""Fault injection, for tests that need a save to fail or a server to hang.

Off by default: nothing happens until a test calls ``SampleApi.inject_fault`` (or its shortcuts
``fail_next`` / ``hang_next``) in the same process. Over HTTP, the ``/_faults`` endpoint exists
only when the server was built with ``fault_injection_over_http=True`` (``deskcheck sample-api
--allow-fault-injection``), and it needs the write token.

A fault matches requests by method and by a shell-style pattern on the path, and is used up
after ``times`` matching requests. It waits ``delay`` seconds (a hang, when long), then answers
``status`` with its message, or, without a status, lets the request through (a slow server).
A request that receives a fault changes nothing.
"""

from __future__ import annotations

import fnmatch
import threading
from dataclasses import dataclass
from typing import Any

from .messages import ApiError, Response, json_response

# A longer hang is almost certainly a mistake in a test; stop() interrupts any hang anyway.
MAX_DELAY_SECONDS = 3600.0


@dataclass
class Fault:
    method: str | None
    path: str | None
    status: int | None
    message: str | None
    delay: float
    remaining: int

    def matches(self, method: str, path: str) -> bool:
        if self.method is not None and self.method != method:
            return False
        return self.path is None or fnmatch.fnmatchcase(path, self.path)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "message": self.message,
            "delay": self.delay,
            "remaining": self.remaining,
        }


class FaultInjector:
    def __init__(self, stopping: threading.Event) -> None:
        self._stopping = stopping
        self._lock = threading.Lock()
        self._faults: list[Fault] = []

    def add(
        self,
        *,
        method: str | None = None,
        path: str | None = None,
        status: int | None = None,
        message: str | None = None,
        delay: float = 0.0,
        times: int = 1,
    ) -> Fault:
        if status is not None and not (isinstance(status, int) and 400 <= status <= 599):
            raise ValueError(f"status must be an error status between 400 and 599, not {status!r}")
        if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= MAX_DELAY_SECONDS:
            raise ValueError(f"delay must be a number of seconds between 0 and {MAX_DELAY_SECONDS:g}, not {delay!r}")
        if status is None and delay == 0:
            raise ValueError("a fault needs a status to answer, a delay, or both")
        if not isinstance(times, int) or isinstance(times, bool) or times < 1:
            raise ValueError(f"times must be a positive whole number, not {times!r}")
        if method is not None and (not isinstance(method, str) or not method.isalpha()):
            raise ValueError(f"method must be an HTTP method such as PUT, not {method!r}")
        if path is not None and not isinstance(path, str):
            raise ValueError(f"path must be a pattern such as /api/v1/datasets/*/lines/*, not {path!r}")
        fault = Fault(method.upper() if method else None, path, status, message, float(delay), times)
        with self._lock:
            self._faults.append(fault)
        return fault

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def pending(self) -> list[Fault]:
        with self._lock:
            return list(self._faults)

    def take(self, method: str, path: str) -> Fault | None:
        """The first pending fault for this request, used up by one."""
        with self._lock:
            for fault in self._faults:
                if fault.matches(method, path):
                    fault.remaining -= 1
                    if fault.remaining == 0:
                        self._faults.remove(fault)
                    return fault
        return None

    def apply(self, fault: Fault) -> Response | None:
        """Wait, then answer the fault's status; None lets the request through."""
        if fault.delay and self._stopping.wait(fault.delay):
            return json_response({"status": 503, "message": "The sample API is shutting down."}, status=503)
        if fault.status is None:
            return None
        message = fault.message or f"Injected fault: the sample API was told to answer {fault.status} here."
        return ApiError(fault.status, message).to_response()
