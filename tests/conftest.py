"""Shared test fixtures: the test corpus and LibreOffice (skipped with a reason when absent, a
failure in CI), an isolated state directory, the sample API."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from pathlib import Path

import pytest

from tests import absent, corpus, hypothesis_profiles, libreoffice

REPO = Path(__file__).resolve().parent.parent
# Other projects' documents (tests/corpus.py): tests reading them carry @pytest.mark.corpus.
CORPUS = corpus.DOCX
OPENAPI_FIXTURES = corpus.OPENAPI


def pytest_configure(config):
    # Before any test module is imported: each property test's settings are made at import.
    hypothesis_profiles.load(config.getoption("--hypothesis-profile", None))
    # Compiled modules are cached (__pycache__, ignored by git) even where PYTHONDONTWRITEBYTECODE
    # is set, as bench/_common.py does: otherwise every run compiles the test modules anew
    # (pytest's assert rewriting, ~9 s of CPU per process) and every `deskcheck` a test starts
    # compiles the package again (about a quarter of a second of CPU each).
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture(autouse=True)
def _private_state(tmp_path_factory, monkeypatch) -> Path:
    """Every test gets its own state directory: sessions and history never leak between tests
    or into the developer's home. It is not made: deskcheck makes it when it first keeps
    something, as on a new user's machine (and most tests keep nothing, so a run leaves, and
    its successor deletes, thousands of folders fewer)."""
    state = tmp_path_factory.getbasetemp() / "states" / f"{next(_STATE_NUMBERS)}"
    monkeypatch.setenv("DESKCHECK_STATE_DIR", str(state))
    monkeypatch.delenv("DESKCHECK_TOKEN", raising=False)
    # The store is the state directory's unless a test chooses one; the developer's own
    # configuration file is never read.
    monkeypatch.delenv("DESKCHECK_STORE", raising=False)
    monkeypatch.setenv("DESKCHECK_CONFIG", str(state / "config.toml"))
    return state


_STATE_NUMBERS = itertools.count()


@pytest.fixture
def isolated_state(_private_state) -> Path:
    """The test's state directory (``DESKCHECK_STATE_DIR``), made, for tests that look inside it."""
    _private_state.mkdir(parents=True, exist_ok=True)
    return _private_state


def soffice_available() -> bool:
    """Whether LibreOffice can judge documents here (soffice with its Python scripting)."""
    return libreoffice.unavailable() is None


@pytest.fixture
def needs_libreoffice():
    """Skip locally without LibreOffice; in CI (CI=true) its absence is a failure, because
    .ci/run installs it and a silent skip would hide the check. Tests using it are ``slow``."""
    libreoffice.require()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Tests that start LibreOffice are slow; tests that read the corpus are skipped, with the
    reason, when it is absent (in CI they fail in setup instead)."""
    for item in items:
        if "needs_libreoffice" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
        if absent.in_ci():
            continue
        for mark in item.iter_markers("corpus"):
            reason = corpus.missing(*mark.args)
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))
                break


def pytest_runtest_setup(item):
    for mark in item.iter_markers("corpus"):
        corpus.require(*mark.args)


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


# -- the session stores: SQLite, and a private PostgreSQL server (tests/postgres.py) ------------


@pytest.fixture(scope="session")
def _postgres_cluster():
    from tests import postgres

    postgres.require()
    cluster = postgres.Cluster()
    try:
        cluster.start()
    except Exception:
        cluster.stop()
        raise
    yield cluster
    from deskcheck.engine.forms.sessions import store_postgres

    store_postgres.close_pools()
    cluster.stop()


@pytest.fixture
def postgres(_postgres_cluster):
    """The private PostgreSQL server (``tests.postgres.Cluster``), its default database emptied
    of deskcheck's rows before the test. Skipped with the reason when PostgreSQL is absent here
    (a failure in CI)."""
    _postgres_cluster.reset()
    return _postgres_cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The URL of an empty session store of each kind, in turn (the same tests on both)."""
    if request.param == "sqlite":
        return f"sqlite:///{(tmp_path / 'sessions.sqlite3').as_posix().lstrip('/')}"
    return request.getfixturevalue("postgres").url()


@pytest.fixture
def make_store(store_url):
    """``make_store(**options)``: a store object over ``store_url`` (``ttl=``, ``clock=``);
    several objects over one store stand for several processes."""
    from deskcheck.engine.forms.sessions.store_url import open_store

    made = []

    def make(**options):
        store = open_store(store_url, **options)
        made.append(store)
        return store

    yield make
    for store in made:
        with contextlib.suppress(Exception):  # a SQLite store used by another thread is closed with it
            store.close()
