"""The stress scenarios: what each one sets up, in a full and a short (CI) version.

Every scenario but ``hostile`` runs a real Parlance on 127.0.0.1 with seven
copies of our bot, one per power, each behind its own :class:`~bot.stress.netproxy.NetProxy`
(transparent unless the scenario shapes the link), so the harness sees every
message at the server's side of the wire.  ``hostile`` runs one bot against
:class:`~bot.stress.hostile.HostileServer`.

=====================  =====================================================================
scenario               what it does
=====================  =====================================================================
``contention-30``      seven bots on this machine, 30 s per movement phase (the thesis's)
``contention-5``       the same at 5 s
``contention-2``       the same at 2 s
``slow-network``       MTL 5 s, every link 200 ms +- 150 ms each way, occasional 1 s stalls
``dropped-connection`` MTL 5 s, one bot's connection cut as movement phases begin (SPR 1902, 1904)
``hostile``            one bot against the hostile server, one fault per movement phase
``long-game``          MTL 2 s for 20 years: does peak memory grow year over year?
=====================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.stress.netproxy import LinkProfile

SLOW_LINK = LinkProfile(latency=0.2, jitter=0.15, stall_chance=0.02, stall_seconds=1.0)
"""The slow network: 200 ms +- 150 ms each way, and a 1 s stall on 2% of the chunks."""


@dataclass(frozen=True)
class Scenario:
    """One stress run: the server's deadlines, the game's length, the network, the faults."""

    name: str
    description: str
    move_time: int
    retreat_time: int
    build_time: int
    final_year: int
    bots: int = 7
    link: LinkProfile | None = None
    cut_at_movement_phases: tuple[int, ...] = ()
    """Movement phases (counted from 0) at whose start bot 0's connection is cut."""
    hostile: bool = False
    bots_propose_draw: bool = True
    """Bots get ``--final-year`` and propose the draw; otherwise Parlance's judge ends the
    game after the final year (so the search's look-ahead is the same in every year)."""

    @property
    def years(self) -> int:
        """Game years played (1901 to the final year)."""
        return self.final_year - 1900


FULL: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("contention-30", "7 bots, MTL 30 s", 30, 10, 10, 1905),
        Scenario("contention-5", "7 bots, MTL 5 s", 5, 3, 3, 1905),
        Scenario("contention-2", "7 bots, MTL 2 s", 2, 2, 2, 1905),
        Scenario(
            "slow-network",
            "7 bots, MTL 5 s, 200+-150 ms each way, 1 s stalls",
            5,
            3,
            3,
            1905,
            link=SLOW_LINK,
        ),
        Scenario(
            "dropped-connection",
            "7 bots, MTL 5 s, bot 0 cut as a movement phase begins",
            5,
            3,
            3,
            1905,
            cut_at_movement_phases=(2, 6),
        ),
        Scenario(
            "hostile", "1 bot vs the hostile server, deadline 5 s", 5, 5, 5, 1906, 1, hostile=True
        ),
        Scenario("long-game", "7 bots, MTL 2 s, 20 years", 2, 1, 1, 1920, bots_propose_draw=False),
    )
}
"""The full scenarios, as recorded in BENCHMARKS.md."""

DEFAULT_SET = (
    "contention-30",
    "contention-5",
    "contention-2",
    "slow-network",
    "dropped-connection",
    "hostile",
)
"""What ``daide-mcts stress`` runs without ``--scenario`` (``long-game`` is asked for by name)."""


def short(scenario: Scenario) -> Scenario:
    """The CI version: the first year only (a few phases), the long game cut to 3 years."""
    if scenario.hostile:
        return scenario  # one fault per movement phase: as long as the fault list
    if scenario.name == "long-game":
        return replace(scenario, final_year=1903)
    cuts = tuple(c for c in scenario.cut_at_movement_phases if c < 2) or (
        (1,) if scenario.cut_at_movement_phases else ()
    )
    return replace(scenario, final_year=1901, cut_at_movement_phases=cuts)
