"""Documents other projects wrote (the test corpus), which the repository does not ship.

The tests that read them find them through one setting, ``DESKCHECK_TEST_CORPUS``: a folder with
``docx/`` (.docx files written by Word, pandoc, python-docx, ...) and ``openapi/`` (annotated
OpenAPI documents and the reference's render goldens). Without the setting, ``../shared/corpus``
beside the checkout is used when it exists; there the OpenAPI documents sit in
``../shared/fixtures/openapi``, which is found too.

A test that reads the corpus carries ``@pytest.mark.corpus`` (``corpus("openapi")`` for the OpenAPI
part). When that part is absent the test is skipped with the reason in the summary (``-ra``),
except in CI (``CI=true``), where it fails: a CI run that silently skipped the corpus would hide
the checks on real documents. Everything else in the suite runs on what the repository owns.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "DESKCHECK_TEST_CORPUS"
REPO = Path(__file__).resolve().parent.parent
DEFAULT = REPO.parent / "shared" / "corpus"
KINDS = ("docx", "openapi")


def corpus_root() -> Path | None:
    """The corpus folder the setting names (even if it does not exist), else the default one if
    it exists, else None."""
    configured = os.environ.get(ENV, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    return DEFAULT.resolve() if DEFAULT.is_dir() else None


ROOT = corpus_root()
# Where the parts would be; a path that does not exist when the corpus is absent, so that module
# level constants (SOURCE = DOCX / "pandoc" / "comments.docx") can still be written.
_BASE = ROOT if ROOT is not None else REPO / ".no-test-corpus"
DOCX = _BASE / "docx"
OPENAPI = next(
    (folder for folder in (_BASE / "openapi", _BASE.parent / "fixtures" / "openapi") if folder.is_dir()),
    _BASE / "openapi",
)
PARTS = {"docx": DOCX, "openapi": OPENAPI}


def missing(kind: str = "docx") -> str | None:
    """Why the ``kind`` part of the corpus cannot be read, or None when it can."""
    if kind not in PARTS:
        raise ValueError(f"unknown corpus part {kind!r} (known: {', '.join(KINDS)})")
    if ROOT is None:
        return f"other projects' documents are not here: set {ENV} to the test corpus ({DEFAULT} is absent)"
    if not PARTS[kind].is_dir():
        return f"other projects' documents are not here: {PARTS[kind]} is missing ({ENV}={ROOT})"
    return None


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def require(kind: str = "docx") -> None:
    """Skip the running test when the corpus part is absent (fail in CI)."""
    reason = missing(kind)
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"CI=true and the test corpus is missing: {reason}")
    pytest.skip(reason)


def params(values: list, kind: str = "docx") -> list:
    """``values`` for ``parametrize``; one placeholder parameter when the corpus part is absent, so
    that the test is reported as skipped for that reason rather than as an empty parameter set."""
    if missing(kind) is not None:
        return [pytest.param(None, id="corpus-absent")]
    return values


def docx_files(folder: str = "") -> list[Path]:
    """The corpus's .docx files (under ``folder``), sorted; none when the corpus is absent."""
    if missing("docx") is not None:
        return []
    return sorted((DOCX / folder).rglob("*.docx"))


def docx_name(path: Path) -> str:
    """A corpus file's name relative to the corpus's docx folder, e.g. ``pandoc/comments.docx``."""
    return str(path.relative_to(DOCX))
