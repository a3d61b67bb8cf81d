"""The start page's form: read strictly, checked against what this machine can play.

The catalogue is made by hand (two maps, with or without Parang's bots), so
these tests need no server; the start page's own tests play the game a form makes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.human.start_form import (
    ANY_POWER,
    Catalogue,
    OpponentKind,
    StartError,
    StartForm,
    plan_game,
    read_form,
)
from bot.local.albert_seat import AlbertInstall
from bot.local.launch import PERSON_BOT_TIME, PERSON_DEADLINES, Deadlines
from bot.servers.parlance_maps import ServedMap

STANDARD = ServedMap("standard", 1901, ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"))
SAILHO = ServedMap("sailho", 1901, ("EAS", "NOR", "SOU", "WES"))
HERE = Catalogue({"standard": STANDARD, "sailho": SAILHO}, parang=True)
NO_PARLANCE = Catalogue({"standard": STANDARD}, parang=False, server="auto")


def body(**fields: Any) -> bytes:
    """A form's JSON: six DumbBots on the standard map unless told otherwise."""
    form: dict[str, Any] = {"opponents": [{"kind": "dumbbot"}] * 6}
    form.update(fields)
    return json.dumps(form).encode()


def refusal(raw: bytes, catalogue: Catalogue = HERE) -> str:
    with pytest.raises(StartError) as caught:
        plan_game(read_form(raw), catalogue)
    return str(caught.value)


def test_the_defaults_make_a_persons_game_to_1905() -> None:
    config = plan_game(read_form(body()), HERE)
    assert [s.kind for s in config.seats] == ["human", *["ours"] * 6]
    assert config.final_year == 1905
    assert config.deadlines == PERSON_DEADLINES
    assert config.bot_time == PERSON_BOT_TIME
    assert config.power_slots is None  # dealt by the server
    assert (config.map, config.first_year, config.press_level) == ("standard", 1901, 0)
    assert config.server == "parlance"


def test_a_chosen_power_and_each_opponent_in_the_order_of_the_other_powers() -> None:
    opponents = [
        {"kind": "mcts"},
        {"kind": "dumbbot"},
        {"kind": "random"},
        {"kind": "parang", "bot": "peacebot"},
        {"kind": "parang", "bot": "blabberbot"},
        {"kind": "dumbbot"},
    ]
    raw = body(
        power="GER",
        opponents=opponents,
        think=2,
        move=20,
        retreat=5,
        build=6,
        press=10,
        final_year=1901,
    )
    config = plan_game(read_form(raw), HERE)
    specs = [(s.kind, s.spec) for s in config.seats]
    assert specs == [
        ("human", "human"),
        ("ours", "mcts"),
        ("ours", "dumbbot"),
        ("ours", "random"),
        ("parang", "peacebot"),
        ("parang", "blabberbot"),
        ("ours", "dumbbot"),
    ]
    powers = [STANDARD.powers[slot] for slot in config.power_slots or ()]
    assert powers == ["GER", "AUS", "ENG", "FRA", "ITA", "RUS", "TUR"]
    assert config.bot_time == 2.0
    assert config.deadlines == Deadlines(20, 5, 6)
    assert (config.press_level, config.final_year) == (10, 1901)


def test_a_variant_takes_one_opponent_per_other_power_and_its_own_years() -> None:
    config = plan_game(read_form(body(map="sailho", opponents=[{"kind": "mcts"}] * 3)), HERE)
    assert len(config.seats) == 4 and config.map == "sailho"
    assert "opponents: sailho has 4 powers, so 3 opponents (got 6)" in refusal(body(map="sailho"))


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"power": "fra"}, "power: String should match pattern"),
        ({"power": "XYZ"}, "power: standard has no power XYZ"),
        ({"map": "atlantis"}, "map: no map called 'atlantis'"),
        ({"map": ""}, "map: String should have at least 1 character"),
        ({"opponents": []}, "opponents: List should have at least 1 item"),
        ({"opponents": [{"kind": "dumbbot"}] * 5}, "so 6 opponents (got 5)"),
        ({"opponents": [{"kind": "bob"}] * 6}, "opponents.0.kind: one of mcts, dumbbot"),
        ({"opponents": [{"kind": "parang"}] * 6}, "opponents.0: Parang's bot must be one of"),
        (
            {"opponents": [{"kind": "parang", "bot": "skynet"}] * 6},
            "opponents.0: Parang's bot must be one of",
        ),
        ({"opponents": [{"kind": "mcts", "bot": "x"}] * 6}, "only Parang's seats name a bot"),
        ({"opponents": [{"kind": "albert"}] * 6}, "opponents.0: albert cannot play here"),
        ({"opponents": [{"kind": "mcts", "think": 3}] * 6}, "opponents.0.think: this request"),
        ({"think": 0.1}, "think: Input should be greater than or equal to 0.5"),
        ({"think": "3"}, "think: Input should be a valid number"),
        ({"think": True}, "think: Input should be a valid number"),
        ({"move": 0}, "move: Input should be greater than or equal to 1"),
        ({"retreat": 3601}, "retreat: Input should be less than or equal to 3600"),
        ({"build": 2.5}, "build: Input should be a valid integer"),
        ({"move": "10"}, "move: Input should be a valid integer"),
        ({"press": 15}, "press: one of DAIDE's press levels"),
        ({"final_year": 1900}, "final_year: between 1901 and 2100 on standard (got 1900)"),
        ({"final_year": 2101}, "final_year: between 1901 and 2100"),
        ({"final_year": "1905"}, "final_year: Input should be a valid integer"),
        ({"seed": 3}, "seed: this request takes no such field"),
    ],
)
def test_a_wrong_field_is_refused_saying_which_and_why(
    fields: dict[str, Any], expected: str
) -> None:
    assert expected in refusal(body(**fields))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "opponents: missing"),
        (b"not json", "the request: Invalid JSON"),
        (b"[]", "Input should be an object"),
        (b'{"opponents": {"kind": "mcts"}}', "opponents: Input should be a valid array"),
        (b'{"opponents": [' + b'{"kind": "mcts"},' * 40 + b'{"kind": "mcts"}]}', "at most 32"),
    ],
)
def test_a_body_that_is_not_a_form_is_refused(raw: bytes, expected: str) -> None:
    assert expected in refusal(raw)


def test_without_parlance_the_server_deals_and_parang_cannot_play() -> None:
    config = plan_game(read_form(body()), NO_PARLANCE)
    assert config.server == "auto" and config.power_slots is None
    assert "choosing one needs Parlance" in refusal(body(power="FRA"), NO_PARLANCE)
    parang = body(opponents=[{"kind": "parang", "bot": "dumbbot"}] * 6)
    assert "parang cannot play here" in refusal(parang, NO_PARLANCE)


def test_the_catalogue_offers_what_can_play_here() -> None:
    offered = HERE.as_json()
    assert [m["name"] for m in offered["maps"]] == ["standard", "sailho"]
    assert offered["maps"][1]["powers"] == list(SAILHO.powers)
    assert offered["kinds"] == ["mcts", "dumbbot", "random", "parang"]
    assert "peacebot" in offered["parang_bots"]
    assert NO_PARLANCE.as_json()["kinds"] == ["mcts", "dumbbot", "random"]
    assert offered["defaults"]["move"] == PERSON_DEADLINES.move
    assert OpponentKind.ALBERT.value not in offered["kinds"]
    assert StartForm.model_fields["power"].default == ANY_POWER


def test_the_catalogue_describes_each_map_and_the_forms_defaults_and_bounds() -> None:
    sailho = ServedMap("sailho", 1801, ("EAS", "NOR"), "Sail ho!")
    offered = Catalogue({"sailho": sailho}, parang=False).as_json()
    assert offered["maps"] == [
        {
            "name": "sailho",
            "first_year": 1801,
            "powers": ["EAS", "NOR"],
            "description": "Sail ho!",
        }
    ]
    assert offered["press_levels"][:3] == [0, 10, 20] and 8000 in offered["press_levels"]
    assert offered["defaults"] == {
        "map": "standard",
        "think": PERSON_BOT_TIME,
        "move": PERSON_DEADLINES.move,
        "retreat": PERSON_DEADLINES.retreat,
        "build": PERSON_DEADLINES.build,
        "years": 5,
    }
    assert offered["bounds"] == {"think": [0.5, 600.0], "deadline": [1, 3600], "years": 200}


def test_a_refusal_lists_the_choices_separated_by_commas() -> None:
    assert "one of standard, sailho" in refusal(body(map="atlantis"))
    albert = body(opponents=[{"kind": "albert"}] * 6)
    assert "(one of mcts, dumbbot, random, parang)" in refusal(albert)
    assert "one of AUS, ENG, FRA, GER, ITA, RUS, TUR or any" in refusal(body(power="XYZ"))


def test_the_last_year_a_game_may_end_is_the_two_hundredth() -> None:
    assert plan_game(read_form(body(final_year=2100)), HERE).final_year == 2100


def test_a_map_starting_in_another_year_keeps_its_first_year() -> None:
    late = ServedMap("late", 1950, ("AAA", "BBB"))
    config = plan_game(
        read_form(body(map="late", opponents=[{"kind": "mcts"}])),
        Catalogue({"late": late}, parang=False),
    )
    assert (config.first_year, config.final_year) == (1950, 1954)


def test_albert_is_handed_to_the_game_only_when_a_seat_is_albert() -> None:
    install = AlbertInstall(Path("/opt/albert"), Path("/opt/albert-prefix"))
    with_albert = Catalogue({"standard": STANDARD}, parang=False, albert=install)
    seats = [{"kind": "albert"}, *[{"kind": "dumbbot"}] * 5]
    assert plan_game(read_form(body(opponents=seats)), with_albert).albert == install
    assert plan_game(read_form(body()), with_albert).albert is None
