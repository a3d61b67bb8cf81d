"""Adjudication of a movement phase.

The resolver follows Lucas Kruijswijk's algorithm ("The Math of
Adjudication"): every ordered unit has one yes/no decision — a move
succeeds, a support is given, a convoying fleet is not dislodged — computed by
:meth:`_Resolver.resolve`, which guesses when it meets a dependency cycle and
checks the guess.  A cycle with one consistent answer is resolved; one with
zero or two answers goes to the backup rule:

* a cycle of moves only is *circular movement*: every move in it succeeds;
* a cycle that involves a convoy is a *convoy paradox*, settled by the
  Szykman rule, as Parlance does (DATC 4.A.2 option d): each convoyed army in
  the paradox does not move and has no effect (it neither cuts supports nor
  prevents other moves); its convoy fleets are judged normally;
* anything else (impossible on the standard map) fails every move and support
  in the cycle, Parlance's fallback.

The other rule choices are Parlance's defaults, which are also the DATC's
preferences: a convoy is disrupted only when every route is (4.A.1 b); an
army ordered to move to an adjacent province goes by convoy when a fleet of
its own power convoys it there (4.A.3 d); an attack via convoy on the unit a
support is directed at does not cut that support unless it dislodges the
supporter (4.A.4 a); a unit dislodged by a convoyed army may retreat to the
army's origin (4.A.5 b); head-to-head battles between a unit moving by land and
one moving by convoy do not happen (the two may swap).  Which orders reach the
resolver at all (a convoy order from a fleet on any route counts, DATC 6.G.19)
is decided by :mod:`adjudicator.validation`.
"""

from __future__ import annotations

from adjudicator import compiled_rules as speedups
from adjudicator.maps import ARMY, SEA
from adjudicator.orders import (
    BNC,
    CONVOY,
    CONVOY_MOVE,
    CUT,
    DSR,
    HOLD_ORDER,
    MOVE,
    NSO,
    SUC,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    EngineOrder,
)
from adjudicator.phases import after_movement
from adjudicator.position import Position
from adjudicator.routes import is_sea_chain, sea_chains

_UNRESOLVED = 0
_GUESSING = 1
_RESOLVED = 2
_NO_GUESS = 1 << 30


class MovementResult:
    """What a movement phase did, in engine form.

    ``results[p]`` is the result code (SUC, BNC, CUT, DSR, NSO) of the unit that
    started in province ``p``; ``dislodged[p]`` is the origin province of the
    unit that dislodged it; ``routes[p]`` is the convoy route an army used or
    tried (fleet provinces), when it moved by convoy; ``orders`` are the orders
    as adjudicated (defaults filled in); ``position`` is the next phase.
    """

    __slots__ = ("dislodged", "orders", "position", "results", "routes")

    def __init__(
        self,
        position: Position,
        orders: dict[int, EngineOrder],
        results: dict[int, int],
        dislodged: dict[int, int],
        routes: dict[int, tuple[int, ...]],
    ) -> None:
        self.position = position
        self.orders = orders
        self.results = results
        self.dislodged = dislodged
        self.routes = routes


def adjudicate_movement(position: Position, orders: dict[int, EngineOrder]) -> MovementResult:
    """Adjudicate a movement phase; ``orders`` maps unit provinces to engine orders.

    Units without an order hold.  Returns the results and the position of the
    next phase that needs orders (retreats, adjustments, or the next movement).
    Compiled when it can be (see :mod:`adjudicator.compiled_rules`; then the
    owners list is shared as :func:`next_position`'s is).
    """
    fast = speedups.fast_movement()
    if fast is not None:
        done: MovementResult | None = fast.adjudicate(position, orders)
        if done is not None:
            return done
    return _Resolver(position, orders).run()


def next_position(position: Position, orders: dict[int, EngineOrder]) -> Position:
    """The position after a movement phase (the fast path the search uses).

    Compiled when it can be (see :mod:`adjudicator.compiled_rules`); then the
    next position's owners list is ``position``'s own when no centre changed
    hands (positions are not changed in place: the phases change a copy).
    """
    fast = speedups.fast_movement()
    if fast is not None:
        nxt: Position | None = fast.next_position(position, orders)
        if nxt is not None:
            return nxt
    return _Resolver(position, orders).run().position


if speedups.MOVEMENT is not None:
    speedups.MOVEMENT.bind(MovementResult)


class _Resolver:
    """One movement phase's decisions; all tables indexed by province id."""

    __slots__ = (
        "attackers",
        "cycle",
        "dst",
        "dst_loc",
        "h2h",
        "into",
        "kind",
        "low",
        "matched",
        "next_serial",
        "orders",
        "paradox",
        "pos",
        "power",
        "res",
        "routes",
        "serial",
        "state",
        "sups",
        "units",
    )

    def __init__(self, pos: Position, orders: dict[int, EngineOrder]) -> None:
        # Stays whole: one pass over the orders fills the resolver's tables in the order the
        # rules read them (moves, then supports and convoys that refer to them); it runs once
        # per adjudicated phase, where a call per step would cost.
        m = pos.map
        n = m.num_provinces
        units = pos.units
        self.pos = pos
        self.units = units
        kind = [-1] * n
        power = [-1] * n
        dst = [-1] * n
        dst_loc = [-1] * n
        into = [-1] * n
        self.kind = kind
        self.power = power
        self.dst = dst
        self.dst_loc = dst_loc
        self.into = into
        self.h2h = [-1] * n
        self.matched = [False] * n
        self.routes: list[list[tuple[int, ...]] | None] = [None] * n
        self.paradox = [False] * n
        self.state = [_UNRESOLVED] * n
        self.res = [False] * n
        self.sups: list[list[int]] = [[] for _ in range(n)]
        self.attackers: dict[int, list[int]] = {}
        self.cycle: list[int] = []
        self.serial = [0] * n
        self.next_serial = 0
        self.low = _NO_GUESS
        full: dict[int, EngineOrder] = {}
        self.orders = full

        convoys: list[int] = []
        supports: list[int] = []
        movers: list[int] = []
        loc_province = m.loc_province
        for p, unit in units.items():
            order = orders.get(p, HOLD_ORDER)
            full[p] = order
            k = order[0]
            kind[p] = k
            power[p] = unit[0]
            if k == MOVE:
                dst_loc[p] = order[1]
                dst[p] = loc_province[order[1]]
                movers.append(p)
            elif k == CONVOY_MOVE:
                dst[p] = order[1]
                dst_loc[p] = order[1]
                movers.append(p)
            elif k == SUPPORT_MOVE:
                into[p] = order[2]
                supports.append(p)
            elif k == SUPPORT_HOLD:
                into[p] = order[1]
                supports.append(p)
            elif k == CONVOY:
                into[p] = order[2]
                convoys.append(p)

        # Which convoy orders are matched by their army, and the routes armies may use.
        for f in convoys:
            a = full[f][1]
            ak = kind[a]
            if (ak == CONVOY_MOVE or ak == MOVE) and dst[a] == into[f] and units[a][1] == ARMY:
                self.matched[f] = True
        for p in movers:
            if kind[p] == CONVOY_MOVE:
                self.routes[p] = self._find_routes(p, full[p][2])
            elif convoys and units[p][1] == ARMY and m.kind[dst[p]] != 0:  # intent needs a CVY
                self._maybe_convoy_by_intent(p)

        attackers = self.attackers
        for p in movers:
            d = dst[p]
            lst = attackers.get(d)
            if lst is None:
                attackers[d] = [p]
            else:
                lst.append(p)
            # Head to head: two units moving into each other's provinces, both by land.
            if (
                self.routes[p] is None
                and kind[d] in (MOVE, CONVOY_MOVE)
                and dst[d] == p
                and self.routes[d] is None
            ):
                self.h2h[p] = d

        sups = self.sups
        for s in supports:
            t = full[s][1]
            tk = kind[t]
            if kind[s] == SUPPORT_MOVE:
                ok = (tk == MOVE or tk == CONVOY_MOVE) and dst[t] == into[s]
                if ok and len(full[s]) > 3:
                    ok = dst_loc[t] == full[s][3]
            else:
                ok = tk >= 0 and tk != MOVE and tk != CONVOY_MOVE and t != s
            if ok:
                self.matched[s] = True
                sups[t].append(s)

    # --- convoy routes ----------------------------------------------------------------

    def _find_routes(self, army: int, path: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Routes of fleets convoying ``army`` to its destination (shortest first)."""
        m = self.pos.map
        dest = self.dst[army]
        convoying = (
            [
                f
                for f in range(m.num_provinces)
                if self.kind[f] == CONVOY and self.matched[f] and self.orders[f][1] == army
            ]
            if not path
            else list(path)
        )
        if path:
            ok = all(
                self.kind[f] == CONVOY and self.matched[f] and self.orders[f][1] == army
                for f in path
            )
            if not ok or not is_sea_chain(m, army, dest, path):
                return []
            return [tuple(path)]
        seas = {f for f in convoying if m.kind[f] == SEA}
        return sea_chains(m, army, dest, seas)

    def _maybe_convoy_by_intent(self, p: int) -> None:
        """Apply DATC 4.A.3 d to an army moving to an adjacent province.

        It goes by convoy if a fleet of its own power convoys it there and a
        complete route exists.
        """
        own = False
        any_convoy = False
        for f, order in self.orders.items():
            if self.kind[f] == CONVOY and self.matched[f] and order[1] == p:
                any_convoy = True
                if self.power[f] == self.power[p]:
                    own = True
        if not (any_convoy and own):
            return
        routes = self._find_routes(p, ())
        if routes:
            self.routes[p] = routes

    # --- the decisions ------------------------------------------------------------------

    def resolve(self, p: int) -> bool:
        """Kruijswijk's resolve: the decision of the unit in ``p``, guessing in cycles.

        Each guess gets a serial number; ``self.low`` carries the lowest serial
        of any guess consulted while adjudicating, so a decision that read an
        *older* guess (even one already on the cycle list) stays provisional
        and is redone when that guess is settled.
        """
        # Stays whole: the algorithm's states and its backup rule read as one unit, as in
        # Kruijswijk's description; split, the guess serials would cross function lines.
        state = self.state[p]
        if state == _RESOLVED:
            return self.res[p]
        cycle = self.cycle
        if state == _GUESSING:
            if self.serial[p] < self.low:
                self.low = self.serial[p]
            if p not in cycle:
                cycle.append(p)
            return self.res[p]
        serial = self.next_serial
        self.next_serial = serial + 1
        self.serial[p] = serial
        outer_low = self.low
        old = len(cycle)
        self.low = _NO_GUESS
        self.res[p] = False
        self.state[p] = _GUESSING
        first = self._adjudicate(p)
        low = self.low
        if low == _NO_GUESS:
            if self.state[p] != _RESOLVED:
                self.res[p] = first
                self.state[p] = _RESOLVED
            self.low = outer_low
            return first
        if low < serial:
            # Depends on an older guess: provisional until that one is settled.
            if p not in cycle:
                cycle.append(p)
            self.res[p] = first
            self.low = min(outer_low, low)
            return first
        # Only our own guess was read: try the other one.
        for q in cycle[old:]:
            self.state[q] = _UNRESOLVED
        del cycle[old:]
        self.res[p] = True
        self.state[p] = _GUESSING
        self.low = _NO_GUESS
        second = self._adjudicate(p)
        low = self.low
        if low < serial:
            if p not in cycle:
                cycle.append(p)
            self.res[p] = second
            self.low = min(outer_low, low)
            return second
        if first == second:
            for q in cycle[old:]:
                self.state[q] = _UNRESOLVED
            del cycle[old:]
            self.res[p] = first
            self.state[p] = _RESOLVED
            self.low = outer_low
            return first
        if p not in cycle[old:]:
            cycle.append(p)
        self._backup_rule(old)
        self.low = outer_low
        return self.resolve(p)

    def _adjudicate(self, p: int) -> bool:
        k = self.kind[p]
        if k == MOVE or k == CONVOY_MOVE:
            return self._move_succeeds(p)
        if k == SUPPORT_MOVE or k == SUPPORT_HOLD:
            return self._support_given(p)
        # convoying fleet (or any other unit): not dislodged
        for q in self.attackers.get(p, ()):
            if self.resolve(q):
                return False
        return True

    def _path(self, p: int) -> bool:
        """Whether a convoyed army has an undisrupted route (not for land moves)."""
        routes = self.routes[p]
        if not routes:
            return False
        resolve = self.resolve
        for route in routes:
            for f in route:
                if not resolve(f):
                    break
            else:
                return True
        return False

    def _count(self, sups: list[int], exclude_power: int = -1) -> int:
        n = 0
        for s in sups:
            if self.power[s] != exclude_power and self.resolve(s):
                n += 1
        return n

    def _attack(self, p: int) -> int:
        if self.routes[p] is not None and (self.paradox[p] or not self._path(p)):
            return 0
        d = self.dst[p]
        occupant = self.units.get(d)
        if occupant is None:
            return 1 + self._count(self.sups[p])
        dk = self.kind[d]
        if (dk == MOVE or dk == CONVOY_MOVE) and self.h2h[p] < 0 and self.resolve(d):
            return 1 + self._count(self.sups[p])
        if occupant[0] == self.power[p]:
            return 0
        return 1 + self._count(self.sups[p], occupant[0])

    def _hold(self, d: int) -> int:
        if d not in self.units:
            return 0
        dk = self.kind[d]
        if dk == MOVE or dk == CONVOY_MOVE:
            return 0 if self.resolve(d) else 1
        return 1 + self._count(self.sups[d])

    def _prevent(self, q: int) -> int:
        if self.routes[q] is not None and (self.paradox[q] or not self._path(q)):
            return 0
        opponent = self.h2h[q]
        if opponent >= 0 and self.resolve(opponent):
            return 0
        return 1 + self._count(self.sups[q])

    def _move_succeeds(self, p: int) -> bool:
        attack = self._attack(p)
        if attack == 0:
            return False
        d = self.dst[p]
        if self.h2h[p] >= 0:
            if attack <= 1 + self._count(self.sups[d]):
                return False
        elif attack <= self._hold(d):
            return False
        for q in self.attackers[d]:
            if q != p and attack <= self._prevent(q):
                return False
        return True

    def _support_given(self, p: int) -> bool:
        if not self.matched[p]:
            return False
        attackers = self.attackers.get(p)
        if not attackers:
            return True
        into = self.into[p]
        pw = self.power[p]
        for q in attackers:
            if q == into or self.power[q] == pw:
                continue
            if self.routes[q] is not None and (self.paradox[q] or not self._path(q)):
                continue
            return False
        for q in attackers:
            if self.power[q] != pw and self.resolve(q):
                return False
        return True

    def _backup_rule(self, old: int) -> None:
        """Settle a cycle with no single consistent answer (see the module docstring)."""
        members = self.cycle[old:]
        del self.cycle[old:]
        for q in members:
            self.state[q] = _UNRESOLVED
        convoy_fleets = {q for q in members if self.kind[q] == CONVOY}
        held = [
            a
            for a in range(len(self.kind))
            if self.routes[a] is not None
            and not self.paradox[a]
            and (a in members or any(f in convoy_fleets for r in self.routes[a] or () for f in r))
        ]
        if convoy_fleets and held:
            for a in held:
                self.paradox[a] = True
                self.res[a] = False
                self.state[a] = _RESOLVED
            return
        if all(self.kind[q] in (MOVE, CONVOY_MOVE) for q in members):
            for q in members:
                self.res[q] = True
                self.state[q] = _RESOLVED
            return
        for q in members:
            self.res[q] = False
            self.state[q] = _RESOLVED

    # --- results and the next position ------------------------------------------------------

    def run(self) -> MovementResult:
        """Resolve every decision and build the next position."""
        # Stays whole: the decisions, then the position built from them in one pass over
        # the units (the hot path of adjudication).
        pos = self.pos
        m = pos.map
        units = self.units
        kind = self.kind
        resolve = self.resolve
        for p in units:
            resolve(p)

        results: dict[int, int] = {}
        routes_used: dict[int, tuple[int, ...]] = {}
        dislodged: dict[int, int] = {}
        moved: list[int] = []
        for p in units:
            k = kind[p]
            if k == MOVE or k == CONVOY_MOVE:
                routes = self.routes[p]
                if routes is None:
                    ok = True
                elif not routes:
                    results[p] = NSO
                    continue
                else:
                    ok = self._path_and_route(p, routes, routes_used)
                if not ok:
                    results[p] = DSR
                elif self.res[p]:
                    results[p] = SUC
                    moved.append(p)
                else:
                    results[p] = BNC
            elif k == SUPPORT_MOVE or k == SUPPORT_HOLD:
                results[p] = (SUC if self.res[p] else CUT) if self.matched[p] else NSO
            elif k == CONVOY:
                results[p] = NSO  # filled in below for fleets on their army's route
            else:
                results[p] = SUC
        for a, route in routes_used.items():
            for f in route:
                results[f] = results[a]
        moved_set = set(moved)
        for p in units:
            if p in moved_set:
                continue
            for q in self.attackers.get(p, ()):
                if q in moved_set:
                    dislodged[p] = q
                    break

        # The next position.
        new_units = {p: u for p, u in units.items() if p not in moved_set and p not in dislodged}
        for p in moved:
            power, utype, _ = units[p]
            loc = self.dst_loc[p] if kind[p] == MOVE else self.dst[p]
            new_units[self.dst[p]] = (power, utype, loc)
        new_dislodged = {}
        if dislodged:
            contested = {self.dst[q] for q in self._movers() if self._prevent(q) > 0}
            for p, q in dislodged.items():
                power, utype, loc = units[p]
                by_convoy = self.routes[q] is not None
                options = tuple(
                    r
                    for r in m.adjacent(utype, loc)
                    if (prov := m.loc_province[r]) not in new_units
                    and prov not in contested
                    and (by_convoy or prov != q)
                )
                new_dislodged[p] = (power, utype, loc, options)
        nxt = Position(m, pos.season, pos.year, new_units, pos.owners.copy(), new_dislodged)
        after_movement(nxt)
        return MovementResult(nxt, self.orders, results, dislodged, routes_used)

    def _movers(self) -> list[int]:
        return [p for p in self.units if self.kind[p] in (MOVE, CONVOY_MOVE)]

    def _path_and_route(
        self, p: int, routes: list[tuple[int, ...]], used: dict[int, tuple[int, ...]]
    ) -> bool:
        """Whether the army's convoy got through; records the route reported in ORD."""
        for route in routes:
            if all(self.res[f] for f in route):
                used[p] = route
                return True
        used[p] = routes[0]
        return False
