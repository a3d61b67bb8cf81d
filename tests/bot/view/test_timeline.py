"""The viewer's model of a game: phases from NOW, centres from SCO, orders from ORD."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.standard import standard_definition
from bot.toolkit.messagelog import player_from_admin
from bot.toolkit.order_words import format_order_text
from bot.view.mapfacts import map_key
from bot.view.sources import ViewSourceError, load_run
from bot.view.timeline import Timeline, describe_result
from protocol.messages import Mdf, parse_text, to_text
from tests.bot.view.scripted_game import write_run_folder
from tests.bot.view.variant_maps import VariantStart, write_variant_run


def test_a_run_folder_becomes_one_phase_per_now(tmp_path: Path) -> None:
    phases = write_run_folder(tmp_path)
    timeline = load_run(tmp_path)
    assert [str(p.turn) for p in timeline.phases] == [
        "SPR 1901", "FAL 1901", "AUT 1901", "WIN 1901", "SPR 1902",
    ]  # fmt: skip
    for shown, scripted in zip(timeline.phases, phases, strict=True):
        assert [text for _, text in shown.orders] == list(scripted.ords)
    fall, autumn, winter = timeline.phases[1:4]
    # the SCO sent before the winter's NOW belongs to the winter, not to the autumn
    assert "TUN" not in fall.centres["ITA"] and "TUN" not in autumn.centres["ITA"]
    assert "TUN" in winter.centres["ITA"]
    assert [u.unit.province for u in autumn.units if u.dislodged] == ["BUL"]
    meta = timeline.meta_json()
    assert meta["chart"]["years"] == [1900, 1901]
    assert meta["chart"]["powers"]["ITA"] == [3, 4]
    assert meta["players"]["AUS"] == "austria-bot (scripted)"
    assert meta["result"] == "DRW" and meta["over"] is True


def test_changes_carry_only_what_changed_since_a_version() -> None:
    timeline = Timeline(live=True)
    assert timeline.changes(0) is None
    assert timeline.feed(parse_text("SCO ( ENG LON ) ( FRA BRE ) ( UNO BEL )"))
    assert timeline.feed(parse_text("NOW ( SPR 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"))
    first = timeline.changes(0)
    assert first is not None and first["count"] == 1 and set(first["phases"]) == {"0"}
    since = first["version"]
    assert timeline.changes(since) is None
    ord_text = "ORD ( SPR 1901 ) ( ( ENG FLT LON ) MTO ECH ) ( BNC )"
    assert timeline.feed(parse_text(ord_text), ord_text)
    assert timeline.feed(parse_text("NOW ( FAL 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"))
    second = timeline.changes(since)
    assert second is not None and set(second["phases"]) == {"0", "1"}
    move = second["phases"]["0"]["orders"][0]
    assert move["type"] == "move" and move["to"]["province"] == "ECH"
    assert move["text"] == "F LON - ECH" and move["outcome"] == "bounced"
    assert not timeline.feed(parse_text("NOW ( FAL 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"))


def test_players_come_from_parlances_answer_and_the_summary() -> None:
    answer = "Austria (1035): ext (0.1), from 127.0.0.1"
    assert player_from_admin(answer) == ("AUS", "ext")
    assert player_from_admin("Germany (7): None (), from 127.0.0.1") is None
    assert player_from_admin("dumbbot (0.1) has connected.") is None
    timeline = Timeline()
    assert timeline.feed(parse_text(f'ADM ( "Server" ) ( "{answer}" )'))
    assert timeline.players == {"AUS": "ext"}


def test_the_map_is_the_mdfs_and_its_powers_get_distinct_colours(
    variant_starts: dict[str, VariantStart],
) -> None:
    timeline = Timeline()
    assert timeline.meta_json()["map"] == "standard"
    world = variant_starts["world3"]
    assert timeline.feed(parse_text(world.mdf, world.table))
    assert not timeline.feed(parse_text(world.mdf, world.table))  # the same map again
    assert timeline.definition == world.definition and timeline.problem is None
    meta = timeline.meta_json()
    assert meta["map"] == map_key(world.definition) != "standard"
    colours = {p: c for p, c in meta["colours"].items() if p != "UNO"}
    assert set(colours) == set(world.definition.powers) and len(world.definition.powers) == 17
    assert len(set(colours.values())) == 17  # world3's RUS too gets a colour of its own
    standard = Timeline()
    assert standard.feed(parse_text(to_text(Mdf(standard_definition()))))
    assert standard.meta_json()["map"] == "standard"


def test_a_map_without_provinces_is_reported() -> None:
    timeline = Timeline()
    assert timeline.feed(parse_text("MDF ( ENG ) ( ( ) ( ) ) ( )"))
    assert timeline.problem is not None and "cannot be drawn" in timeline.problem
    assert timeline.meta_json()["map"] == "standard"


@pytest.mark.parametrize(
    ("order", "text"),
    [
        ("( FRA AMY PAR ) HLD", "A PAR H"),
        ("( RUS FLT ( STP SCS ) ) MTO GOB", "F STP/SC - GOB"),
        ("( ENG AMY YOR ) CTO NWY VIA ( NTH )", "A YOR - NWY VIA NTH"),
        ("( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY", "F NTH C A YOR - NWY"),
        ("( FRA AMY MAR ) SUP ( FRA AMY BUR )", "A MAR S A BUR"),
        ("( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR", "A MAR S A PAR - BUR"),
        ("( TUR AMY BUL ) RTO GRE", "A BUL R GRE"),
        ("( TUR AMY BUL ) DSB", "A BUL D"),
        ("( ENG FLT LON ) BLD", "BUILD F LON"),
        ("( RUS FLT GOB ) REM", "REMOVE F GOB"),
        ("ENG WVE", "WAIVE"),
    ],
)
def test_orders_read_in_the_usual_notation(order: str, text: str) -> None:
    message = parse_text(f"ORD ( SPR 1901 ) ( {order} ) ( SUC )")
    assert format_order_text(message.entry.order) == text  # type: ignore[attr-defined]


def test_results_in_words() -> None:
    assert describe_result(("SUC",)) == ""
    assert describe_result(("BNC", "RET")) == "bounced, dislodged"


def test_a_folder_without_a_game_is_refused(tmp_path: Path) -> None:
    (tmp_path / "messages.daide").write_text("1.0 observer out OBS\n")
    with pytest.raises(ViewSourceError, match="no phase"):
        load_run(tmp_path)


def test_a_run_folder_on_a_variant_is_read_with_its_maps_names(
    tmp_path: Path, variant_starts: dict[str, VariantStart]
) -> None:
    start = variant_starts["sailho"]
    write_variant_run(tmp_path / "run", start)
    timeline = load_run(tmp_path / "run")
    assert timeline.definition == start.definition
    assert timeline.meta_json()["map"] == map_key(start.definition)
    (phase,) = timeline.phases
    assert phase.units == start.now_message().units
    owned = start.sco_message().centres
    assert owned is not None and phase.centres == {p: tuple(cs) for p, cs in owned}
