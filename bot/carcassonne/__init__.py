"""Carcassonne in Discord: the same modules as every game (see ``bot.core.host.GameAdapter``)."""
