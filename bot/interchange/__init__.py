"""Games in other tools' formats: a run folder exported to MILA's saved-game JSON, and read back.

* :mod:`bot.interchange.mila_notation` translates orders, units and phases
  between DAIDE's values (:mod:`protocol.values`) and MILA's strings
  (``A PAR - BUR``, ``F STP/SC``, ``S1901M``), both ways;
* :mod:`bot.interchange.mila_games` builds a MILA game from a run folder's
  record (replayed by MILA's own engine, checked against the record phase
  by phase) and reads a MILA saved game back into our values;
* :mod:`bot.interchange.exchange_errors` holds the errors a user can cause.
"""
