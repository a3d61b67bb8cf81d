"""The settings of a game in containers, read from the environment (tests/docker/ plays them)."""

from __future__ import annotations

import io

import pytest

from bot.local.compose import SettingsError, main, settings_from
from bot.local.launch import DEFAULT_DEADLINES, DEFAULT_FINAL_YEAR
from bot.local.lineup import DEFAULT_LINEUP


def test_the_defaults_are_the_main_job_s_game() -> None:
    settings = settings_from({})
    assert [s.spec for s in settings.seats] == list(DEFAULT_LINEUP)
    assert [s.name for s in settings.seats] == [f"bot{k}" for k in range(1, 8)]
    assert settings.final_year == DEFAULT_FINAL_YEAR
    assert settings.deadlines == DEFAULT_DEADLINES
    assert settings.mqtt_port == 1883
    assert 0 < settings.server_port < 65536
    assert settings.project.startswith("daide-mcts-")


def test_settings_from_the_environment_reach_the_compose_file_s_variables() -> None:
    env = {
        "FINAL_YEAR": "1903",
        "MTL": "7",
        "RTL": "3",
        "BTL": "4",
        "BOT2": "mcts:v8",
        "BOT5": "random",
        "SERVER_PORT": "17000",
        "MQTT_PORT": "18830",
        "COMPOSE_PROJECT_NAME": "game-x",
    }
    settings = settings_from(env)
    assert settings.seats[1].spec == "mcts:v8" and settings.seats[4].spec == "random"
    assert settings.config().final_year == 1903
    variables = settings.environment()
    assert {k: variables[k] for k in env} == env | {"BOT2": "mcts:v8"}
    assert variables["BOT1"] == "mcts" and variables["BOT7"] == "dumbbot"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"FINAL_YEAR": "soon"}, "FINAL_YEAR='soon' is not a whole number"),
        ({"FINAL_YEAR": "1899"}, "FINAL_YEAR=1899 must be between 1901 and 2100"),
        ({"MTL": "0"}, "MTL=0 must be between 1 and 3600"),
        ({"BOT3": "parang"}, "BOT3='parang': containers play players of ours only"),
        ({"BOT4": "nosuchbot"}, "BOT4: "),
        ({"BOT1": "me=mcts"}, "BOT1='me=mcts': a label cannot be given"),
        ({"MQTT_PORT": "70000"}, "MQTT_PORT=70000 must be between 1 and 65535"),
    ],
)
def test_a_bad_setting_is_refused_in_one_line_naming_it(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match="^" + named.replace("(", r"\(")) as caught:
        settings_from(env)
    assert "\n" not in str(caught.value)


def test_make_compose_says_what_is_wrong_and_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT2", "bandana:dbrane")
    out = io.StringIO()
    assert main([], out) == 2
    assert out.getvalue().startswith("make compose: BOT2='bandana:dbrane': containers play")
    assert out.getvalue().count("\n") == 1
