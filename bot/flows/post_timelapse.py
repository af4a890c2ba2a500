"""The timelapse of a finished game, posted in its channel once the final scores are out.

What a game's last change owes (``bot.flows.outbox``): once the final turn message is posted, a background task replays
the action log into spectator views (a worker thread), draws and encodes the animation in a drawing process
(``render.timelapse_bytes``: animated WebP or GIF, whichever is smaller, under 4 MiB) and posts it as a follow-up
message in the game's language. The scores are never held up by it; until it is posted it stays owed, so a restart
(or an outage) draws it again.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

import render
from bot.core.components import upload_limit
from bot.core.rendering import Job, Lane
from bot.flows.turns import game_channel
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from bot.text.alt import describe
from engine.history import frames
from render.timelapse import format_of

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.timelapse")


async def post(bot: Host, row: GameRow, *, nonce: str | None = None) -> discord.Message | None:
    """Draw the game's timelapse and post it in its channel (``nonce``: the message's, so a retry never posts it
    twice). Discord's refusals and a lost drawing process are raised, for the outbox to try again; a game that cannot
    be replayed or a timelapse over the upload limit is logged and skipped (None)."""
    try:
        game_log = await bot.records.log(row)
        views = await asyncio.to_thread(lambda: [view for _, view in frames(game_log)])
        with bot.languages.of_game(row.language):  # a channel message: the game's language
            data = await bot.renderer.png(job := Job(render.timelapse_bytes, views), lane=Lane.BACKGROUND)
            alt = describe(job)
            caption = t("timelapse.caption", game=t(f"game.{row.game}"), count=len(views) - 1)
    except (HostError, ValueError) as err:
        log.warning("game %s: no timelapse: %s", row.id, err)
        return None
    channel = await game_channel(bot, row)
    if len(data) > upload_limit(channel):
        log.warning("game %s: timelapse of %d bytes exceeds the upload limit", row.id, len(data))
        return None
    file = discord.File(io.BytesIO(data), filename=f"{row.game}-{row.id}-timelapse.{format_of(data)}", description=alt)
    extra: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
    return await channel.send(content=caption, file=file, allowed_mentions=discord.AllowedMentions.none(), **extra)
