"""The documentation site builds with ``mkdocs build --strict``: every page is in the navigation,
and every link and anchor between pages leads somewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.docs import DOCS, REPO


def build(source: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(source / "mkdocs.yml"), "-d", str(site)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = {next(iter(entry.values())) for entry in config["nav"]}
    assert listed == {path.name for path in DOCS.glob("*.md")}


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path):
    done = build(REPO, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "openapi-check" / "index.html").is_file()


@pytest.mark.slow
def test_a_broken_anchor_fails_the_build(tmp_path):
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(REPO / "mkdocs.yml", copy)
    shutil.copytree(DOCS, copy / "docs")
    page = copy / "docs" / "cli.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](docx.md#no-such-heading).\n", encoding="utf-8")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-heading" in done.stdout + done.stderr
