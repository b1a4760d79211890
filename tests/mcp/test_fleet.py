"""A fleet (issue 30): two ``deskcheck mcp --http`` servers standing for two machines (each its own
state directory, so no local lock file is shared) on one PostgreSQL store. A form session opened
through one is continued through the other and from the CLI; a stale save is refused on either
side; the .docx writer lock refuses the second server; and PostgreSQL restarted mid-run fails
the call in flight with a clear error, keeps every committed edit, and the servers reconnect."""

from __future__ import annotations

import json
import time

import anyio
import pytest

from tests.docx.builders import make_docx, p
from tests.helpers import run_process
from tests.mcp.support import http_client, http_server, text_of
from tests.postgres import PASSWORD

pytestmark = pytest.mark.slow


def machine(tmp_path, name: str, url: str) -> dict[str, str]:
    """The environment of one machine of the fleet: its own state folder, the shared store."""
    state = tmp_path / f"state-{name}"
    state.mkdir()
    return {"DESKCHECK_STATE_DIR": str(state), "DESKCHECK_STORE": url}


def form_files(folder):
    schema, data = folder / "event.schema.json", folder / "event.json"
    schema.write_text(
        json.dumps({"type": "object", "properties": {"name": {"type": "string"}, "seats": {"type": "integer"}}})
    )
    data.write_text('{"name": "Launch", "seats": 20}\n')
    return ["--schema", str(schema), "--data", str(data)], data


async def call(client, tool, args=None):
    return await client.call_tool(tool, args or {})


def test_a_session_opened_through_one_server_is_continued_through_the_other_and_the_cli(tmp_path, postgres):
    url = postgres.url()
    files, data = form_files(tmp_path)
    a, b, cli = machine(tmp_path, "a", url), machine(tmp_path, "b", url), machine(tmp_path, "c", url)
    # Every client of either server shares the developer's sessions (--share-sessions).
    with (
        http_server(*files, "--share-sessions", tmp_path=tmp_path, env=a) as server_a,
        http_server(*files, "--share-sessions", tmp_path=tmp_path, env=b) as server_b,
    ):

        async def scenario():
            async with http_client(server_a.url) as one, http_client(server_b.url) as two:
                assert not (await call(one, "form_setFieldValue", {"path": "/name", "value": "From A"})).is_error
                seen = json.loads(text_of(await call(two, "form_getData")))["data"]
                assert seen["name"] == "From A", "server B continues the session server A opened"
                assert not (await call(two, "form_setFieldValue", {"path": "/seats", "value": 42})).is_error
                run_process("form", "set-field-value", *files, '{"path": "/seats", "value": 43}', env=cli)
                listed = run_process("form", "sessions", env=cli).json["result"]
                assert [s["modified"] for s in listed] == [True]
                seen = json.loads(text_of(await call(one, "form_getData")))["data"]
                assert seen == {"name": "From A", "seats": 43}, "server A sees B's and the CLI's edits"
                assert not (await call(two, "form_saveForm")).is_error

        anyio.run(scenario)
        assert PASSWORD not in server_a.stderr + server_b.stderr
    assert json.loads(data.read_text()) == {"name": "From A", "seats": 43}


def test_a_stale_save_is_refused_on_either_server(tmp_path, postgres):
    url = postgres.url()
    files, data = form_files(tmp_path)
    a, b = machine(tmp_path, "a", url), machine(tmp_path, "b", url)
    with (
        http_server(*files, "--identity", "agent-a", tmp_path=tmp_path, env=a) as server_a,
        http_server(*files, "--identity", "agent-b", tmp_path=tmp_path, env=b) as server_b,
    ):

        async def scenario():
            async with http_client(server_a.url) as one, http_client(server_b.url) as two:
                assert not (await call(one, "form_setFieldValue", {"path": "/name", "value": "A"})).is_error
                assert not (await call(two, "form_setFieldValue", {"path": "/seats", "value": 30})).is_error
                assert not (await call(two, "form_saveForm")).is_error
                stale = await call(one, "form_saveForm")
                assert stale.is_error and "form_reloadForm" in text_of(stale)
                assert json.loads(data.read_text()) == {"name": "Launch", "seats": 30}, "B's save is kept"
                assert json.loads(text_of(await call(one, "form_getData")))["data"]["name"] == "A", "A keeps its edit"
                assert not (await call(one, "form_reloadForm")).is_error
                assert not (await call(one, "form_setFieldValue", {"path": "/name", "value": "A"})).is_error
                # B edits too before A saves: B's session is then the stale one.
                assert not (await call(two, "form_setFieldValue", {"path": "/seats", "value": 99})).is_error
                assert not (await call(one, "form_saveForm")).is_error
                refused = await call(two, "form_saveForm")
                assert refused.is_error and "form_reloadForm" in text_of(refused)
                assert json.loads(data.read_text()) == {"name": "A", "seats": 30}, "A's save is kept"
                # With keepEdits, B's edit goes onto A's save.
                assert not (await call(two, "form_reloadForm", {"keepEdits": True})).is_error
                assert not (await call(two, "form_saveForm")).is_error
                assert json.loads(data.read_text()) == {"name": "A", "seats": 99}

        anyio.run(scenario)


def test_the_docx_writer_lock_refuses_the_second_server_across_machines(tmp_path, postgres):
    url = postgres.url()
    docx = make_docx(tmp_path / "contract.docx", p("The Supplier shall deliver the goods.", para_id="0A000001"))
    a, b = machine(tmp_path, "a", url), machine(tmp_path, "b", url)
    with http_server("--docx", str(docx), tmp_path=tmp_path, env=a) as server_a:
        second = run_process("mcp", "--docx", str(docx), "--http", "127.0.0.1:0", env=b, expect=2)
        said = second.stdout + second.stderr
        assert (
            "is serving" in said and "stop that server first" in said and f"process {server_a.process.pid} on " in said
        )
        comment = json.dumps({"blockId": "0A000001", "text": "From machine B."})
        refused = run_process("docx", "add-comment", str(docx), comment, env=b, expect=2)
        assert "is serving" in refused.stdout + refused.stderr
        assert PASSWORD not in said + refused.stdout + refused.stderr

        async def scenario():
            async with http_client(server_a.url) as one:
                assert not (await call(one, "add_comment", {"blockId": "0A000001", "text": "Agent."})).is_error

        anyio.run(scenario)
    # Server A is gone: machine B may serve (and write) the file now.
    run_process("docx", "add-comment", str(docx), comment, env=b)


def wait_for_a_lock_waiter(connection, application: str, timeout: float = 60.0) -> None:
    """Return once a connection named ``application`` waits for an advisory lock (fail after
    ``timeout`` s). The name tells server B's call from any other waiter (a CI run once saw
    another connection wait first, restarted too early, and B's call then simply succeeded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = connection.execute(
            "SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid)"
            " WHERE locktype = 'advisory' AND NOT granted AND application_name = %s",
            (application,),
        )
        if waiting.fetchone()[0]:
            return
        time.sleep(0.05)
    pytest.fail("no call came to wait on the session's lock")


def test_postgresql_restarted_mid_run(tmp_path, postgres):
    """A call waiting on the store when the server restarts fails with a clear error; every edit
    committed before is there afterwards; both servers go on without being restarted, and the
    served file's writer lock is taken again."""
    import psycopg

    from deskcheck.engine.forms.sessions.store_postgres import lock_id
    from deskcheck.engine.forms.sessions.store_url import open_store

    url = postgres.url()
    files, _ = form_files(tmp_path)
    docx = make_docx(tmp_path / "contract.docx", p("The Supplier shall deliver the goods.", para_id="0A000001"))
    # Server B's connections carry a name of their own (a libpq option passed through the URL).
    a, b = machine(tmp_path, "a", url), machine(tmp_path, "b", f"{url}?application_name=fleet-server-b")
    with (
        http_server(*files, "--docx", str(docx), "--share-sessions", tmp_path=tmp_path, env=a) as server_a,
        http_server(*files, "--share-sessions", tmp_path=tmp_path, env=b) as server_b,
    ):

        async def scenario():
            async with http_client(server_a.url) as one, http_client(server_b.url) as two:
                for n in range(10):
                    client = one if n % 2 else two
                    assert not (await call(client, "form_setFieldValue", {"path": "/seats", "value": n})).is_error
                [record] = open_store(url).sessions()
                # Hold the session's lock, so that server B's next call waits on the store...
                holder = psycopg.connect(url, autocommit=True)
                holder.execute("BEGIN")
                holder.execute("SELECT pg_advisory_xact_lock(%s)", (lock_id("session", record.key),))
                in_flight = {}

                async def waiting_call():
                    in_flight["result"] = await call(two, "form_setFieldValue", {"path": "/name", "value": "lost"})

                async with anyio.create_task_group() as group:
                    group.start_soon(waiting_call)
                    # Until server B's call is really waiting on that lock (a fixed pause was
                    # not always long enough on a loaded machine).
                    await anyio.to_thread.run_sync(lambda: wait_for_a_lock_waiter(holder, "fleet-server-b"))
                    # ... then restart PostgreSQL under it.
                    await anyio.to_thread.run_sync(lambda: postgres.pg_ctl("restart", mode="fast"))
                holder.close()
                failed = in_flight["result"]
                assert failed.is_error, text_of(failed)
                message = text_of(failed)
                assert "stopped answering" in message and "nothing of this call was written" in message
                assert PASSWORD not in message and "Traceback" not in message
                # Committed edits are all there; both servers reconnect by themselves.
                seen = json.loads(text_of(await call(one, "form_getData")))["data"]
                assert seen == {"name": "Launch", "seats": 9}
                assert not (await call(two, "form_setFieldValue", {"path": "/name", "value": "after"})).is_error
                assert json.loads(text_of(await call(one, "form_getData")))["data"]["name"] == "after"
                # The served file's writer lock is taken again at the next write.
                assert not (await call(one, "add_comment", {"blockId": "0A000001", "text": "After."})).is_error
                other = machine(tmp_path, "c", url)
                second = run_process("mcp", "--docx", str(docx), "--http", "127.0.0.1:0", env=other, expect=2)
                assert "is serving" in second.stdout + second.stderr

        anyio.run(scenario)


def test_a_store_unreachable_at_start_exits_2_naming_it(tmp_path):
    url = "postgresql://fleet:very-secret-pw@127.0.0.1:9/deskcheck?connect_timeout=3"
    files, _ = form_files(tmp_path)
    run = run_process("mcp", *files, "--http", "127.0.0.1:0", env=machine(tmp_path, "a", url), expect=2)
    said = run.stdout + run.stderr
    assert "postgresql://fleet:***@127.0.0.1:9/deskcheck cannot be reached" in said
    assert "very-secret-pw" not in said and "Traceback" not in said
