"""Scoring games and comparing runs: what tournaments, local games and ``compare`` report.

* :mod:`bot.measure.metrics` — a game's record and the thesis's scoring, standings;
* :mod:`bot.measure.comparison` — two runs compared with confidence intervals;
* :mod:`bot.measure.student_t` — Student's t quantiles, the factor of those intervals.

The arenas and benchmarks that measure the bot in-process are the lab's
(:mod:`bot.lab.arena`, :mod:`bot.lab.bench`).
"""
