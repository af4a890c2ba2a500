"""Carcassonne in Discord: the same modules as every game (see ``bot/games.py``)."""
