"""Training a learned order policy from the project's own games (``daide-mcts train``).

* :mod:`bot.training.selfplay` — data generation: in-process games, recording every
  movement phase's position, each power's chosen orders and the final centres;
* :mod:`bot.training.samples` — the recorded games as feature matrices and labels;
* :mod:`bot.training.fitting` — fitting the conditional-logit policy in NumPy, and
  its held-out evaluation against DumbBot's choices.

The model itself, and its inference, live in :mod:`search.orderpolicy`.
"""
