"""The readers of the stream of notes: the console, the JSON-lines game log and MQTT telemetry.

Each listener is a callable taking one :class:`~bot.client.core.notes.Note` and says
in one place how it shows each fact; a note it has no line for is not its
business.  :class:`NoteStream` hands every note to every listener in order;
the summary's listener is :class:`bot.client.core.summary.SummaryListener`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog

from bot.client import telemetry_events as tm
from bot.client.core import notes
from bot.client.gamelog import GameLog
from bot.client.mqtt_publisher import Telemetry, search_fields
from protocol.daide_errors import EncodeError
from protocol.notation import format_order
from protocol.tokens import NO_MAP
from protocol.values import Order

CONSOLE_TEXT = 300
"""Characters of a bad message shown on the console (the game log keeps all of it)."""

Listener = Callable[[notes.Note], None]

log = structlog.get_logger("daide-mcts")


class NoteStream:
    """The one stream of notes: :meth:`publish` hands a note to every listener, in order."""

    def __init__(self, *listeners: Listener) -> None:
        self.listeners = list(listeners)

    def publish(self, note: notes.Note) -> None:
        """Give ``note`` to every listener."""
        for listener in self.listeners:
            listener(note)


def excerpt(text: str) -> str:
    """``text`` cut to ``CONSOLE_TEXT`` characters for the console."""
    if len(text) <= CONSOLE_TEXT:
        return text
    return f"{text[:CONSOLE_TEXT]}... ({len(text)} characters)"


def _turn(turn: object) -> str | None:
    return None if turn is None else str(turn)


def console(note: notes.Note) -> None:
    """The console view: one structlog line per note worth a reader's attention."""
    # Stays whole: one case per note, so that each fact maps to one console line.
    match note:
        case notes.Connected(host=host, port=port, rejoin=rejoin):
            log.info("connected", host=host, port=port, rejoin=rejoin)
        case notes.ConnectionDropped(reason=reason, retry_in=retry_in, rejoin=rejoin):
            log.warning("connection lost", reason=reason, retry_in=retry_in, rejoin=rejoin)
        case notes.Stopping(reason=reason):
            log.warning("stopping", reason=reason)
        case notes.ServerClosed():
            log.info("server sent FM")
        case notes.ServerError(code=code, meaning=meaning):
            log.error("server sent EM", code=code, meaning=meaning)
        case notes.BadMessage(error=error, text=text, quote_error=quote_error):
            log.warning("message does not parse", error=error, text=excerpt(text))
            if quote_error is not None:
                log.error("cannot quote the bad message back", error=quote_error)
        case notes.HeldBack(reason=reason):
            log.warning("not sent before joining", reason=reason)
        case notes.BadMap(map=name, error=error):
            log.error("the server's map is not usable", map=name, error=error)
        case notes.MapOddities(map=name, oddities=oddities):
            log.warning("the server's map is odd; playing it", map=name, oddities=list(oddities))
        case notes.HandlerError(error=error, text=text):
            log.error("could not handle message", error=error, text=excerpt(text))
        case notes.MessageIgnored(reason=reason, text=text):
            log.error("message ignored", reason=reason, message=excerpt(text))
        case notes.NotUnderstood(reply=reply):
            log.error("server did not understand us", reply=reply)
        case notes.CivilDisorder(power=power, turn=turn, ours=ours):
            if ours and turn is not None:
                log.error("we missed a deadline", turn=str(turn))
            log.info("civil disorder", power=power, turn=_turn(turn))
        case notes.PowerEliminated(power=power):
            log.info("power eliminated", power=power)
        case notes.GameResult(text=text):
            log.info("game over", result=text)
        case notes.ServerNotice(text=text, sender=sender):
            log.info("server notice", message=text, sender=sender)
        case notes.Joined(power=power, passcode=passcode):
            log.info("game started", power=power, passcode=passcode)
        case notes.Rejoined(power=power):
            log.info("rejoined", power=power)
        case notes.Refused(message=message):
            log.warning("server refused", message=message)
        case notes.ShadowChecked(ok=False) as shadow:
            log.error(
                "shadow adjudication mismatch",
                turn=_turn(shadow.turn),
                differences=list(shadow.differences),
                predicted=shadow.predicted,
                actual=shadow.actual,
            )
        case notes.PhaseRestated(turn=turn):
            log.warning("the server restated the phase", turn=str(turn))
        case notes.PhaseFailed(turn=turn, error=error):
            log.error("phase failed; submitting safe orders", turn=str(turn), error=error)
        case notes.SearchUnavailable(error=error):
            log.error("search unavailable; keeping the quick orders", error=error)
        case notes.SearchFailed(error=error):
            log.error("search failed", error=error)
        case notes.QuickOrdersFailed(error=error):
            log.error("quick orders failed; holding", error=error)
        case notes.OrdersMissing(count=count, adjustments=adjustments):
            what = "adjustments" if adjustments else "orders"
            log.warning(f"server says {what} are missing", count=count)
        case notes.OrderRefused(order=order, note=why):
            log.error("order refused", order=str(order), note=why)
        case notes.WorkerRestarted():
            log.error("the search worker died; starting a new one")
        case notes.WorkerUnavailable(error=error):
            log.error("could not start the search worker; playing heuristically", error=error)
        case notes.GameFinished(summary=summary):
            log.info("game finished", summary=summary)
        case notes.AgreementChanged(change=change, partner=partner, text=text, why=why):
            log.info("agreement", change=change, partner=partner, agreement=text, why=why)


class GameLogWriter:
    """The JSON-lines game record: one record per note it keeps, with the record's kind."""

    def __init__(self, game_log: GameLog) -> None:
        self.game_log = game_log

    def __call__(self, note: notes.Note) -> None:
        """Write the record for ``note``, if it has one."""
        # Stays whole: one case per note, so that each fact maps to one game-log record.
        write = self.game_log.write
        match note:
            case notes.MessageIn(text=text):
                self.game_log.message("in", text)
            case notes.MessageOut(text=text):
                self.game_log.message("out", text)
            case notes.PressIn(sender=sender, text=text, reaction=reaction):
                write("press_in", sender=sender, text=text, reaction=reaction)
            case notes.PressOut(recipients=recipients, text=text):
                write("press_out", to=list(recipients), text=text)
            case notes.AgreementChanged(
                change=change, partner=partner, kind=kind, text=text, since=since, why=why
            ):
                write(
                    "agreement",
                    change=change,
                    partner=partner,
                    agreement=kind,
                    text=text,
                    since=None if since is None else str(since),
                    why=why,
                    trust=note.trust,
                )
            case notes.Connected(host=host, port=port, rejoin=rejoin):
                write("connected", host=host, port=port, rejoin=rejoin)
            case notes.ConnectionDropped(reason=reason, retry_in=retry_in):
                write("connection_lost", reason=reason, retry_in=retry_in)
            case notes.Stopping(reason=reason):
                write("stopping", reason=reason)
            case notes.RepresentationReceived(entries=entries):
                write("rm", entries=entries)
            case notes.ServerError(code=code, meaning=meaning):
                write("em", code=code, meaning=meaning)
            case notes.OrdersSubmitted(orders=orders, margin=margin):
                write("submit", orders=len(orders), margin=margin)
            case notes.BadMessage(error=error, text=text):
                write("bad_message", error=error, text=text)
            case notes.HeldBack(reason=reason):
                write("held_back", reason=reason)
            case notes.BadMap(map=name, error=error):
                write("bad_map", map=name, error=error)
            case notes.MapOddities(map=name, oddities=oddities):
                write("map_oddities", map=name, oddities=list(oddities))
            case notes.HandlerError(error=error, text=text):
                write("handler_error", error=error, text=text)
            case notes.MessageIgnored(reason=reason, text=text):
                write("ignored", reason=reason, text=text)
            case notes.CivilDisorder(ours=True, turn=turn) if turn is not None:
                write("missed", turn=str(turn))
            case notes.Joined(power=power, passcode=passcode):
                write("hlo", power=power, passcode=passcode)
            case notes.Rejoined(power=power):
                write("rejoined", power=power)
            case notes.ShadowChecked(turn=turn, ok=ok, differences=differences):
                write("shadow", turn=_turn(turn), ok=ok, differences=list(differences))
            case notes.PhaseRestated(turn=turn):
                write("phase_restated", turn=str(turn))
            case notes.PhaseFailed(turn=turn, error=error):
                write("phase_failed", turn=str(turn), error=error)
            case notes.SearchRetimed(turn=turn, job=job, stop_at=stop_at):
                write("retime", turn=str(turn), job=job, stop_at=round(stop_at, 4))
            case notes.SearchFailed(error=error):
                write("search_error", error=error)
            case notes.SearchReport(job=job, final=final, stats=stats):
                write("search", final=final, job=job, stats=stats)
            case notes.OrdersChosen(turn=turn, orders=orders):
                write("orders", turn=str(turn), orders=list(orders))
            case notes.FinalAnswer(turn=turn, job=job, submitted=submitted):
                write("final_answer", turn=str(turn), job=job, submitted=submitted)
            case notes.WorkerReady(seconds=seconds):
                write("worker_ready", seconds=round(seconds, 3))
            case notes.WorkerRestarted(restarts=restarts):
                write("worker_restart", restarts=restarts)
            case notes.ResourceSample(turn=turn, readings=readings):
                write("resources", turn=str(turn), **readings)
            case notes.YearPeak(year=year, peak_kb=peak_kb):
                write("year_peak", year=year, peak_kb=peak_kb)
            case notes.GameFinished(summary=summary):
                write("summary", **summary)
            case notes.TelemetryStats(stats=stats):
                write("telemetry", **stats)


class TelemetryWriter:
    """MQTT telemetry: the notes the live viewers follow, as :mod:`bot.client.telemetry_events`."""

    def __init__(self, telemetry: Telemetry) -> None:
        self.telemetry = telemetry
        self.table = NO_MAP
        """The game's token table, from the RM's note: orders are written with it."""

    def _text(self, order: Order) -> str:
        try:
            return format_order(order, self.table)
        except EncodeError:
            return repr(order)

    def __call__(self, note: notes.Note) -> None:
        """Emit the telemetry event for ``note``, if it has one."""
        emit = self.telemetry.emit
        fields: dict[str, Any]
        match note:
            case notes.RepresentationReceived(table=table):
                self.table = table
            case notes.Connected(host=host, port=port, rejoin=rejoin):
                emit(tm.Connected, host=host, port=port, rejoin=rejoin)
            case notes.ConnectionDropped(reason=reason, retry_in=retry_in):
                emit(tm.Disconnected, reason=reason, retry_in=retry_in)
            case notes.Joined() as joined:
                emit(
                    tm.Joined,
                    map=joined.map,
                    move_time_limit=joined.move_time_limit,
                    retreat_time_limit=joined.retreat_time_limit,
                    build_time_limit=joined.build_time_limit,
                )
            case notes.PhaseStarted(turn=turn, deadline_in=deadline_in):
                phase = tm.phase_of(turn.season)
                emit(tm.PhaseStarted, turn=turn, phase=phase, deadline_in=deadline_in)
            case notes.OrdersSubmitted(turn=turn, orders=orders, margin=margin):
                texts = [self._text(o) for o in orders]
                emit(tm.OrdersSubmitted, turn=turn, orders=texts, margin=margin)
            case notes.SearchReport(turn=turn, final=final, stats=stats):
                fields = search_fields(stats)
                emit(tm.SearchStats, turn=turn, final=final, **fields)
            case notes.OrderResulted(turn=turn, order=order, result=result):
                emit(tm.OrderResult, turn=turn, order=self._text(order), result=list(result))
            case notes.CentresCounted(counts=counts):
                emit(tm.Centres, counts=counts)
            case notes.GameFinished(summary=summary):
                emit(tm.GameOver, **summary)
