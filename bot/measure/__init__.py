"""Measuring the bot: in-process arenas, game scoring and statistics, speed benchmarks.

* :mod:`bot.measure.metrics` — a game's record and the thesis's scoring, standings;
* :mod:`bot.measure.arena_games` — seven players in one process, games scored and summed up;
* :mod:`bot.measure.comparison` — two runs compared with confidence intervals;
* :mod:`bot.measure.student_t` — Student's t quantiles, the factor of those intervals;
* :mod:`bot.measure.bench_protocol`, :mod:`bot.measure.bench_adjudicator`,
  :mod:`bot.measure.bench_search`, :mod:`bot.measure.bench_heuristics` — the pure
  cores' speed figures of ``daide-mcts bench``;
* :mod:`bot.measure.bench_grades` — whether the coach's grades (:mod:`search.grading`)
  predict the centres a set loses when replayed (``daide-mcts bench grades``).

What they measure lives in :mod:`protocol`, :mod:`adjudicator` and :mod:`search`;
nothing there imports this package.
"""
