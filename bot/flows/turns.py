"""After every accepted change: post the game's new turn message and retire the buttons of the one before.

Each game's adapter (``bot.core.host.GameAdapter``) says how it posts a turn; everything else (commands, the lobby's
Start, turn limits) reaches ``announce`` through the outbox (``bot.flows.outbox``), which dispatches ``turn_posted``
after it. A poster may instead bring the game's current message up to date (a turn that goes on with the same player
reads best as one message); it is told what that message shows.

Failures are not caught here: ``bot.flows.outbox``, the one caller, keeps the change owed and tries again.

Two changes can be stored close together (the next player acts the moment the previous move is stored, while its
turn message is still being drawn), so a game's turn messages are posted one at a time, and a message for an older
version than one already posted keeps its story but not its choices.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core import safely
from bot.core.components import CONTENT, names_of
from bot.core.host import Shown, UnknownGame
from bot.host.outcome import Outcome
from bot.storage import GameRow
from engine import Event
from engine.history import spectator_events

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.turns")


def _shown(bot: Host, game_id: int) -> Shown:
    """The newest turn message this process posted for the game (kept on the host: a few bytes a game, plus the
    story of a turn in progress, at most a message's 2,000 characters; none once the game is over)."""
    return bot.shown.setdefault(game_id, Shown())


def nonce(game_id: int, version: int, part: str) -> str:
    """The nonce of one message a change owes (Discord allows 25 characters): a retry of the same message returns the
    one a lost answer made instead of posting it twice."""
    return f"b{game_id}.{version}.{part}"[:25]


class ChannelMissing(Exception):
    """The game's channel cannot be found (deleted, or the bot lost access to it)."""


async def channel_of(bot: Host, row: GameRow) -> discord.abc.Messageable | None:
    channel = await safely.fetch_channel(bot, row.channel_id, row.id)
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def game_channel(bot: Host, row: GameRow) -> discord.abc.Messageable:
    """The game's channel for posting what a change owes; Discord's refusal (a deleted channel, lost access, an
    outage) is raised for the outbox to judge."""
    channel: Any = bot.get_channel(row.channel_id)
    if channel is None:
        channel = await bot.fetch_channel(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise ChannelMissing(row.channel_id)
    return channel


async def post_story(bot: Host, row: GameRow, version: int, events: list[Event]) -> None:
    """A change the game has already moved past (delivered late, after a crash or an outage): its story alone, in the
    game's language, without board or buttons (the newer change's message carries those)."""
    game = bot.adapter(row.game)
    with bot.languages.of_game(row.language):
        lines = game.narrate(spectator_events(events), names_of(row), row.state)
    if not lines:
        return
    channel = await game_channel(bot, row)
    await channel.send(
        content="\n".join(lines)[:CONTENT],
        allowed_mentions=discord.AllowedMentions.none(),
        nonce=nonce(row.id, version, "s"),
    )


async def announce(
    bot: Host, outcome: Outcome, *, opening: bool = False, nonce: str | None = None, unrecorded: list[int] | None = None
) -> discord.Message | discord.PartialMessage | None:
    """Post the turn message for ``outcome`` and take the buttons off the previous one (``nonce``: the message's,
    so that a retry returns the message a lost answer made instead of posting it twice). With ``unrecorded``, the id
    of the message that now shows the change is put there instead of being stored with its version: the caller
    stores it (``bot.flows.outbox``: with the change's delivery, in one trip)."""
    if outcome.game is None:
        return None
    row = outcome.row
    try:
        game = bot.adapter(row.game)
    except UnknownGame:
        log.error("no adapter for %s", row.game)
        return None
    shown = _shown(bot, row.id)
    async with shown.lock:
        if shown.message_id is None or shown.version < row.version - 1:
            # First in this process (the lobby's message, or one from before a restart), or versions in between were
            # announced elsewhere (another bot process sharing the database): what this process remembers is only
            # good for the version it posted, so the stored message is the game's.
            stored = await bot.rows.stored(row.id)
            found = stored.message_id if stored is not None else row.message_id
            if found != shown.message_id:
                shown.message_id, shown.step, shown.story = found, None, ()
        previous = shown.message_id
        with bot.languages.of_game(row.language):  # a turn message is public: the game's language
            posted = await game.post_turn(bot, row, outcome.game, outcome.events, opening, shown, nonce)
        if posted is None:
            message = None
        elif row.version < shown.version:
            # A newer change was announced first: its message stays the game's message and keeps the choices.
            message = posted.message
            if message.id != shown.message_id:
                await retire(bot, row, message.id)
                await bot.records.set_message(row.id, shown.message_id)
        else:
            message = posted.message
            if previous and previous != message.id and not opening:  # the lobby has no buttons left
                await retire(bot, row, previous)
            # Only now is the version shown: a kill (or a failure) before this posts the message again, which its
            # nonce finds, and retires the previous one again.
            if unrecorded is None:
                await bot.records.set_message(row.id, message.id, row.version)
            else:
                unrecorded.append(message.id)
            shown.version, shown.message_id = row.version, message.id
            shown.step, shown.story = posted.step, posted.story
    return message


async def refresh_choices(
    bot: Host, game_id: int, game: str, choices: Callable[[GameRow], discord.ui.View | None]
) -> None:
    """Put the current version's ``choices`` back on the turn message of ``game_id`` (a game of ``game``): a click
    refused as stale may find older ones there after a race. Under the lock that posts turn messages, and only while
    the stored turn message shows the current version: otherwise a turn message is on its way with them, and the
    one stored is about to be retired (choices put on it now would outlive the retiring)."""
    async with _shown(bot, game_id).lock:
        row = await bot.rows.stored(game_id)
        if row is None or row.game != game or row.status != "active" or not row.message_id:
            return
        if row.shown_version < row.version:
            return
        channel: Any = bot.get_channel(row.channel_id) or bot.get_partial_messageable(row.channel_id)
        if not hasattr(channel, "get_partial_message"):
            return
        view = choices(row)
        await safely.edit(channel.get_partial_message(row.message_id), row.id, "turn message", view=view)


async def retire(bot: Host, row: GameRow, message_id: int) -> None:
    """Remove the components of an older turn message: its choices are gone (clicks would be refused anyway).
    Discord's refusals are raised, as the poster's are (``bot.flows.outbox`` judges them)."""
    channel: Any = bot.get_channel(row.channel_id)
    if channel is None:  # a channel this process does not see (another shard's, reached by a DM interaction)
        channel = bot.get_partial_messageable(row.channel_id)
    if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "get_partial_message"):
        return
    # A passing failure is raised (the outbox tries the change again); a message deleted meanwhile has no buttons.
    await safely.edit_in_place(bot, row.channel_id, message_id, row.id, "previous turn message", view=None)
