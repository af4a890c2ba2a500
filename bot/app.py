"""The discord.py application: storage and services opened in ``setup_hook``, cogs and persistent buttons added.

Commands are never synced on start; ``python -m bot sync`` does that explicitly.
"""

from __future__ import annotations

import contextvars
import gc
import logging
import random
import sys
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.carcassonne.adapter import CarcassonneAdapter
from bot.catan.adapter import CatanAdapter
from bot.client import serves
from bot.cogs.computers import Computers
from bot.cogs.game import GameCog
from bot.cogs.notify import Notify
from bot.cogs.reminders import Reminders
from bot.cogs.turn_limits import TurnLimits
from bot.computers import BackButton
from bot.config import Config
from bot.funnel import on_tree_error
from bot.games import GameAdapter, register
from bot.host import GameService
from bot.lobby import LobbyButton
from bot.memory import keep_freed_memory
from bot.mentions import command_mention, load_command_ids
from bot.rendering import Renderer
from bot.storage import Database, Games
from bot.text.commands import CatalogueTranslator
from bot.text.i18n import (
    install_command_mentions,
    install_image_labels,
    remember_locale,
    resolve,
    set_default_language,
    set_guild,
    set_language,
)

log = logging.getLogger("boardhost")
SWITCH_INTERVAL = 0.001  # seconds; see setup_hook
GC_THRESHOLDS = (10_000, 20, 20)  # Python's defaults: 700, 10, 10
# The games this bot hosts (each brings its cog: `/<game> new` first), then the game-neutral cogs, in the order their
# commands are added.
COGS: tuple[type[GameCog | Reminders | TurnLimits | Notify | Computers], ...] = (
    GameCog, Reminders, TurnLimits, Notify, Computers
)  # fmt: skip
GAMES: tuple[Callable[[], GameAdapter], ...] = (CarcassonneAdapter, CatanAdapter)


@serves  # handlers reach it typed through bot.client.bot_of
class BoardHost(commands.Bot):
    db: Database
    games: Games
    service: GameService
    renderer: Renderer

    def __init__(self, config: Config, *, rng: random.Random | None = None) -> None:
        # Commands, buttons and selects arrive as interactions, which need no intent; the server and channel cache
        # needs ``guilds``; ``guild_messages`` tells which message is a channel's newest (a turn goes on in its
        # message only while nothing was posted after it). No message content (privileged), reactions, typing or
        # DM events: nothing here reads them.
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = config
        self._rng = rng
        self._speak_reader_locale()
        self._note_newest_messages_only()

    def _speak_reader_locale(self) -> None:
        """Every interaction is handled in its reader's Discord locale: the handler tasks discord.py starts for it
        (commands, buttons, selects, modals) inherit a context whose language is ``interaction.locale``'s, and whose
        server is the interaction's (for command mentions)."""
        set_default_language(self.config.default_language)
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def in_reader_language(data: Any) -> None:
            user = data.get("member", {}).get("user") or data.get("user") or {}
            lang = resolve(data.get("locale"), default=self.config.default_language)
            if user.get("id"):
                remember_locale(int(user["id"]), lang)
            set_language(lang)
            set_guild(int(data["guild_id"]) if data.get("guild_id") else None)
            parse(data)

        parsers["INTERACTION_CREATE"] = lambda data: contextvars.copy_context().run(in_reader_language, data)

    def _note_newest_messages_only(self) -> None:
        """Message events serve one purpose here: knowing which message is a channel's newest. discord.py would
        build a full Message (and a cached copy) for every message and edit in every channel the bot sees, its own
        turn messages included (6% of the event loop at 50 moves a second); this keeps a channel's
        ``last_message_id`` up to date and nothing else. Nothing here listens to message events."""
        parsers = self._connection.parsers

        def newest(data: Any) -> None:
            channel = self.get_channel(int(data["channel_id"]))
            if channel is not None and hasattr(channel, "last_message_id"):
                channel.last_message_id = int(data["id"])

        parsers["MESSAGE_CREATE"] = newest
        parsers["MESSAGE_UPDATE"] = lambda data: None

    async def setup_hook(self) -> None:
        # The SQLite thread and the drawing processes' reader threads hand their results to a busy event loop; with
        # the default 5 ms switch interval each hand-off can wait that long for the GIL, several times per move.
        sys.setswitchinterval(SWITCH_INTERVAL)
        keep_freed_memory()  # PNGs and request bodies of a few hundred kB each, every turn
        install_image_labels()
        await self.tree.set_translator(CatalogueTranslator())
        self.renderer = Renderer(self.config.render_processes)
        await self.renderer.start()
        self.db = await Database.open(self.config.database)
        await load_command_ids(self.db, self.tree, self.config.dev_guild)
        install_command_mentions(command_mention)  # {back}, {hand}, ... in texts become clickable mentions
        self.games = Games(self.db, clock=lambda: discord.utils.utcnow().timestamp())
        self.service = GameService(self.games, self._rng)
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]  # every command's exception: the funnel
        # Buttons are dynamic items: their custom ids carry the game and version, so they work after restarts.
        for game in GAMES:  # the games, registered explicitly: everything else asks bot.games for them
            adapter = game()
            register(adapter)
            await self.add_cog(adapter.cog(self))
            self.add_dynamic_items(*adapter.items)
        for cog in COGS:
            await self.add_cog(cog(self))
        self.add_dynamic_items(LobbyButton, BackButton)
        # Everything made so far (modules, discord.py, Pillow, the engine's tables, the catalogues) lives as long as
        # the process: out of the collector's sight, a full collection no longer walks it (it stalled the event
        # loop for up to a quarter of a second at 50 moves a second), and the youngest generation is collected
        # less often (most objects of a turn die by reference counting anyway).
        gc.collect()  # garbage of the start frozen would never be freed
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("boardhost ready: database %s", self.config.database)

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "renderer"):
            self.renderer.close()
        if hasattr(self, "db"):
            await self.db.close()
