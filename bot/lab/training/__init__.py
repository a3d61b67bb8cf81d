"""Training a learned order policy from recorded games (``daide-mcts train``).

* :mod:`bot.lab.training.selfplay` — data generation: in-process games, recording every
  movement phase's position, each power's chosen orders and the final centres;
* :mod:`bot.lab.training.servergames` — the same from games played on a DAIDE server (the
  run folders of ``daide-mcts game`` and tournaments), with the player of each power;
* :mod:`bot.lab.training.samples` — the recorded games as feature matrices and labels;
* :mod:`bot.lab.training.fitting` — fitting the conditional-logit policy in NumPy, and
  its held-out evaluation against DumbBot's choices.

The model itself, and its inference, live in :mod:`search.orderpolicy`.
"""
