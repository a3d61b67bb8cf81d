"""Short games on every map Parlance serves (its own and Parterre's variants), issue 47.

One seat of ours searches (MCTS, the default strategy); Parang's DumbBots hold the
other powers; the server declares the draw after two years. On every map the bot
must submit complete orders in every phase, put the search's final answer in, send
``GOF``, adjudicate every phase as the server did and exit 0 after ``SMR``.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

VARIANTS = {
    "standard": (1901, 7),
    "abstraction2": (1914, 7),
    "african2": (2001, 6),
    "americas4": (1845, 10),
    "chromatic": (1901, 5),
    "classical": (1050, 5),
    "fleet_rome": (1901, 7),
    "hundred3": (1425, 3),
    "hundred31": (1901, 3),
    "hundred32": (1901, 3),
    "iberian2": (1217, 5),
    "modern": (1995, 10),
    "sailho": (1901, 4),
    "shift_around": (1901, 7),
    "south_america32": (1901, 4),
    "south_america51": (1901, 5),
    "south_east_asia3": (1997, 7),
    "versailles3": (1901, 7),
    "world3": (1901, 17),
}
"""Each map: its first year and its number of powers (Parterre's ``.cfg`` files say so)."""

YEARS = 2


def test_every_variant_is_installed(parlance_install) -> None:
    """The setup installs Parterre beside Parlance: one ``.cfg`` per variant listed here."""
    data = parlance_install.site / "parterre" / "data"
    assert {p.stem for p in data.glob("*.cfg")} | {"standard"} == set(VARIANTS)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_our_bot_plays_the_variant(variant: str, parlance_server, parang_bots, run_bot) -> None:
    first_year, powers = VARIANTS[variant]
    server = parlance_server(variant=variant, MTL=2, RTL=1, BTL=1, draw=YEARS)
    bot = run_bot(
        server.port,
        "--final-year",
        str(first_year + YEARS - 1),
        "--seed",
        "7",
    )
    parang_bots(server, powers - 1)
    summary = bot.wait(timeout=120 + 40 * powers)
    assert bot.proc.returncode == 0, summary
    assert summary["ended_cleanly"], summary
    assert summary["missed_deadlines"] == 0, summary
    assert summary["refused_orders"] == 0, summary
    assert summary["bad_messages"] == 0, summary
    assert summary["shadow_mismatches"] == 0, summary
    assert summary["shadow_checked"] >= 2, summary
    assert summary["smr"].startswith("SMR"), summary
    assert summary["ignored_messages"] == 0, summary["ignored_by_kind"]
    # Every movement phase our power had units in was searched, and its final answer went in.
    assert summary["searched_phases"] >= 1, summary
    assert summary["final_answers"] == summary["searched_phases"], summary
    records = bot.game_log()
    kinds = [r["kind"] for r in records]
    assert "phase_failed" not in kinds, [r for r in records if r["kind"] == "phase_failed"]
    outgoing = [r["text"] for r in records if r["kind"] == "msg" and r["dir"] == "out"]
    assert any(t.startswith("SUB") for t in outgoing), outgoing
    # The final set of each searched phase was noted in the map's names, then GOF went out.
    assert kinds.count("orders") == summary["searched_phases"], summary
    assert outgoing.count("GOF") >= summary["searched_phases"], outgoing
