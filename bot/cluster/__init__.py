"""Tournaments on a Ray cluster: each game one Ray task on some node, results gathered here.

:mod:`bot.cluster.options` holds the command-line flags (no Ray import);
:mod:`bot.cluster.identity` what makes two nodes run the same bot code;
:mod:`bot.cluster.task` what runs on a node (one game in a child process,
under a watchdog); :mod:`bot.cluster.child` that child; :mod:`bot.cluster.driver`
the tournament's side: connecting, checking the nodes, scheduling the games,
re-running lost ones, and filling the tournament folder as results arrive.
Ray is an optional dependency (``daide-mcts[cluster]``), imported only here.
"""
