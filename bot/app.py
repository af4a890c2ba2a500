"""The discord.py application: storage and services opened in ``setup_hook``, cogs and persistent buttons added.

The one concrete ``bot.core.host.Host``: only the entry point (``bot.__main__``) builds it; everything else types
against the protocol. Commands are never synced on start; ``python -m bot sync`` does that explicitly.
"""

from __future__ import annotations

import gc
import logging
import random
import sys
from typing import Any

import discord
from discord.ext import commands

from bot.core.clicks import Control, answer_from_data
from bot.core.command_mentions import CommandMentions, load_command_ids
from bot.core.config import Config
from bot.core.funnel import on_tree_error
from bot.core.gateway import note_newest_messages_only, speak_reader_locale
from bot.core.heartbeat import Heartbeat, start_heartbeat
from bot.core.host import ClickTable, GameAdapter, Shown, UnknownGame
from bot.core.memory import keep_freed_memory
from bot.core.rendering import Renderer
from bot.core.shards import Ownership
from bot.flows.outbox import Outbox
from bot.host import Services
from bot.host.lobbies import Lobby
from bot.host.personal import People
from bot.host.play import Play
from bot.host.records import Records
from bot.host.rows import GameRows
from bot.host.stand_ins import StandIns
from bot.lineup import COGS, GAMES, TABLES
from bot.storage import Database, Games
from bot.storage.leases import Leases
from bot.storage.opening import open_database
from bot.text.i18n import install_image_labels
from bot.text.languages import Languages
from bot.text.translator import CatalogueTranslator

log = logging.getLogger("boardhost")
SWITCH_INTERVAL = 0.001  # seconds; see setup_hook
OUTBOX_CLOSE_WITHIN = 2.0  # seconds deliveries under way get on close; what is left stays owed
GC_THRESHOLDS = (10_000, 20, 20)  # Python's defaults: 700, 10, 10


class BoardHost(commands.Bot):
    db: Database
    games: Games
    rows: GameRows
    lobby: Lobby
    play: Play
    stand_ins: StandIns
    people: People
    records: Records
    renderer: Renderer
    ownership: Ownership
    outbox: Outbox
    languages: Languages
    command_mentions: CommandMentions

    def __init__(self, config: Config, *, rng: random.Random | None = None) -> None:
        # Commands, buttons and selects arrive as interactions, which need no intent; the server and channel cache
        # needs ``guilds``; ``guild_messages`` tells which message is a channel's newest (a turn goes on in its
        # message only while nothing was posted after it). No message content (privileged), reactions, typing or
        # DM events: nothing here reads them.
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        shards: dict[str, Any] = {}
        if config.shard_count is not None and isinstance(self, commands.AutoShardedBot):
            shards = {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids or ())}
        # Nobody is pinged unless a message names exactly whom (bot.core.pings): never by a name in a text.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        self.config = config
        self._rng = rng
        self.shown: dict[int, Shown] = {}
        self._adapters: dict[str, GameAdapter] = {}
        self._tables: dict[str, ClickTable] = {}
        self._heartbeat: Heartbeat | None = None
        note_newest_messages_only(self)

    async def setup_hook(self) -> None:
        # The SQLite thread and the drawing processes' reader threads hand their results to a busy event loop; with
        # the default 5 ms switch interval each hand-off can wait that long for the GIL, several times per move.
        sys.setswitchinterval(SWITCH_INTERVAL)
        keep_freed_memory()  # PNGs and request bodies of a few hundred kB each, every turn
        install_image_labels()
        await self.tree.set_translator(CatalogueTranslator())
        self.renderer = Renderer(self.config.render_processes)
        await self.renderer.start()
        self.db = await open_database(self.config.database)
        self._heartbeat = start_heartbeat(self, self.db)  # for `python -m bot health`, where BOARDHOST_HEARTBEAT is set
        self.command_mentions = await load_command_ids(self.db, self.tree, self.config.dev_guild)
        # This bot's languages: {back}, {hand}, ... in its texts become clickable mentions of its commands
        self.languages = Languages(self.config.default_language, self.command_mentions)
        speak_reader_locale(self, self.languages)  # before the connection: no interaction arrives earlier
        self.games = Games(self.db, clock=lambda: discord.utils.utcnow().timestamp())
        self.ownership = Ownership(
            Leases(self.db),
            shard_count=self.config.shard_count,
            shard_ids=self.config.shard_ids,
            clock=self.games.clock,
            ttl=3.0 * max(self.config.reminder_check, 10),
        )
        await self.ownership.refresh(force=True)  # this process's shards, and the dm lease if nobody holds it
        services = Services.over(self.games, self._rng)
        self.rows, self.lobby, self.play = services.rows, services.lobby, services.play
        self.stand_ins, self.people, self.records = services.stand_ins, services.people, services.records
        self.outbox = Outbox(self)  # what stored changes owe Discord (swept by the Deliveries cog)
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]  # every command's exception: the funnel
        # Buttons are dynamic items: their custom ids carry the game and version, so they work after restarts.
        for adapter in GAMES:  # the games, listed explicitly: everything else asks the host for them
            self._adapters[adapter.name] = adapter
            await self.add_cog(adapter.cog(self))
        for cog in COGS:
            await self.add_cog(cog(self))
        for table in (*TABLES, *(adapter.table for adapter in self._adapters.values())):
            self._tables[table.scope] = table
        # Every button and select is one dynamic item: its custom id names its table, game and version, so it works
        # after restarts, and it is honoured only where its game is (``bot.core.clicks``).
        self.add_dynamic_items(Control)
        answer_from_data()
        # Everything made so far (modules, discord.py, Pillow, the engine's tables, the catalogues) lives as long as
        # the process: out of the collector's sight, a full collection no longer walks it (it stalled the event
        # loop for up to a quarter of a second at 50 moves a second), and the youngest generation is collected
        # less often (most objects of a turn die by reference counting anyway).
        gc.collect()  # garbage of the start frozen would never be freed
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)

    @property
    def tables(self) -> dict[str, ClickTable]:
        return self._tables

    def adapter(self, name: str) -> GameAdapter:
        try:
            return self._adapters[name]
        except KeyError:
            raise UnknownGame(name) from None

    def adapters(self) -> list[GameAdapter]:
        return list(self._adapters.values())

    def owns(self, row: Any) -> bool:
        """Whether this process does the game's background work (its guild's shard; see bot/core/shards.py)."""
        return self.ownership.owns(row)

    async def close(self) -> None:
        if self._heartbeat is not None:  # first: a closing bot is not a healthy one
            await self._heartbeat.stop()
        if hasattr(self, "outbox"):  # deliveries under way finish; the rest stays owed for the next start
            await self.outbox.close(OUTBOX_CLOSE_WITHIN)
        await super().close()
        if hasattr(self, "stand_ins"):  # the decision process: a decision under way is made again after the start
            self.stand_ins.close()
        if hasattr(self, "renderer"):
            self.renderer.close()
        if hasattr(self, "db"):
            if hasattr(self, "ownership"):
                try:
                    await self.ownership.release()
                except Exception:  # the database may be gone already; the leases then simply expire
                    log.exception("leases not released")
            await self.db.close()


class ShardedBoardHost(BoardHost, commands.AutoShardedBot):
    """The bot running several Discord shards in one process (``--shard-ids 0-3 --shard-count 8``)."""


def make_bot(config: Config, *, rng: random.Random | None = None) -> BoardHost:
    """The bot for ``config``: sharded when it names a shard count."""
    if config.shard_count is not None:
        return ShardedBoardHost(config, rng=rng)
    return BoardHost(config, rng=rng)
