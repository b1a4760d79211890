"""The session store chosen by URL from the command line (issue 30): --store, DESKCHECK_STORE and
the user's configuration, the same commands on either store, copy-store from the local file to
PostgreSQL, and a store URL's password never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli, run_process
from tests.postgres import PASSWORD


@pytest.fixture
def form(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object", "properties": {"name": {"type": "string"}, "n": {"type": "integer"}}}')
    data = tmp_path / "d.json"
    data.write_text('{"name": "Ada", "n": 1}')
    return ["--schema", str(schema), "--data", str(data)]


def set_name(form, value, *extra, expect=0):
    return run_cli(
        "form", "set-field-value", *form, *extra, json.dumps({"path": "/name", "value": value}), expect=expect
    )


def test_the_same_session_through_the_option_the_environment_and_the_configuration(store_url, form, monkeypatch,
                                                                                    isolated_state):  # fmt: skip
    set_name(form, "Grace", "--store", store_url)
    monkeypatch.setenv("DESKCHECK_STORE", store_url)
    assert json.loads(run_cli("form", "get-data", *form).json["result"])["data"]["name"] == "Grace"
    [listed] = run_cli("form", "sessions").json["result"]
    assert listed["modified"] is True and listed["key"]["group"] == "form"
    monkeypatch.delenv("DESKCHECK_STORE")
    (isolated_state / "config.toml").write_text(f'[store]\nurl = "{store_url}"\n')
    assert len(run_cli("form", "sessions").json["result"]) == 1
    # The local default store has none of it.
    assert run_cli("form", "sessions", "--store", f"sqlite:///{isolated_state}/other.sqlite3").json["result"] == []
    run_cli("form", "save-form", *form)
    assert json.loads(Path(form[3]).read_text())["name"] == "Grace"


def test_a_bad_store_url_is_bad_usage(form):
    for url, said in [("mysql://x/y", "neither sqlite"), ("sqlite:", "names no file")]:
        run = set_name(form, "x", "--store", url, expect=2)
        assert said in run.json["error"]
    run = run_cli("form", "sessions", "--store", "redis://u:topsecret@h/0", expect=2)
    assert "topsecret" not in run.stdout + run.stderr


@pytest.mark.slow
def test_an_unreachable_postgresql_store_exits_2_naming_it_without_its_password(form):
    url = "postgresql://deskcheck:hunter2-pw@127.0.0.1:9/deskcheck?sslmode=disable&connect_timeout=3"
    for argv in (["form", "sessions", "--store", url], ["form", "describe-state", *form, "--store", url]):
        run = run_process(*argv, expect=2)
        said = run.stdout + run.stderr
        assert "hunter2-pw" not in said and "Traceback" not in said
        assert "postgresql://deskcheck:***@127.0.0.1:9/deskcheck cannot be reached" in said


@pytest.mark.slow
def test_copy_store_copies_what_the_target_lacks_and_is_idempotent(postgres, form, isolated_state):
    set_name(form, "Grace")
    other = [form[0], form[1], form[2], form[3].replace("d.json", "e.json")]
    set_name(other, "Edsger")
    url = postgres.url()
    first = run_cli("form", "copy-store", "--to", url).json["result"]
    assert first["sessions"] == {"copied": 2, "alreadyThere": 0, "unreadable": 0}
    assert first["drafts"]["copied"] == 0 and PASSWORD not in json.dumps(first)
    # Continued on PostgreSQL, edited there.
    assert json.loads(run_cli("form", "get-data", *form, "--store", url).json["result"])["data"]["name"] == "Grace"
    set_name(form, "Hopper", "--store", url)
    again = run_cli("form", "copy-store", "--to", url).json["result"]
    assert again["sessions"] == {"copied": 0, "alreadyThere": 2, "unreadable": 0}
    assert json.loads(run_cli("form", "get-data", *form, "--store", url).json["result"])["data"]["name"] == "Hopper"
    text = run_process("form", "copy-store", "--to", url, env={"DESKCHECK_STATE_DIR": str(isolated_state)}).stdout
    assert "Copied 0 session(s)" in text and PASSWORD not in text and "deskcheck:***@" in text


def test_copy_store_carries_drafts_once(postgres, form, isolated_state):
    from tests.helpers import expire_the_only_session

    set_name(form, "Grace")
    expire_the_only_session(isolated_state)
    assert len(run_cli("form", "sessions", "--drafts").json["result"]) == 1
    url = postgres.url()
    assert run_cli("form", "copy-store", "--to", url).json["result"]["drafts"]["copied"] == 1
    assert run_cli("form", "copy-store", "--to", url).json["result"]["drafts"]["alreadyThere"] == 1
    [draft] = run_cli("form", "sessions", "--drafts", "--store", url).json["result"]
    assert draft["changed"] == ["/name"]
    restored = run_cli("form", "restore", "--draft", str(draft["draft"]), "--store", url).json
    assert restored["ok"], restored


def test_a_damaged_postgresql_row_is_reported_and_recovered(postgres, form):
    import psycopg

    url = postgres.url()
    set_name(form, "Grace", "--store", url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE deskcheck.sessions SET snapshot = '{broken'")
    run = run_cli("form", "describe-state", *form, "--store", url, expect=2)
    assert "is damaged" in run.json["error"] and "recover-store" in run.json["error"]
    report = run_cli("form", "recover-store", "--store", url).json["result"]
    assert report["damaged"] and report["moved"]["sessions"] == 1 and PASSWORD not in json.dumps(report)
    with psycopg.connect(url) as conn:
        [(content,)] = conn.execute("SELECT content FROM deskcheck.damaged_rows").fetchall()
    assert "{broken" in content
    # The form opens again, from the file.
    assert json.loads(run_cli("form", "get-data", *form, "--store", url).json["result"])["data"]["name"] == "Ada"
    assert not run_cli("form", "recover-store", "--store", url).json["result"]["damaged"]


@pytest.mark.slow
def test_the_repl_continues_a_session_of_either_store(store_url, form):
    set_name(form, "Grace", "--store", store_url)
    run = run_process("repl", *form, "--store", store_url, "--script", "-", stdin="get /name\n")
    assert "Grace" in run.stdout


@pytest.mark.slow
def test_tls_options_in_the_url_reach_libpq(postgres, form):
    """sslmode=require against the private server (which has no TLS) is refused by libpq itself:
    the option went through; and the message still hides the password."""
    run = run_process("form", "sessions", "--store", postgres.url() + "?sslmode=require", expect=2)
    said = run.stdout + run.stderr
    assert "SSL" in said and PASSWORD not in said and "deskcheck:***@" in said
