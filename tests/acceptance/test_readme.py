"""The README's set-up commands are the ones CI runs, and its documented commands exist."""

from __future__ import annotations

from tests.conftest import REPO


def readme_setup_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    block = text.split("```sh", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_the_readme_opens_with_two_setup_commands():
    text = (REPO / "README.md").read_text()
    assert text.index("```sh") < text.index("deskcheck lets"), "the commands come first"
    assert len(readme_setup_commands()) == 2


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = readme_setup_commands()[1]
    assert "pytest" in test_command
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert test_command in [line.strip() for line in ci], "CI must run exactly the README's test command"
