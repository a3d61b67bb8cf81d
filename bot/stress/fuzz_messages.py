"""The mutations of single messages: a mutated MDF, NOW, SCO, ORD, HLO, MIS, REJ or TME.

Each function changes one message of a :class:`~bot.stress.fuzz_script.Draft`
(or adds one the server never sends unasked) and returns what it did, in one
line; :mod:`bot.stress.fuzz_mutations` lists what each kind does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from random import Random

from adjudicator.maps import SEA
from adjudicator.position import Position
from adjudicator.rule_errors import AdjudicatorError
from bot.stress.fuzz_script import (
    REACTION,
    AwaitOrders,
    Draft,
    Expect,
    Item,
    Pause,
    fails_to_parse,
    is_clock,
    item_of,
    label,
)
from bot.stress.fuzz_stream import foreign_messages
from protocol.daide_errors import EncodeError
from protocol.messages import (
    Drw,
    Hlo,
    Hst,
    Iam,
    Mdf,
    Message,
    Mis,
    Nme,
    Not,
    Now,
    Obs,
    Ord,
    Rej,
    Sco,
    Tme,
    Yes,
)
from protocol.tokens import BRA, KET
from protocol.values import (
    UNOWNED,
    Hold,
    Location,
    MapDefinition,
    OrderResult,
    ProvinceAdjacencies,
    Season,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
)
from protocol.variant import Variant

UNKNOWN_PROVINCE = 0x57F0
"""A token in a province category that the standard representation does not assign."""

FUTURE_YEARS = (50, 6000)
"""How far ahead a NOW from the future is (years)."""


def mutate_mdf(d: Draft) -> str:
    """A changed map (see the module docstring of :mod:`bot.stress.fuzz_mutations`)."""
    slot = next(s for s in d.slots() if isinstance(d.get(s).message, Mdf))
    mdf = d.get(slot).message
    assert isinstance(mdf, Mdf) and mdf.definition is not None
    how, tokens = _mutate_map(mdf.definition, d.rng)
    expect = Expect.MALFORMED if fails_to_parse(tokens) else Expect.ANY
    d.container(slot)[slot.index] = Item(tokens, expect)
    d.handshake_intact = False
    return f"MDF: {how}"


def _mutate_map(definition: MapDefinition, rng: Random) -> tuple[str, tuple[int, ...]]:
    lists = _MapLists(
        list(definition.adjacencies),
        list(definition.supply_centres),
        list(definition.non_supply_centres),
    )
    p = rng.randrange(len(lists.adj))
    how = rng.choice(MAP_MUTATIONS)
    edit = _MAP_EDITS.get(how)
    if edit is not None:
        how = edit(lists, p, rng) or how
    changed = dataclasses.replace(
        definition,
        supply_centres=tuple(lists.centres),
        non_supply_centres=tuple(lists.non_supply),
        adjacencies=tuple(lists.adj),
    )
    tokens = Mdf(changed).to_tokens()
    if how == UNKNOWN_PROVINCE_MUTATION:
        # Into the adjacency section (the last group of the message): an unassigned province.
        at = len(tokens) - 1 - rng.randrange(1, max(2, len(tokens) // 3))
        while tokens[at] in (BRA, KET):
            at -= 1
        tokens = (*tokens[: at + 1], UNKNOWN_PROVINCE, *tokens[at + 1 :])
        how = f"an unassigned province token 0x{UNKNOWN_PROVINCE:04X} among the adjacencies"
    return how, tokens


@dataclasses.dataclass
class _MapLists:
    """The lists of a map definition that a mutation edits in place."""

    adj: list[ProvinceAdjacencies]
    centres: list[tuple[tuple[str, ...], tuple[str, ...]]]
    non_supply: list[str]


def _drop_group(m: _MapLists, p: int, rng: Random) -> str | None:
    entry = m.adj[p]
    if not entry.entries:
        return None
    g = rng.randrange(len(entry.entries))
    group = entry.entries[g]
    m.adj[p] = dataclasses.replace(entry, entries=entry.entries[:g] + entry.entries[g + 1 :])
    return f"{entry.province} loses its group ( {group.kind.value} {_places(group.destinations)} )"


def _drop_entry(m: _MapLists, p: int, rng: Random) -> str:
    name = m.adj.pop(p).province
    return f"{name}'s adjacency entry dropped"


def _duplicate_entry(m: _MapLists, p: int, rng: Random) -> str:
    m.adj.insert(p, m.adj[p])
    return f"{m.adj[p].province}'s adjacency entry listed twice"


def _foreign_group(m: _MapLists, p: int, rng: Random) -> str | None:
    entry = m.adj[p]
    donor = m.adj[(p + 1 + rng.randrange(len(m.adj) - 1)) % len(m.adj)]
    if not donor.entries:
        return None
    group = rng.choice(donor.entries)
    m.adj[p] = dataclasses.replace(entry, entries=(*entry.entries, group))
    return f"{entry.province} gets {donor.province}'s group ( {group.kind.value} ... )"


def _empty_list(m: _MapLists, p: int, rng: Random) -> str | None:
    entry = m.adj[p]
    if not entry.entries:
        return None
    g = rng.randrange(len(entry.entries))
    emptied = dataclasses.replace(entry.entries[g], destinations=())
    m.adj[p] = dataclasses.replace(
        entry, entries=(*entry.entries[:g], emptied, *entry.entries[g + 1 :])
    )
    return f"{entry.province}'s {emptied.kind.value} group is empty"


def _missing_province(m: _MapLists, p: int, rng: Random) -> str:
    name = m.adj[p].province
    if name in m.non_supply:
        m.non_supply.remove(name)
    else:
        m.centres = [(owners, tuple(c for c in cs if c != name)) for owners, cs in m.centres]
    return f"{name} missing from the province lists (its neighbours still name it)"


def _centre_twice(m: _MapLists, p: int, rng: Random) -> str:
    _, listed = rng.choice([c for c in m.centres if c[1]])
    centre = rng.choice(listed)
    other = rng.randrange(len(m.centres))
    m.centres[other] = (m.centres[other][0], (*m.centres[other][1], centre))
    return f"supply centre {centre} listed twice"


def _one_sided(m: _MapLists, p: int, rng: Random) -> str | None:
    entry = m.adj[p]
    groups = [g for g in entry.entries if g.destinations]
    if not groups:
        return None
    group = rng.choice(groups)
    gone = rng.choice(group.destinations)
    kept = tuple(x for x in group.destinations if x != gone)
    shortened = dataclasses.replace(group, destinations=kept)
    m.adj[p] = dataclasses.replace(
        entry, entries=tuple(shortened if g is group else g for g in entry.entries)
    )
    return f"{entry.province} no longer lists {gone} ({gone} still lists {entry.province})"


_MAP_EDITS: dict[str, Callable[[_MapLists, int, Random], str | None]] = {
    "drop group": _drop_group,
    "drop entry": _drop_entry,
    "duplicate entry": _duplicate_entry,
    "foreign group": _foreign_group,
    "empty list": _empty_list,
    "missing province": _missing_province,
    "centre twice": _centre_twice,
    "one-sided": _one_sided,
}
"""Each change of the map's lists by its name: it returns what it did, or None when the
province it was given offers nothing to change."""

UNKNOWN_PROVINCE_MUTATION = "unknown province"
"""The change made to the MDF's tokens rather than its lists."""

MAP_MUTATIONS = (*_MAP_EDITS, UNKNOWN_PROVINCE_MUTATION)
"""The changes of a map, in the order the fuzzer draws from."""


def _places(locations: tuple[Location, ...]) -> str:
    return " ".join(str(x) for x in locations)


def mutate_now(d: Draft) -> str:
    """A phase's NOW changed, sent instead of, before or after the real one."""
    phase = d.rng.choice(d.stream.phases)
    real = d.stream.body[phase.now]
    assert isinstance(real, Now) and real.turn is not None
    game_map = d.stream.game_map
    units = list(real.units)
    turn = real.turn
    nominal = Expect.ACCEPT
    how = d.rng.choice(
        ("future", "past", "other season", "army at sea", "two units", "mrt", "lost unit", "extra")
    )
    ours = [i for i, u in enumerate(units) if u.unit.power == d.stream.power]
    if how == "future":
        turn = Turn(turn.season, min(8191, turn.year + d.rng.randint(*FUTURE_YEARS)))
    elif how == "past":
        turn = Turn(turn.season, turn.year - 1)
        nominal = Expect.ANY
    elif how == "other season":
        seasons = [s for s in Season if s is not turn.season]
        turn = Turn(d.rng.choice(seasons), turn.year)
    elif how == "army at sea":
        taken = {u.unit.province for u in units}
        seas = [p for i, p in enumerate(game_map.provinces) if game_map.kind[i] == SEA]
        sea = d.rng.choice([s for s in seas if s not in taken])
        i = d.rng.randrange(len(units))
        unit = units[i].unit
        units[i] = UnitPosition(Unit(unit.power, UnitType.ARMY, Location(sea)), units[i].retreats)
        how = f"army at sea ({unit} becomes an army in {sea})"
    elif how == "two units":
        i = d.rng.randrange(len(units))
        unit = units[i].unit
        other = next(p for p in game_map.powers if p != unit.power)
        units.insert(i + 1, UnitPosition(dataclasses.replace(unit, power=other)))
        how = f"two units in {unit.province}"
    elif how == "mrt":
        i = d.rng.randrange(len(units))
        units[i] = UnitPosition(units[i].unit, ())
        if turn.season.is_retreat:
            turn = Turn(Season.SPRING, turn.year)
        how = f"{units[i].unit} must retreat in {turn.season.value}"
    elif how == "lost unit" and ours:
        lost = units.pop(d.rng.choice(ours))
        how = f"our {lost.unit} missing"
    else:
        taken = {u.unit.province for u in units}
        free = [
            p
            for i, p in enumerate(game_map.provinces)
            if game_map.kind[i] != SEA and p not in taken and not game_map.is_supply[i]
        ]
        place = d.rng.choice(free)
        units.append(UnitPosition(Unit(d.stream.power, UnitType.ARMY, Location(place))))
        how = f"an extra army of ours in {place}"
    centres = d.stream.body[phase.sco].centres if phase.sco is not None else ()  # type: ignore[attr-defined]
    changed = Now(turn, tuple(units))
    expect = nominal if _fits(d, changed, centres) else Expect.IGNORE
    where = d.place(item_of(changed, expect), phase.now)
    return f"NOW {real.turn} ({how}) {where} the real one"


def _fits(d: Draft, now: Now, centres: object) -> bool:
    try:
        assert now.turn is not None
        Position.from_values(d.stream.game_map, now.turn, now.units, centres)  # type: ignore[arg-type]
    except (AdjudicatorError, KeyError, ValueError):
        return False
    return True


def mutate_sco(d: Draft) -> str:
    """An SCO changed, sent instead of, before or after the real one."""
    scos = [i for i, m in enumerate(d.stream.body) if isinstance(m, Sco) and m.centres]
    index = d.rng.choice(scos)
    real = d.stream.body[index]
    assert isinstance(real, Sco) and real.centres is not None
    game_map = d.stream.game_map
    centres = [(p, list(cs)) for p, cs in real.centres]
    owned = [(i, c) for i, (_, cs) in enumerate(centres) for c in cs]
    how = d.rng.choice(("owned twice", "not a centre", "swapped", "missing", "all neutral"))
    nominal = Expect.ACCEPT
    if how == "owned twice":
        i, centre = d.rng.choice(owned)
        j = d.rng.choice([k for k in range(len(centres)) if k != i])
        centres[j][1].append(centre)
        how = f"{centre} owned by {centres[i][0]} and {centres[j][0]}"
    elif how == "not a centre":
        plain = [p for i, p in enumerate(game_map.provinces) if not game_map.is_supply[i]]
        province = d.rng.choice(plain)
        j = d.rng.randrange(len(centres))
        centres[j][1].append(province)
        how = f"{province}, no supply centre, owned by {centres[j][0]}"
    elif how == "swapped":
        (i, a), (j, b) = d.rng.sample(owned, 2)
        centres[i][1][centres[i][1].index(a)] = b
        centres[j][1][centres[j][1].index(b)] = a
        how = f"{a} and {b} swap owners"
    elif how == "missing":
        i, centre = d.rng.choice(owned)
        centres[i][1].remove(centre)
        nominal = Expect.ANY
        how = f"{centre} not listed"
    else:
        everything = tuple(c for _, c in owned)
        centres = [(UNOWNED, list(everything))]
        how = "every centre neutral"
    changed = Sco(tuple((p, tuple(cs)) for p, cs in centres))
    following = next((p for p in d.stream.phases if p.now > index), d.stream.phases[-1])
    now = d.stream.body[following.now]
    assert isinstance(now, Now)
    try:
        assert now.turn is not None
        Position.from_values(game_map, now.turn, now.units, changed.centres)  # type: ignore[arg-type]
        expect = nominal
    except (AdjudicatorError, KeyError, ValueError):
        expect = Expect.IGNORE
    where = d.place(item_of(changed, expect), index)
    return f"SCO ({how}) {where} the real one"


def mutate_ord(d: Draft) -> str:
    """An ORD changed in place."""
    ords = [i for i, m in enumerate(d.stream.body) if isinstance(m, Ord) and m.entry]
    index = d.rng.choice(ords)
    real = d.stream.body[index]
    assert isinstance(real, Ord) and real.entry is not None
    entry = real.entry
    how = d.rng.choice(("absent unit", "other turn", "flipped"))
    expect = Expect.IGNORE
    if how == "absent unit":
        unit = _absent_fleet(d, entry.turn)
        changed = OrderResult(entry.turn, Hold(unit), ("SUC",))
        how = f"for {unit}, which is not on the board"
    elif how == "other turn":
        changed = dataclasses.replace(entry, turn=Turn(entry.turn.season, entry.turn.year + 3))
        how = f"for {changed.turn}"
    else:
        flipped = ("BNC",) if entry.result == ("SUC",) else ("SUC",)
        changed = dataclasses.replace(entry, result=flipped)
        expect = Expect.ANY
        how = f"result {' '.join(flipped)} instead of {' '.join(entry.result)}"
    d.steps[d.step_of(index)] = item_of(Ord(changed), expect)
    return f"ORD {entry.turn} {how}"


def _absent_fleet(d: Draft, turn: Turn) -> Unit:
    """A fleet of our power in a sea where no unit stands in the phase of ``turn``."""
    phase = next((p for p in d.stream.phases if p.turn == turn), d.stream.phases[0])
    game_map = d.stream.game_map
    taken = set(phase.position.units)
    seas = [p for p in range(game_map.num_provinces) if game_map.kind[p] == SEA and p not in taken]
    sea = game_map.provinces[d.rng.choice(seas)]
    return Unit(d.stream.power, UnitType.FLEET, Location(sea))


def mutate_hlo(d: Draft) -> str:
    """A second HLO mid-game."""
    real = d.stream.greeting
    how = d.rng.choice(("other power", "other passcode", "other limits", "observer"))
    expect = Expect.IGNORE
    if how == "other power":
        power = d.rng.choice([p for p in d.stream.game_map.powers if p != real.power])
        changed = dataclasses.replace(real, power=power)
    elif how == "other passcode":
        changed = dataclasses.replace(real, passcode=((real.passcode or 0) + 1) % 8192)
    elif how == "other limits":
        changed = dataclasses.replace(real, variant=Variant.of(0, move_time_limit=1))
        expect = Expect.ANY
    else:
        changed = Hlo("UNO", 0, real.variant)
    d.steps.insert(d.after_hlo(), item_of(changed, expect))
    return f"a second HLO ({how}): {changed}"


def mutate_mis(d: Draft) -> str:
    """A MIS nobody asked for, once the client has ordered the phase."""
    phase = d.rng.choice([p for p in d.stream.phases if not p.after_end])
    power = d.stream.power
    how = d.rng.choice(("absent unit", "other power", "wrong form", "empty"))
    expect = Expect.IGNORE
    if how == "absent unit":
        changed = Mis((UnitPosition(_absent_fleet(d, phase.turn)),))
    elif how == "other power":
        theirs = [u for u in phase.position.unit_positions() if u.unit.power != power]
        changed = Mis((d.rng.choice(theirs),))
        expect = Expect.ANY  # not about us at all: dropping it without a count is fine
    elif how == "wrong form":
        if phase.position.is_adjustment:
            changed = Mis((d.rng.choice(phase.position.unit_positions()),))
        else:
            changed = Mis(count=-2)
    else:
        changed = Mis()
        expect = Expect.ANY
    at = d.barrier_of(phase.index)
    d.steps[at:at] = [AwaitOrders(phase.index), item_of(changed, expect), Pause(REACTION)]
    return f"MIS in {phase.turn} ({how}): {changed}"


def mutate_rej(d: Draft) -> str:
    """A REJ of something the client never sent."""
    power = d.stream.power
    phase = d.rng.choice(d.stream.phases)
    refused: Message = d.rng.choice(
        (
            Iam(power, 1234),
            Nme("daide-mcts", "0.1"),
            Obs(),
            Drw(),
            Hst(phase.turn),
        )
    )
    d.steps.insert(d.after_hlo(), item_of(Rej(refused), Expect.IGNORE))
    return f"unsolicited REJ ( {refused} )"


def mutate_tme(d: Draft) -> str:
    """A TME changed, or one more."""
    clocks = [i for i, m in enumerate(d.stream.body) if is_clock(m)]
    index = d.rng.choice(clocks)
    seconds = d.rng.choice((0, 1, 8191, -5, None))
    changed: Message = Not(Tme(3)) if seconds is None else Tme(seconds)
    if d.rng.random() < 0.5:
        d.steps[d.step_of(index)] = item_of(changed, Expect.ANY)
        where = "instead of"
    else:
        d.steps.insert(d.step_of(index) + 1, item_of(changed, Expect.ANY))
        where = "after"
    return f"{changed} {where} {d.stream.body[index]}"


def mutate_foreign(d: Draft) -> str:
    """A message from another real game, after the HLO."""
    message = d.rng.choice(foreign_messages())
    expect = Expect.IGNORE if isinstance(message, Hlo) and message.power else Expect.ANY
    try:
        item = item_of(message, expect)
    except EncodeError:  # pragma: no cover - the sample game is on the standard map
        item = item_of(Yes(message), Expect.ANY)
    d.steps.insert(d.after_hlo(), item)
    return f"from another game: {label(item)}"
