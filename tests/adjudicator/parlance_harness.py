"""Running phases through Parlance's own judge (``parlance_judge.py``), and comparing answers.

Shared by the DATC-table check, the randomized engine-versus-Parlance test and the
comparison of our DumbBot with Parang's (which runs its own harness the same way).
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path
from random import Random

import pytest

from adjudicator.convert import adjustment_value, movement_value, retreat_value
from adjudicator.position import Position
from bot.servers.parlance_install import ParlanceInstall
from protocol.values import Order
from search.dumbbot import DumbBot

HARNESS = Path(__file__).with_name("parlance_judge.py")

DUMBBOT = DumbBot()
"""The DumbBot whose games give positions to compare with Parlance."""


def run_cases(parlance_install: ParlanceInstall, cases: list[dict]) -> dict[str, dict]:
    """Each case (the harness's JSON form) adjudicated by Parlance, by case id.

    Fails the calling test, saying why, if the judge cannot be run.
    """
    return run_harness(parlance_install, HARNESS, cases, "Parlance's judge")


def run_harness(
    parlance_install: ParlanceInstall, harness: Path, cases: list[dict], what: str
) -> dict[str, dict]:
    """Each case, one JSON line in, answered by a Python 2.7 ``harness`` on Parlance's install.

    The answers (one JSON line per case, with its ``id``) by case id. Fails the calling
    test, saying why (``what`` names the program), if the harness cannot be run or leaves
    a case unanswered.
    """
    stdin = "".join(json.dumps(case) + "\n" for case in cases)
    with tempfile.TemporaryDirectory(prefix=f"{harness.stem}-") as home:
        try:
            proc = subprocess.run(
                [str(parlance_install.python2), str(harness)],
                input=stdin,
                capture_output=True,
                text=True,
                env=parlance_install.env(Path(home)),
                cwd=home,
                timeout=900,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.fail(f"{what} could not be run: {exc}")
    if proc.returncode != 0:
        pytest.fail(f"{harness.name} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    results = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            row = json.loads(line)
            results[row["id"]] = row
    missing = [case["id"] for case in cases if case["id"] not in results]
    if missing:
        pytest.fail(f"{harness.name} gave no answer for {missing}:\n{proc.stderr[-4000:]}")
    return results


def dumbbot_orders(pos: Position, rng: Random) -> list[Order]:
    """Our DumbBot's orders for every power in ``pos``'s phase, as DAIDE values."""
    orders: list[Order] = []
    for power in range(pos.map.num_powers):
        if pos.is_movement:
            moves = DUMBBOT.movement_orders(pos, power, rng)
            orders += [movement_value(pos, p, o) for p, o in sorted(moves.items())]
        elif pos.is_retreat:
            retreats = DUMBBOT.retreat_orders(pos, power, rng)
            orders += [retreat_value(pos, p, o) for p, o in sorted(retreats.items())]
        else:
            changes = DUMBBOT.adjustment_orders(pos, power, rng)
            orders += [adjustment_value(pos, power, o) for o in changes]
    return orders


def daide(text: str) -> str:
    """Canonical DAIDE spelling: ``( ( ENG FLT NTH ) MTO PIC )`` -> ``((ENG FLT NTH) MTO PIC)``."""
    tokens = re.findall(r"[()]|[^\s()]+", text)
    out = " ".join(tokens)
    return out.replace("( ", "(").replace(" )", ")")


def unit_key(text: str) -> str:
    """A NOW unit with its MRT list sorted, so retreat options compare in any order."""
    text = daide(text)
    match = re.fullmatch(r"(.*) MRT \((.*)\)", text)
    if not match:
        return text
    options = re.findall(r"\([^()]*\)|[^\s()]+", match.group(2))
    return f"{match.group(1)} MRT ({' '.join(sorted(options))})"


def centres(text: str) -> dict[str, frozenset[str]]:
    """SCO body -> power -> centres (powers without centres left out)."""
    body = daide(text)
    if body.startswith("SCO "):
        body = body[4:]
    table: dict[str, frozenset[str]] = {}
    for group in re.findall(r"\(([^()]*)\)", body):
        power, *provinces = group.split()
        if provinces:
            table[power] = frozenset(provinces)
    return table
