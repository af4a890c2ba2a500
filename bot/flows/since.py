""" "Since your last turn": when a player's turn comes, what the others did since that player's previous move.

A short narration of every turn in between (the sentences the turn messages told, from spectator events) and a
small board with the tiles, roads and buildings placed since then outlined (``render.since_png``). Shown by
``/game status`` to the player whose turn it is, and in the turn DM for players who asked for DMs. Nothing here is
secret: only the spectator's view and events are used.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord

import render
from bot.core.components import CONTENT, image_file
from bot.core.rendering import Job, Lane
from bot.flows.replay import seat_name, story, turn_label
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from bot.text.alt import describe
from bot.text.story import fit
from engine import Game
from engine.history import Since, since_last_move

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.since")

LIMIT: Final = 1500  # characters of narration: a glance, not the whole story (``/game replay`` has that)


@dataclass(frozen=True)
class News:
    """What ``seat`` missed: the turns since its previous move, told and drawn."""

    seat: int
    since: Since
    text: str
    png: bytes | None
    alt: str | None = None  # the picture's alt text (``bot.alt``)


def told(host: Host, row: GameRow, since: Since) -> str:
    """One line per turn in between: its label, the player, and what happened (in the current language)."""
    lines = []
    for turn in since.turns:
        said = " ".join(story(host, row, turn)) or t("replay.quiet")
        lines.append(t("since.turn_line", turn=turn_label(turn), name=seat_name(row, turn.seat), story=said))
    return fit(lines, "", LIMIT).rstrip("\n")


async def news(bot: Host, row: GameRow, seat: int, *, picture: bool = True) -> News | None:
    """What ``seat`` missed since its previous move; None when nothing happened in between (or for a lobby)."""
    try:
        game_log = await bot.records.log(row)
    except HostError:
        return None
    since = await asyncio.to_thread(since_last_move, game_log, seat)
    if not since.turns:
        return None
    job = Job(render.since_png, since.view, since.placed)
    png = await bot.renderer.png(job, lane=Lane.INTERACTIVE) if picture else None  # the player's turn
    return News(
        seat, since, told(bot, row, since), png, describe(job, bot.adapter(row.game).words) if picture else None
    )


def title(news: News) -> str:
    """ "Since your last turn", or "Since the game began" before the player's first move."""
    first = news.since.turns[0]
    return t("since.title_start" if first.index == 0 else "since.title")


async def for_status(
    bot: Host, row: GameRow, game: Game, user_id: int, channel: object
) -> tuple[discord.Embed, discord.File | None] | None:
    """The "since your last turn" embed (and its picture) for ``/game status``, when it is the reader's turn."""
    seat = row.seat_of(user_id)
    if seat is None or seat != game.current_seat() or seat not in game.public_actors():
        return None
    missed = await news(bot, row, seat)
    if missed is None:
        return None
    embed = discord.Embed(title=title(missed), description=missed.text)
    file = image_file(channel, missed.png, "since.png", missed.alt) if missed.png is not None else None
    if file is not None:
        embed.set_image(url="attachment://since.png")
    return embed, file


async def for_dm(bot: Host, row: GameRow, user_id: int, text: str) -> tuple[str, discord.File | None]:
    """A turn DM's ``text`` with what the reader missed since their last move added, and its picture."""
    seat = row.seat_of(user_id)
    missed = None if seat is None else await news(bot, row, seat)
    if missed is None:
        return text, None
    told = fit([text, "", title(missed), missed.text], "", CONTENT).rstrip("\n")
    return told, image_file(None, missed.png, "since.png", missed.alt) if missed.png is not None else None
