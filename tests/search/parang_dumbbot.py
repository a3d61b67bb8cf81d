#!/usr/bin/env python2.7
"""Run Parang's own DumbBot (Python 2.7, no network) on given positions.

Reads JSON lines on stdin, one position each::

    {"id": "P3", "turn": "FAL 1901", "units": ["ENG FLT NTH", ...],
     "centres": "(AUS BUD TRI VIE) ...", "draws": 100, "seed": 3}

and writes one JSON line per position::

    {"id": "P3", "error": null, "powers": {"ENG": {
        "values": {"FLT NTH": 12345, "AMY YOR": ...},
        "draws": [["( ENG FLT NTH ) MTO NWY", ...], ...]}}}

for every power that has to order in the phase (units in a movement phase, a
dislodged unit in a retreat phase, builds or removals due in a winter):
Parang's destination value of every coast of the map for that power, and the
orders of ``draws`` independent calls of its order generation.

The position is loaded as a Parang client loads it (the map's SCO and NOW
handlers, then DumbBot's own SCO handler for the power sizes), so retreat
options stay as the client parses them; the bot's phase code is the one
``DumbBot.generate_orders`` runs, with the generator seeded by ``seed``.

Run with PYTHONPATH pointing at the folder Parlance and Parang are installed in
and a private HOME (no user configuration file may leak in).
"""

import json
import random
import sys
import traceback

from parang.dumbbot import DumbBot, DumbBot_Values
from parlance.config import variants
from parlance.gameboard import Map
from parlance.tokens import AUT, FAL, SPR, SUM


class Attitudes(dict):
    """DumbBot's per-power attitude: 1 for everyone, as a fresh bot has it."""

    def __missing__(self, key):
        return 1


def quiet(*args, **kwargs):
    """Stands in for the bot's debug log."""


def new_bot(board):
    """A DumbBot with the default values, on ``board``, without a connection."""
    bot = DumbBot.__new__(DumbBot)
    bot.vals = DumbBot_Values()
    bot.attitude = Attitudes()
    bot.log_debug = quiet
    bot.map = board
    return bot


def coast_text(key):
    unit_type, province, coastline = key
    words = [unit_type.text, province.text]
    if coastline:
        words.append(coastline.text)
    return " ".join(words)


def season_values(bot):
    """Movement and retreat values for the bot's power, as generate_orders computes them."""
    vals = bot.vals
    season = bot.map.current_turn.season
    if season in (SPR, SUM):
        values = bot.calculate_factors(
            vals.proximity_spring_attack_weight, vals.proximity_spring_defence_weight
        )
        bot.calculate_destination_value(
            values,
            vals.spring_proximity_weight,
            vals.spring_strength_weight,
            vals.spring_competition_weight,
        )
    elif season in (FAL, AUT):
        values = bot.calculate_factors(
            vals.proximity_fall_attack_weight, vals.proximity_fall_defence_weight
        )
        bot.calculate_destination_value(
            values,
            vals.fall_proximity_weight,
            vals.fall_strength_weight,
            vals.fall_competition_weight,
        )
    return values


def phase_generator(bot, power):
    """(values, a function making one order set) for ``power``, or None if it has nothing to do."""
    turn = bot.map.current_turn
    phase = turn.phase()
    vals = bot.vals
    if phase == turn.move_phase:
        if not power.units:
            return None
        values = season_values(bot)
        return values, lambda: bot.generate_movement_orders(values)
    if phase == turn.retreat_phase:
        if not [unit for unit in power.units if unit.dislodged]:
            return None
        values = season_values(bot)
        return values, lambda: bot.generate_retreat_orders(values)
    surplus = power.surplus()
    if not surplus:
        return None
    values = bot.calculate_factors(
        vals.proximity_spring_attack_weight, vals.proximity_spring_defence_weight
    )
    if surplus > 0:
        bot.calculate_winter_destination_value(
            values, vals.remove_proximity_weight, vals.remove_defence_weight
        )
        return values, lambda: bot.generate_remove_orders(surplus, values)
    bot.calculate_winter_destination_value(
        values, vals.build_proximity_weight, vals.build_defence_weight
    )
    return values, lambda: bot.generate_build_orders(-surplus, values)


def run_case(case):
    variant = variants["standard"]
    rep = variant.rep
    board = Map(variant)
    sco = rep.translate("SCO " + case["centres"])
    board.handle_SCO(sco)
    units = " ".join("( " + unit + " )" for unit in case["units"])
    board.handle_NOW(rep.translate("NOW ( " + case["turn"] + " ) " + units))
    bot = new_bot(board)
    bot.handle_SCO(sco)
    random.seed(case["seed"])
    powers = {}
    for token, power in sorted(board.powers.items()):
        bot.power = power
        found = phase_generator(bot, power)
        if found is None:
            continue
        values, generate = found
        draws = []
        for _ in range(case["draws"]):
            draws.append(sorted(str(order.tokenize()) for order in generate()))
        powers[token.text] = {
            "values": dict(
                (coast_text(key), value) for key, value in values.destination_value.items()
            ),
            "draws": draws,
        }
    return powers


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        try:
            out = {"id": case.get("id"), "error": None, "powers": run_case(case)}
        except Exception:
            out = {"id": case.get("id"), "error": traceback.format_exc(), "powers": {}}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
