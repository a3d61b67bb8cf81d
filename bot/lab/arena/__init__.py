"""In-process arenas: seven players in one process, games scored with :mod:`bot.measure.metrics`.

:mod:`bot.lab.arena.arena_games` plays and sums up the games of ``daide-mcts arena``; the
training's self-play and the grades' benchmark play their games with it.
"""
