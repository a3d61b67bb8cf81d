"""``make mutants`` (tests/mutants.py): what each package's run selects, and how it scores."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests import examples, mutants

ROOT = Path(__file__).resolve().parents[1]


def test_it_leaves_out_every_marker_of_a_server_or_a_game() -> None:
    """A new marker is either a server's (then left out) or not: this says which."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    markers = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert set(mutants.SERVER_MARKERS) == markers


@pytest.mark.parametrize("package", mutants.PACKAGES.values(), ids=lambda p: p.path)
def test_each_run_mutates_its_package_only_against_its_own_tests(
    package: mutants.Package,
) -> None:
    settings = tomllib.loads(package.settings())["tool"]["mutmut"]
    assert settings["only_mutate"] == [f"{package.path}/*"]
    assert (ROOT / package.path / "__init__.py").is_file()
    selection = settings["pytest_add_cli_args_test_selection"]
    assert selection[: len(package.tests)] == list(package.tests)
    assert all((ROOT / folder).is_dir() for folder in package.tests)
    assert all((ROOT / path).is_file() for path in package.left_out)
    assert [f"--ignore={path}" for path in package.left_out] == selection[len(package.tests) : -2]
    assert selection[-2:] == ["-m", " and ".join(f"not {m}" for m in mutants.SERVER_MARKERS)]
    assert set(settings["source_paths"]) <= set(mutants.LINKED)


def test_the_work_folder_sees_the_checkout_and_runs_mutmut_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mutants, "WORK", tmp_path)
    package = mutants.PACKAGES["bot/client/core"]
    mutants.prepare(package)
    mutants.prepare(package)  # again: the links and the settings stay
    folder = tmp_path / "bot.client.core"
    assert {p.name for p in folder.iterdir()} == {*mutants.LINKED, "pyproject.toml"}
    assert (folder / "bot" / "client" / "core" / "core.py").is_file()
    config = tomllib.loads((folder / "pyproject.toml").read_text())
    assert (
        config["tool"]["pytest"]
        == tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    )
    assert config["tool"]["mutmut"]["only_mutate"] == ["bot/client/core/*"]


@pytest.mark.parametrize(
    ("counts", "score"),
    [
        ({"total": 200, "killed": 180, "timeout": 2, "survived": 18}, 91.0),
        ({"total": 10, "killed": 4, "skipped": 2, "survived": 4}, 50.0),
        ({"total": 0}, 0.0),
    ],
)
def test_the_score_counts_killed_and_timed_out_of_the_mutants_not_skipped(
    counts: dict[str, int], score: float
) -> None:
    assert mutants.Score.of(counts).score == pytest.approx(score)


def test_the_summary_line_names_the_package_and_its_score() -> None:
    line = mutants.Score.of({"total": 200, "killed": 181, "survived": 19}).line("adjudicator")
    assert line.startswith("adjudicator ")
    assert "mutants   200" in line
    assert line.endswith("score  90.5%")


def test_an_unknown_package_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        mutants.main(["bot/nowhere"])
    assert exited.value.code == 2
    assert "not a package mutated here: bot/nowhere" in capsys.readouterr().err


def test_the_property_tests_draw_fewer_examples_under_mutation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert mutants.MUTATION_EXAMPLES_ENV == examples.MUTATION_EXAMPLES_ENV
    monkeypatch.delenv(examples.MUTATION_EXAMPLES_ENV, raising=False)
    assert examples.examples(200) == 200
    monkeypatch.setenv(examples.MUTATION_EXAMPLES_ENV, str(mutants.MUTATION_EXAMPLES))
    assert examples.examples(200) == mutants.MUTATION_EXAMPLES
    assert examples.examples(5) == 5
    for bad in ("0", "-3", "many", ""):
        monkeypatch.setenv(examples.MUTATION_EXAMPLES_ENV, bad)
        assert examples.examples(200) == 200
