"""The lab's subcommands of ``daide-mcts``: ``bench``, ``arena`` and ``train``.

Each module exposes ``register(subparsers)``, as :mod:`bot.commands` does; a module
here imports only what its flags need, and the lab's code inside its handlers.
"""
