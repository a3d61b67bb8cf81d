"""Order models trained here (``daide-mcts train``), shipped as ``<name>.json``.

Each file records the command and seed that made it (its ``provenance``);
:func:`search.orderpolicy.load_model` reads one by name.
"""
