"""The game recorder on scripted server messages: SCO per year, who plays whom, the result."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.local.lineup import build_lineup
from bot.local.record import GameRecorder
from bot.measure.metrics import POINTS_BY_SURVIVORS, GameRecord
from protocol.messages import parse_text

HOMES = {
    "AUS": ["BUD", "TRI", "VIE"],
    "ENG": ["EDI", "LON", "LVP"],
    "FRA": ["BRE", "MAR", "PAR"],
    "GER": ["BER", "KIE", "MUN"],
    "ITA": ["NAP", "ROM", "VEN"],
    "RUS": ["MOS", "SEV", "STP", "WAR"],
    "TUR": ["ANK", "CON", "SMY"],
}


def sco(owned: dict[str, list[str]]) -> str:
    return "SCO " + " ".join(f"( {p} {' '.join(cs)} )" for p, cs in owned.items() if cs)


def feed(recorder: GameRecorder, *texts: str) -> None:
    for text in texts:
        recorder.on_message("observer", "in", text, parse_text(text))


def test_sco_is_filed_under_the_year_it_closes(tmp_path: Path) -> None:
    seats = build_lineup(["dumbbot"])
    r = GameRecorder(seats, 1902, tmp_path / "messages.daide")
    assert r.progress() == 0.0 and r.snapshot().turn is None
    feed(r, sco(HOMES), "NOW ( SPR 1901 ) ( AUS AMY BUD )")
    after_1901 = {**HOMES, "FRA": [*HOMES["FRA"], "SPA", "POR"]}
    feed(r, "NOW ( FAL 1901 ) ( AUS AMY BUD )", sco(after_1901), "NOW ( WIN 1901 ) ( AUS AMY BUD )")
    feed(r, "NOW ( SPR 1902 ) ( AUS AMY BUD )", sco(after_1901))  # a repeat in spring: still 1901
    assert sorted(r.sco_by_year) == [1900, 1901]
    assert len(r.sco_by_year[1901]["FRA"]) == 5
    assert r.phases == 4
    assert 0.4 < r.progress() < 0.6
    state = r.snapshot()
    assert str(state.turn) == "SPR 1902"
    assert {p.power: p.centres for p in state.powers}["FRA"] == 5
    r.close()
    lines = (tmp_path / "messages.daide").read_text().splitlines()
    assert len(lines) == 7 and all(" observer in " in line for line in lines)
    assert lines[0].split(" ", 3)[3].startswith("SCO ( AUS BUD TRI VIE )")


def test_a_solo_with_an_elimination_is_scored_as_the_thesis_does() -> None:
    seats = build_lineup(["dumbbot"] * 5 + ["cmd:x", "cmd:y"])
    r = GameRecorder(seats, 1905)
    r.on_bot_power("dumbbot-1", "FRA")
    r.on_bot_power("dumbbot-2", "AUS")
    feed(r, sco(HOMES), "NOW ( SPR 1901 ) ( AUS AMY BUD )")
    big = {**HOMES, "AUS": ["VIE"], "FRA": [*HOMES["FRA"], "BUD", "TRI"]}
    feed(r, "NOW ( FAL 1901 ) ( AUS AMY BUD )", sco(big))
    final = {**HOMES, "AUS": [], "FRA": [*HOMES["FRA"], "BUD", "TRI", "VIE"]}
    feed(
        r,
        "NOW ( FAL 1902 ) ( AUS AMY BUD )",
        sco(final),
        "SLO ( FRA )",
        'SMR ( FAL 1902 ) ( AUS ( "dumbbot-2" ) ( "0.1" ) 0 1902 ) '
        '( ENG ( "dumbbot-3" ) ( "0.1" ) 3 ) ( FRA ( "dumbbot-1" ) ( "0.1" ) 6 ) '
        '( GER ( "dumbbot-4" ) ( "0.1" ) 3 ) ( ITA ( "dumbbot-5" ) ( "0.1" ) 3 ) '
        '( RUS ( "Stranger" ) ( "2" ) 4 ) ( TUR ( "Other" ) ( "2" ) 3 )',
    )
    assert r.over and r.progress() == 1.0 and r.result == "SLO ( FRA )"
    seat_power, how = r.assignment()
    assert seat_power == {
        "dumbbot-1": "FRA",
        "dumbbot-2": "AUS",
        "dumbbot-3": "ENG",
        "dumbbot-4": "GER",
        "dumbbot-5": "ITA",
        "cmd-x": "RUS",  # the two unmatched seats take the unmatched powers in order
        "cmd-y": "TUR",
    }
    assert "order" in how
    record = r.game_record(index=3)
    assert record.index == 3 and record.end == "FAL 1902"
    assert record.powers == ("FRA", "AUS", "ENG", "GER", "ITA", "RUS", "TUR")
    assert record.years == (1900, 1901, 1902)
    assert record.curve[0] == (3, 3, 3, 3, 3, 4, 3)
    assert record.curve[1][:2] == (5, 1)
    assert record.centres == (6, 0, 3, 3, 3, 4, 3)
    assert record.eliminated[1] == 1902 and record.eliminated[0] is None
    assert record.solo == 0
    assert record.points == (12, 0, 0, 0, 0, 0, 0)
    assert record.ranks[0] == 1 and record.ranks[1] == 7
    assert GameRecord.from_dict(record.__dict__) == record


def test_parlance_s_power_list_names_the_players_early() -> None:
    seats = build_lineup(["dumbbot", "parang", "parang:evilbot"])
    r = GameRecorder(seats, 1901)
    feed(r, sco(HOMES))
    replies = [
        ("Austria", "dumbbot-1 (0.1)"),
        ("England", "DumbBot (Parlance v1.4.1)"),
        ("France", "EvilBot (Parlance v1.4.1)"),
        ("Germany", "dumbbot-2 (0.1)"),
        ("Italy", "dumbbot-3 (0.1)"),
        ("Russia", "dumbbot-4 (0.1)"),
        ("Turkey", "dumbbot-5 (0.1)"),
    ]
    for k, (power, player) in enumerate(replies):
        feed(r, f'ADM ( "Server" ) ( "{power} ({100 + k}): {player}, from 127.0.0.1" )')
    seat_power, how = r.assignment()
    assert seat_power["parang"] == "ENG" and seat_power["parang-evilbot"] == "FRA"
    assert seat_power["dumbbot-1"] == "AUS" and seat_power["dumbbot-5"] == "TUR"
    assert how == "reported by the bots and matched by name"
    players = {p.power: p.player for p in r.snapshot().powers}
    assert players["FRA"] == "parang-evilbot"


def test_a_draw_shares_the_points_among_the_survivors() -> None:
    r = GameRecorder(build_lineup(["dumbbot"]), 1901)
    for k, power in enumerate(sorted(HOMES)):
        r.on_bot_power(f"dumbbot-{k + 1}", power)
    feed(r, sco(HOMES), "NOW ( SPR 1901 ) ( AUS AMY BUD )", "NOW ( FAL 1901 ) ( AUS AMY BUD )")
    feed(r, sco(HOMES), "DRW", 'SMR ( FAL 1901 ) ( AUS ( "x" ) ( "1" ) 3 )')
    record = r.game_record()
    assert record.solo is None
    assert set(record.points) == {POINTS_BY_SURVIVORS[7]}


def test_a_game_that_never_started_has_no_record() -> None:
    r = GameRecorder(build_lineup(["dumbbot"]), 1901)
    with pytest.raises(ValueError, match="did not start"):
        r.game_record()
    feed(r, sco(HOMES))
    r.on_bot_power("dumbbot-1", "AUS")
    with pytest.raises(ValueError, match="which power"):
        r.game_record()


@pytest.mark.parametrize(
    ("texts", "count"),
    [
        ([], 0),
        (["cmd-1 (0.1) has connected. Have 1 player and 1 observer. Need 6 to start."], 1),
        (
            [
                "a (0.1) has connected. Have 5 players and 1 observer. Need 2 to start.",
                "b (0.1) has connected. Have 6 players and 1 observer. Need 1 to start.",
            ],
            6,
        ),
        (["b (0.1) has disconnected. Have 4 players and 1 observer. Need 3 to start."], 4),
        (["Welcome.  This server accepts admin commands."], 0),
    ],
)
def test_the_server_s_player_count_is_followed(texts: list[str], count: int) -> None:
    r = GameRecorder(build_lineup(["dumbbot"]), 1901)
    for text in texts:
        feed(r, f'ADM ( "Server" ) ( "{text}" )')
    assert r.players_connected == count
