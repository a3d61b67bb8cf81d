"""The DAIDE client: a pure core (:mod:`bot.client.core`) in a small asyncio shell.

What ``daide-mcts play`` and a person's seat run; the tools beside it depend on it,
never the other way.
"""
