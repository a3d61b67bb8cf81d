"""Rule choices on which DAIDE servers differ, as options of the adjudicator.

The DATC leaves some questions to the judge; where the servers this bot plays
on answer them differently, the choice is an option here, so that the shadow
adjudication of a game predicts what *that* server does.
"""

from __future__ import annotations

from enum import Enum


class CivilDisorderRule(Enum):
    """How the distance from home is counted when civil disorder removes units.

    A power that orders too few removals loses the units farthest from its home
    centres (fleets before armies at equal distance, then alphabetically by
    province).  The servers count that distance differently:

    * ``PARLANCE``: province steps over land and sea alike, whatever the unit
      type (Parlance 1.4.1, ``Power.farthest_units``; BANDANA's server);
    * ``DATC``: an army's steps over land and sea, a fleet's by fleet moves only
      (DATC 4.D.8 choice d, as MILA's server adjudicates it); the alphabetical
      tie-break reads the judges' abbreviations (``ENG``, ``BOT``, ``LYO``), not
      DAIDE's ``ECH``, ``GOB``, ``GOL``.
    """

    PARLANCE = "parlance"
    DATC = "datc"


JUDGE_NAMES = {"ECH": "ENG", "GOB": "BOT", "GOL": "LYO"}
"""The provinces whose judge abbreviation differs from their DAIDE token."""

DEFAULT_CIVIL_DISORDER = CivilDisorderRule.PARLANCE
"""The rule of the reference server (Parlance)."""
