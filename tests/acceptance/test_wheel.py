"""The built distributions: the sdist builds a wheel, twine accepts both, and the wheel installs
into a fresh virtual environment and runs, with its licence and metadata. This catches a
subpackage missing from pyproject's package list (an editable install would hide it)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.helpers import see_this_environment


def _source_packages() -> set[str]:
    found = set()
    for top, dotted in (("engine", "deskcheck.engine"), ("cli", "deskcheck.cli"), ("samples", "deskcheck.samples")):
        for init in (REPO / top).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / top)
            found.add(".".join([dotted, *relative.parts]) if relative.parts else dotted)
    return found


@pytest.mark.slow
def test_wheel_installs_and_runs(tmp_path):
    dist = tmp_path / "dist"
    # Both distributions, the wheel built from the sdist (as a packager or PyPI would).
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
        text=True,
    )
    [wheel] = dist.glob("deskcheck-*.whl")
    [sdist] = dist.glob("deskcheck-*.tar.gz")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with tarfile.open(sdist) as archive:
        shipped = {Path(name).relative_to(Path(name).parts[0]).as_posix() for name in archive.getnames()}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "tests/corpus.py", "tests/fixtures/openapi/shelf.json"} <= shipped

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        packaged = {str(Path(name).parent).replace("/", ".") for name in names if name.endswith("/__init__.py")}
    assert _source_packages() <= packaged, f"missing from the wheel: {sorted(_source_packages() - packaged)}"
    assert {"deskcheck/engine/py.typed", "deskcheck/cli/py.typed"} <= set(names), "PEP 561 markers"

    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    # The dependencies come from this test environment (a path entry, no network); deskcheck
    # itself only from the wheel.
    see_this_environment(python)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
    )
    where = subprocess.run(
        [str(python), "-c", "import deskcheck.cli.main as m; print(m.__file__)"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(target)), f"deskcheck was imported from outside the wheel: {where}"
    _check_installed_metadata(python, tmp_path)
    run = subprocess.run([str(target / "bin" / "deskcheck"), "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("deskcheck "), run.stderr
    run = subprocess.run([str(target / "bin" / "deskcheck"), "--help"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and "call" in run.stdout, run.stderr
    # The demo runs from the wheel alone: the sample contract and the API's document are package data.
    run = subprocess.run(
        [str(target / "bin" / "deskcheck"), "demo", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "DESKCHECK_STATE_DIR": str(tmp_path / "state")},
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr


# What `pip show -v deskcheck` shows a user, read through importlib.metadata (the License-Expression
# field is printed by pip 25.1 and later; older pips leave the License line empty).
METADATA_PROBE = """
import json
from importlib.metadata import distribution
dist = distribution("deskcheck")
meta = dist.metadata
print(json.dumps({
    "license": meta["License-Expression"],
    "license_files": meta.get_all("License-File"),
    "author": meta["Author"],
    "keywords": meta["Keywords"],
    "classifiers": meta.get_all("Classifier"),
    "urls": dict(url.split(", ", 1) for url in meta.get_all("Project-URL")),
    "files": [str(f) for f in dist.files if "licenses" in str(f)],
}))
"""


def _check_installed_metadata(python: Path, cwd: Path) -> None:
    import json

    found = json.loads(
        subprocess.run([str(python), "-c", METADATA_PROBE], cwd=cwd, check=True, capture_output=True, text=True).stdout
    )
    assert found["license"] == "Apache-2.0" and found["license_files"] == ["LICENSE"]
    assert any(name.endswith("licenses/LICENSE") for name in found["files"]), "the licence text is installed"
    assert found["author"] and "docx" in found["keywords"].split(",")
    assert "Typing :: Typed" in found["classifiers"]
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in found["classifiers"])
    repository = found["urls"]["Repository"]
    assert set(found["urls"]) == {"Repository", "Documentation", "Changelog", "Issues"}
    assert all(url.startswith(repository) for url in found["urls"].values()), found["urls"]
    shown = subprocess.run(
        [str(python), "-m", "pip", "show", "-v", "deskcheck"], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout
    assert "Typing :: Typed" in shown and f"Changelog, {repository}/blob/main/CHANGELOG.md" in shown
