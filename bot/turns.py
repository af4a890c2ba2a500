"""After every accepted change: post the game's new turn message and retire the buttons of the one before.

Each game's cog registers how it posts a turn; everything else (commands, the lobby's Start, turn limits) calls
``announce`` and does not care which game it is. A ``turn_posted`` event follows, for notifications.

Two changes can be stored close together (the next player acts the moment the previous move is stored, while its
turn message is still being drawn), so a game's turn messages are posted one at a time, and a message for an older
version than one already posted keeps its story but not its choices.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.host.service import Outcome
from bot.storage import GameRow
from bot.text.i18n import game_language, speaking

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.turns")

Poster = Callable[["BoardHost", GameRow, Any, Sequence[Any], bool], Awaitable[discord.Message | None]]
_POSTERS: dict[str, Poster] = {}


def register(game: str, poster: Poster) -> None:
    _POSTERS[game] = poster


@dataclass
class _Shown:
    """The newest turn message posted for a game, and the lock that posts its messages one at a time."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = -1
    message_id: int | None = None


# Per bot (tests run several in one process) and per game it announced: a few bytes each, kept for the process.
_SHOWN: weakref.WeakKeyDictionary[BoardHost, dict[int, _Shown]] = weakref.WeakKeyDictionary()


def _shown(bot: BoardHost, game_id: int) -> _Shown:
    return _SHOWN.setdefault(bot, {}).setdefault(game_id, _Shown())


async def channel_of(bot: BoardHost, row: GameRow) -> discord.abc.Messageable | None:
    channel = bot.get_channel(row.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(row.channel_id)
        except discord.HTTPException:
            log.warning("game %s: channel %s is gone", row.id, row.channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def announce(bot: BoardHost, outcome: Outcome, *, opening: bool = False) -> discord.Message | None:
    """Post the turn message for ``outcome`` and take the buttons off the previous one."""
    if outcome.game is None:
        return None
    row = outcome.row
    poster = _POSTERS.get(row.game)
    if poster is None:
        log.error("no turn poster for %s", row.game)
        return None
    shown = _shown(bot, row.id)
    async with shown.lock:
        stored = await bot.games.get(row.id)
        previous = stored.message_id if stored is not None else row.message_id  # posted since the change, maybe
        try:
            with speaking(game_language(row.language)):  # a turn message is public: the game's language
                message = await poster(bot, row, outcome.game, outcome.events, opening)
        except discord.HTTPException as err:  # the move is stored; /game board shows it once the channel works
            log.warning("game %s: turn message not posted: %s", row.id, err)
            return None
        if message is not None and row.version < shown.version:
            # A newer change was announced first: its message stays the game's message and keeps the choices.
            await retire(bot, row, message.id)
            await bot.games.set_message(row.id, shown.message_id)
        elif message is not None:
            shown.version, shown.message_id = row.version, message.id
            if previous and previous != message.id and not opening:  # the lobby has no buttons left
                await retire(bot, row, previous)
    bot.dispatch("turn_posted", outcome)
    return message


async def retire(bot: BoardHost, row: GameRow, message_id: int) -> None:
    """Remove the components of an older turn message: its choices are gone (clicks would be refused anyway)."""
    channel = bot.get_channel(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).edit(view=None)
