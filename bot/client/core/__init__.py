"""The DAIDE client's core: its rules as events in, effects out, with no I/O (the h11 pattern).

:mod:`~bot.client.core.events` are what happens to the bot, :mod:`~bot.client.core.effects`
what it asks the shell (:mod:`bot.client.shell`) to do, :mod:`~bot.client.core.notes` the
one stream of what it did, read by :mod:`~bot.client.listeners` and
:mod:`~bot.client.core.summary`.  :class:`~bot.client.core.core.BotCore` holds the rules.
"""
