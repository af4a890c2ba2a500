"""The story of a finished game, posted in its channel after the final scores: one picture and a few sentences.

What a game's last change owes (``bot.flows.outbox``, the ``story`` part, before the timelapse): its action log is
replayed in a worker thread into the story's numbers (``engine.story``: what a spectator saw, nothing secret), the
picture is drawn in a drawing process (``render.story_png``) and told in words for its alt text, the game's
sentences come from its adapter (``bot/<game>/recap.py``), followed by what the game did to the players' ratings
(rated by the ``rating`` part just before). All in the game's language. Until it is posted it stays owed, so a
restart (or an outage) tells it again, and its nonce keeps a retry from posting it twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

import render
from bot.core.components import CONTENT
from bot.core.rendering import Job, Lane
from bot.flows.turns import game_channel
from bot.host import HostError
from bot.host.skill import Standing
from bot.storage import GameRow
from bot.text import t
from bot.text.alt import describe
from bot.text.story_words import rating_line
from engine.replay import ReplayError
from engine.story import story

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.story")


def filename(row: GameRow) -> str:
    return f"{row.game}-{row.id}-story.png"


async def post(bot: Host, row: GameRow, *, nonce: str | None = None) -> discord.Message | None:
    """Tell the story of the finished game ``row`` in its channel (``nonce``: the message's, so a retry never posts
    it twice). Discord's refusals and a lost drawing process are raised, for the outbox to try again; a game whose
    log does not replay is logged and skipped (None)."""
    adapter = bot.adapter(row.game)
    try:
        game_log = await bot.records.log(row)
        told = await asyncio.to_thread(story, game_log)
    except (HostError, ReplayError, ValueError) as err:
        log.warning("game %s: no story: %s", row.id, err)
        return None
    rated = [
        (c.placing.seat, Standing(*c.before).rating, Standing(*c.after).rating)
        for c in await bot.records.standings.of_game(row.id)
    ]
    names = [seat.name for seat in row.seats]
    with bot.languages.of_game(row.language):  # a channel message: the game's language
        data = await bot.renderer.png(job := Job(render.story_png, told), lane=Lane.BACKGROUND)
        alt = describe(job, adapter.words)
        lines = [f"**{t('story.caption', game=t(f'game.{row.game}'))}**"]
        lines += adapter.recap(told) if adapter.recap is not None else []
        lines += rating_line(rated, names)
    channel = await game_channel(bot, row)
    file = discord.File(io.BytesIO(data), filename=filename(row), description=alt)
    extra: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
    return await channel.send(content="\n".join(lines)[:CONTENT], file=file,
                              allowed_mentions=discord.AllowedMentions.none(), **extra)  # fmt: skip
