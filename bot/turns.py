"""After every accepted change: post the game's new turn message and retire the buttons of the one before.

Each game's adapter (``bot.games``) says how it posts a turn; everything else (commands, the lobby's Start, turn
limits) calls ``announce`` and does not care which game it is. A ``turn_posted`` event follows, for notifications. A
poster may instead bring the game's current message up to date (a turn that goes on with the same player reads best
as one message); it is told what that message shows.

Two changes can be stored close together (the next player acts the moment the previous move is stored, while its
turn message is still being drawn), so a game's turn messages are posted one at a time, and a message for an older
version than one already posted keeps its story but not its choices.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

import discord

from bot import safely
from bot.games import Posted, Shown, UnknownGame, adapter
from bot.host.service import Outcome
from bot.storage import GameRow
from bot.text.i18n import game_language, speaking

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.turns")


# Per bot (tests run several in one process) and per game it announced, kept for the process: a few bytes each,
# plus the story of a turn in progress (at most a message's 2,000 characters; none once the game is over).
_SHOWN: weakref.WeakKeyDictionary[BoardHost, dict[int, Shown]] = weakref.WeakKeyDictionary()


def _shown(bot: BoardHost, game_id: int) -> Shown:
    return _SHOWN.setdefault(bot, {}).setdefault(game_id, Shown())


async def channel_of(bot: BoardHost, row: GameRow) -> discord.abc.Messageable | None:
    channel = await safely.fetch_channel(bot, row.channel_id, row.id)
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def announce(
    bot: BoardHost, outcome: Outcome, *, opening: bool = False
) -> discord.Message | discord.PartialMessage | None:
    """Post the turn message for ``outcome`` and take the buttons off the previous one."""
    if outcome.game is None:
        return None
    row = outcome.row
    try:
        game = adapter(row.game)
    except UnknownGame:
        log.error("no adapter for %s", row.game)
        return None
    shown = _shown(bot, row.id)
    async with shown.lock:
        if shown.message_id is None:  # first in this process: the stored one (the lobby's, or from before a restart)
            stored = await bot.service.stored(row.id)
            shown.message_id = stored.message_id if stored is not None else row.message_id
        previous = shown.message_id
        posted: Posted | None = None
        async with safely.posting(row.id, "turn message", log) as attempt:
            with speaking(game_language(row.language)):  # a turn message is public: the game's language
                posted = await game.post_turn(bot, row, outcome.game, outcome.events, opening, shown)
        if attempt.failed:  # the move is stored; /game board shows it once the channel works
            return None
        if posted is None:
            message = None
        elif row.version < shown.version:
            # A newer change was announced first: its message stays the game's message and keeps the choices.
            message = posted.message
            if message.id != shown.message_id:
                await retire(bot, row, message.id)
                await bot.service.set_message(row.id, shown.message_id)
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
    channel = bot.get_channel(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
        return
    await safely.edit(channel.get_partial_message(message_id), row.id, "previous turn message", view=None)
