"""A recorded game stream for the fuzzer: what one player of a real game heard, and said.

The stream is a file of DAIDE text, one message a line, ``<< `` for a message
the player received from the server and ``>> `` for one it sent (``#`` lines
are comments), the format of :mod:`protocol.data`'s sample game.
:func:`load_stream` reads it into a :class:`GameStream`:

* the **handshake**: the server's replies to each request the player made
  before it joined (``NME`` is answered by ``YES (NME ...)`` and ``MAP``,
  ``MDF`` by the map);
* the **body**: every message the server sent of its own accord from the
  player's ``YES (MAP)`` on (``ADM``, ``HLO``, ``SCO``, ``NOW``, ``TME``,
  ``ORD``, ``DRW``, ``SMR`` ...).  The server's answers to the player's own
  game messages (``YES``, ``REJ``, ``THX``, ``MIS``) are left out: a replay
  answers its client's orders itself;
* the **phases**: one per ``NOW``, with the position the judge checks orders
  against and the deadline the server gave.

The stream shipped in ``bot/stress/data/parlance_game.txt`` is a real
Parlance 1.4.1 game, recorded with::

    daide-mcts game --server parlance --lineup dumbbot --fill dumbbot
        --final-year 1902 --mtl 3 --rtl 2 --btl 2 --seed 11 --out runs/rec
    python -m bot.stress.fuzz_stream runs/rec/bots/dumbbot-7/*.jsonl
        > bot/stress/data/parlance_game.txt

(the seat that played Russia: two years with moves, a build and a retreat of
its own; Parlance's judge declares the draw after 1902).  The foreign game
whose messages the fuzzer injects is :mod:`protocol.data`'s sample game.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from adjudicator.maps import GameMap
from adjudicator.position import PhaseKind, Position
from adjudicator.rule_errors import AdjudicatorError
from protocol.daide_errors import ProtocolError
from protocol.data import SAMPLE_GAME_PATH
from protocol.messages import (
    Drw,
    Hlo,
    Map,
    Mdf,
    Message,
    Mis,
    Now,
    Off,
    Rej,
    Sco,
    Slo,
    Smr,
    Thx,
    Tme,
    Yes,
    parse_text,
)
from protocol.values import Turn

DATA_DIR = Path(__file__).resolve().parent / "data"
"""The folder of the recorded streams (package data)."""

GAME_PATH = DATA_DIR / "parlance_game.txt"
"""The real Parlance game the fuzzer replays (see the module docstring)."""

RECEIVED = "<<"
"""Line prefix of a message the player received."""
SENT = ">>"
"""Line prefix of a message the player sent."""

LIVE_ANSWERS = (Yes, Rej, Thx, Mis)
"""Server messages that answer the player's own messages: a replay makes its own."""

GAME_END = (Drw, Slo, Smr, Off)
"""Messages after which the game is over: no phase is owed any more."""


class StreamError(ValueError):
    """A recorded stream that cannot be replayed; the message names the file and the line."""


@dataclass(frozen=True)
class Phase:
    """One phase of the recorded game, as the judge sees it.

    ``now`` is the index of its ``NOW`` in the body, ``sco`` that of the last
    ``SCO`` before it (None if there is none), ``seconds`` the deadline the
    server gave (the ``TME`` after the ``NOW``, else HLO's limit), and
    ``after_end`` says the game was already over (a ``DRW``, ``SLO``,
    ``SMR`` or ``OFF`` came first: Parlance names the phase it stopped in).
    """

    index: int
    turn: Turn
    now: int
    sco: int | None
    seconds: float
    position: Position
    after_end: bool

    @property
    def is_adjustment(self) -> bool:
        """A winter: the number of builds depends on the SCO before it."""
        return self.position.kind is PhaseKind.ADJUSTMENT

    def needs_orders(self, power: int) -> bool:
        """Whether ``power`` has anything to order in this phase."""
        pos = self.position
        if pos.is_movement:
            return any(u[0] == power for u in pos.units.values())
        if pos.is_retreat:
            return any(d[0] == power for d in pos.dislodged.values())
        return pos.adjustments()[power] != 0


@dataclass(frozen=True)
class GameStream:
    """A recorded game from one player's side (see the module docstring)."""

    name: str
    handshake: tuple[tuple[type[Message], tuple[Message, ...]], ...]
    """The player's requests before joining (by message type) and the server's replies."""
    body: tuple[Message, ...]
    phases: tuple[Phase, ...]
    hlo: int
    """Index of the game's ``HLO`` in the body."""
    game_map: GameMap

    @property
    def greeting(self) -> Hlo:
        """The recorded ``HLO``: our power, passcode and time limits."""
        return self.body[self.hlo]  # type: ignore[return-value]

    @property
    def power(self) -> str:
        """The power the recorded player was given."""
        return self.greeting.power or ""

    @property
    def power_id(self) -> int:
        """That power's index on the map."""
        return self.game_map.power_index[self.power]

    def replies(self, request: Message) -> tuple[Message, ...]:
        """The recorded replies to a handshake request (none if the player never made it)."""
        for kind, replies in self.handshake:
            if isinstance(request, kind):
                return replies
        return ()


def read_lines(lines: Iterable[str], name: str) -> list[tuple[str, Message]]:
    """``(direction, message)`` for each message line; StreamError names the first bad line."""
    out: list[tuple[str, Message]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        direction, _, text = line.partition(" ")
        if direction not in (RECEIVED, SENT):
            raise StreamError(f"{name} line {number}: starts with neither '<<' nor '>>'")
        try:
            out.append((direction, parse_text(text)))
        except ProtocolError as exc:
            raise StreamError(f"{name} line {number}: {exc}") from None
    return out


def parse_stream(lines: Iterable[str], name: str) -> GameStream:
    """The :class:`GameStream` of a recorded player's messages; StreamError if it is unfit."""
    messages = read_lines(lines, name)
    handshake: list[tuple[type[Message], list[Message]]] = []
    body: list[Message] = []
    in_body = False
    for direction, message in messages:
        if in_body:
            if direction == RECEIVED and not isinstance(message, LIVE_ANSWERS):
                body.append(message)
        elif direction == SENT:
            if isinstance(message, Yes) and isinstance(message.message, Map):
                in_body = True
            else:
                handshake.append((type(message), []))
        elif handshake:
            handshake[-1][1].append(message)
    hlo = next((i for i, m in enumerate(body) if isinstance(m, Hlo) and m.power), None)
    mdf = next((m for _, rs in handshake for m in rs if isinstance(m, Mdf) and m.definition), None)
    if not in_body or hlo is None or mdf is None or mdf.definition is None:
        raise StreamError(f"{name}: no complete handshake (NME, MDF, YES (MAP), then HLO)")
    try:
        game_map = GameMap.from_definition(mdf.definition)
    except (AdjudicatorError, ValueError) as exc:
        raise StreamError(f"{name}: the recorded map does not load: {exc}") from None
    phases = _phases(body, body[hlo], game_map, name)  # type: ignore[arg-type]
    return GameStream(
        name,
        tuple((kind, tuple(replies)) for kind, replies in handshake),
        tuple(body),
        phases,
        hlo,
        game_map,
    )


def _phases(body: Sequence[Message], hlo: Hlo, game_map: GameMap, name: str) -> tuple[Phase, ...]:
    limits = {
        PhaseKind.MOVEMENT: hlo.variant.move_time_limit,
        PhaseKind.RETREAT: hlo.variant.retreat_time_limit,
        PhaseKind.ADJUSTMENT: hlo.variant.build_time_limit,
    }
    phases: list[Phase] = []
    sco: int | None = None
    ended = False
    for i, message in enumerate(body):
        if isinstance(message, Sco) and message.centres is not None:
            sco = i
        elif isinstance(message, GAME_END):
            ended = True
        elif isinstance(message, Now) and message.turn is not None:
            if sco is None:
                raise StreamError(f"{name}: NOW {message.turn} before any SCO")
            centres = body[sco].centres  # type: ignore[attr-defined]
            try:
                pos = Position.from_values(game_map, message.turn, message.units, centres)
            except AdjudicatorError as exc:
                raise StreamError(f"{name}: NOW {message.turn}: {exc}") from None
            after = body[i + 1] if i + 1 < len(body) else None
            seconds = after.seconds if isinstance(after, Tme) else None
            seconds = seconds or limits[pos.kind]
            if not seconds:
                raise StreamError(f"{name}: NOW {message.turn} has no deadline (TME or HLO)")
            phases.append(Phase(len(phases), message.turn, i, sco, float(seconds), pos, ended))
    if not phases:
        raise StreamError(f"{name}: the game has no phase (no NOW)")
    return tuple(phases)


def load_stream(path: Path = GAME_PATH) -> GameStream:
    """The recorded game in ``path``; StreamError (or OSError) if it cannot be used."""
    with open(path, encoding="utf-8") as lines:
        return parse_stream(lines, path.name)


@cache
def recorded_game() -> GameStream:
    """The shipped Parlance game (read once per process)."""
    return load_stream(GAME_PATH)


@cache
def foreign_messages() -> tuple[Message, ...]:
    """Every message the server sent in another real game (the sample game): for injection."""
    with open(SAMPLE_GAME_PATH, encoding="utf-8") as lines:
        messages = read_lines(lines, SAMPLE_GAME_PATH.name)
    return tuple(m for d, m in messages if d == RECEIVED)


def game_log_lines(records: Iterable[str]) -> list[str]:
    """Stream lines from a bot's JSON-lines game log (its ``msg`` records, in order)."""
    out: list[str] = []
    for raw in records:
        try:
            record = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("kind") == "msg":
            prefix = RECEIVED if record.get("dir") == "in" else SENT
            out.append(f"{prefix} {record.get('text', '')}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.stream.fuzz_stream GAME_LOG``: print a stream file from a bot's game log."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m bot.stress.fuzz_stream GAME_LOG.jsonl", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        with open(path, encoding="utf-8") as records:
            lines = game_log_lines(records)
        parse_stream(lines, path.name)  # refuse a log that cannot be replayed
    except (OSError, StreamError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
