"""After every accepted change: post the game's new turn message and retire the buttons of the one before.

Each game's cog registers how it posts a turn; everything else (commands, the lobby's Start, turn limits) calls
``announce`` and does not care which game it is. A ``turn_posted`` event follows, for notifications.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.host.service import Outcome
from bot.storage import GameRow

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.turns")

Poster = Callable[["BoardHost", GameRow, Any, Sequence[Any], bool], Awaitable[discord.Message | None]]
_POSTERS: dict[str, Poster] = {}


def register(game: str, poster: Poster) -> None:
    _POSTERS[game] = poster


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
    poster = _POSTERS.get(outcome.row.game)
    if poster is None:
        log.error("no turn poster for %s", outcome.row.game)
        return None
    previous = outcome.row.message_id
    try:
        message = await poster(bot, outcome.row, outcome.game, outcome.events, opening)
    except discord.HTTPException as err:  # the move is stored; /game board shows it once the channel works again
        log.warning("game %s: turn message not posted: %s", outcome.row.id, err)
        return None
    if message is not None and previous and previous != message.id and not opening:  # the lobby has no buttons left
        await retire(bot, outcome.row, previous)
    bot.dispatch("turn_posted", outcome)
    return message


async def retire(bot: BoardHost, row: GameRow, message_id: int) -> None:
    """Remove the components of an older turn message: its choices are gone (clicks would be refused anyway)."""
    channel = bot.get_channel(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).edit(view=None)
