"""The compiled movement resolver (``adjudicator/_fastmove.pyx``) against the Python one.

Both must give the same next position, units and dislodged units in the same
order, and the same results, dislodgements, convoy routes and adjudicated
orders, on battle-heavy random phases (10,000 of them in one test, convoys and
convoy paradoxes among them) and on every DATC movement case.  Also: the
switch, and how a stale build is told apart.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import sysconfig
import warnings
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

from adjudicator import compiled_rules as speedups
from adjudicator import compiled_sources
from adjudicator.adjustments import adjudicate_adjustments
from adjudicator.daide import load_position
from adjudicator.legal import adjustment_options
from adjudicator.maps import COASTAL, FLEET, SEA, standard_map
from adjudicator.movement import _Resolver, next_position
from adjudicator.orders import (
    BNC,
    CONVOY,
    CONVOY_MOVE,
    DSR,
    HOLD_ORDER,
    MOVE,
    NSO,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.position import Position, initial_position
from adjudicator.randomorders import battle_orders
from adjudicator.retreats import adjudicate_retreats
from adjudicator.validation import OrderBook
from protocol.notation import parse_order
from protocol.values import order_power
from tests.adjudicator.datc_cases import CASES
from tests.adjudicator.datc_format import Case
from tests.adjudicator.extra_cases import EXTRA_CASES
from tests.sources import sources_root


def _python(pos: Position, orders: dict[int, EngineOrder]) -> Position:
    return _Resolver(pos, orders).run().position


def _same(fast: Position | None, slow: Position) -> None:
    assert fast is not None
    assert list(fast.units.items()) == list(slow.units.items())
    assert list(fast.dislodged.items()) == list(slow.dislodged.items())
    assert (fast.season, fast.year, fast.owners) == (slow.season, slow.year, slow.owners)


def _random_phases(seed: int, count: int) -> list[tuple[Position, dict[int, EngineOrder]]]:
    """Battle-heavy phases of random games, with holds for the orders to convoy."""
    rng = Random(seed)
    m = standard_map()
    out = []
    pos = initial_position(m)
    while len(out) < count:
        if pos.year > 1910:
            pos = initial_position(m)
        if pos.is_movement:
            orders = battle_orders(pos, rng, convoys=0.0)
            for prov, order in orders.items():
                if order[0] == CONVOY:
                    orders[prov] = HOLD_ORDER
            out.append((pos, orders))
            pos = _python(pos, orders)
        elif pos.is_retreat:
            pos = adjudicate_retreats(pos, {}).position
        else:
            winter = {p: adjustment_options(pos, p)[:1] for p in range(m.num_powers)}
            pos = adjudicate_adjustments(pos, winter).position
    return out


def test_random_battles_give_the_same_next_position(compiled: None) -> None:
    assert speedups.MOVEMENT is not None
    dislodging = 0
    for pos, orders in _random_phases(7, 300):
        slow = _python(pos, orders)
        _same(speedups.MOVEMENT.next_position(pos, orders), slow)
        dislodging += bool(slow.dislodged)
    assert dislodging > 50


def test_the_owners_list_is_shared_until_a_centre_changes_hands(compiled: None) -> None:
    assert speedups.MOVEMENT is not None
    shared = changed = 0
    for pos, orders in _random_phases(7, 300):
        before = list(pos.owners)
        nxt = speedups.MOVEMENT.next_position(pos, orders)
        assert pos.owners == before
        assert (nxt.owners is pos.owners) == (nxt.owners == before)
        shared += nxt.owners is pos.owners
        changed += nxt.owners != before
    assert shared > 100 and changed > 20


def _quick_battles(pos: Position, rng: Random) -> dict[int, EngineOrder]:
    """Cheap battle-heavy orders: moves and holds, then supports of orders actually given.

    Now and then a support for a move that was not ordered (NSO), and a support
    naming the coast of a move into a split-coast province.
    """
    m = pos.map
    units = pos.units
    orders: dict[int, EngineOrder] = {}
    for prov, (_, utype, loc) in units.items():
        moves = m.adjacent(utype, loc)
        orders[prov] = (MOVE, rng.choice(moves)) if moves and rng.random() < 0.6 else HOLD_ORDER
    provinces = list(units)
    for prov, (_, utype, loc) in units.items():
        if rng.random() < 0.4:
            continue
        reach = m.reach(utype, loc)
        for other in rng.sample(provinces, min(4, len(provinces))):
            given = orders[other]
            if other == prov or given[0] not in (MOVE, HOLD_ORDER[0]):
                continue
            if given[0] == MOVE:
                into = m.loc_province[given[1]]
                if into in reach and into != prov:
                    split = len(m.fleet_locations[into]) > 1
                    coast = (given[1],) if split and rng.random() < 0.5 else ()
                    orders[prov] = (SUPPORT_MOVE, other, into, *coast)
                    break
            elif other in reach:
                orders[prov] = (SUPPORT_HOLD, other)
                break
    return orders


def _add_convoys(pos: Position, orders: dict[int, EngineOrder], rng: Random) -> None:
    """Convoy an army or two along chains of fleets, often into a convoy paradox.

    The army names its route, or none (any route), or, into an adjacent
    province, moves as if by land (DATC 4.A.3 d); now and then another fleet
    convoys it too (a second route).  A fleet of the route is attacked with
    support.  For a paradox, the army is convoyed at a foreign fleet next to
    its convoying fleet, and that fleet gives the support: the army's attack
    on the supporter then depends on the convoy the support would break.
    """
    m = pos.map
    units = pos.units
    fleets_at_sea = [p for p, u in units.items() if u[1] == FLEET and m.kind[p] == SEA]
    armies = [p for p, u in units.items() if u[1] != FLEET and m.kind[p] == COASTAL]
    paradoxes = [
        (army, fleet, dest)
        for fleet in fleets_at_sea
        for army in m.neighbours[fleet]
        if army in armies
        for dest in m.neighbours[fleet]
        if (u := units.get(dest)) is not None and u[1] == FLEET and u[0] != units[army][0]
    ]
    for _ in range(2):
        if paradoxes and rng.random() < 0.5:
            army, fleet, dest = rng.choice(paradoxes)
            route = [fleet]
        else:
            army = rng.choice(armies) if armies else -1
            route = [f for f in m.neighbours[army] if f in fleets_at_sea] if army >= 0 else []
            if not route:
                continue
            route = [rng.choice(route)]
            while rng.random() < 0.5:
                onward = [f for f in m.neighbours[route[-1]] if f in fleets_at_sea]
                onward = [f for f in onward if f not in route]
                if not onward:
                    break
                route.append(rng.choice(onward))
            shores = [d for d in m.neighbours[route[-1]] if m.kind[d] == COASTAL and d != army]
            if not shores:
                continue
            dest = rng.choice(shores)
        roll = rng.random()
        if roll < 0.2 and dest in m.army_adjacent[army]:
            orders[army] = (MOVE, dest)
        else:
            orders[army] = (CONVOY_MOVE, dest, () if roll < 0.45 else tuple(route))
        extra = [f for f in fleets_at_sea if f not in route and rng.random() < 0.15]
        for fleet in route + extra:
            orders[fleet] = (CONVOY, army, dest)
        _attack_with_support(pos, orders, rng, rng.choice(route), (army, dest, *route))


def _attack_with_support(
    pos: Position, orders: dict[int, EngineOrder], rng: Random, fleet: int, spare: tuple[int, ...]
) -> None:
    """A foreign fleet attacks ``fleet``, supported (from ``spare[1]`` when it can).

    The units in ``spare`` do not attack; the first two (a convoyed army and its
    destination) do not support either, but the destination's unit does, mostly,
    when it can reach ``fleet``.
    """
    m = pos.map
    units = pos.units
    owner = units[fleet][0]
    attackers = [
        (p, loc)
        for p, (power, utype, at) in units.items()
        if utype == FLEET and power != owner and p not in spare
        for loc in m.fleet_adjacent[at]
        if m.loc_province[loc] == fleet
    ]
    if not attackers:
        return
    attacker, loc = rng.choice(attackers)
    orders[attacker] = (MOVE, loc)
    supporters = [
        p
        for p, (power, utype, at) in units.items()
        if power != owner
        and p not in (attacker, spare[0], *spare[2:])
        and fleet in m.reach(utype, at)
    ]
    dest = spare[1]
    if supporters:
        chosen = dest if dest in supporters and rng.random() < 0.8 else rng.choice(supporters)
        orders[chosen] = (SUPPORT_MOVE, attacker, fleet)


RANDOM_CORPUS = 10_000
"""Phases in the big comparison: about 4 s, mostly the pure resolver's."""


def test_ten_thousand_random_phases_adjudicate_alike(compiled: None) -> None:
    """Full results and next positions, compiled against pure, on 10,000 random game phases.

    Half of them have convoys; some of those convoy paradoxes (the Szykman rule).
    """
    assert speedups.MOVEMENT is not None
    rng = Random(2026)
    start = initial_position(standard_map())
    pos = start
    done = dislodging = standoffs = convoyed = disrupted = paradoxes = 0
    while done < RANDOM_CORPUS:
        if pos.year > 1915:
            pos = start.copy()
        if not pos.is_movement:
            pos = _next_phase(pos)
            continue
        orders = _quick_battles(pos, rng)
        if rng.random() < 0.5:
            _add_convoys(pos, orders, rng)
        resolver = _Resolver(pos, orders)
        slow = resolver.run()
        fast = speedups.MOVEMENT.adjudicate(pos, orders)
        assert fast is not None
        assert list(fast.results.items()) == list(slow.results.items())
        assert list(fast.orders.items()) == list(slow.orders.items())
        assert list(fast.dislodged.items()) == list(slow.dislodged.items())
        assert list(fast.routes.items()) == list(slow.routes.items())
        _same(fast.position, slow.position)
        _same(speedups.MOVEMENT.next_position(pos, orders), slow.position)
        done += 1
        dislodging += bool(slow.dislodged)
        standoffs += BNC in slow.results.values()
        convoyed += bool(slow.routes)
        disrupted += DSR in slow.results.values()
        paradoxes += any(resolver.paradox)
        pos = slow.position
    assert dislodging > RANDOM_CORPUS // 20
    assert standoffs > RANDOM_CORPUS // 2
    assert convoyed > RANDOM_CORPUS // 5
    assert disrupted > RANDOM_CORPUS // 100
    assert paradoxes > RANDOM_CORPUS // 100


def _next_phase(pos: Position) -> Position:
    if pos.is_retreat:
        return adjudicate_retreats(pos, {}).position
    winter = {p: adjustment_options(pos, p)[:1] for p in range(pos.map.num_powers)}
    return adjudicate_adjustments(pos, winter).position


@pytest.mark.parametrize("case", CASES + EXTRA_CASES, ids=[c.id for c in CASES + EXTRA_CASES])
def test_datc_movement_cases_give_the_same_next_position(compiled: None, case: Case) -> None:
    assert speedups.MOVEMENT is not None
    units = " ".join(f"( {u} )" for u in case.units)
    pos = load_position(f"NOW ( {case.turn} ) {units}", f"SCO {case.centres}")
    if not pos.is_movement:
        return
    book = OrderBook(pos)
    for text in case.steps[0].orders:
        order = parse_order(text)
        book.submit(order_power(order), order)
    orders = book.unit_orders()
    _same(speedups.MOVEMENT.next_position(pos, orders), _python(pos, orders))
    done = speedups.MOVEMENT.adjudicate(pos, orders)
    slow = _Resolver(pos, orders).run()
    assert done is not None
    assert list(done.results.items()) == list(slow.results.items())
    assert list(done.dislodged.items()) == list(slow.dislodged.items())
    assert list(done.orders.items()) == list(slow.orders.items())
    assert list(done.routes.items()) == list(slow.routes.items())
    _same(next_position(pos, orders), _python(pos, orders))


def test_the_datc_convoy_cases_run_compiled(compiled: None) -> None:
    """Every DATC case with a convoy order is the compiled resolver's, none left to Python."""
    assert speedups.MOVEMENT is not None
    convoy_cases = 0
    for case in CASES + EXTRA_CASES:
        units = " ".join(f"( {u} )" for u in case.units)
        pos = load_position(f"NOW ( {case.turn} ) {units}", f"SCO {case.centres}")
        if not pos.is_movement:
            continue
        book = OrderBook(pos)
        for text in case.steps[0].orders:
            order = parse_order(text)
            book.submit(order_power(order), order)
        orders = book.unit_orders()
        if any(o[0] in (CONVOY, CONVOY_MOVE) for o in orders.values()):
            assert speedups.MOVEMENT.adjudicate(pos, orders) is not None
            convoy_cases += 1
    assert convoy_cases > 50


def test_convoy_orders_are_the_compiled_resolvers(compiled: None) -> None:
    """The benchmark's convoys (battle_orders): compiled, the same as in Python."""
    assert speedups.MOVEMENT is not None
    rng = Random(3)
    seen = 0
    for pos, _ in _random_phases(8, 200):
        orders = battle_orders(pos, rng, convoys=1.0)
        if not any(o[0] == CONVOY for o in orders.values()):
            continue
        slow = _Resolver(pos, orders).run()
        fast = speedups.MOVEMENT.adjudicate(pos, orders)
        assert fast is not None
        assert list(fast.results.items()) == list(slow.results.items())
        assert list(fast.routes.items()) == list(slow.routes.items())
        _same(speedups.MOVEMENT.next_position(pos, orders), slow.position)
        _same(next_position(pos, orders), slow.position)
        seen += 1
    assert seen > 20


UNREADABLE_ORDERS = [
    (MOVE, 999),
    (MOVE,),
    (),
    (SUPPORT_HOLD, -1),
    (SUPPORT_MOVE, 3),
    (CONVOY, 999, 3),
    (CONVOY_MOVE, 3, [1, 2]),
    (CONVOY_MOVE, 3, (999,)),
    (CONVOY_MOVE, 1 << 40, ()),
    (42,),
    [MOVE, 3],
    ("x",),
    (None,),
    (1 << 70,),
    (MOVE, 1 << 70),
    (MOVE, None),
    (SUPPORT_HOLD, 3.0),
    (SUPPORT_MOVE, 3, "x"),
    (SUPPORT_MOVE, 3, 4, None),
    (CONVOY_MOVE, 3, (None,)),
]
"""Orders the compiled resolver cannot read: places the map lacks, wrong shapes, no such kind,
items that are not ints or do not fit a C long."""


@pytest.mark.parametrize("bad", UNREADABLE_ORDERS, ids=[repr(o) for o in UNREADABLE_ORDERS])
def test_orders_it_cannot_read_go_to_the_python_resolver(compiled: None, bad: EngineOrder) -> None:
    assert speedups.MOVEMENT is not None
    pos = initial_position(standard_map())
    orders: dict[int, EngineOrder] = {p: HOLD_ORDER for p in pos.units}
    orders[next(iter(pos.units))] = bad
    assert speedups.MOVEMENT.adjudicate(pos, orders) is None
    assert speedups.MOVEMENT.next_position(pos, orders) is None


class _Int(int):
    """An int that is not a plain one: reading it may run Python code."""


@pytest.mark.parametrize("field", [0, 1, 2, 3], ids=["power", "type", "location", "key"])
def test_units_it_cannot_read_go_to_the_python_resolver(compiled: None, field: int) -> None:
    assert speedups.MOVEMENT is not None
    pos = initial_position(standard_map())
    prov, unit = next(iter(pos.units.items()))
    units = dict(pos.units)
    if field == 3:
        del units[prov]
        units[_Int(prov)] = unit
    else:
        units[prov] = tuple(_Int(v) if i == field else v for i, v in enumerate(unit))
    odd = pos.copy()
    odd.units = units
    orders: dict[int, EngineOrder] = {p: HOLD_ORDER for p in pos.units}
    assert speedups.MOVEMENT.adjudicate(odd, orders) is None
    assert speedups.MOVEMENT.next_position(odd, orders) is None
    assert next_position(odd, orders) == next_position(pos, orders)


def test_orders_it_can_read_but_python_ignores_are_ignored_alike(compiled: None) -> None:
    """Orders for empty provinces (even outside the map), and supports naming a coast the
    map lacks (they match no move): the same results as in Python."""
    assert speedups.MOVEMENT is not None
    rng = Random(11)
    unmatched = 0
    for pos, _ in _random_phases(12, 100):
        orders = _quick_battles(pos, rng)
        no_coast = [p for p, o in orders.items() if o[0] == SUPPORT_MOVE and rng.random() < 0.5]
        for prov in no_coast:
            orders[prov] = (*orders[prov][:3], pos.map.num_locations + rng.randrange(3))
        empty = [p for p in range(pos.map.num_provinces) if p not in pos.units]
        orders[rng.choice(empty)] = (MOVE, 999)
        orders[-1] = (MOVE, 999)
        orders[1 << 70] = ()
        slow = _Resolver(pos, orders).run()
        fast = speedups.MOVEMENT.adjudicate(pos, orders)
        assert fast is not None
        assert list(fast.results.items()) == list(slow.results.items())
        assert list(fast.orders.items()) == list(slow.orders.items())
        _same(fast.position, slow.position)
        unmatched += sum(slow.results[p] == NSO for p in no_coast)
    assert unmatched > 50


def test_the_switch_turns_the_compiled_resolver_off(compiled: None) -> None:
    assert speedups.fast_movement() is speedups.MOVEMENT is not None
    with speedups.pure_python():
        assert speedups.fast_movement() is None
        assert not speedups.enabled()
    assert speedups.enabled()


def test_a_build_from_an_older_source_is_told_apart(tmp_path: Path) -> None:
    source = tmp_path / "_fake.pyx"
    source.write_text("# version 1\n")
    module = ModuleType("pkg._fake")
    module.__file__ = str(tmp_path / "_fake.cpython-311-x86_64-linux-gnu.so")
    module.SOURCE_HASH = hashlib.sha256(b"# version 1\n").hexdigest()  # type: ignore[attr-defined]
    assert speedups.source_of(module) == source
    assert speedups.is_current(module)
    source.write_text("# version 2\n")
    assert not speedups.is_current(module)
    source.unlink()
    assert speedups.is_current(module)  # an installed wheel ships no source to compare


def test_a_changed_pxd_makes_the_builds_with_it_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    source = package / "_fake.pyx"
    declarations = package / "_other.pxd"
    source.write_text("from pkg._other cimport thing\n")
    declarations.write_text("cdef int thing\n")
    monkeypatch.setitem(compiled_sources.DECLARATIONS, "pkg._fake", ("pkg/_other.pxd",))
    module = ModuleType("pkg._fake")
    module.__file__ = str(package / "_fake.cpython-311-x86_64-linux-gnu.so")
    module.SOURCE_HASH = compiled_sources.digest([source, declarations])  # type: ignore[attr-defined]
    assert speedups.built_from(module) == [source, declarations]
    assert speedups.is_current(module)
    declarations.write_text("cdef long thing\n")
    assert not speedups.is_current(module)
    declarations.unlink()
    assert speedups.is_current(module)  # an installed wheel ships no source to compare


_CIMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+cimport|cimport\s+([\w.]+))", re.MULTILINE)
_INCLUDE = re.compile(r'^cdef extern from "([\w.]+\.h)"', re.MULTILINE)


SHIPPED_SOURCES = (".pyx", ".pxd", ".c", ".h")
"""Suffixes of the files a build is made from: none of them is in an installed wheel."""


def _installed(module: ModuleType) -> bool:
    """Whether ``module`` was imported from an installed package (site-packages), not a
    checkout (an editable install or ``build_ext --inplace`` builds beside the sources)."""
    assert module.__file__ is not None
    where = Path(module.__file__).resolve()
    folders = {Path(sysconfig.get_path(kind)).resolve() for kind in ("platlib", "purelib")}
    return any(where.is_relative_to(folder) for folder in folders)


@pytest.mark.parametrize("name", speedups.EXTENSIONS)
def test_each_build_is_compiled_current_and_used(name: str) -> None:
    """In a checkout and in an installed package alike: a compiled module that loads."""
    module = importlib.import_module(name)
    assert isinstance(module.__loader__, ExtensionFileLoader), module.__file__
    assert re.fullmatch(r"[0-9a-f]{64}", module.SOURCE_HASH)
    assert speedups.is_current(module)
    assert speedups.load(name) is module


@pytest.mark.parametrize("name", speedups.EXTENSIONS)
def test_an_installed_build_ships_no_sources(name: str) -> None:
    """A wheel holds the compiled module, not what it was built from (pyproject.toml's
    exclude-package-data), but for the ``.py`` of a module built in Cython's pure Python
    mode: the Python that runs where it is not built; in a checkout the sources are beside
    it."""
    module = importlib.import_module(name)
    assert module.__file__ is not None
    beside = sorted(p.name for p in Path(module.__file__).parent.iterdir())
    sources = [n for n in beside if n.endswith(SHIPPED_SOURCES)]
    source = speedups.source_of(module)
    if _installed(module):
        assert sources == []
        shipped = [source] if name in compiled_sources.PURE_MODE else []
        assert [path for path in speedups.built_from(module) if path.exists()] == shipped
    else:
        assert source.is_file()


@pytest.mark.parametrize("name", speedups.EXTENSIONS)
def test_each_build_is_hashed_with_its_pxd_files(name: str) -> None:
    """Its own .pxd and those of the project's modules it cimports, then the C headers they
    include (beside the .pyx); the build is of the sources as they are (in a checkout, the
    files it says it is built from)."""
    root = sources_root(name)
    text = (root / compiled_sources.source(name)).read_text()
    cimported = {first or second for first, second in _CIMPORT.findall(text)}
    wanted = {
        path
        for path in (f"{module.replace('.', '/')}.pxd" for module in cimported | {name})
        if (root / path).exists()
    }
    assert set(compiled_sources.DECLARATIONS[name]) == wanted
    folder = Path(compiled_sources.source(name)).parent
    headers = {
        (folder / header).as_posix()
        for path in [compiled_sources.source(name), *wanted]
        for header in _INCLUDE.findall((root / path).read_text())
        if (root / folder / header).exists()  # the project's own, not Python.h
    }
    assert set(compiled_sources.HEADERS.get(name, ())) == headers
    module = importlib.import_module(name)
    files = [
        root / compiled_sources.source(name),
        *(root / p for p in sorted(wanted)),
        *(root / p for p in sorted(headers)),
    ]
    if not _installed(module):
        assert speedups.built_from(module) == files
    assert compiled_sources.digest(files) == module.SOURCE_HASH


def test_a_build_whose_rooms_changed_under_it_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A compiled module whose cimported C types are not those it was built with (a room
    rebuilt alone, or not built: the per-map cache then runs as Python) fails to import with
    Cython's ValueError: pure Python runs, and a warning says why."""
    mismatch = "adjudicator.per_map.PerMap size changed, may indicate binary incompatibility"

    def import_module(name: str) -> ModuleType:
        raise ValueError(mismatch)

    monkeypatch.setattr(speedups.importlib, "import_module", import_module)
    with pytest.warns(speedups.StaleExtensionWarning, match="PerMap size changed"):
        assert speedups.load("adjudicator._fastlegal") is None


def test_a_missing_build_is_told_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled modules the bot plays in pure Python and says so once."""
    monkeypatch.setattr(speedups, "_told_not_compiled", False)
    with pytest.warns(speedups.NotCompiledWarning, match="running pure Python"):
        assert speedups.load("adjudicator._not_built") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert speedups.load("search._not_built_either") is None


def test_no_word_when_pure_python_was_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speedups, "_told_not_compiled", False)
    with speedups.pure_python(), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert speedups.load("adjudicator._not_built") is None


def test_owners_that_do_not_fit_the_map_are_refused(compiled: None) -> None:
    assert speedups.MOVEMENT is not None
    pos = initial_position(standard_map())
    pos.owners = pos.owners[:10]
    with pytest.raises(ValueError, match="owners on a map of 75 provinces"):
        speedups.MOVEMENT.next_position(pos, {})
