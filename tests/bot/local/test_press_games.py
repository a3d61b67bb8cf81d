"""Press games end to end: ``daide-mcts game --level`` at 10 and 20 on Parlance, and at 30
on MILA's server.

One or two years, short deadlines.  What is checked: the game ends, ``daide-mcts`` exits
0, our bots miss no orders, and press went both ways at the game's level —
every message kept in the run folder's record (our bots' game logs), press we
read answered by the negotiator, press above the level answered ``HUH`` and
``TRY`` (never a crash).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.local.games import ROOT, bot_records, messages, play_game

pytestmark = pytest.mark.slow

ANSWERS = ("YES", "REJ", "BWX", "HUH", "TRY")
"""Press that answers press."""


def _body(frm: str) -> str:
    """The press of an ``FRM ( sender ) ( recipients ) ( press )`` text, without its brackets."""
    return frm.split(") ( ", 2)[-1].removesuffix(" )")


def _played_cleanly(summary: dict, seat: str) -> None:
    bot = summary["bots"][seat]
    assert bot["ended_cleanly"] is True, bot
    assert bot["missed_deadlines"] == 0, bot
    assert bot["refused_orders"] == 0, bot


def _press_game(out: Path, level: int, opponent: str, final_year: int, mtl: int, seed: int) -> dict:
    """Ours against six ``opponent`` bots at press ``level`` on Parlance; the run's summary."""
    lineup = ",".join(["mcts", *[opponent] * 6])
    summary = play_game(
        out, "--level", str(level), "--lineup", lineup, "--final-year", str(final_year),
        "--mtl", str(mtl), "--rtl", "1", "--btl", "1", "--seed", str(seed),
    )  # fmt: skip
    assert summary["ended_cleanly"] is True and summary["end"] == f"WIN {final_year}", summary
    assert summary["settings"]["press_level"] == level
    return summary


@pytest.mark.parlance
def test_a_level_10_game_with_peacebots_keeps_the_agreements_in_the_game_log(
    tmp_path: Path,
) -> None:
    """Six PeaceBots: ours answers and proposes peace, orders on time, logs its deals."""
    out = tmp_path / "run"
    _played_cleanly(_press_game(out, 10, "parang:peacebot", 1902, 3, 5), "mcts")
    records = bot_records(out, "mcts")
    assert "missed" not in {r["kind"] for r in records}
    assert any(" ( LVL 10 )" in t for t in messages(records, "in", "HLO")), records[:5]
    assert any("PCE" in t for t in messages(records, "in", "FRM")), records
    press_in = [r for r in records if r["kind"] == "press_in"]
    assert any("PRP ( PCE" in r["text"] for r in press_in), press_in
    press_out = [r["text"] for r in records if r["kind"] == "press_out"]
    assert any("YES ( PRP ( PCE" in t for t in press_out), press_out
    made = [r for r in records if r["kind"] == "agreement" and r["change"] == "made"]
    assert made and all(r["agreement"] == "peace" and r["since"] for r in made), made


@pytest.mark.parlance
def test_a_level_20_game_with_blabberbots(tmp_path: Path) -> None:
    """Parang's BlabberBots send random press of every level-20 form; ours reads and answers."""
    out = tmp_path / "run"
    summary = _press_game(out, 20, "parang:blabberbot", 1902, 2, 7)
    _played_cleanly(summary, "mcts")

    records = bot_records(out, "mcts")
    assert "missed" not in {r["kind"] for r in records}
    assert any(" ( LVL 20 )" in t for t in messages(records, "in", "HLO")), records[:5]
    heard = messages(records, "in", "FRM")
    press_in = [r for r in records if r["kind"] == "press_in"]
    # every FRM is kept twice: as the message and as press, with what we did with it
    assert heard and len(press_in) == len(heard), (heard, press_in)
    assert all(r["reaction"] for r in press_in), press_in
    # ours proposes and BlabberBot answers (it answers all but answers, at random)...
    said = messages(records, "out", "SND")
    assert any(" ( PRP ( PCE " in t for t in said), said
    assert any(_body(r["text"]).split(" ")[0] in ANSWERS for r in press_in), press_in
    # ...and each proposal BlabberBot makes (random, of any level-20 form) gets its answer
    for r in press_in:
        if _body(r["text"]).startswith("PRP"):
            replies = [t for t in said if t.startswith(f"SND ( {r['sender']} )")]
            assert any(_body(r["text"]) in t for t in replies), (r, replies)
    # the server understood all we said (a HUH would quote our SND)
    assert not messages(records, "in", "HUH"), messages(records, "in", "HUH")


@pytest.mark.mila
@pytest.mark.timeout(1500)  # MILA's server takes minutes to load on a busy machine
def test_a_level_30_game_on_mila_s_server(mila_server, run_bot, tmp_path: Path) -> None:
    """Six of ours and a scripted peer on MILA's server with press: level 30 read, 50 refused.

    The server and the seats are started directly (as the no-press MILA test does), so
    the game's time limit is the test's: MILA loads slowly on a busy machine.
    """
    server = mila_server(deadline=4, press=True)
    common = ("--final-year", "1902", "--press-turn", "--rules", "datc")
    bots = [
        run_bot(
            server.port,
            *common,
            *(() if i == 0 else ("--strategy", "dumbbot")),  # seat 0: the default, MCTS
            "--seed",
            str(i),
            name=f"seat{i}",
        )
        for i in range(6)
    ]
    peer_out = tmp_path / "peer.out"
    with peer_out.open("w") as out:
        peer = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.press_peer", "--host", "127.0.0.1",
             "--port", str(server.port), "--name", "peer"],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            summaries = [bot.wait(timeout=1200) for bot in bots]
            peer.wait(timeout=60)
        finally:
            if peer.poll() is None:
                peer.kill()
                peer.wait()
    assert peer.returncode == 0, peer_out.read_text()[-3000:]
    ours_said = ours_heard = 0
    for bot, summary in zip(bots, summaries, strict=True):
        assert bot.proc.returncode == 0, bot.err_tail()
        assert summary["ended_cleanly"] and summary["smr"], summary
        assert summary["missed_deadlines"] == 0, summary
        assert summary["refused_orders"] == 0 and summary["bad_messages"] == 0, summary
        records = bot.game_log()
        assert any(" ( LVL 30 )" in t for t in messages(records, "in", "HLO")), records[:5]
        press_in = {r["text"]: r["reaction"] for r in records if r["kind"] == "press_in"}
        # the peer's level-30 AND is read (and refused: we agree to no AND)...
        read = [t for t in press_in if "PRP ( AND" in t]
        assert len(read) == 1 and press_in[read[0]].startswith("Reject"), press_in
        # ...its level-50 CHO is answered HUH, with ERR before CHO, and TRY
        above = [t for t in press_in if "PRP ( CHO" in t]
        assert len(above) == 1 and press_in[above[0]] == "not understood: HUH/TRY", press_in
        said = messages(records, "out", "SND")
        assert any("( HUH ( PRP ( ERR CHO" in t for t in said), said
        assert any("( TRY (" in t for t in said), said
        # every SND names the turn (MILA's server misreads a lone recipient without it)
        assert all(t.startswith(("SND ( SPR", "SND ( SUM", "SND ( FAL", "SND ( AUT", "SND ( WIN"))
                   for t in said), said  # fmt: skip
        ours_said += sum(1 for r in records if r["kind"] == "press_out")
        ours_heard += sum(1 for t in press_in if "PCE" in t and "CHO" not in t and "AND" not in t)
    # our bots talked to each other through MILA: proposals of peace, and answers
    assert ours_said > 0 and ours_heard > 0, (ours_said, ours_heard)
