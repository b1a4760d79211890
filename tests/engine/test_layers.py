"""The import contracts of pyproject.toml ([tool.importlinter]): the docx layers, the families kept
apart, the engine free of the CLI. import-linter checks them; these tests run it, so the README's
test command enforces them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

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


def _docx_layers() -> dict:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return layers


def test_the_import_contracts_hold():
    result = _lint(REPO / "pyproject.toml", REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_docx_layers_cover_every_subpackage():
    """A subpackage the contract does not name would be outside every rule."""
    named = {name.strip() for layer in _docx_layers()["layers"] for name in layer.split("|")}
    on_disk = {path.name for path in (REPO / "engine" / "docx").iterdir() if (path / "__init__.py").exists()}
    assert named == on_disk


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
