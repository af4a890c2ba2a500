"""Catan in Discord: the same modules as every game (see ``bot/games.py``), plus its menus, forms and names."""
