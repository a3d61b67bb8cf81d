"""Record a short live Parlance game into the protocol's data files.

Run ``.venv/bin/python -m tests.protocol.capture_sample_game``: it starts
Parlance (standard map, short deadlines, a DIAS draw declared after 1903),
joins as one player with six Parang dumbbots, plays simple legal-looking
orders (random moves and supports, retreats, builds, waives) and also sends
the other client requests once (NOT (GOF), GOF, TME, DRW, NOT (DRW), HST,
NOW, SCO, ORD, MIS, HLO, ADM), then writes

* ``protocol/data/sample_game.txt``: every message of the game, one text
  message per line, ``<<`` for received and ``>>`` for sent;
* ``protocol/data/standard_mdf.txt``: the MDF Parlance sends for ``standard``.

Not a test: the test suite only reads these files.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.servers.parlance_install import ParangBots, ParlanceServer, install
from protocol.messages import (
    Adm,
    Drw,
    Gof,
    Hlo,
    Hst,
    Map,
    Mdf,
    Mis,
    Nme,
    Not,
    Now,
    Off,
    Ord,
    Sco,
    Smr,
    Sub,
    Tme,
    Yes,
)
from protocol.values import (
    Build,
    Disband,
    Hold,
    Location,
    MapDefinition,
    Move,
    Order,
    Remove,
    Retreat,
    Season,
    SupportHold,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
    Waive,
)
from tests.protocol.live_client import LiveClient, ServerClosed

DATA = Path(__file__).resolve().parents[2] / "protocol" / "data"
HEADER = (
    "# A live Parlance 1.4.1 game (standard map, MTL 5, RTL 2, BTL 2, DIAS draw after 1903),\n"
    "# one DAIDE message per line: '<< ' received by our client, '>> ' sent by it.\n"
    "# Written by `python -m tests.protocol.capture_sample_game`.\n"
)


def destinations(definition: MapDefinition, unit: Unit) -> list[Location]:
    """Where ``unit`` may move, from the MDF's adjacencies."""
    for province in definition.adjacencies:
        if province.province != unit.province:
            continue
        for entry in province.entries:
            if entry.kind is unit.kind and entry.coast == unit.location.coast:
                return list(entry.destinations)
    return []


def movement_orders(
    definition: MapDefinition, power: str, units: tuple[UnitPosition, ...], rng: random.Random
) -> list[Order]:
    """Random moves, holds and supports for our units."""
    ours = [p.unit for p in units if p.unit.power == power]
    orders: list[Order] = []
    for unit in ours:
        options = destinations(definition, unit)
        reachable = {d.province for d in options}
        friends = [u for u in ours if u is not unit and u.province in reachable]
        roll = rng.random()
        if friends and roll < 0.25:
            orders.append(SupportHold(unit, rng.choice(friends)))
        elif options and roll < 0.85:
            orders.append(Move(unit, rng.choice(options)))
        else:
            orders.append(Hold(unit))
    return orders


def retreat_orders(power: str, units: tuple[UnitPosition, ...]) -> list[Order]:
    """Retreat to the first allowed place, or disband."""
    orders: list[Order] = []
    for position in units:
        if position.unit.power != power or position.retreats is None:
            continue
        if position.retreats:
            orders.append(Retreat(position.unit, position.retreats[0]))
        else:
            orders.append(Disband(position.unit))
    return orders


def adjustment_orders(
    definition: MapDefinition,
    power: str,
    units: tuple[UnitPosition, ...],
    centres: tuple[tuple[str, tuple[str, ...]], ...],
) -> list[Order]:
    """Build armies on free home centres (waive the rest), or remove the first units."""
    ours = [p.unit for p in units if p.unit.power == power]
    owned = next((c for p, c in centres if p == power), ())
    surplus = len(owned) - len(ours)
    if surplus < 0:
        return [Remove(unit) for unit in ours[:-surplus]]
    homes = [c for owners, group in definition.supply_centres if power in owners for c in group]
    occupied = {p.unit.province for p in units}
    free = [c for c in homes if c in owned and c not in occupied]
    orders: list[Order] = [Build(Unit(power, UnitType.ARMY, Location(c))) for c in free[:surplus]]
    orders += [Waive(power)] * (surplus - len(orders))
    return orders


def _after_all(turn: Turn, played: set[Turn]) -> bool:
    order = list(Season)
    key = (turn.year, order.index(turn.season))
    return all(key > (t.year, order.index(t.season)) for t in played)


def play(
    host: str, port: int, rng: random.Random, deadline: float, on_joined: Callable[[], object]
) -> LiveClient:
    """Join, call ``on_joined`` (to start the other players), play until the game ends."""
    client = LiveClient(host, port)
    client.send(Nme("daide-mcts", "0.1"))
    client.wait_for(Map, deadline)
    client.send(Mdf())
    mdf = client.wait_for(Mdf, deadline)
    assert isinstance(mdf, Mdf) and mdf.definition is not None
    definition = mdf.definition
    client.send(Yes(Map("standard")))
    on_joined()
    hlo = client.wait_for(Hlo, deadline)
    assert isinstance(hlo, Hlo) and hlo.power is not None
    power = hlo.power
    extras_sent = False
    history_asked = False
    played: set[Turn] = set()
    centres: tuple[tuple[str, tuple[str, ...]], ...] = ()
    try:
        while True:
            try:
                message = client.receive(deadline)
            except TimeoutError:
                print("\n".join(client.transcript[-40:]))
                raise
            if isinstance(message, Sco) and message.centres is not None:
                centres = message.centres
            elif isinstance(message, (Off, Smr)):
                break  # the game is over
            elif isinstance(message, Now) and message.turn is not None:
                turn = message.turn
                if turn in played or not _after_all(turn, played):
                    continue  # a copy (our NOW request) or history (our HST request)
                played.add(turn)
                if not extras_sent:
                    extras_sent = True
                    for extra in (
                        Not(Gof()), Gof(), Tme(2), Drw(), Not(Drw()), Now(),
                        Sco(), Hlo(), Ord(), Mis(), Adm("daide-mcts", "Capturing a sample game."),
                    ):  # fmt: skip
                        client.send(extra)
                if turn == Turn(Season.FALL, 1901) and not history_asked:
                    history_asked = True
                    client.send(Hst(Turn(Season.SPRING, 1901)))
                if turn.season.is_movement:
                    orders = movement_orders(definition, power, message.units, rng)
                elif turn.season.is_retreat:
                    orders = retreat_orders(power, message.units)
                else:
                    orders = adjustment_orders(definition, power, message.units, centres)
                if orders:
                    client.send(Sub(tuple(orders)))
    except ServerClosed:
        pass
    return client


def main(argv: list[str]) -> int:
    """Capture a game and write the data files."""
    seed = int(argv[0]) if argv else 1901
    rng = random.Random(seed)
    inst = install()
    with ParlanceServer(inst, options={"MTL": 5, "RTL": 2, "BTL": 2, "draw": 3}) as server:
        bots = ParangBots(inst, server.host, server.port, 6)
        deadline = time.monotonic() + 300
        started = time.monotonic()
        try:
            client = play(server.host, server.port, rng, deadline, bots.start)
        except Exception:
            print(f"failed after {time.monotonic() - started:.1f}s; server said:")
            print(server.output()[-3000:])
            raise
        finally:
            bots.stop()
    client.close()
    lines = client.transcript
    mdf_line = next(line[3:] for line in lines if line.startswith("<< MDF"))
    (DATA / "standard_mdf.txt").write_text(mdf_line + "\n")
    (DATA / "sample_game.txt").write_text(HEADER + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} messages ({sum(1 for x in lines if x[:2] == '>>')} sent)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
