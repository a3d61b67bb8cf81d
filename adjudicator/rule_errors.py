"""Errors of the rules engine.

Hierarchy (all are ``ValueError``, since each says some input was wrong)::

    AdjudicatorError
    ├── MapError          a map definition that is not a usable map
    ├── PositionError     a position that does not fit its map (unknown province,
    │                     two units in one province, an army at sea...)
    └── NotationError     DAIDE text given to the notation entry point that
                          does not parse, or names things the map lacks

Illegal *orders* are not errors: they get a THX-style verdict (``FAR``,
``NSU``...) and the unit holds, as on a DAIDE server.
"""

from __future__ import annotations


class AdjudicatorError(ValueError):
    """Base class of every error the adjudicator raises."""


class MapError(AdjudicatorError):
    """The map definition is inconsistent or incomplete."""


class PositionError(AdjudicatorError):
    """The position does not fit the map."""


class NotationError(AdjudicatorError):
    """DAIDE text could not be turned into a position or orders."""
