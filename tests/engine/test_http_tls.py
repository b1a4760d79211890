"""The HTTP client's certificates: the CA bundle the environment names (SSL_CERT_FILE, as httpx
reads it) is the one trusted, and the certificates are loaded once per process and bundle, not
once per client (each load costs about 25 ms, and a REPL or MCP server makes a client per call)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deskcheck.engine.http.deadline import deadline_client

SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
PEM = re.compile(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n", re.S)


def _tls(client):
    return client._transport._pool._ssl_context


def _certificates(count: int) -> str:
    import certifi

    source = SYSTEM_BUNDLE if SYSTEM_BUNDLE.exists() else Path(certifi.where())
    return "".join(PEM.findall(source.read_text())[:count])


@pytest.fixture
def one_ca(tmp_path, monkeypatch) -> Path:
    bundle = tmp_path / "one-ca.pem"
    bundle.write_text(_certificates(1))
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    return bundle


def test_the_bundle_named_by_ssl_cert_file_is_the_one_trusted(one_ca):
    with deadline_client(5) as client:
        assert _tls(client).cert_store_stats()["x509_ca"] == 1


def test_clients_share_the_certificates_of_one_bundle_and_a_new_bundle_is_read(one_ca, tmp_path, monkeypatch):
    with deadline_client(5) as first, deadline_client(1) as second:
        assert _tls(first) is _tls(second)
    two = tmp_path / "two-ca.pem"
    two.write_text(_certificates(2))
    monkeypatch.setenv("SSL_CERT_FILE", str(two))
    with deadline_client(5) as third:
        assert _tls(third) is not _tls(first)
        assert _tls(third).cert_store_stats()["x509_ca"] == 2
