"""Subcommands of ``daide-mcts``; each module has ``register(subparsers)``."""
