"""boardhost on one computer, without Discord: ``python -m bot try``.

``loopback`` is a strict Discord of its own (gateway v10 and REST v10, Discord's limits and error answers) that the
unmodified discord.py client connects to; the tests run the real bot against it too. ``table`` is a web page that
plays the part of the Discord client for the people at the table: everything they do reaches the bot as the
interaction Discord would send. ``tryout`` starts the three together: the loopback, the bot as its own process
(``python -m bot`` with a config pointing at the loopback and a SQLite file), and the page.

Nothing else in ``bot/`` imports this package: the bot does not know it is local.
"""
