"""The import contracts of pyproject.toml ([tool.importlinter]): the docx, forms and openapi layers,
the families kept apart (forms never imports openapi; the shared HTTP client imports neither), the
engine free of the CLI. import-linter checks them; these tests run it, so the README's
test command enforces them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

# Runs import-linter on one configuration file, without its cache (which it would write into the
# working directory); exit code 0 when every contract is kept.
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(sys.argv[1], no_cache=True))"


def _lint(config: Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LINT, str(config)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def _contracts() -> list[dict]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _layers(family: str) -> dict:
    (layers,) = [c for c in _contracts() if c["type"] == "layers" and c["containers"] == [f"deskcheck.engine.{family}"]]
    return layers


def _docx_layers() -> dict:
    return _layers("docx")


def test_the_import_contracts_hold():
    result = _lint(REPO / "pyproject.toml", REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("family", ["docx", "forms", "openapi"])
def test_the_layers_cover_every_subpackage_and_leave_no_loose_module(family):
    """A subpackage the contract does not name would be outside every rule; so would a module
    beside the subpackages (the exhaustive contract refuses one)."""
    named = {name.strip() for layer in _layers(family)["layers"] for name in layer.split("|")}
    folder = REPO / "engine" / family
    on_disk = {path.name for path in folder.iterdir() if (path / "__init__.py").exists()}
    assert named == on_disk
    assert _layers(family)["exhaustive"] is True
    assert sorted(path.name for path in folder.glob("*.py")) == ["__init__.py"]


def _fake_docx(tmp_path: Path, imports: dict[str, str]) -> Path:
    """A package with the docx layers as subpackages, where ``imports`` maps a module (``model.x``)
    to the import line it holds, and a configuration with the repository's layers contract."""
    contract = _docx_layers()
    root = tmp_path / "fake" / "docx"
    for layer in contract["layers"]:
        for name in layer.split("|"):
            package = root / name.strip()
            package.mkdir(parents=True)
            (package / "__init__.py").write_text("")
            (package / "a.py").write_text("")
    (root.parent / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    for module, line in imports.items():
        (root / (module.replace(".", "/") + ".py")).write_text(line + "\n")
    layers = ", ".join(f'"{layer}"' for layer in contract["layers"])
    config = tmp_path / "contract.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["fake"]\n\n[[tool.importlinter.contracts]]\n'
        f'name = "layers"\ntype = "layers"\ncontainers = ["fake.docx"]\nlayers = [{layers}]\n'
        f"exhaustive = {str(contract.get('exhaustive', False)).lower()}\n"
    )
    return config


@pytest.mark.slow
def test_the_layers_contract_fails_when_a_lower_layer_imports_a_higher_one(tmp_path):
    allowed = {"tools.b": "from ..edit import a", "edit.b": "from ..review import a", "review.b": "from ..wml import a"}
    config = _fake_docx(tmp_path, allowed)
    kept = _lint(config, tmp_path, PYTHONPATH=str(tmp_path))
    assert kept.returncode == 0, kept.stdout + kept.stderr

    for module, line, named in (
        ("model.b", "from ..review import a", "fake.docx.model.b -> fake.docx.review.a"),
        ("wml.b", "from ..tools import a", "fake.docx.wml.b -> fake.docx.tools.a"),
        ("edit.b", "from ..versions import a", "fake.docx.edit.b -> fake.docx.versions.a"),
    ):
        case = tmp_path / module
        config = _fake_docx(case, {module: line})
        broken = _lint(config, case, PYTHONPATH=str(case))
        assert broken.returncode == 1, (line, broken.stdout + broken.stderr)
        assert named in broken.stdout


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return f'"{value}"'


def _fake_engine(tmp_path: Path, contract_names: list[str], modules: dict[str, str]) -> Path:
    """A package ``fake`` standing for deskcheck.engine, with an empty module at each of
    ``modules`` (``forms.state.a``) holding the import line given, and a configuration with the
    repository's contracts named ``contract_names``, pointed at ``fake``."""
    root = tmp_path / "fake"
    for module, line in modules.items():
        *packages, name = module.split(".")
        folder = root.joinpath(*packages)
        folder.mkdir(parents=True, exist_ok=True)
        for depth in range(len(packages) + 1):
            (root.joinpath(*packages[:depth]) / "__init__.py").touch()
        (folder / f"{name}.py").write_text(line + "\n")
    text = '[tool.importlinter]\nroot_packages = ["fake"]\n'
    for contract in _contracts():
        if contract["name"] not in contract_names:
            continue
        text += "\n[[tool.importlinter.contracts]]\n"
        for key, value in contract.items():
            value = [v.replace("deskcheck.engine", "fake") for v in value] if isinstance(value, list) else value
            text += f"{key} = {_toml(value)}\n"
    config = tmp_path / "contract.toml"
    config.write_text(text)
    return config


def _family_modules(family: str) -> dict[str, str]:
    """An empty module ``a`` in each layer of ``family``."""
    names = [name.strip() for layer in _layers(family)["layers"] for name in layer.split("|")]
    return {f"{family}.{name}.a": "" for name in names}


def _assert_contracts(tmp_path: Path, names: list[str], kept: dict[str, str], broken: list[tuple[str, str, str]]):
    """``kept`` (module -> import line) passes the contracts; each of ``broken`` (module, import
    line, the import import-linter names) breaks one of them."""
    config = _fake_engine(tmp_path / "kept", names, kept)
    result = _lint(config, tmp_path / "kept", PYTHONPATH=str(tmp_path / "kept"))
    assert result.returncode == 0, result.stdout + result.stderr
    for module, line, named in broken:
        case = tmp_path / module
        config = _fake_engine(case, names, {**kept, module: line})
        result = _lint(config, case, PYTHONPATH=str(case))
        assert result.returncode == 1, (line, result.stdout + result.stderr)
        assert named in result.stdout, result.stdout


@pytest.mark.slow
def test_the_forms_layers_contract_fails_when_a_lower_layer_imports_a_higher_one(tmp_path):
    kept = {
        **_family_modules("forms"),
        "forms.tools.b": "from ..sessions import a",
        "forms.sessions.b": "from ..sources import a",
        "forms.sources.b": "from ..state import a",
        "forms.state.b": "from ..schema import a",
    }
    _assert_contracts(
        tmp_path,
        [_layers("forms")["name"]],
        kept,
        [
            ("forms.schema.c", "from ..state import a", "fake.forms.schema.c -> fake.forms.state.a"),
            ("forms.state.c", "from ..sources import a", "fake.forms.state.c -> fake.forms.sources.a"),
            ("forms.sources.c", "from ..sessions import a", "fake.forms.sources.c -> fake.forms.sessions.a"),
            ("forms.sessions.c", "from ..tools import a", "fake.forms.sessions.c -> fake.forms.tools.a"),
        ],
    )


@pytest.mark.slow
def test_the_openapi_layers_contract_fails_when_a_lower_layer_imports_a_higher_one(tmp_path):
    kept = {
        **_family_modules("openapi"),
        "openapi.check.b": "from ..tools import a\nfrom ..rules import a",
        "openapi.tools.b": "from ..document import a",
        "openapi.rules.b": "from ..document import a",
    }
    _assert_contracts(
        tmp_path,
        [_layers("openapi")["name"]],
        kept,
        [
            ("openapi.document.c", "from ..rules import a", "fake.openapi.document.c -> fake.openapi.rules.a"),
            ("openapi.tools.c", "from ..rules import a", "fake.openapi.tools.c -> fake.openapi.rules.a"),
            ("openapi.rules.c", "from ..check import a", "fake.openapi.rules.c -> fake.openapi.check.a"),
        ],
    )


@pytest.mark.slow
def test_the_family_contracts_fail_on_a_forbidden_import(tmp_path):
    names = [
        "the forms family imports no openapi module",
        "openapi reads and checks documents with the forms schema layer only; its tools and live check use the rest",
        "the shared HTTP client (engine/http) imports no family",
    ]
    assert set(names) <= {contract["name"] for contract in _contracts()}
    kept = {
        **_family_modules("forms"),
        **_family_modules("openapi"),
        "http.client": "",
        "docx.a": "",
        "textdoc.a": "",
        "forms.sources.b": "from ...http import client",
        "openapi.rules.b": "from ...forms.schema import a",
        "openapi.tools.b": "from ...forms.sessions import a",
        "openapi.check.b": "from ...forms.state import a",
    }
    _assert_contracts(
        tmp_path,
        names,
        kept,
        [
            ("forms.schema.c", "from ...openapi.document import a", "fake.forms.schema.c -> fake.openapi.document.a"),
            ("openapi.document.c", "from ...forms.state import a", "fake.openapi.document.c -> fake.forms.state.a"),
            ("openapi.rules.c", "from ...forms.tools import a", "fake.openapi.rules.c -> fake.forms.tools.a"),
            ("http.c", "from ..forms.schema import a", "fake.http.c -> fake.forms.schema.a"),
        ],
    )
