"""The quick test loop's settings: the property tests draw all their examples in CI and a share
of them elsewhere (tests/hypothesis_profiles.py), the quick loop runs one case in ten of each
corpus-wide sweep (tests/sweeps.py), and the suite runs on several processes."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import settings

from tests import hypothesis_profiles
from tests.conftest import REPO
from tests.hypothesis_profiles import ENV, examples, load
from tests.sweeps import sweep


@pytest.fixture
def profile(monkeypatch):
    """Load profiles freely in the test; the suite's own comes back after it."""
    before = settings.get_current_profile_name()
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(ENV, raising=False)
    yield
    settings.load_profile(before)


def test_ci_draws_every_written_example_the_same_way_each_run(profile, monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv(ENV, "dev")  # CI wins: a CI run is never a lighter one
    load(None)
    assert settings.default.derandomize is True
    assert [examples(n) for n in (1, 5, 60, 300)] == [1, 5, 60, 300]


def test_elsewhere_a_quarter_of_the_examples_drawn_afresh(profile):
    load(None)
    assert settings.get_current_profile_name() == "dev" and settings.default.derandomize is False
    assert [examples(n) for n in (1, 5, 60, 300)] == [1, 1, 15, 75], "never fewer than one"


def test_the_environment_chooses_another_profile(profile, monkeypatch):
    monkeypatch.setenv(ENV, "thorough")
    load(None)
    assert examples(60) == 600
    monkeypatch.setenv(ENV, "ci")
    load(None)
    assert examples(60) == 60


def test_the_command_line_choice_is_left_to_hypothesis(profile, monkeypatch):
    settings.load_profile("thorough")
    monkeypatch.setenv(ENV, "dev")
    load("thorough")
    assert settings.get_current_profile_name() == "thorough"


def test_an_unknown_profile_is_a_usage_error_naming_the_known_ones(profile, monkeypatch):
    monkeypatch.setenv(ENV, "fast")
    with pytest.raises(pytest.UsageError) as raised:
        load(None)
    assert ENV in str(raised.value) and "'fast'" in str(raised.value)
    assert all(name in str(raised.value) for name in hypothesis_profiles.PROFILES)


def test_the_test_extras_run_the_suite_on_several_processes():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(requirement.startswith("pytest-xdist") for requirement in extras)


def test_a_sweep_keeps_every_case_and_one_in_ten_in_the_quick_loop():
    absent = pytest.param(None, id="corpus-absent")
    cases = sweep([*range(25), absent])
    assert len(cases) == 26, "the whole suite runs every case"
    quick = [case for case in cases if not isinstance(case, pytest.ParameterSet) or case is absent]
    assert quick == [0, 10, 20, absent], "the placeholder of an absent corpus is left as it is"
    slow = [case for case in cases if isinstance(case, pytest.ParameterSet) and case is not absent]
    assert [case.values for case in slow[:2]] == [(1,), (2,)]
    assert all([mark.name for mark in case.marks] == ["slow"] for case in slow)


def test_a_sweep_over_several_names_keeps_each_case_as_several_arguments():
    cases = sweep([("a", 1), ("b", 2)], unpack=True)
    assert cases[0] == ("a", 1) and cases[1].values == ("b", 2)
