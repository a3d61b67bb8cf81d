"""Tournaments: many local games of one lineup, scored per player and per label, resumable.

* :mod:`bot.tournament.saved` — the folder: settings, games, reading them back;
* :mod:`bot.tournament.schedule` — playing the games, ``parallel`` at once;
* :mod:`bot.tournament.progress` — the live progress on the terminal;
* :mod:`bot.tournament.reports` — standings as JSON, CSV, markdown and a chart;
* :mod:`bot.tournament.rating` — ratings of the players over tournaments (openskill).
"""
