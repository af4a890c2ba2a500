"""Catan in Discord: the same modules as every game (``bot.core.host.GameAdapter``), plus its menus, forms, names."""
