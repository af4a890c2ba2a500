"""Catan custom ids: ``bh:ct:{game}:{version}:{op}[:{arg}]``; the buttons and selects of its click table."""

from __future__ import annotations

from typing import Final

from bot.core import clicks

SCOPE: Final = "ct"  # its click table's, in custom ids bh:ct:{game}:{version}:{op}[:{arg}]


# Its buttons and selects, for the modules that build messages (what each op does: bot/catan/handlers.py).
BUILD: Final = clicks.Scope(SCOPE)
button = BUILD.button
select = BUILD.select
