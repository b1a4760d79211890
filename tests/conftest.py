"""Shared test fixtures: paths to the shared material, an isolated state directory, the CLI."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent
SHARED = (REPO / ".." / "shared").resolve()
CORPUS = SHARED / "corpus" / "docx"
OPENAPI_FIXTURES = SHARED / "fixtures" / "openapi"
LO_ORACLE = SHARED / "tools" / "lo_oracle.py"

# In CI the property tests draw the same examples on every run (seeded from each test), so that a
# red CI means a change broke something, not that a new draw found an old case; anywhere else they
# draw afresh, which is how new cases are found (then pinned as plain tests).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def isolated_state(tmp_path_factory, monkeypatch):
    """Every test gets its own state directory: sessions and history never leak between tests
    or into the developer's home."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("DESKCHECK_STATE_DIR", str(state))
    monkeypatch.delenv("DESKCHECK_TOKEN", raising=False)
    return state


def soffice_available() -> bool:
    return shutil.which("soffice") is not None


@pytest.fixture
def needs_libreoffice():
    """Skip locally without LibreOffice; in CI (CI=true) its absence is a failure, because
    .ci/run installs it and a silent skip would hide the check."""
    if not soffice_available():
        if os.environ.get("CI") == "true":
            pytest.fail("LibreOffice (soffice) is missing in CI: .ci/run should have installed it")
        pytest.skip("LibreOffice (soffice) is not installed")


# -- the sample records API (deskcheck.samples.records_api) -----------------------------------


@pytest.fixture(scope="session")
def _shared_sample_api():
    from deskcheck.samples.records_api import SampleApi

    with SampleApi() as api:
        yield api


@pytest.fixture
def sample_api(_shared_sample_api):
    """The sample records API on 127.0.0.1 (a free port), shared by the whole session and
    seeded once: read freely, create your own records to change them, and use
    ``fresh_sample_api`` to change the seed records. Faults a test injects are cleared after it."""
    yield _shared_sample_api
    _shared_sample_api.clear_faults()


@pytest.fixture
def fresh_sample_api():
    """A sample records API of its own for one test: a fresh seeded database, a free port,
    stopped after the test."""
    from deskcheck.samples.records_api import SampleApi

    with SampleApi() as api:
        yield api


@pytest.fixture
def sample_api_factory():
    """``start(**options)`` starts a sample API with ``SampleApi`` options (``etags=False``,
    ``fault_injection_over_http=True``, ``db_path=...``); all are stopped after the test."""
    from deskcheck.samples.records_api import SampleApi

    started = []

    def start(**options):
        api = SampleApi(**options).start()
        started.append(api)
        return api

    yield start
    for api in started:
        api.stop()
