"""The DAIDE client's core: its rules as events in, actions out, with no I/O (the h11 pattern).

:mod:`~bot.core.events` are what happens to the bot, :mod:`~bot.core.actions`
what it asks the shell (:mod:`bot.client`) to do, :mod:`~bot.core.notes` the
one stream of what it did, read by :mod:`~bot.core.listeners` and
:mod:`~bot.core.summary`.  :class:`~bot.core.core.BotCore` holds the rules.
"""
