"""What the seat knows beyond the core: drafts, answers, hints, the game as the page shows it.

:class:`SeatDesk` is pure (no I/O, no clock): the seat feeds it the DAIDE
messages it hears and what the core notes (an order's THX, a refusal, a hint,
MIS), the web app records the person's drafts and submissions in it, and the
page reads it back, so a reload of the page loses nothing.  Every change
bumps :attr:`SeatDesk.version` and calls its :attr:`~SeatDesk.listeners` (the
web app's event stream wakes on them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.human.api import DeskView, ResultRow
from bot.human.ranked_hint import HintView, RankedHint
from bot.measure.metrics import game_points, game_ranks
from bot.view.timeline import Timeline
from protocol.messages import Message, Slo, Smr
from protocol.values import Turn


@dataclass
class SeatDesk:
    """The seat's record of the game for the page (see the module's docstring)."""

    timeline: Timeline = field(default_factory=lambda: Timeline(live=True))
    drafts: dict[str, list[str]] = field(default_factory=dict)
    submitted: dict[str, list[str]] = field(default_factory=dict)
    answers: dict[str, dict[str, str]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    refusals: dict[str, str] = field(default_factory=dict)
    ready: dict[str, bool] = field(default_factory=dict)
    hints: dict[str, HintView] = field(default_factory=dict)
    """The bot's suggestion per phase: orders in the usual notation, or why there is none."""
    summary: list[ResultRow] = field(default_factory=list)
    solo_power: str | None = None
    draw_offered: set[str] = field(default_factory=set)
    version: int = 0
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def _bump(self) -> None:
        self.version += 1
        for listener in self.listeners:
            listener()

    # --- the game ---------------------------------------------------------------------------

    def heard(self, message: Message | None, text: str) -> None:
        """A message the server sent us."""
        changed = self.timeline.feed(message, text)
        if isinstance(message, Slo):
            self.solo_power = message.power
        if isinstance(message, Smr):
            self.summary = result_rows(message, self.solo_power)
            changed = True
        if changed:
            self._bump()

    def answered(self, turn: Turn | None, order: str, note: str) -> None:
        """The server answered ``order`` (usual notation) with THX ``note`` (MBV or a refusal)."""
        if turn is None:
            return
        self.answers.setdefault(str(turn), {})[order] = note
        self._bump()

    def lacking(self, turn: Turn | None, text: str) -> None:
        """The server says what it still lacks (MIS, as text)."""
        if turn is not None:
            self.missing[str(turn)] = text
            self._bump()

    def refused(self, turn: Turn, reason: str) -> None:
        """The core refused the set sent for ``turn`` (nothing went to the server)."""
        self.refusals[str(turn)] = reason
        self._bump()

    # --- the person -------------------------------------------------------------------------

    def draft(self, turn: Turn, orders: list[str]) -> None:
        """The orders entered on the page for ``turn`` so far (not sent)."""
        self.drafts[str(turn)] = list(orders)
        self._bump()

    def submit(self, turn: Turn, orders: list[str]) -> None:
        """The set sent for ``turn``: it is also the draft; earlier answers are forgotten."""
        key = str(turn)
        self.drafts[key] = list(orders)
        self.submitted[key] = list(orders)
        self.answers[key] = {}
        self.missing.pop(key, None)
        self.refusals.pop(key, None)
        self._bump()

    def set_ready(self, turn: Turn, ready: bool) -> None:
        """The person said they are done (GOF) or not (NOT (GOF))."""
        self.ready[str(turn)] = ready
        self._bump()

    def offered_draw(self, turn: Turn | None) -> None:
        """The person proposed a draw."""
        self.draw_offered.add(str(turn))
        self._bump()

    def asked_hint(self, turn: Turn) -> None:
        """The person asked what the bot would play."""
        self.hints[str(turn)] = HintView(orders=[])
        self._bump()

    def hinted(
        self,
        turn: Turn,
        orders: list[str] | None,
        error: str | None = None,
        ranked: RankedHint | None = None,
    ) -> None:
        """The bot's suggestion for ``turn`` arrived (or failed with ``error``), maybe ranked."""
        self.hints[str(turn)] = HintView(
            orders=orders or [], error=error, pending=False, ranked=ranked
        )
        self._bump()

    # --- the page ---------------------------------------------------------------------------

    def phase_view(self, turn: Turn | None) -> DeskView:
        """What the page shows of the person's orders for ``turn``."""
        key = str(turn)
        return DeskView(
            draft=list(self.drafts.get(key, [])),
            submitted=self.submitted.get(key),
            answers=dict(self.answers.get(key, {})),
            missing=self.missing.get(key),
            refused=self.refusals.get(key),
            ready=self.ready.get(key, False),
            draw=key in self.draw_offered,
            hint=self.hints.get(key),
        )


def result_rows(smr: Smr, solo_power: str | None) -> list[ResultRow]:
    """SMR as the rows of ``daide-mcts game``'s result table, best first.

    Player, power, centres, solo, BANDANA's points and the rank, scored as every
    game of the project is; ``solo_power`` is the power the server's SLO named, if any.
    """
    players = smr.players
    centres = [p.centres for p in players]
    eliminated = [p.eliminated for p in players]
    solo = next((i for i, p in enumerate(players) if p.power == solo_power), None)
    points = game_points(centres, solo)
    ranks = game_ranks(centres, eliminated)
    rows = [
        ResultRow(
            power=p.power,
            name=p.name,
            version=p.version,
            centres=p.centres,
            eliminated=p.eliminated,
            solo=i == solo,
            points=points[i],
            rank=ranks[i],
        )
        for i, p in enumerate(players)
    ]
    return sorted(rows, key=lambda row: (row.rank, row.power))
