"""The client's logic against scripted message sequences (a scripted peer on loopback).

Each test plays the server's side of one situation a real server produces only
by chance — a cut in the middle of a search, a TME that brings the deadline
closer, a phase that ends early, a MIS after a refusal, ORD lines our own engine
fails on — and checks what the client sends, and when.
"""

from __future__ import annotations

import asyncio
import importlib.metadata

import pytest

import bot.client.core.mirror
from adjudicator.movement import next_position
from protocol.messages import (
    Drw,
    Gof,
    Hlo,
    Iam,
    Mis,
    Nme,
    Not,
    Now,
    Ord,
    Sub,
    Thx,
    Tme,
    Yes,
)
from protocol.values import Hold, OrderResult, UnitPosition
from protocol.variant import Variant
from tests.bot.scripted import PASSCODE, opening

GAME_ACTIONS = (Sub, Gof, Not, Drw)


def _ours(message: Sub, power: str = "FRA") -> bool:
    return all(getattr(o, "unit", None) is None or o.unit.power == power for o in message.orders)


async def test_nme_names_the_installed_version(server, start_client):
    """One version: the package's metadata, not a number written into the client."""
    start_client("dumbbot")
    link = await server.connection()
    nme = await link.expect(Nme)
    assert (nme.name, nme.version) == ("daide-mcts", importlib.metadata.version("daide-mcts"))
    await link.aclose()


async def test_nothing_is_sent_on_a_new_connection_before_the_rejoin_is_done(server, start_client):
    run = start_client("mcts")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=5))
    pos = opening()
    link.show(pos)
    await link.expect(Sub)  # the quick set; the search is now running
    await asyncio.sleep(1.0)
    await link.aclose()  # cut in the middle of the search

    again = await server.connection()
    iam = await again.expect(Iam)
    assert (iam.power, iam.passcode) == ("FRA", PASSCODE)
    early = await again.quiet(2.5)  # the server is slow to take the rejoin
    assert not [m for m in early if isinstance(m, GAME_ACTIONS)], early
    again.send(Yes(iam))
    await again.expect(Now, where=lambda m: m.turn is None)  # it asks where the game stands
    again.send(Hlo("FRA", PASSCODE, Variant.of(move_time_limit=5)))
    again.show(pos)
    again.send(Tme(3))
    await again.expect(Sub)
    await again.expect(Gof)
    summary = await run.finish(again)
    assert summary.reconnections == 1
    assert summary.held_back == 0


@pytest.mark.parametrize("workers", [1, 2])
async def test_the_final_answer_of_the_search_is_what_the_server_gets(
    server, start_client, workers
):
    run = start_client("mcts", workers=workers)
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=4))
    link.show(opening())
    await link.expect(Gof)
    summary = await run.finish(link)
    assert summary.searched_phases == 1
    assert summary.final_answers == 1
    records = run.records()
    final = [r for r in records if r["kind"] == "search" and r["final"]]
    assert len(final) == 1
    stats = final[0]["stats"]
    if workers == 2:
        assert stats["workers"] == 2, stats  # the helper's statistics were merged
        assert stats["stale_helper_answers"] == 0
    last_sub = [r for r in records if r["kind"] == "msg" and r["text"].startswith("SUB")][-1]
    submitted_after_final = (
        records.index(last_sub) > records.index(final[0])
        or (
            # the final answer equalled the set already in: no new SUB was needed
            next(r for r in records if r["kind"] == "final_answer")["submitted"]
        )
    )
    assert submitted_after_final
    answer = next(r for r in records if r["kind"] == "final_answer")
    assert answer["submitted"] is True


async def test_the_search_worker_is_ready_before_the_bot_joins(server, start_client):
    # A game may begin the moment the last player joins: the worker must not
    # spend the first movement phase importing the search.
    run = start_client("mcts")
    link = await server.connection()
    for _ in range(400):
        if any(r["kind"] == "worker_ready" for r in run.records()):
            break
        await asyncio.sleep(0.05)
    kinds = [r["kind"] for r in run.records()]
    assert "worker_ready" in kinds, kinds
    assert "hlo" not in kinds
    await link.join(Variant.of(move_time_limit=3))
    link.show(opening())
    await link.expect(Gof)
    summary = await run.finish(link)
    assert summary.final_answers == 1
    ready = next(r for r in run.records() if r["kind"] == "worker_ready")
    assert ready["seconds"] > 0


async def test_a_tme_that_brings_the_deadline_closer_is_obeyed(server, start_client):
    run = start_client("mcts")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=30))
    link.show(opening())
    await link.expect(Sub)
    told = asyncio.get_running_loop().time()
    link.send(Tme(3))  # only three seconds left, not thirty
    await link.expect(Gof, timeout=10)
    took = asyncio.get_running_loop().time() - told
    assert took < 3.0, f"the last orders came {took:.2f} s after a TME of 3 s"
    summary = await run.finish(link)
    assert summary.final_answers == 1


async def test_a_phase_that_ends_early_is_left_for_the_next(server, start_client):
    run = start_client("mcts")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=20))
    spring = opening()
    link.show(spring)
    await link.expect(Sub)
    await asyncio.sleep(0.5)
    fall = next_position(spring, {})  # everyone held: the fall, with the same units
    link.show(fall)  # the server ended the spring early (everyone's orders were in)
    sub = await link.expect(Sub, where=lambda m: len(m.orders) == 3)
    assert _ours(sub)
    await link.expect(Gof, timeout=25)
    summary = await run.finish(link)
    orders = [r for r in run.records() if r["kind"] == "orders"]
    assert [r["turn"] for r in orders] == ["FAL 1901"], orders  # spring's search was dropped
    assert summary.searched_phases == 2 and summary.final_answers == 1


async def test_a_refused_order_and_a_mis_are_answered_with_complete_sets(server, start_client):
    run = start_client("dumbbot")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=10))
    link.show(opening())
    first = await link.expect(Sub)  # a DumbBot seat answers once, at once, and says GOF
    await link.expect(Gof)
    assert len(first.orders) == 3
    refused = first.orders[0]
    link.send(Thx(refused, "FAR"))
    second = await link.expect(Sub)
    assert refused not in second.orders and Hold(refused.unit) in second.orders
    assert len(second.orders) == 3
    link.send(Thx(Hold(refused.unit), "NRS"))  # the hold is refused too
    third = await link.expect(Sub)
    assert len(third.orders) == 2
    link.send(Mis((UnitPosition(refused.unit),)))  # the server says that unit has no order
    fourth = await link.expect(Sub)
    assert Hold(refused.unit) in fourth.orders and len(fourth.orders) == 3
    summary = await run.finish(link)
    assert summary.refused_orders == 2


async def test_the_search_never_brings_back_an_order_the_server_refused(server, start_client):
    run = start_client("mcts")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=4))
    link.show(opening())
    quick = await link.expect(Sub)  # DumbBot's set: the search's favourites share its orders
    link.send(*(Thx(order, "FAR") for order in quick.orders))
    await link.expect(Gof, timeout=15)
    sent = [e.message for e in link.received if isinstance(e.message, Sub)][1:]
    searched = [r for r in run.records() if r["kind"] == "search" and r["final"]]
    assert len(sent) >= 3 and searched  # one set per refusal, and the search answered
    after = sent[3:]  # the search's sets, if any differed from the quick one
    assert not {o for sub in after for o in sub.orders} & set(quick.orders)
    assert all(len(sub.orders) == 3 for sub in after)  # a refused move became a hold
    assert not set(sent[-1].orders) & set(quick.orders) and len(sent[-1].orders) == 3
    summary = await run.finish(link)
    assert summary.refused_orders == 3


async def test_a_failing_shadow_check_does_not_cost_the_next_phase(
    server, start_client, monkeypatch
):
    def broken(*args: object, **kwargs: object) -> object:
        raise ValueError("an engine bug")

    monkeypatch.setattr(bot.client.core.mirror, "adjudicate_phase", broken)
    run = start_client("dumbbot")
    link = await server.connection()
    await link.join(Variant.of(move_time_limit=10))
    spring = opening()
    link.show(spring)
    await link.expect(Gof)
    for up in spring.unit_positions():  # every unit held
        link.send(Ord(OrderResult(spring.turn, Hold(up.unit), ("SUC",))))
    link.show(next_position(spring, {}))
    fall = await link.expect(Sub, timeout=10)  # the fall is played all the same
    assert len(fall.orders) == 3
    await link.expect(Gof)
    summary = await run.finish(link)
    assert summary.shadow_mismatches == 1
    assert any(r["kind"] == "shadow" and not r["ok"] for r in run.records())
