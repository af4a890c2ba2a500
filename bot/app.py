"""The discord.py application: storage and services opened in ``setup_hook``, cogs and persistent buttons added.

Commands are never synced on start; ``python -m bot sync`` does that explicitly.
"""

from __future__ import annotations

import logging
import random

import discord
from discord.ext import commands

from bot.config import Config
from bot.host import GameService
from bot.rendering import Renderer
from bot.storage import Database, Games

log = logging.getLogger("boardhost")


class BoardHost(commands.Bot):
    db: Database
    games: Games
    service: GameService
    renderer: Renderer

    def __init__(self, config: Config, *, rng: random.Random | None = None) -> None:
        intents = discord.Intents.default()  # slash commands and buttons need no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = config
        self._rng = rng

    async def setup_hook(self) -> None:
        from bot.catan.items import CatanButton, CatanSelect
        from bot.cogs.carcassonne import CarcassonneCog, CarcButton, CarcSelect
        from bot.cogs.catan import CatanCog
        from bot.cogs.game import GameCog
        from bot.cogs.lobby import LobbyButton, LobbyCog
        from bot.cogs.notify import Notify
        from bot.cogs.reminders import Reminders
        from bot.cogs.turn_limits import TurnLimits

        self.renderer = Renderer(self.config.render_processes)
        await self.renderer.start()
        self.db = await Database.open(self.config.database)
        self.games = Games(self.db, clock=lambda: discord.utils.utcnow().timestamp())
        self.service = GameService(self.games, self._rng)
        await self.add_cog(LobbyCog(self))
        await self.add_cog(GameCog(self))
        await self.add_cog(Reminders(self))
        await self.add_cog(TurnLimits(self))
        await self.add_cog(Notify(self))
        # Buttons are dynamic items: their custom ids carry the game and version, so they work after restarts.
        self.add_dynamic_items(LobbyButton)
        await self.add_cog(CarcassonneCog(self))
        self.add_dynamic_items(CarcButton, CarcSelect)
        await self.add_cog(CatanCog(self))
        self.add_dynamic_items(CatanButton, CatanSelect)
        log.info("boardhost ready: database %s", self.config.database)

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "renderer"):
            self.renderer.close()
        if hasattr(self, "db"):
            await self.db.close()
