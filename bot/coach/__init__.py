"""The coach: a power's orders graded phase by phase, in a recorded game or a live one.

* :mod:`bot.coach.recorded_game` — a run folder read back: every phase's position and
  adjudicated orders, on the game's own map;
* :mod:`bot.coach.game_review` — every phase of one power graded against the search's
  choice (:mod:`search.grading`), the evaluation graph, the moments that cost most
  (``daide-mcts review``, :mod:`bot.commands.review`).
"""
