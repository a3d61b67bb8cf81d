"""Local seven-bot games: lineups, launching, watching, recording, charts.

The pieces, in the order a game uses them:

* :mod:`bot.local.lineup` — who plays: seat specs (ours, Parang's, any command);
* :mod:`bot.local.launch` — the exact command lines of the server and of every bot
  (shared with ``docker-compose.yml``, checked by a test);
* :mod:`bot.toolkit.observer` — an observer connection that hears every public message;
* :mod:`bot.local.record` — the game record: messages, SCO per year, the result;
* :mod:`bot.local.terminal_view` — the live terminal view (or plain lines when not a terminal);
* :mod:`bot.local.runner` — one whole game, start to finish, into a run folder;
* :mod:`bot.local.outcome` — what a game is and how it went (shared by the rest);
* :mod:`bot.local.chart` — the PNG charts (matplotlib).

Tournaments of many such games live beside it, in :mod:`bot.tournament`.
"""
