"""The real client (``daide-mcts play``) on maps a hostile server sends: never killed by a signal.

A scripted peer (:mod:`tests.bot.scripted`) greets each bot process and answers
its MDF request with a mutated standard MDF (:mod:`tests.adjudicator.mutated_maps`:
named mutations and seeded random ones).  What the client must do, decided
once for every map:

* a map it can play on (one-sided adjacencies included): ``YES (MAP)``, then
  complete orders for the opening if it fits the map, and a clean exit on OFF;
* a map that parses but is not usable: ``REJ (MAP)``, one error line on stderr
  naming the problem, exit status 2 (never a traceback);
* a message that does not parse: HUH or PRN, as for any bad message, and a
  clean exit on OFF.

In every case the exit status is never a signal's (a negative returncode).
Which reaction a map calls for is worked out from the map itself with the
protocol and rules packages (the same judgement the client makes; what is
tested here is that the process acts on it, whole, without dying).
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable

from adjudicator.maps import GameMap
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from adjudicator.standard import standard_definition, standard_start
from protocol.messages import (
    Hlo,
    Huh,
    Map,
    Mdf,
    Message,
    Nme,
    Now,
    Off,
    Prn,
    Rej,
    Sco,
    Sub,
    Yes,
)
from protocol.values import Season, Turn
from protocol.variant import Variant
from protocol.wire import encode_tokens
from tests.adjudicator.mutated_maps import CASES, NAMED, Reaction, reaction
from tests.bot.conftest import BotProcess
from tests.bot.scripted import PASSCODE, Link, ScriptedServer

POWER = "TUR"
"""The bot's power: ANK, whose army list the first mutation drops, is one of its homes."""

PARALLEL = 3
"""Bot processes run at once (each is two processes: the client and its search worker)."""

STEP_TIMEOUT = 30.0
"""Seconds the peer waits for each message of the bot (three bots share two cores)."""

EXIT_TIMEOUT = 60.0
"""Seconds a bot has to exit once it has answered."""

ASTRAY_TIMEOUT = 3.0
"""Seconds a bot that did not answer as it must is given to exit before it is killed."""

REFUSED_EXIT = 2
"""The exit status of ``daide-mcts`` after a one-line error (``UserError``)."""


def test_the_cases_cover_every_reaction() -> None:
    reactions = {name: reaction(tokens)[0] for name, tokens in CASES.items()}
    assert set(reactions.values()) == {"play", "refuse", "huh"}
    assert reactions["ANK's army list dropped"] == "play"
    assert reactions["an unbalanced bracket"] == "huh"
    assert reactions["no powers"] == "refuse"
    # What cannot be played is refused (one line, exit 2); what Parlance plays is played.
    assert reactions["no supply centres"] == "refuse"
    assert reactions["TUR with no home centre"] == "refuse"
    assert reactions["ANK adjacent to itself"] == "play"
    assert reactions["a centre group given twice"] == "play"
    assert len(CASES) >= 50


async def _answer(link: Link) -> Message:
    """The client's answer to the MDF: YES/REJ (MAP), HUH or PRN."""
    return await link.expect(
        Message,  # type: ignore[type-abstract]
        timeout=STEP_TIMEOUT,
        where=lambda m: isinstance(m, Yes | Rej | Huh | Prn),
    )


async def _play_case(name: str, tokens: list[int], run_bot: Callable[..., BotProcess]) -> None:
    expected, game_map = reaction(tokens)
    failed: AssertionError | None = None
    async with ScriptedServer() as server:
        bot = run_bot(server.port, "--strategy", "dumbbot", "--seed", "3")
        try:
            await _dialogue(server, tokens, expected, game_map)
        except AssertionError as exc:
            failed = exc
        try:  # a bot that went astray is given a moment (to tell a signal), not a minute
            code = await asyncio.to_thread(
                bot.proc.wait, EXIT_TIMEOUT if failed is None else ASTRAY_TIMEOUT
            )
        except subprocess.TimeoutExpired:
            code = None
        finally:
            bot.stop()
    err = bot.err_tail()
    assert code is None or code >= 0, f"{name}: killed by signal {-code}\n{err}"
    if failed is not None:
        raise AssertionError(f"{name}: {failed}\n{err}")
    assert code is not None, f"{name}: the bot did not exit\n{err}"
    assert "Traceback" not in err, f"{name}:\n{err}"
    if expected == "refuse":
        lines = [line for line in err.splitlines() if line.startswith("daide-mcts play: error:")]
        assert code == REFUSED_EXIT and len(lines) == 1, f"{name}: exit {code}\n{err}"
        assert "map" in lines[0], lines
    else:
        assert code == 0, f"{name}: exit {code}\n{err}"


async def _dialogue(
    server: ScriptedServer, tokens: list[int], expected: Reaction, game_map: GameMap | None
) -> None:
    """Greet the bot, send the MDF of ``tokens`` and check its answer (and opening orders)."""
    link = await server.connection(timeout=STEP_TIMEOUT)
    await link.expect(Nme, timeout=STEP_TIMEOUT)
    link.send(Yes(Nme("x", "1")), Map("STANDARD"))
    await link.expect(Mdf, timeout=STEP_TIMEOUT)
    link.writer.write(encode_tokens(tokens))
    answer = await _answer(link)
    if expected == "play":
        assert answer == Yes(Map("STANDARD")), answer
        await _opening(link, game_map)
        link.send(Off())
    elif expected == "huh":
        assert isinstance(answer, Huh | Prn), answer
        link.send(Off())
    else:
        assert answer == Rej(Map("STANDARD")), answer


async def _opening(link: Link, game_map: GameMap | None) -> None:
    """HLO, then the opening if it fits the map: the bot must order each of its units."""
    assert game_map is not None
    link.send(Hlo(POWER, PASSCODE, Variant.of(move_time_limit=30)))
    turn, units, centres = standard_start()
    try:
        Position.from_values(game_map, turn, units, centres)
    except AdjudicatorError:
        return  # the opening does not fit this map: the bot ignores that NOW
    link.send(Sco(centres), Now(turn, units))
    ours = {u.unit for u in units if u.unit.power == POWER}
    sub = await link.expect(Sub, timeout=STEP_TIMEOUT)
    ordered = {getattr(order, "unit", None) for order in sub.orders}
    assert ordered == ours, (sub, ours)


async def test_the_client_survives_every_mutated_map(run_bot) -> None:
    """Some fifty maps, three bots at a time: each acts as decided, none dies by a signal."""
    gate = asyncio.Semaphore(PARALLEL)

    async def one(name: str, tokens: list[int]) -> None:
        async with gate:
            await _play_case(name, tokens, run_bot)

    results = await asyncio.gather(
        *(one(name, tokens) for name, tokens in CASES.items()), return_exceptions=True
    )
    failures = [str(result) for result in results if result]
    assert not failures, "\n".join(failures)


async def test_a_new_map_mid_game_is_ignored(run_bot) -> None:
    """Once the game is under way, an MDF (unusable, or another map) changes nothing."""
    async with ScriptedServer() as server:
        bot = run_bot(server.port, "--strategy", "dumbbot", "--seed", "3")
        link = await server.connection(timeout=STEP_TIMEOUT)
        await link.expect(Nme, timeout=STEP_TIMEOUT)
        link.send(Yes(Nme("x", "1")), Map("STANDARD"))
        await link.expect(Mdf, timeout=STEP_TIMEOUT)
        link.send(Mdf(standard_definition()))
        await link.expect(Yes, timeout=STEP_TIMEOUT)
        link.send(Hlo(POWER, PASSCODE, Variant.of(move_time_limit=30)))
        turn, units, centres = standard_start()
        link.send(Sco(centres), Now(turn, units))
        await link.expect(Sub, timeout=STEP_TIMEOUT)
        for name in ("no powers", "ANK's army list dropped"):
            link.writer.write(encode_tokens(NAMED[name]))
        replies = await link.quiet(2.0)
        assert not [m for m in replies if isinstance(m, Yes | Rej | Huh | Prn)], replies
        fall = Turn(Season.FALL, turn.year)
        link.send(Sco(centres), Now(fall, units))  # every unit held
        sub = await link.expect(Sub, timeout=STEP_TIMEOUT)
        assert {getattr(o, "unit", None) for o in sub.orders} == {
            u.unit for u in units if u.unit.power == POWER
        }
        link.send(Off())
        code = await asyncio.to_thread(bot.proc.wait, EXIT_TIMEOUT)
    assert code == 0, bot.err_tail()
    ignored = [r for r in bot.game_log() if r["kind"] == "ignored"]
    assert [r["reason"] for r in ignored] == ["a new map in the middle of the game"] * 2, ignored
