"""``deskcheck sample-api`` as a real process: prints where it listens, answers, stops cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess

import httpx
import pytest

from tests.helpers import deskcheck_executable, run_cli

pytestmark = pytest.mark.slow


def start(*args: str, cwd=None) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen(
        [deskcheck_executable(), "sample-api", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    first_line = process.stdout.readline()  # stdout is a pipe, so the start-up info is JSON
    if not first_line:
        process.wait(30)
        raise AssertionError(f"sample-api exited {process.returncode}: {process.stderr.read()}")
    envelope = json.loads(first_line)
    assert envelope["ok"] is True
    return process, envelope["result"]


def stop(process: subprocess.Popen, sig: int = signal.SIGINT) -> tuple[int, str]:
    process.send_signal(sig)
    try:
        _, stderr = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, stderr


def test_port_zero_prints_the_url_answers_and_stops_on_sigint():
    process, info = start("--port", "0")
    try:
        assert info["url"].startswith("http://127.0.0.1:") and not info["url"].endswith(":0")
        assert info["base_url"] == info["url"] + "/api/v1"
        assert info["openapi"] == info["url"] + "/openapi.json"
        assert (info["write_token"], info["read_token"]) == ("sample-write-token", "sample-read-token")
        assert info["temporary_database"] is True
        datasets = httpx.get(f"{info['base_url']}/datasets", timeout=10).json()
        assert [item["id"] for item in datasets["results"]] == ["associations", "bibliotheques"]
        served = httpx.get(info["openapi"], timeout=10).json()
        assert served["servers"][0]["url"] == info["base_url"]
    finally:
        code, stderr = stop(process)
    assert code == 0, stderr
    assert "GET /api/v1/datasets" in stderr  # one log line per request
    assert "stopped" in stderr
    assert not os.path.exists(info["database"])  # the temporary database is gone
    with pytest.raises(httpx.ConnectError):
        httpx.get(info["url"], timeout=2)


def test_sigterm_stops_it_too_and_a_given_database_stays(tmp_path):
    db = tmp_path / "records.sqlite"
    process, info = start("--port", "0", "--db", str(db), "--write-token", "w1", "--read-token", "r1")
    try:
        assert info["database"] == str(db) and info["temporary_database"] is False
        assert info["write_token"] is None and info["read_token"] is None  # the user's own tokens are not echoed
        url = f"{info['base_url']}/datasets/associations/lines/asso-001"
        record = httpx.get(url, timeout=10).json()
        saved = httpx.put(
            url, json={**record, "statut": "dissoute"}, headers={"Authorization": "Bearer w1"}, timeout=10
        )
        assert saved.status_code == 200
    finally:
        code, stderr = stop(process, signal.SIGTERM)
    assert code == 0, stderr
    process, info = start("--port", "0", "--db", str(db), "--quiet")
    try:
        record = httpx.get(f"{info['base_url']}/datasets/associations/lines/asso-001", timeout=10).json()
        assert record["statut"] == "dissoute"
    finally:
        code, stderr = stop(process)
    assert code == 0
    assert "GET /api" not in stderr  # --quiet: no request log


def test_fault_injection_over_http_only_when_allowed():
    process, info = start("--port", "0", "--allow-fault-injection")
    try:
        faults = f"{info['url']}/_faults"
        auth = {"Authorization": f"Bearer {info['write_token']}"}
        assert httpx.post(faults, json={"method": "GET", "status": 503}, headers=auth, timeout=10).status_code == 201
        assert httpx.get(f"{info['base_url']}/datasets", timeout=10).status_code == 503
        assert httpx.get(f"{info['base_url']}/datasets", timeout=10).status_code == 200
    finally:
        stop(process)


def test_a_busy_port_is_a_usage_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = run_cli("sample-api", "--port", str(port), expect=2)
    message = run.json["error"]
    assert f"port {port}" in message and "in use" in message and "0 picks a free one" in message


def test_bad_options_are_usage_errors(tmp_path):
    missing = run_cli("sample-api", "--port", "0", "--db", str(tmp_path / "no" / "db.sqlite"), expect=2)
    assert "does not exist" in missing.json["error"]
    same = run_cli("sample-api", "--port", "0", "--write-token", "t", "--read-token", "t", expect=2)
    assert "differ" in same.json["error"]
    run_cli("sample-api", "--port", "70000", expect=2)


def test_help_does_not_import_the_server():
    import sys

    from tests.cli.test_startup import PROBE

    probe = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=["sample-api", "--help"])], capture_output=True, text=True, check=True
    )
    modules = json.loads(probe.stdout)["modules"]
    assert not [name for name in modules if name.startswith("deskcheck.samples")]
    assert "sqlite3" not in modules and "http.server" not in modules


def test_on_a_terminal_it_prints_a_readable_banner():
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [deskcheck_executable(), "sample-api", "--port", "0"],
        stdout=follower,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    os.close(follower)
    banner = b""
    try:
        while b"Ctrl-C" not in banner:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # Linux reports the end of a pty as EIO
                break
            if not chunk:
                break
            banner += chunk
    finally:
        code, _ = stop(process)
        os.close(leader)
    text = banner.decode()
    assert code == 0
    assert "Sample API listening on http://127.0.0.1:" in text
    assert "write token       sample-write-token" in text
    assert "read-only token   sample-read-token" in text
    assert "(temporary, deleted on exit)" in text
