"""The built wheel installs into a fresh virtual environment and runs: this catches a subpackage
missing from pyproject's package list (an editable install would hide it)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO


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
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
        text=True,
    )
    [wheel] = dist.glob("deskcheck-*.whl")

    with zipfile.ZipFile(wheel) as archive:
        packaged = {
            str(Path(name).parent).replace("/", ".") for name in archive.namelist() if name.endswith("/__init__.py")
        }
    assert _source_packages() <= packaged, f"missing from the wheel: {sorted(_source_packages() - packaged)}"

    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    # The dependencies come from this test environment (a path entry, no network); deskcheck
    # itself only from the wheel.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
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
