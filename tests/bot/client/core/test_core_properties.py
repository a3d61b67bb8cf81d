"""The core's promises over random orders of events (hypothesis).

Whatever the order in which the server's messages, timers, search answers and
connection losses arrive, the core

* never sends a game action (SUB, GOF, NOT, DRW) on a connection that has not
  joined the game, and nothing at all before the server's RM;
* never submits a movement set that leaves one of our units without an order,
  unless the server refused even that unit's hold;
* never sends again an order the server refused in the same phase (but a
  hold for a unit the server then lists in MIS, as the server asks);
* never sleeps past the last submission time of a phase it plays, and when
  that time comes on a joined connection the phase's orders are final (GOF).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator.movement import next_position
from adjudicator.orders import HOLD_ORDER
from adjudicator.standard import standard_definition
from bot.client.core import events as ev
from bot.client.core.effects import Effect, ScheduleTick, Send, StartSearch
from bot.client.core.phasestate import PhaseStage
from protocol.messages import Drw, Gof, Hlo, Iam, Map, Mdf, Mis, Nme, Not, Sub, Thx, Tme, Yes
from protocol.values import Hold, Order, Turn, UnitPosition
from protocol.variant import Variant
from search.mcts.worker_protocol import Answer, Progress
from tests.bot.client.core.driver import PASSCODE, Driver, opening
from tests.examples import examples

GAME_ACTIONS = (Sub, Gof, Not, Drw)
SPRING = opening()
FALL = next_position(SPRING, {})

Step = tuple[str, int]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("advance"), st.integers(0, 30)),  # tenths of a second
        st.tuples(st.just("tick"), st.just(0)),
        st.tuples(st.sampled_from(["lose", "open"]), st.just(0)),
        st.tuples(st.sampled_from(["join", "yes_iam"]), st.just(0)),
        st.tuples(st.just("now"), st.integers(0, 1)),
        st.tuples(st.just("tme"), st.integers(0, 12)),
        st.tuples(st.sampled_from(["progress", "answer", "mis"]), st.just(0)),
        st.tuples(st.sampled_from(["refuse", "accept"]), st.integers(0, 5)),
    ),
    max_size=40,
)


@dataclass
class Model:
    """What the server side knows, independently of the core.

    ``joined`` is an upper bound: the server has said what lets a client join
    (it may still be refused, a second HLO say).
    """

    connected: bool = False
    greeted: bool = False
    joined: bool = False
    joined_since: float | None = None
    ticks: list[float] = field(default_factory=list)
    last_sub: tuple[Order, ...] = ()
    sent: dict[Turn, set[Order]] = field(default_factory=dict)
    refused: dict[Turn, set[Order]] = field(default_factory=dict)
    job: int | None = None
    searching: Turn | None = None  # the turn of a search started on this connection
    iam_sent: bool = False
    gof_turns: set[Turn] = field(default_factory=set)


def _check(d: Driver, model: Model, actions: list[Effect]) -> None:
    core = d.core
    phase = core.phase
    for action in actions:
        if isinstance(action, Send):
            message = action.message
            assert model.greeted, f"{message} sent before the RM"
            if isinstance(message, GAME_ACTIONS):
                assert model.joined, f"{message} sent before the session joined"
            if isinstance(message, Sub) and phase is not None:
                refused = model.refused.get(phase.turn, set())
                assert not set(message.orders) & refused, "a refused order was sent again"
                pos = phase.position
                if pos.is_movement:
                    ours = {up.unit for up in pos.unit_positions() if up.unit.power == "FRA"}
                    ordered = {getattr(o, "unit", None) for o in message.orders}
                    hopeless = {u for u in ours if Hold(u) in refused}
                    assert ours - hopeless <= ordered, "an incomplete set was submitted"
                model.last_sub = message.orders
                model.sent.setdefault(phase.turn, set()).update(message.orders)
            if isinstance(message, Iam):
                model.iam_sent = True
            if isinstance(message, Gof) and phase is not None:
                model.gof_turns.add(phase.turn)
        elif isinstance(action, ScheduleTick):
            model.ticks.append(action.at)
            if phase is not None and phase.playing:
                assert action.at <= phase.clock.submit_by() + 1e-9, "slept past the deadline"
        elif isinstance(action, StartSearch):
            model.job = action.job_id
            model.searching = action.position.turn


def _step(d: Driver, model: Model, step: Step) -> list[Effect]:
    kind, value = step
    if kind == "advance":
        d.later(value / 10)
        return []
    if kind == "tick":
        if not model.ticks:
            return []
        d.at(max(d.now, min(model.ticks)))
        model.ticks.remove(min(model.ticks))
        return d.tick()
    if kind == "lose":
        if not model.connected:
            return []
        model.connected = model.greeted = model.joined = model.iam_sent = False
        model.searching = None
        return d.lose()
    if kind == "open":
        if model.connected:
            return []
        model.connected = True
        out = d.feed(ev.ConnectionOpened(d.now, "127.0.0.1", 16713))
        _check(d, model, out)
        model.greeted = True
        return out + d.open_rm()
    if not model.connected:
        return []  # the server speaks on a connection only
    if kind == "join":
        out = d.say(Yes(Nme("test", "1")), Map("STANDARD"), Mdf(standard_definition()))
        model.joined = True
        return out + d.say(Hlo("FRA", PASSCODE, Variant.of(move_time_limit=5)))
    if kind == "yes_iam":
        # An unsolicited YES (IAM) is ignored by the core: only an answer to ours joins.
        model.joined = model.joined or model.iam_sent
        return d.say(Yes(Iam("FRA", PASSCODE)))
    if kind == "now":
        return d.show(FALL if value else SPRING)
    if kind == "tme":
        return d.say(Tme(value))
    if kind in ("progress", "answer"):
        if model.job is None or d.core.power_id is None:
            return []
        holds = {p: HOLD_ORDER for p, u in FALL.units.items() if u[0] == d.core.power_id}
        message = Progress if kind == "progress" else Answer
        return d.feed(ev.SearchMessage(d.now, message(model.job, holds, {})))
    if kind == "mis":
        pos = d.core.mirror.position
        if pos is None:
            return []
        ours = tuple(UnitPosition(up.unit) for up in pos.unit_positions() if up.unit.power == "FRA")
        # The server asks for these units' orders: a hold it refused before may go again.
        model.refused.get(pos.turn, set()).difference_update(Hold(up.unit) for up in ours)
        return d.say(Mis(ours))
    if not model.last_sub:
        return []
    order = model.last_sub[value % len(model.last_sub)]
    if kind == "refuse" and d.core.phase is not None:
        turn = d.core.phase.turn
        # A refusal binds the phase's orders only if they were sent in it and we are in the
        # game: a late THX for the last phase's set, or one before our rejoin, says nothing of
        # them; one after the rejoin answers what we sent before the cut (the server kept it).
        sent = order in model.sent.get(turn, set())
        if sent and model.joined and order not in d.core.phase.book.accepted:
            model.refused.setdefault(turn, set()).add(order)
        return d.say(Thx(order, "FAR"))
    return d.say(Thx(order, "MBV"))


PLAYING: list[Step] = [("open", 0), ("join", 0), ("now", 0)]
"""A prefix that starts the game: connected, joined, the spring shown."""

PREFIXES: list[list[Step]] = [[], PLAYING, [*PLAYING, ("advance", 10), ("lose", 0), ("open", 0)]]
"""Where a script starts: nowhere, in the game, or rejoining it after a cut mid-search."""


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PREFIXES), steps)
@example(  # a late THX refusing the spring's order after the fall is shown, then a rejoin
    prefix=PREFIXES[2], script=[("now", 1), ("refuse", 0), ("yes_iam", 0), ("now", 1)]
)
@example(  # a THX after the rejoin, before we sent again, for what the last connection sent
    prefix=PLAYING,
    script=[("answer", 0), ("lose", 0), ("open", 0), ("yes_iam", 0), ("refuse", 0)],
)
@example(  # a THX on a new connection before the rejoin, for what the last one sent
    prefix=PREFIXES[2],
    script=[
        ("advance", 35),
        ("yes_iam", 0),
        ("now", 0),
        ("lose", 0),
        ("open", 0),
        ("refuse", 0),
        ("yes_iam", 0),
        ("now", 0),
    ],
)
def test_the_core_keeps_its_promises_in_any_order_of_events(
    prefix: list[Step], script: list[Step]
) -> None:
    d = Driver()
    model = Model()
    for step in prefix + script:
        out = _step(d, model, step)
        _check(d, model, out)
        phase = d.core.phase
        if (
            step[0] == "tick"
            and phase is not None
            and phase.turn == model.searching
            and d.now >= phase.clock.submit_by()
        ):
            assert phase.turn in model.gof_turns, "the deadline came and went without GOF"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["advance", "tick", "tme"]), st.integers(0, 12))))
def test_a_joined_movement_phase_always_ends_with_its_orders(script: list[Step]) -> None:
    """Joined and never cut: whatever the timers and TMEs, GOF comes by the last tick."""
    d = Driver()
    model = Model(connected=True, greeted=True, joined=True)
    out = d.join(Variant.of(move_time_limit=5))
    out += d.show(SPRING)
    _check(d, model, out)
    for step in script:
        _check(d, model, _step(d, model, step))
    for _ in range(100):  # the ticks the shell would deliver, in order
        if not model.ticks or SPRING.turn in model.gof_turns:
            break
        _check(d, model, _step(d, model, ("tick", 0)))
    assert SPRING.turn in model.gof_turns
    assert d.core.phase is not None and d.core.phase.stage is PhaseStage.FINAL
