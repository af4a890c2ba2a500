"""The contract every game's Discord package fulfils, and the registry the rest of the bot asks.

Each game lives in its own package (``bot/<game>/``) with the same modules: ``ids`` (custom ids), ``items`` (the
dynamic buttons and selects), ``turn`` (the turn message), ``flows`` (acting and posting), ``handlers`` (what each
button does), ``narration`` (events in words), ``commands`` (its slash commands) and ``adapter`` (this contract).
The host, the computer players, the notifier and the cogs call a game only through its adapter, found by the
stored row's ``game``: nothing outside a game's package asks which game it is. Adapters are registered explicitly
at start-up (``bot.app``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from bot.host.service import Outcome
from bot.storage import GameRow
from engine import Event, Game

if TYPE_CHECKING:
    from bot.app import BoardHost


@dataclass(frozen=True)
class Posted:
    """What a poster put in the channel: the message, and what a later update of it in place may build on."""

    message: discord.Message | discord.PartialMessage
    step: object = None  # the game's point the message shows (a poster's own key, e.g. turn and player)
    story: tuple[str, ...] = ()  # the news lines it shows


@dataclass
class Shown:
    """The newest turn message this process posted for a game, and the lock that posts them one at a time.

    Held in memory only: after a restart the first turn message of each game is a new one. Used only for the next
    version after the one it shows; past that the stored message id is read again (another process may have posted).
    """

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = -1
    message_id: int | None = None
    step: object = None
    story: tuple[str, ...] = ()


class GameAdapter(Protocol):
    """One game's Discord presentation, as the game-neutral parts of the bot use it."""

    @property
    def name(self) -> str:
        """The engine's name for the game (``game_class(name)``; the stored row's ``game``)."""
        ...

    @property
    def items(self) -> Sequence[type[discord.ui.DynamicItem[Any]]]:
        """The game's dynamic buttons and selects, added to the bot so that they work across restarts."""
        ...

    @property
    def cog_type(self) -> type[commands.Cog]:
        """The cog of the game's slash commands (``/<game> new`` and its in-game commands)."""
        ...

    def cog(self, bot: BoardHost) -> commands.Cog:
        """The game's cog for ``bot``."""
        ...

    async def post_turn(
        self,
        bot: BoardHost,
        row: GameRow,
        game: Game,
        events: Sequence[Event],
        opening: bool,
        shown: Shown,
        nonce: str | None = None,
    ) -> Posted | None:
        """Post (or bring up to date) the turn message after a change (``nonce``: the new message's, so that a retry
        cannot post it twice); Discord's refusals are raised (the outbox judges them). The caller (``bot.flows.turns``)
        records the message as the game's once the previous one's buttons are off."""
        ...

    async def after_move(self, bot: BoardHost, outcome: Outcome, *, actor: int | None) -> None:
        """Private news of a move (direct messages) once its turn message is posted; ``actor`` already knows."""
        ...

    def narrate(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """Spectator events (``engine.history``: secret parts already gone) in the sentences the turn messages tell,
        in the current language: ``/game replay`` and "since your last turn" tell earlier turns with them."""
        ...


_REGISTRY: dict[str, GameAdapter] = {}


class UnknownGame(LookupError):
    """A stored row names a game no adapter was registered for."""


def register(adapter: GameAdapter) -> None:
    """Make ``adapter`` the Discord presentation of its game (called once per game at start-up)."""
    _REGISTRY[adapter.name] = adapter


def adapter(name: str) -> GameAdapter:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGame(name) from None


def adapters() -> list[GameAdapter]:
    """The registered games, in the order they were registered."""
    return list(_REGISTRY.values())
