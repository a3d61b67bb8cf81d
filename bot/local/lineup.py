"""Who plays a local game: seven seats, each one of our players, a Parang bot, or any command.

A lineup is written as comma-separated seat specs, ``[LABEL=]SPEC``::

    mcts:v8,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot,dumbbot
    mcts,parang,parang:evilbot,cmd:/opt/bot --host {host} --port {port} --name {name}

``SPEC`` is one of

* a player of ours (:mod:`search.registry`: ``dumbbot``, ``random``, ``mcts``,
  ``mcts:<variant>``), run as ``daide-mcts play --strategy SPEC``;
* ``parang`` or ``parang:<bot>``: one of Parang's bots from the local Parlance
  install (``dumbbot`` by default);
* ``bandana:dbrane`` or ``bandana:dumbbot``: BANDANA's D-Brane 1.1 or DumbBot
  1.4, from the user's jars (see :mod:`bot.local.bandana`);
* ``albert``: Albert 5.5 under Wine, from the user's files (see
  :mod:`bot.local.albert_seat`), never allying; ``albert:press`` the same with its press on;
* ``human``: a person's seat (``daide-mcts human``): a page in the browser
  where a person enters the orders (:mod:`bot.human`);
* ``cmd:<command line>``: any DAIDE bot, with ``{host}``, ``{port}`` and
  ``{name}`` replaced by the server's address and the seat's name (commas
  cannot appear in a command written inside a lineup).

``LABEL`` names the seat's group in the results (default: the spec, or
``cmd:<program>``).  A shorter lineup is filled up to seven seats with the fill
spec.  Every seat gets a unique DAIDE-safe name: the label, numbered when it
repeats (``dumbbot-1`` ... ``dumbbot-6``).
"""

from __future__ import annotations

import os
import re
import shlex
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.local.bandana import BANDANA_BOTS
from search.registry import PolicySpecError, make_policy, parse_spec, valid_specs

SEATS = 7
"""Players in a standard game, one per power."""

DEFAULT_LINEUP = ("mcts", *(["dumbbot"] * 6))
"""The main job's lineup: one MCTS bot (the default variant) against six DumbBots of ours."""

PARANG_BOTS = (
    "dumbbot",
    "evilbot",
    "peacebot",
    "teddybot",
    "combobot",
    "neurotic",
    "project20m",
    "blabberbot",
    "chatty",
)
"""Parang's bot scripts that play a no-press game by themselves."""

PLACEHOLDERS = ("host", "port", "name")
"""The fields a ``cmd:`` seat may use."""

ALBERT_SEAT = "albert"
"""The seat spec (and kind) of Albert 5.5."""

ALBERT_PRESS_SEAT = "albert:press"
"""The seat spec of Albert 5.5 with its press on (it negotiates where the game allows press)."""

SeatKind = Literal["ours", "parang", "bandana", "human", "albert", "command"]

HUMAN = "human"
"""The seat spec of a person (``--lineup human,mcts``)."""

_LABEL = re.compile(r"^[A-Za-z0-9_.:#-]+$")


class LineupError(ValueError):
    """A lineup that cannot be played; the message says which seat and why."""


@dataclass(frozen=True)
class Seat:
    """One seat of a lineup.

    ``spec`` is our player spec (kind ``ours``), the Parang script name (kind
    ``parang``), BANDANA's bot name (kind ``bandana``), ``albert`` (kind
    ``albert``) or the command template (kind ``command``); ``label`` groups
    results; ``name`` is unique in the lineup and safe in a DAIDE NME.
    """

    label: str
    kind: SeatKind
    spec: str
    name: str

    def command_argv(self, host: str, port: int) -> list[str]:
        """For a ``command`` seat: its argv with the placeholders filled in."""
        values = {"host": host, "port": str(port), "name": self.name}
        return [part.format(**values) for part in shlex.split(self.spec)]


def parse_seat(text: str) -> tuple[str | None, SeatKind, str]:
    """``(label or None, kind, spec)`` for one seat spec; LineupError if it is not one."""
    item = text.strip()
    label: str | None = None
    head, eq, rest = item.partition("=")
    if eq and not head.lower().startswith("cmd:") and _LABEL.match(head.strip()):
        label, item = head.strip(), rest.strip()
    if not item:
        raise LineupError(f"empty seat spec {text!r}")
    lower = item.lower()
    if lower == HUMAN:
        return label, "human", HUMAN
    if lower.startswith("cmd:"):
        command = item[4:].strip()
        _check_command(command)
        return label, "command", command
    if lower == "parang" or lower.startswith("parang:"):
        bot = lower.partition(":")[2] or "dumbbot"
        if bot not in PARANG_BOTS:
            raise LineupError(
                f"unknown Parang bot {bot!r} in {text!r}; choose one of {', '.join(PARANG_BOTS)}"
            )
        return label, "parang", bot
    if lower.split(":")[0] == "bandana":
        bot = lower.partition(":")[2]
        if bot not in BANDANA_BOTS:
            raise LineupError(
                f"unknown BANDANA bot {bot!r} in {text!r}; "
                f"choose bandana:{' or bandana:'.join(BANDANA_BOTS)}"
            )
        return label, "bandana", bot
    if lower in (ALBERT_SEAT, ALBERT_PRESS_SEAT):
        return label, "albert", lower
    try:
        parse_spec(item)
    except PolicySpecError as exc:
        raise LineupError(
            f"{exc} (or human, parang[:BOT], bandana:BOT, albert[:press], or cmd:COMMAND; "
            f"players of ours: {valid_specs()})"
        ) from None
    return label, "ours", lower


def _check_command(command: str) -> None:
    if not command:
        raise LineupError("cmd: needs a command line after it")
    try:
        parts = shlex.split(command)
    except ValueError as exc:
        raise LineupError(f"cannot split the command {command!r}: {exc}") from None
    for part in parts:
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(part) if f is not None]
        except ValueError as exc:
            raise LineupError(f"bad placeholder in {command!r}: {exc}") from None
        unknown = [f for f in fields if f not in PLACEHOLDERS]
        if unknown:
            raise LineupError(
                f"unknown placeholder {{{unknown[0]}}} in {command!r}; "
                f"use {', '.join('{' + p + '}' for p in PLACEHOLDERS)}"
            )


def _default_label(kind: SeatKind, spec: str) -> str:
    if kind == "ours":
        return spec
    if kind == "parang":
        return "parang" if spec == "dumbbot" else f"parang:{spec}"
    if kind == "bandana":
        return f"bandana:{spec}"
    if kind == "albert":
        return spec
    if kind == "human":
        return HUMAN
    program = os.path.basename(shlex.split(spec)[0]) or "bot"
    return f"cmd:{program}"


def _daide_name(label: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", label).strip("-")
    return name or "bot"


def build_lineup(
    specs: Sequence[str], fill: str | None = "dumbbot", seats: int = SEATS
) -> tuple[Seat, ...]:
    """``seats`` seats (one per power of the map) from seat specs, filled up with ``fill``.

    LineupError if unfit.
    """
    items = [s for s in (x.strip() for x in specs) if s]
    if len(items) > seats:
        raise LineupError(f"{len(items)} seats given; the map has {seats} powers")
    if len(items) < seats:
        if fill is None:
            raise LineupError(f"give {seats} seats, one per power (got {len(items)})")
        items += [fill] * (seats - len(items))
    parsed = [parse_seat(item) for item in items]
    kinds = {kind for _, kind, _ in parsed}
    if {"albert", "bandana"} <= kinds:
        raise LineupError(
            "Albert and BANDANA's bots cannot share a table: BANDANA's library fails on "
            "some of Albert's ORD messages (see docs/albert.md)"
        )
    labels = [label or _default_label(kind, spec) for label, kind, spec in parsed]
    made = []
    seen: dict[str, int] = {}
    for (_, kind, spec), label in zip(parsed, labels, strict=True):
        base = _daide_name(label)
        seen[base] = seen.get(base, 0) + 1
        repeats = sum(1 for other in labels if _daide_name(other) == base) > 1
        name = f"{base}-{seen[base]}" if repeats else base
        made.append(Seat(label=label, kind=kind, spec=spec, name=name))
    return tuple(made)


def parse_lineup(text: str, fill: str | None = "dumbbot") -> tuple[Seat, ...]:
    """Seats from a comma-separated lineup (see the module docstring)."""
    return build_lineup(text.split(","), fill)


def check_players(seats: Sequence[Seat]) -> None:
    """Raise LineupError if a player of ours cannot be built (e.g. an unknown MCTS variant)."""
    for spec in dict.fromkeys(s.spec for s in seats if s.kind == "ours"):
        try:
            make_policy(spec, budget=0.1, seed=0, workers=1)
        except PolicySpecError as exc:
            raise LineupError(str(exc)) from None


def describe(seats: Sequence[Seat]) -> str:
    """The lineup in one line: labels with counts, ``mcts + 6 x dumbbot``."""
    counts: dict[str, int] = {}
    for seat in seats:
        counts[seat.label] = counts.get(seat.label, 0) + 1
    return " + ".join(label if n == 1 else f"{n} x {label}" for label, n in counts.items())
