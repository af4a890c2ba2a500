"""Catan in Discord: the same modules as every game (see ``bot/core/contract.py``), plus its menus, forms and names."""
