"""Orders and results in engine form: small tuples of ints keyed by province.

A movement phase's orders are a ``dict`` from the province of each ordered
unit to one of these tuples (a unit with no entry holds):

=================  ==============================================
``(HOLD,)``
``(MOVE, loc)``     move to location ``loc`` (a coast for fleets
                    into split provinces)
``(SUPPORT_HOLD, p)``           support the unit in province ``p``
``(SUPPORT_MOVE, p, d)``        support the unit in ``p`` moving to ``d``
``(SUPPORT_MOVE, p, d, loc)``   the same, naming the coast ``loc`` the move
                                must go to (DATC 4.B.4 d)
``(CONVOY, a, d)``              convoy the army in ``a`` to ``d``
``(CONVOY_MOVE, d, path)``      move by convoy to ``d`` through the sea
                                provinces ``path`` (``()``: any route)
=================  ==============================================

Retreat phases use ``(RETREAT, loc)`` and ``(DISBAND,)`` keyed by the
province the dislodged unit is in.  Adjustment phases use a list per power of
``(BUILD, unit_type, loc)``, ``(REMOVE, p)`` and ``(WAIVE,)``.

The adjudicator trusts engine-form orders to be legal (the search generates
only legal ones); legality is checked where orders come from outside (see
:mod:`adjudicator.validation`).
"""

from __future__ import annotations

from typing import Any

HOLD = 0
MOVE = 1
SUPPORT_HOLD = 2
SUPPORT_MOVE = 3
CONVOY = 4
CONVOY_MOVE = 5
RETREAT = 6
DISBAND = 7
BUILD = 8
REMOVE = 9
WAIVE = 10

HOLD_ORDER = (HOLD,)
DISBAND_ORDER = (DISBAND,)
WAIVE_ORDER = (WAIVE,)

EngineOrder = tuple[Any, ...]
"""One order in engine form (see the module docstring): an order code, then ints, and for
a convoyed move or a retreat a nested tuple of ids (so the items are typed ``Any``)."""

Orders = dict[int, EngineOrder]
"""Movement or retreat orders in engine form, keyed by the province of the unit ordered."""

# Result codes, in the order of their DAIDE tokens.
SUC = 0
BNC = 1
CUT = 2
DSR = 3
NSO = 4
RESULT_TOKENS = ("SUC", "BNC", "CUT", "DSR", "NSO")
