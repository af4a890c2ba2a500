"""What this bot hosts: the games (each brings its adapter, cog and click table; ``/<game> new`` first), the
game-neutral cogs in the order their commands are added, and the game-neutral click tables. The entry point builds
the host from these; ``python -m bot sync`` registers the same commands without one."""

from __future__ import annotations

from discord.ext import commands

from bot.carcassonne.adapter import ADAPTER as CARCASSONNE
from bot.catan.adapter import ADAPTER as CATAN
from bot.cogs.away_sweep import Away
from bot.cogs.computer_sweep import Computers
from bot.cogs.delivery_sweep import Deliveries
from bot.cogs.game import GameCog
from bot.cogs.reminder_sweep import Reminders
from bot.cogs.settings_commands import SettingsCog
from bot.cogs.turn_limit_sweep import TurnLimits
from bot.core.host import ClickTable, GameAdapter
from bot.flows import away, computer_turns, lobby, mine, replay

GAMES: tuple[GameAdapter, ...] = (CARCASSONNE, CATAN)
COGS: tuple[type[commands.Cog], ...] = (GameCog, SettingsCog, Reminders, TurnLimits, Computers, Away, Deliveries)
TABLES: tuple[ClickTable, ...] = (lobby.TABLE, computer_turns.TABLE, replay.TABLE, mine.TABLE, away.TABLE)
