"""SQLite storage (aiosqlite, WAL): migrations, games and their action logs, user settings."""

from bot.storage.database import Database
from bot.storage.games import ChannelBusy, GameRow, Games, Seat, StaleVersion
from bot.storage.settings import UserSettings

__all__ = ["ChannelBusy", "Database", "GameRow", "Games", "Seat", "StaleVersion", "UserSettings"]
