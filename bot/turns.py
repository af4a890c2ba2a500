"""After every accepted change: post the game's new turn message and retire the buttons of the one before.

Each game's cog registers how it posts a turn; everything else (commands, the lobby's Start, turn limits) calls
``announce`` and does not care which game it is. A ``turn_posted`` event follows, for notifications. A poster may
instead bring the game's current message up to date (a turn that goes on with the same player reads best as one
message); it is told what that message shows.

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


@dataclass(frozen=True)
class Posted:
    """What a poster put in the channel: the message, and what a later update of it in place may build on."""

    message: discord.Message | discord.PartialMessage
    step: Any = None  # the game's point the message shows (a poster's own key, e.g. turn and player)
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
    step: Any = None
    story: tuple[str, ...] = ()


Poster = Callable[["BoardHost", GameRow, Any, Sequence[Any], bool, Shown], Awaitable[Posted | None]]
_POSTERS: dict[str, Poster] = {}


def register(game: str, poster: Poster) -> None:
    _POSTERS[game] = poster


# Per bot (tests run several in one process) and per game it announced, kept for the process: a few bytes each,
# plus the story of a turn in progress (at most a message's 2,000 characters; none once the game is over).
_SHOWN: weakref.WeakKeyDictionary[BoardHost, dict[int, Shown]] = weakref.WeakKeyDictionary()


def _shown(bot: BoardHost, game_id: int) -> Shown:
    return _SHOWN.setdefault(bot, {}).setdefault(game_id, Shown())


async def channel_of(bot: BoardHost, row: GameRow) -> discord.abc.Messageable | None:
    channel = bot.get_channel(row.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(row.channel_id)
        except discord.HTTPException:
            log.warning("game %s: channel %s is gone", row.id, row.channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def announce(
    bot: BoardHost, outcome: Outcome, *, opening: bool = False
) -> discord.Message | discord.PartialMessage | None:
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
        if shown.message_id is None or shown.version < row.version - 1:
            # First in this process (the lobby's message, or one from before a restart), or versions in between were
            # announced elsewhere (another bot process sharing the database): what this process remembers is only
            # good for the version it posted, so the stored message is the game's.
            stored = await bot.games.get(row.id)
            found = stored.message_id if stored is not None else row.message_id
            if found != shown.message_id:
                shown.message_id, shown.step, shown.story = found, None, ()
        previous = shown.message_id
        try:
            with speaking(game_language(row.language)):  # a turn message is public: the game's language
                posted = await poster(bot, row, outcome.game, outcome.events, opening, shown)
        except discord.HTTPException as err:  # the move is stored; /game board shows it once the channel works
            log.warning("game %s: turn message not posted: %s", row.id, err)
            return None
        if posted is None:
            message = None
        elif row.version < shown.version:
            # A newer change was announced first: its message stays the game's message and keeps the choices.
            message = posted.message
            if message.id != shown.message_id:
                await retire(bot, row, message.id)
                await bot.games.set_message(row.id, shown.message_id)
        else:
            message = posted.message
            shown.version, shown.message_id = row.version, message.id
            shown.step, shown.story = posted.step, posted.story
            if previous and previous != message.id and not opening:  # the lobby has no buttons left
                await retire(bot, row, previous)
    bot.dispatch("turn_posted", outcome)
    return message


async def retire(bot: BoardHost, row: GameRow, message_id: int) -> None:
    """Remove the components of an older turn message: its choices are gone (clicks would be refused anyway)."""
    channel: Any = bot.get_channel(row.channel_id)
    if channel is None:  # a channel this process does not see (another shard's, reached by a DM interaction)
        channel = bot.get_partial_messageable(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).edit(view=None)
