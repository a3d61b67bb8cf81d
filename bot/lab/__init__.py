"""The laboratory: what the project uses to study and measure the bot, not what a user plays.

* :mod:`bot.lab.training` — learning an order policy from recorded games (``daide-mcts train``);
* :mod:`bot.lab.arena` — seven players in one process, games scored and summed up
  (``daide-mcts arena``), the in-process games of training and of the grades' benchmark;
* :mod:`bot.lab.bench` — the speed and accuracy figures of ``daide-mcts bench`` that go
  into BENCHMARKS.md;
* :mod:`bot.lab.commands` — those three commands' flags; each imports the lab's code only
  when it runs, so building the command line loads no lab code.

The lab uses the product (the client, local games, tournaments, the metrics of
:mod:`bot.measure`) and the pure cores; nothing outside it imports it (but the entry
point, :mod:`bot.cli`, which names its commands).  ``tests/test_architecture.py`` holds
both rules.
"""
