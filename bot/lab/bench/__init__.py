"""The benchmarks of ``daide-mcts bench NAME``: each a module with ``main(argv) -> int``.

* :mod:`bot.lab.bench.bench_protocol`, :mod:`bot.lab.bench.bench_adjudicator`,
  :mod:`bot.lab.bench.bench_search`, :mod:`bot.lab.bench.bench_heuristics` — the pure
  cores' speed figures (:mod:`bot.lab.bench.recorded_positions`: the positions of a
  recorded game that ``bench search`` can think on);
* :mod:`bot.lab.bench.bench_grades` — whether the coach's grades (:mod:`search.grading`)
  predict the centres a set loses when replayed;
* :mod:`bot.lab.bench.bench_telemetry` — the cost of the bot's MQTT telemetry;
* :mod:`bot.lab.bench.bench_cluster` — games per hour, ``--parallel`` against ``--ray``.

What they measure lives in :mod:`protocol`, :mod:`adjudicator`, :mod:`search` and
:mod:`bot`; nothing there imports this package.
"""
