"""The server's lifecycle and its SQLite store: persistence, unusable files, ports, time."""

from __future__ import annotations

import socket
import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.samples.records_api import SampleApi, SampleApiError
from deskcheck.samples.records_api.store import next_modification_time
from tests.samples.support import line_url


def test_a_given_database_keeps_records_across_restarts(tmp_path, client):
    db = tmp_path / "records.sqlite"
    with SampleApi(db_path=db) as api:
        assert not api.database_is_temporary and api.db_path == db
        api.update_line("associations", "asso-001", {"statut": "dissoute"})
        etag = client.get(line_url(api, "associations", "asso-001")).headers["etag"]
        count = client.get(f"{api.base_url}/datasets/associations").json()["count"]
    with SampleApi(db_path=db) as again:
        read = client.get(line_url(again, "associations", "asso-001"))
        assert read.json()["statut"] == "dissoute"
        assert read.headers["etag"] == etag  # versions survive a restart
        assert client.get(f"{again.base_url}/datasets/associations").json()["count"] == count  # not seeded twice
    assert db.exists()


def test_a_temporary_database_is_removed_on_stop():
    api = SampleApi().start()
    path = api.db_path
    assert path.exists() and api.database_is_temporary
    api.stop()
    assert not path.exists() and not path.parent.exists()
    api.stop()  # stopping twice is harmless
    assert not api.running
    with pytest.raises(SampleApiError, match="not running"):
        _ = api.base_url


def test_stop_ends_idle_kept_alive_connections():
    api = SampleApi().start()
    url = f"{api.base_url}/datasets"
    with httpx.Client(timeout=10) as kept_alive:
        assert kept_alive.get(url).status_code == 200  # the connection stays open
        stopper = threading.Thread(target=api.stop)
        stopper.start()
        stopper.join(60)
        assert not stopper.is_alive()
        with pytest.raises(httpx.TransportError):
            kept_alive.get(url)


def test_an_unseeded_database_starts_empty(tmp_path, client):
    with SampleApi(db_path=tmp_path / "empty.sqlite", seed=False) as api:
        assert client.get(f"{api.base_url}/datasets").json() == {"count": 0, "results": []}


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("these are notes, not a database\n" * 100)
    with pytest.raises(SampleApiError, match=r"notes\.txt cannot be used"):
        SampleApi(db_path=not_a_db).start()
    assert not_a_db.read_text().startswith("these are notes")


def test_a_database_from_a_newer_version_is_refused(tmp_path):
    db = tmp_path / "future.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(SampleApiError, match="newer deskcheck"):
        SampleApi(db_path=db).start()


def test_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(SampleApiError, match="does not exist"):
        SampleApi(db_path=tmp_path / "nowhere" / "records.sqlite").start()


def test_a_busy_port_is_refused_with_advice():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SampleApiError, match=f"port {port}.*0 picks a free one"):
            SampleApi(port=port).start()


def test_tokens_must_differ():
    with pytest.raises(SampleApiError, match="differ"):
        SampleApi(write_token="same", read_token="same")
    with pytest.raises(SampleApiError, match="empty"):
        SampleApi(write_token="")


def test_custom_tokens(sample_api_factory, client):
    api = sample_api_factory(write_token="w-secret", read_token="r-secret")
    assert api.auth_headers() == {"Authorization": "Bearer w-secret"}
    url = line_url(api, "associations", "asso-001")
    record = client.get(url).json()
    assert client.put(url, json=record, headers={"Authorization": "Bearer sample-write-token"}).status_code == 401
    assert client.put(url, json=record, headers=api.auth_headers("read")).status_code == 403
    assert client.put(url, json=record, headers=api.auth_headers()).status_code == 200


def test_ipv6_loopback(sample_api_factory, client):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    try:
        api = sample_api_factory(host="::1")
    except SampleApiError as exc:
        pytest.skip(f"IPv6 loopback unavailable: {exc}")
    assert api.origin.startswith("http://[::1]:")
    assert client.get(f"{api.base_url}/datasets").json()["count"] == 2


_moments = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)  # fmt: skip


@given(previous=_moments, now=_moments)
def test_each_version_is_dated_a_whole_second_later(previous, now):
    """Last-Modified has one-second resolution: a new version never shares its second with the
    previous one, and is never dated before the clock."""
    moment = next_modification_time(previous, now)
    assert moment >= now
    assert moment.replace(microsecond=0) > previous.replace(microsecond=0)
    assert moment - max(now, previous) <= timedelta(seconds=1)
