"""``deskcheck mcp replay LOG``: the calls of a recorded session run again, in order, against a
context (the one the log names, or the flags given), each compared with what was recorded.

A call's ``match`` is ``same`` (the same envelope), ``changed`` (success or failure as before, but
another value: a document version, a date, a message reworded) or ``diverged`` (a success
became a failure or the other way round). Values are compared after the same redaction the log
applied, so a redacted credential does not count as a change.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..context import ContextOptions
from ..errors import UsageError
from ..exit import ExitCode
from .call_log import Redactor, answer, credentials_of, read_log

MAX_DIFFERENCES = 20


def replay_log(
    path: Path,
    template: ContextOptions,
    docx: list[Path] | None,
    spec: list[str] | None,
    schema: list[Path] | None,
    data: list[Path] | None,
    *,
    strict: bool = False,
    use_logged_contexts: bool = False,
) -> int:
    """Replay the log at ``path``, print one line per call and a summary; the exit code."""
    from ..env import current_env
    from ..review_lock import holding
    from .catalogue import contexts_from_flags, open_catalogue

    env = current_env()
    start, calls = read_log(path)
    if docx or spec or schema or data:
        options = contexts_from_flags(template, docx, spec, schema, data)
    else:
        options = _logged_contexts(path, start, template, confirmed=use_logged_contexts)
    catalogue = open_catalogue(options)
    redact = Redactor(credentials_of(template.headers, template.effective_token))
    counts = {"same": 0, "changed": 0, "diverged": 0}
    with holding(catalogue.written_documents(), "replay"), _private_session_store():
        for call in calls:
            started = time.perf_counter()
            result = catalogue.call(call.tool, call.arguments if call.arguments is not None else {})
            ms = (time.perf_counter() - started) * 1000
            envelope = redact(answer(result))
            match = compare(call.envelope, envelope)
            counts[match] += 1
            line: dict[str, Any] = {"id": call.seq, "tool": call.tool, "match": match, **envelope}
            line.update(ms=round(ms, 3), recordedMs=call.ms)
            if match != "same":
                line["recorded"] = call.envelope
                line["differences"] = differences(call.envelope, envelope)
            _print(env, line)
    failed = counts["diverged"] or (strict and counts["changed"])
    _print(env, {"id": "summary", "ok": not failed, "result": {"replayed": len(calls), **counts}})
    return int(ExitCode.TOOL_ERROR if failed else ExitCode.OK)


def _logged_contexts(path: Path, start: dict[str, Any] | None, template: ContextOptions, *, confirmed: bool):
    """The contexts the log names, only when the user confirmed them (``--use-logged-contexts``): a
    log is a file anyone may have written, and may name another document (in direct mode) or
    another API. Credentials go only to an API address the user named (``--base-url``)."""
    from .catalogue import context_from_record

    recorded = (start or {}).get("contexts")
    records = [r for r in recorded if isinstance(r, dict)] if isinstance(recorded, list) else []
    if not records:
        raise UsageError(
            f"{path} does not say which contexts it was recorded on; give them: --docx FILE, --spec SPEC or "
            "--schema SCHEMA --data FILE."
        )
    if not confirmed:
        named = "; ".join(_describe(r) for r in records)
        raise UsageError(
            f"replay acts only on contexts you give: {path} names {named}. Give them on the command line (--docx "
            "FILE, --spec SPEC, --schema SCHEMA --data FILE), or pass --use-logged-contexts to use the log's."
        )
    credentials = bool(template.headers or template.effective_token)
    for record in records:
        logged_url = record.get("baseUrl")
        if credentials and logged_url and not template.base_url:
            raise UsageError(
                f"{path} names the API {logged_url!r}; your credentials go only to an address you name: give "
                "--base-url too (or give no --token, --header or $DESKCHECK_TOKEN)."
            )
    return [context_from_record(record, template) for record in records]


def _describe(record: dict[str, Any]) -> str:
    family = record.get("family")
    if family == "docx":
        return f"--docx {record.get('docx')} (mode {record.get('mode', 'tracked-changes')})"
    if family == "openapi":
        return f"--spec {record.get('spec')}" + (f" at {record['baseUrl']}" if record.get("baseUrl") else "")
    return f"--schema {record.get('schema')} --data {record.get('data')}"


@contextlib.contextmanager
def _private_session_store() -> Iterator[None]:
    """Form sessions of the replay in a store of their own (a temporary state directory), so that
    a replay starts from the records as they are now and never joins or changes the sessions the
    agent and the developer work in. (The review locks are taken in the real one before.)"""
    import tempfile

    from deskcheck.engine.forms.sessions import store_url

    saved = os.environ.get("DESKCHECK_STATE_DIR")
    chosen = store_url.chosen_store()
    with tempfile.TemporaryDirectory(prefix="deskcheck-replay-") as folder:
        os.environ["DESKCHECK_STATE_DIR"] = folder
        # Whatever store --store, DESKCHECK_STORE or the configuration name (a fleet's shared one).
        store_url.choose_store("sqlite:///" + str(Path(folder, "sessions.sqlite3")).lstrip("/"))
        try:
            yield
        finally:
            store_url.choose_store(chosen)
            if saved is None:
                os.environ.pop("DESKCHECK_STATE_DIR", None)
            else:
                os.environ["DESKCHECK_STATE_DIR"] = saved


def compare(recorded: dict[str, Any], replayed: dict[str, Any]) -> str:
    if recorded == replayed:
        return "same"
    return "changed" if recorded.get("ok") == replayed.get("ok") else "diverged"


def differences(before: Any, after: Any, pointer: str = "") -> list[str]:
    """JSON pointers where ``after`` differs from ``before`` (the first ``MAX_DIFFERENCES``)."""
    found: list[str] = []

    def walk(a: Any, b: Any, where: str) -> None:
        if len(found) >= MAX_DIFFERENCES or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in [*a, *(k for k in b if k not in a)]:
                walk(a.get(key), b.get(key), f"{where}/{str(key).replace('~', '~0').replace('/', '~1')}")
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}/{index}")
        else:
            found.append(where or "/")

    walk(before, after, pointer)
    return found


def _print(env, line: dict[str, Any]) -> None:
    if env.json_output:
        from ..output.envelope import write_json_line

        write_json_line(env.stdout, line)
        return
    if line["id"] == "summary":
        s = line["result"]
        print(
            f"{s['replayed']} call(s): {s['same']} same, {s['changed']} changed, {s['diverged']} diverged",
            file=env.stdout,
        )
        return
    outcome = "ok" if line["ok"] else f"error: {line['error']}"
    recorded = f", recorded {line['recordedMs']:.1f} ms" if isinstance(line.get("recordedMs"), (int, float)) else ""
    where = f" at {', '.join(line['differences'][:3])}" if line.get("differences") else ""
    print(
        f"#{line['id']} {line['tool']}: {line['match']}{where} ({outcome}; {line['ms']:.1f} ms{recorded})",
        file=env.stdout,
    )
