"""The timelapse of a finished game, posted in its channel once the final scores are out.

``bot.cogs.timelapse`` listens to ``turn_posted`` (``bot.turns.announce``): when the turn message just posted is a
game's final one, a background task replays the action log into spectator views (a worker thread), draws and
encodes the animation in a drawing process (``render.timelapse_bytes``: animated WebP or GIF, whichever is smaller,
under 4 MiB) and posts it as a follow-up message in the game's language. The scores are never held up by it; a
failure is logged and costs nothing but the animation.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot import safely
from bot.components import upload_limit
from bot.host import HostError, Outcome
from bot.rendering import RenderError
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import game_language, speaking
from bot.turns import channel_of
from engine.history import frames
from render.timelapse import format_of

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.timelapse")


def schedule(bot: BoardHost, outcome: Outcome, tasks: set[asyncio.Task[discord.Message | None]]) -> None:
    """After a game's final message: draw and post its timelapse in the background (held in ``tasks`` until done;
    the event loop keeps only weak references to tasks)."""
    if is_final(outcome):
        task = asyncio.create_task(post(bot, outcome.row), name=f"timelapse-{outcome.row.id}")
        tasks.add(task)
        task.add_done_callback(tasks.discard)


def is_final(outcome: Outcome) -> bool:
    """The turn message just posted is the game's last: the game is over and stored as finished."""
    return outcome.game is not None and outcome.game.finished and outcome.row.status == "finished"


async def post(bot: BoardHost, row: GameRow) -> discord.Message | None:
    """Draw the game's timelapse and post it in its channel; None (logged) if it cannot be done."""
    try:
        game_log = await bot.service.log(row)
        views = await asyncio.to_thread(lambda: [view for _, view in frames(game_log)])
        with speaking(game_language(row.language)):  # a channel message: the game's language
            data = await bot.renderer.png(("timelapse_bytes", (views,)))
            caption = t("timelapse.caption", game=t(f"game.{row.game}"), count=len(views) - 1)
        channel = await channel_of(bot, row)
        if channel is None:
            return None
        if len(data) > upload_limit(channel):
            log.warning("game %s: timelapse of %d bytes exceeds the upload limit", row.id, len(data))
            return None
        file = discord.File(io.BytesIO(data), filename=f"{row.game}-{row.id}-timelapse.{format_of(data)}")
        return await safely.send(channel, row.id, "timelapse", content=caption, file=file)
    except (HostError, RenderError, ValueError) as err:
        log.warning("game %s: no timelapse: %s", row.id, err)
        return None
