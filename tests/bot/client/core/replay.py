"""Replaying a recorded game through the client's mirror: the shadow check over whole games.

Tests use it on the games they play (on MILA's server, each power hears only its own
ORD lines, so the union of the seats' streams is the whole phase).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from adjudicator.rules import DEFAULT_CIVIL_DISORDER, CivilDisorderRule
from bot.client.core.mirror import GameMirror, ShadowReport, order_result_key
from protocol.messages import Map, Mdf, Now, Ord, Sco, parse_text
from protocol.values import OrderResult, Turn


@dataclass
class ReplayResult:
    """Shadow adjudication of a whole game rebuilt from several players' records."""

    checked: int
    mismatches: int
    skipped: int
    reports: list[ShadowReport]


def replay_shadow(
    streams: Sequence[Sequence[str]],
    *,
    coarse_results: bool = False,
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER,
) -> ReplayResult:
    """Shadow-check a game from the messages several players received (DAIDE text, in order).

    A server that tells each power only its own ORD lines (MILA's) leaves every
    single player unable to check a phase; when all seven seats are ours, the
    union of their ORD lines is the whole phase.  The first stream supplies the
    map and the sequence of SCO/NOW; every stream contributes its ORD lines.
    ``coarse_results`` and ``rule`` describe the server (MILA: True and DATC).
    """
    reports: list[ShadowReport] = []
    mirror = replay_mirror(
        streams, coarse_results=coarse_results, rule=rule, on_report=reports.append
    )
    return ReplayResult(mirror.checked, mirror.mismatches, mirror.skipped, reports)


def replay_mirror(
    streams: Sequence[Sequence[str]],
    *,
    coarse_results: bool = False,
    rule: CivilDisorderRule = DEFAULT_CIVIL_DISORDER,
    on_report: Callable[[ShadowReport], None] | None = None,
) -> GameMirror:
    """A mirror fed a whole recorded game (see :func:`replay_shadow`).

    Each phase's shadow report goes to ``on_report``.
    """
    results: dict[Turn, dict[object, OrderResult]] = {}
    for stream in streams:
        for text in stream:
            if text.startswith("ORD"):
                message = parse_text(text)
                if isinstance(message, Ord) and message.entry is not None:
                    entry = message.entry
                    results.setdefault(entry.turn, {})[order_result_key(entry), entry.order] = entry
    mirror = GameMirror(coarse_results=coarse_results, rule=rule)
    map_name = "standard"
    for text in streams[0] if streams else ():
        head = text[:3]
        if head in ("DRW", "SLO"):
            mirror.on_game_end()
            continue
        if head not in ("MAP", "MDF", "SCO", "NOW"):
            continue
        message = parse_text(text)
        if isinstance(message, Map) and message.name:
            map_name = message.name
        elif isinstance(message, Mdf) and message.definition is not None:
            mirror.on_map(message.definition, map_name)
        elif isinstance(message, Sco) and message.centres is not None:
            mirror.on_sco(message.centres)
        elif isinstance(message, Now) and message.turn is not None:
            previous = mirror.position
            if previous is not None:
                mirror.pending = list(results.get(previous.turn, {}).values())
            report = mirror.on_now(message.turn, message.units)
            if report is not None and on_report is not None:
                on_report(report)
    return mirror
