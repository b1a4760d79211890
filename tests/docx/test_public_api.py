"""The docx family's Python API: the names the README imports come from ``deskcheck.engine.docx``
itself, whichever subpackage defines them, and importing the package loads none of them."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import deskcheck.engine.docx as docx
from tests.docs import all_text


def test_every_public_name_imports_from_the_package():
    for name in docx.__all__:
        value = getattr(docx, name)
        assert value.__module__.startswith("deskcheck.engine.docx."), name
        assert value.__name__ == name
    assert sorted(docx.__all__) == sorted(docx._EXPORTS)
    assert set(docx.__all__) <= set(dir(docx))


def test_the_readme_imports_only_public_names():
    readme = all_text()
    imported = re.findall(r"^from deskcheck\.engine\.docx import (.+)$", readme, flags=re.M)
    names = {name.strip() for line in imported for name in line.split(",")}
    assert names and names <= set(docx.__all__)
    assert not re.search(r"deskcheck\.engine\.docx\.\w", readme), "the README names the package, not its modules"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        docx.no_such_name  # noqa: B018


def test_importing_the_package_loads_nothing_else():
    code = "import json, sys, deskcheck.engine.docx; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
    assert [m for m in loaded if m.startswith("deskcheck.engine.docx")] == ["deskcheck.engine.docx"]
    assert "lxml" not in loaded
