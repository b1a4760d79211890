"""The files an open-source user or packager looks for first are there and agree with the package."""

from __future__ import annotations

import re
import tomllib

from deskcheck.engine import __version__
from tests.conftest import REPO


def test_the_changelog_starts_at_the_package_version():
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert versions and versions[0] == __version__, "add a section for the new version at the top"


def test_the_licence_is_the_one_the_metadata_declares():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    assert not any(c.startswith("License ::") for c in project["classifiers"]), "the expression replaces them"
    assert (REPO / "engine" / "py.typed").exists() and (REPO / "cli" / "py.typed").exists()
