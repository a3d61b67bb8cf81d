"""What the bot did, as typed notes: the one stream that the console, game log and telemetry read.

The core notes each fact once, as a small frozen value, in the order it
happened; the shell adds the facts only it sees (a connection opened or lost,
a message written to the socket, the worker's start).  Listeners
(:mod:`bot.client.listeners`) turn the notes into console lines, JSON-lines
records, MQTT events and the game's :class:`~bot.client.core.summary.GameSummary`,
so a new fact is one new note class and one line per listener that shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.tokens import TokenTable
from protocol.values import Order, Turn


@dataclass(frozen=True, slots=True)
class Note:
    """Something the bot did or saw (the base of every note)."""


# --- press ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PressIn(Note):
    """Press from ``sender`` (``text``: its DAIDE text; ``reaction``: what we did with it)."""

    sender: str
    text: str
    reaction: str = ""


@dataclass(frozen=True, slots=True)
class PressOut(Note):
    """Press we sent to ``recipients`` (``text``: its DAIDE text)."""

    recipients: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class AgreementChanged(Note):
    """An agreement with ``partner`` was made or ended (``change``), ``since`` a turn, and why.

    ``change`` is ``made``, ``cancelled`` (the partner's CCL), ``broken`` (by
    the partner, seen in the ORD results) or ``ended_by_us`` (worth less than
    breaking it); ``trust`` is the partner's trust after it.
    """

    change: str
    partner: str
    kind: str
    text: str
    since: Turn | None
    why: str
    trust: float


# --- the connection and the session ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connected(Note):
    """A TCP connection to the server is open (``rejoin``: we greet with IAM)."""

    host: str
    port: int
    rejoin: bool


@dataclass(frozen=True, slots=True)
class ConnectionDropped(Note):
    """The connection is gone; the bot tries again after ``retry_in`` seconds.

    ``violation`` is True when the server broke the protocol (we sent EM).
    """

    reason: str
    retry_in: float
    rejoin: bool
    violation: bool = False


@dataclass(frozen=True, slots=True)
class Reconnecting(Note):
    """A new connection is about to be opened to rejoin the game as the same power."""


@dataclass(frozen=True, slots=True)
class Stopping(Note):
    """The bot is being stopped (a signal) before the game ended."""

    reason: str


@dataclass(frozen=True, slots=True)
class RepresentationReceived(Note):
    """The server's RM arrived: we may introduce ourselves; ``table`` is the game's token table."""

    entries: int
    table: TokenTable


@dataclass(frozen=True, slots=True)
class ServerClosed(Note):
    """The server ended the connection with FM."""


@dataclass(frozen=True, slots=True)
class ServerError(Note):
    """The server ended the connection with EM ``code``."""

    code: int
    meaning: str


@dataclass(frozen=True, slots=True)
class MessageIn(Note):
    """A DAIDE message arrived (its text)."""

    text: str


@dataclass(frozen=True, slots=True)
class MessageOut(Note):
    """A DAIDE message was written to the socket (its text)."""

    text: str


@dataclass(frozen=True, slots=True)
class Joined(Note):
    """HLO arrived: the game started for us as ``power``."""

    power: str
    passcode: int
    map: str
    move_time_limit: int | None
    retreat_time_limit: int | None
    build_time_limit: int | None


@dataclass(frozen=True, slots=True)
class Rejoined(Note):
    """The server took our IAM: we are ``power`` again."""

    power: str


@dataclass(frozen=True, slots=True)
class Refused(Note):
    """The server refused one of our messages (REJ)."""

    message: str


@dataclass(frozen=True, slots=True)
class BadMap(Note):
    """The server's map ``map`` is not usable (``error`` says why): we refuse it and leave."""

    map: str
    error: str


@dataclass(frozen=True, slots=True)
class MapOddities(Note):
    """The server's map does what servers accept and the rules do not expect; played anyway."""

    map: str
    oddities: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeldBack(Note):
    """A game action was not sent because the session had not joined the game."""

    reason: str


# --- messages that did not fit -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BadMessage(Note):
    """A message did not parse (answered with HUH/PRN unless ``quote_error`` says why not)."""

    error: str
    text: str
    quote_error: str | None = None


@dataclass(frozen=True, slots=True)
class MessageIgnored(Note):
    """A message parsed but did not fit the game as we know it; ``kind`` is its name (NOW)."""

    reason: str
    text: str
    kind: str


@dataclass(frozen=True, slots=True)
class HandlerError(Note):
    """Handling a message that parsed raised: it made no sense for our game."""

    error: str
    text: str
    kind: str


@dataclass(frozen=True, slots=True)
class NotUnderstood(Note):
    """The server did not understand one of our messages (HUH or PRN)."""

    reply: str


# --- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseStarted(Note):
    """A new phase to play: ``deadline_in`` seconds as we reckon them (None without one)."""

    turn: Turn
    deadline_in: float | None


@dataclass(frozen=True, slots=True)
class PhaseRestated(Note):
    """The server sent the phase in play again in another position: it is played afresh."""

    turn: Turn


@dataclass(frozen=True, slots=True)
class PhaseEnded(Note):
    """The phase is over for us; ``last_margin`` is its last submission's margin."""

    turn: Turn
    last_margin: float | None
    restated: bool = False


@dataclass(frozen=True, slots=True)
class PhasePlayed(Note):
    """Our orders for the phase are final (counted once per phase)."""

    turn: Turn


@dataclass(frozen=True, slots=True)
class PhaseFailed(Note):
    """Playing the phase raised; safe orders are submitted instead."""

    turn: Turn
    error: str


@dataclass(frozen=True, slots=True)
class OrdersSubmitted(Note):
    """A SUB with the phase's complete set; ``margin`` seconds before the deadline."""

    turn: Turn
    orders: tuple[Order, ...]
    margin: float | None


@dataclass(frozen=True, slots=True)
class OrdersChosen(Note):
    """The movement phase's final set (DAIDE text per order), just before GOF."""

    turn: Turn
    orders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OrderRefused(Note):
    """The server refused one of our orders (THX with a note other than MBV)."""

    order: Order
    note: str


@dataclass(frozen=True, slots=True)
class OrderAccepted(Note):
    """The server accepted one of our orders (THX with MBV)."""

    order: Order


@dataclass(frozen=True, slots=True)
class MissingListed(Note):
    """The server's MIS for ``turn``: the units it lacks orders for, or the adjustments open.

    ``count`` is MIS's number in winter (removals due > 0, builds open < 0), else None.
    """

    turn: Turn
    units: tuple[str, ...]
    count: int | None


@dataclass(frozen=True, slots=True)
class PersonOrdersRefused(Note):
    """A person's order set was not submitted: ``reason`` (nothing was sent)."""

    turn: Turn
    reason: str


@dataclass(frozen=True, slots=True)
class PersonPressRefused(Note):
    """A person's press to ``recipients`` was not sent: ``reason`` (nothing reached the server)."""

    recipients: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class PersonReadySet(Note):
    """The person said they are done with ``turn`` (GOF), or not yet."""

    turn: Turn
    ready: bool


@dataclass(frozen=True, slots=True)
class HintSet:
    """One of the search's best sets for a hint: DAIDE text per order, mean value, visits, share."""

    orders: tuple[str, ...]
    value: float
    visits: int
    share: float


@dataclass(frozen=True, slots=True)
class HintShare:
    """One order of a unit in a hint (DAIDE text): its share of the root's visits, their value."""

    order: str
    share: float
    value: float


@dataclass(frozen=True, slots=True)
class HintReady(Note):
    """The search's suggestion for ``turn`` (DAIDE text per order) for the person's power.

    ``sets`` are the search's best sets (best first) and ``spread`` each
    unit's orders by share of the root's visits (one tuple per unit, most
    visited first); both empty when the hint comes from no search tree.
    """

    turn: Turn
    orders: tuple[str, ...]
    stats: dict[str, Any]
    sets: tuple[HintSet, ...] = ()
    spread: tuple[tuple[HintShare, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class HintFailed(Note):
    """No hint for ``turn``: ``error``."""

    turn: Turn
    error: str


@dataclass(frozen=True, slots=True)
class OrdersMissing(Note):
    """The server said orders are missing (MIS); ``count`` orders were added."""

    count: int
    adjustments: bool = False


@dataclass(frozen=True, slots=True)
class QuickOrdersFailed(Note):
    """The quick heuristic set raised; every unit holds instead."""

    error: str


@dataclass(frozen=True, slots=True)
class OrderResulted(Note):
    """One ORD line of the phase just adjudicated."""

    turn: Turn
    order: Order
    result: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CentresCounted(Note):
    """SCO arrived: centres per power (``UNO`` for neutral)."""

    counts: dict[str, int]


@dataclass(frozen=True, slots=True)
class ShadowChecked(Note):
    """Our own adjudication of the last phase against the server's NOW (``ok``: they agree)."""

    turn: Turn | None
    ok: bool
    differences: tuple[str, ...]
    predicted: Any
    actual: Any


@dataclass(frozen=True, slots=True)
class ShadowTotals(Note):
    """The game's shadow checks so far: phases checked, mismatches, phases skipped."""

    checked: int
    mismatches: int
    skipped: int


@dataclass(frozen=True, slots=True)
class CivilDisorder(Note):
    """CCD: ``power`` missed its orders in ``turn`` (``ours``: that was us)."""

    power: str
    turn: Turn | None
    ours: bool


@dataclass(frozen=True, slots=True)
class PowerEliminated(Note):
    """OUT: ``power`` is out of the game."""

    power: str


@dataclass(frozen=True, slots=True)
class GameResult(Note):
    """DRW or SLO: how the game ended."""

    text: str


@dataclass(frozen=True, slots=True)
class ScoresReceived(Note):
    """SMR: the game's summary; ``centres`` are ours at the end."""

    text: str
    centres: int | None


@dataclass(frozen=True, slots=True)
class GameEnded(Note):
    """The game is over (SMR after the result, or OFF): the bot leaves."""


@dataclass(frozen=True, slots=True)
class ServerNotice(Note):
    """NOT (...) or ADM from the server, worth a console line."""

    text: str
    sender: str | None = None


# --- the search --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchStarted(Note):
    """Job ``job`` searches the movement phase until ``stop_at`` (monotonic)."""

    turn: Turn
    job: int
    stop_at: float


@dataclass(frozen=True, slots=True)
class SearchRetimed(Note):
    """Job ``job`` got a new stop time (the deadline moved)."""

    turn: Turn
    job: int
    stop_at: float


@dataclass(frozen=True, slots=True)
class SearchUnavailable(Note):
    """The search could not start; the quick orders stand."""

    turn: Turn
    job: int
    error: str


@dataclass(frozen=True, slots=True)
class SearchReport(Note):
    """The search reported an order set (``final``: its last for the job)."""

    turn: Turn
    job: int
    final: bool
    stats: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SearchFailed(Note):
    """The search job raised; the orders in stand."""

    turn: Turn
    error: str


@dataclass(frozen=True, slots=True)
class FinalAnswer(Note):
    """The last submission time came: ``submitted`` says whether the final answer made it."""

    turn: Turn
    job: int
    submitted: bool
    stale_helper_answers: int | None


@dataclass(frozen=True, slots=True)
class StaleSearchMessage(Note):
    """A search message about a job the core no longer waits for (dropped)."""

    job: int


@dataclass(frozen=True, slots=True)
class WorkerReady(Note):
    """The search worker can search, ``seconds`` after it was started."""

    seconds: float


@dataclass(frozen=True, slots=True)
class WorkerRestarted(Note):
    """The search worker died; a new one was started (``restarts`` so far)."""

    restarts: int


@dataclass(frozen=True, slots=True)
class WorkerUnavailable(Note):
    """The search worker could not be started: the bot plays heuristically."""

    error: str


# --- resources and the end ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResourceSample(Note):
    """CPU and memory readings at the end of a phase."""

    turn: Turn
    readings: dict[str, float | int]


@dataclass(frozen=True, slots=True)
class YearPeak(Note):
    """The peak memory (kB) of both processes during ``year``."""

    year: int
    peak_kb: int


@dataclass(frozen=True, slots=True)
class ResourceTotals(Note):
    """The game's CPU seconds and peak memory, per process, and each year's peak."""

    totals: dict[str, float | int]
    yearly_peak_kb: dict[str, int]


@dataclass(frozen=True, slots=True)
class GameFinished(Note):
    """The summary of the game, written once at the end."""

    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TelemetryStats(Note):
    """The telemetry's own counters at the end (published, dropped...)."""

    stats: dict[str, Any]
