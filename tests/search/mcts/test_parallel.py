"""Root-parallel helpers: answers carry their job's id, stops stick, and nothing stale is merged."""

from __future__ import annotations

import gc
import math
import time
from random import Random

from adjudicator.maps import standard_map
from adjudicator.position import initial_position
from search.mcts.parallel import RootParallel
from search.mcts.player import search_within, think
from search.mcts.variants import get_variant
from search.policy import SearchLimit

M = standard_map()
VARIANT = get_variant("dm")


def test_a_late_answer_is_never_merged_into_the_next_search() -> None:
    pos = initial_position(M)
    with RootParallel(1) as parallel:
        # The helper is still starting (a fresh interpreter) when this search ends and
        # stops waiting for it, so its answer to this job comes late.
        think(pos, 2, VARIANT, 1902, Random(1), deadline=time.monotonic() + 0.01,
              parallel=parallel, collect_by=time.monotonic() + 0.02)  # fmt: skip
        _, stats = think(pos, 2, VARIANT, 1902, Random(2), iterations=20, parallel=parallel)
    assert stats["workers"] == 2
    assert stats["merged_iterations"] == 40  # 20 of ours and the helper's 20 for this job
    assert stats["stale_helper_answers"] == 1


def test_a_busy_helper_takes_the_next_job_at_once() -> None:
    pos = initial_position(M)
    with RootParallel(1) as parallel:
        think(pos, 2, VARIANT, 1902, Random(1), iterations=5, parallel=parallel)  # warm up
        began = time.monotonic()
        # The helper is told to search for a minute; this search stops at once and
        # waits only a moment for it, collecting nothing and leaving the helper busy.
        think(pos, 2, VARIANT, 1902, Random(3), deadline=began + 60, parallel=parallel,
              should_stop=lambda: True)  # fmt: skip
        _, stats = think(pos, 2, VARIANT, 1902, Random(4), iterations=10, parallel=parallel)
        took = time.monotonic() - began
    assert stats["merged_iterations"] == 20, stats
    assert took < 30, f"the helper finished its old job first ({took:.1f} s)"


def test_a_stop_reaches_the_helpers_and_collection_does_not_wait_for_the_old_deadline() -> None:
    pos = initial_position(M)
    calls = 0

    def stop_soon() -> bool:
        nonlocal calls
        calls += 1
        return calls > 5

    with RootParallel(1) as parallel:
        think(pos, 2, VARIANT, 1902, Random(1), iterations=5, parallel=parallel)  # warm up
        began = time.monotonic()
        _, stats = think(pos, 2, VARIANT, 1902, Random(5), deadline=began + 60,
                         parallel=parallel, should_stop=stop_soon)  # fmt: skip
        took = time.monotonic() - began
    assert stats["workers"] == 2, stats  # the helper stopped and answered in time
    assert took < 30, f"collection waited for the old deadline ({took:.1f} s)"


def test_helpers_exit_when_closed() -> None:
    parallel = RootParallel(2)
    pos = initial_position(M)
    think(pos, 2, VARIANT, 1902, Random(1), iterations=3, parallel=parallel)
    pids = parallel.pids
    assert len(pids) == 2
    parallel.close()
    assert parallel.pids == []


def test_a_retime_to_an_earlier_stop_reaches_the_helpers() -> None:
    pos = initial_position(M)
    with RootParallel(1) as parallel:
        think(pos, 2, VARIANT, 1902, Random(1), iterations=5, parallel=parallel)  # warm up
        began = time.monotonic()
        limit = SearchLimit(began + 1.0, began + 2.0)  # a minute became a second
        _, stats = search_within(pos, 2, VARIANT, 1902, Random(6),
                                 SearchLimit(began + 60, began + 61), parallel=parallel,
                                 retimed=lambda: limit)  # fmt: skip
        took = time.monotonic() - began
    assert took < 10, f"the search kept its old stop time ({took:.1f} s)"
    assert stats["workers"] == 2, stats  # the helper stopped at the new time and answered


def test_a_retime_to_a_later_stop_lets_the_search_and_its_helpers_go_on() -> None:
    pos = initial_position(M)
    with RootParallel(1) as parallel:
        think(pos, 2, VARIANT, 1902, Random(1), iterations=5, parallel=parallel)  # warm up
        began = time.monotonic()
        limit = SearchLimit(began + 1.5, began + 2.5)  # the deadline moved away
        _, stats = search_within(pos, 2, VARIANT, 1902, Random(7),
                                 SearchLimit(began + 0.3, began + 0.5), parallel=parallel,
                                 retimed=lambda: limit)  # fmt: skip
        took = time.monotonic() - began
    assert took >= 1.4, f"the search stopped at its first stop time ({took:.2f} s)"
    assert stats["workers"] == 2, stats


def test_a_search_pauses_the_collector_and_leaves_it_as_it_was() -> None:
    pos = initial_position(M)
    during: list[bool] = []
    try:
        for enabled in (True, False):
            if enabled:
                gc.enable()
            else:
                gc.disable()
            search_within(pos, 2, VARIANT, 1902, Random(1), SearchLimit(math.inf, math.inf, 5),
                          report=lambda *_: during.append(gc.isenabled()),
                          report_final=True)  # fmt: skip
            assert gc.isenabled() is enabled
    finally:
        gc.enable()
    assert during and not any(during)
