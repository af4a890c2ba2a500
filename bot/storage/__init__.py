"""Storage: SQLite (aiosqlite, WAL) or PostgreSQL (asyncpg) behind one interface: migrations, games and their
action logs, user settings, leases for background work; each database's ``health()`` (``Problem`` or None)."""

from bot.storage.database import Database, SchemaTooNew
from bot.storage.games import ChannelBusy, GameRow, Games, Seat, StaleVersion
from bot.storage.health import Problem
from bot.storage.settings import UserSettings

__all__ = [
    "ChannelBusy",
    "Database",
    "GameRow",
    "Games",
    "Problem",
    "SchemaTooNew",
    "Seat",
    "StaleVersion",
    "UserSettings",
]
