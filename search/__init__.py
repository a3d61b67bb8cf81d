"""Choosing orders: MCTS and the heuristic players.  Searching only (measurement is bot.lab).

From the bottom up:

* :mod:`search.policy` — the players' interfaces (a policy per phase, a chooser under a clock);
* :mod:`search.tables`, :mod:`search.compiled_search`, :mod:`search.dumbbot_values` —
  DumbBot's weights and map tables, its compiled twin, its province values;
* :mod:`search.dumbbot`, :mod:`search.randombot`, :mod:`search.heuristics` — the heuristic
  players; :mod:`search.simulate` plays phases forward with them;
* :mod:`search.mcts` — Monte Carlo Tree Search (``dm`` and the thesis's V1-V8);
* :mod:`search.registry` — players by name; :mod:`search.choosers` — the live bot's chooser.
"""
