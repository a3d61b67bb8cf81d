"""Data generation: games of the project's own players, every movement phase recorded.

:func:`generate` plays ``games`` in-process games (the arena's
:func:`~bot.lab.arena.arena_games.play_game`) with a lineup of player specs (by default
seven ``mcts:dm``), dealing the seats to the powers at random from the seed.
Each game is written as one JSON line of ``games.jsonl`` as soon as it ends::

    {"game": k, "final_year": 1905, "powers": [seat of each power...],
     "players": [player spec of each power...],
     "centres": [final centres of each power...],
     "phases": [{"season": 0, "year": 1901, "owners": [...],
                 "units": [[province, power, type, location], ...],
                 "orders": [[power, province, [order...]], ...]}, ...]}

With an iteration cap (``iterations``) instead of a time budget the searches,
and so the whole data set, repeat exactly for a seed.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from adjudicator.maps import standard_map
from adjudicator.orders import EngineOrder, Orders
from adjudicator.position import Position
from bot.lab.arena.arena_games import play_game
from search.mcts.player import MctsPlayer
from search.mcts.variants import DEFAULT_VARIANT, get_variant
from search.policy import Policy
from search.registry import make_policy, parse_spec

GAMES_FILE = "games.jsonl"
"""The recorded games inside a data folder, one JSON object per line."""

MANIFEST_FILE = "manifest.json"
"""How a data folder was made (the settings of :func:`generate`)."""


@dataclass(frozen=True)
class GenerateSettings:
    """What :func:`generate` plays: the lineup, the search's budget, the games and the seed."""

    games: int
    seed: int
    lineup: tuple[str, ...] = (f"mcts:{DEFAULT_VARIANT}",) * 7
    budget: float | None = 0.5
    iterations: int | None = None
    final_year: int = 1905
    cpu_clock: bool = True


class RecordingPolicy:
    """A policy that notes every movement phase it plays into ``log``, then plays ``inner``."""

    def __init__(self, inner: Policy, log: list[tuple[Position, int, Orders]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = log

    def movement_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """``inner``'s orders, noted with the position."""
        orders = self.inner.movement_orders(pos, power, rng)
        self.log.append((pos.copy(), power, dict(orders)))
        return orders

    def retreat_orders(self, pos: Position, power: int, rng: Random) -> Orders:
        """``inner``'s retreats."""
        return self.inner.retreat_orders(pos, power, rng)

    def adjustment_orders(self, pos: Position, power: int, rng: Random) -> list[EngineOrder]:
        """``inner``'s builds or removals."""
        return self.inner.adjustment_orders(pos, power, rng)


def _player(spec: str, settings: GenerateSettings, seat: int) -> Policy:
    kind, variant = parse_spec(spec)
    if kind == "mcts" and settings.iterations is not None:
        return MctsPlayer(
            get_variant(variant or DEFAULT_VARIANT),
            budget=None,
            iterations=settings.iterations,
            final_year=settings.final_year,
        )
    return make_policy(
        spec,
        budget=settings.budget if settings.budget is not None else 1.0,
        seed=settings.seed + seat,
        workers=1,
        final_year=settings.final_year,
        cpu_clock=settings.cpu_clock,
    )


def game_json(
    index: int,
    final_year: int,
    powers: Sequence[int | None],
    centres: Sequence[int],
    log: Sequence[tuple[Position, int, Orders]],
    *,
    players: Sequence[str | None] | None = None,
) -> dict[str, Any]:
    """One recorded game as the JSON object of a ``games.jsonl`` line.

    ``powers`` is the seat of each power, ``players`` (if known) the player of
    each power: what ``train fit --players`` selects.
    """
    phases: list[dict[str, Any]] = []
    last: Position | None = None
    for pos, power, orders in log:
        if last is None or pos.key() != last.key():
            phases.append(
                {
                    "season": int(pos.season),
                    "year": pos.year,
                    "owners": list(pos.owners),
                    "units": [[prov, *unit] for prov, unit in sorted(pos.units.items())],
                    "orders": [],
                }
            )
            last = pos
        phases[-1]["orders"].extend(
            [power, prov, list(order)] for prov, order in sorted(orders.items())
        )
    return {
        "game": index,
        "final_year": final_year,
        "powers": list(powers),
        **({} if players is None else {"players": list(players)}),
        "centres": list(centres),
        "phases": phases,
    }


def generate_command(manifest: dict[str, Any], out: str) -> str:
    """The ``daide-mcts train generate`` command that makes the data ``manifest`` describes."""
    words = ["daide-mcts", "train", "generate", "--games", str(manifest["games"])]
    if manifest.get("iterations") is not None:
        words += ["--iterations", str(manifest["iterations"])]
    else:
        words += ["--budget", str(manifest["budget"])]
    lineup = list(manifest["lineup"])
    if lineup != [lineup[0]] * len(lineup) or lineup[0] != f"mcts:{DEFAULT_VARIANT}":
        words += ["--lineup", *(lineup[:1] if len(set(lineup)) == 1 else lineup)]
    words += ["--final-year", str(manifest["final_year"]), "--seed", str(manifest["seed"])]
    return shlex.join([*words, "--out", out])


def generate(
    settings: GenerateSettings, out: Path, on_game: Callable[[int], None] | None = None
) -> int:
    """Play and record the games into ``out`` (created); returns the phases recorded.

    Raises :class:`ValueError` for a lineup that does not fill the map, and
    :class:`FileExistsError` when ``out`` already holds recorded games.
    """
    m = standard_map()
    if len(settings.lineup) != m.num_powers:
        raise ValueError(f"the lineup needs {m.num_powers} players, got {len(settings.lineup)}")
    out.mkdir(parents=True, exist_ok=True)
    games_path = out / GAMES_FILE
    if games_path.exists():
        raise FileExistsError(f"{games_path} exists: choose a new folder")
    manifest = {
        "games": settings.games,
        "seed": settings.seed,
        "lineup": list(settings.lineup),
        "budget": settings.budget,
        "iterations": settings.iterations,
        "final_year": settings.final_year,
        "cpu_clock": settings.cpu_clock,
    }
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1) + "\n")
    log: list[tuple[Position, int, Orders]] = []
    seats: list[Policy] = [
        RecordingPolicy(_player(spec, settings, i), log) for i, spec in enumerate(settings.lineup)
    ]
    phases = 0
    with games_path.open("w") as f:
        for index in range(settings.games):
            rng = Random(f"train:{settings.seed}:{index}")
            powers = rng.sample(range(m.num_powers), m.num_powers)
            log.clear()
            record = play_game(seats, powers, settings.final_year, rng, index=index, game_map=m)
            centres = [0] * m.num_powers
            for seat, power in enumerate(powers):
                centres[power] = record.centres[seat]
            power_seats = [powers.index(p) for p in range(m.num_powers)]
            players = [settings.lineup[seat] for seat in power_seats]
            line = game_json(index, settings.final_year, power_seats, centres, log, players=players)
            phases += len(line["phases"])
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
            f.flush()
            if on_game is not None:
                on_game(index + 1)
    return phases
