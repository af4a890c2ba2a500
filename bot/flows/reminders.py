"""Reminders for idle turns, decided from the database alone so that they survive restarts.

A game's ``turn_started_at`` is reset whenever the players owing a decision change; ``reminders_sent`` counts the
reminders of the current wait. The n-th reminder is due once the wait reaches the n-th configured delay. A reminder
names only the people who are not away, and waits while any of them is in their quiet hours: it goes at the first
sweep after they end.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.core import pings, safely
from bot.core.funnel import each_game
from bot.flows.presence import now, presence
from bot.flows.turns import nonce
from bot.host.outcome import waiting_for
from bot.storage import GameRow, Games
from bot.text import listing, t

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.reminders")


@dataclass(frozen=True, slots=True)
class Due:
    row: GameRow
    nth: int  # 1 for the first reminder of this wait
    idle: float  # seconds since the turn started

    @property
    def game_id(self) -> int:
        return self.row.id


def due(rows: Sequence[GameRow], now: float, delays: Sequence[int]) -> list[Due]:
    """The reminders to send now, at most one per game (the latest due, so a long outage sends one, not many)."""
    found = []
    for row in rows:
        if row.status != "active" or row.turn_started_at is None:
            continue
        idle = now - row.turn_started_at
        reached = sum(1 for d in delays if idle >= d)
        if reached > row.reminders_sent:
            found.append(Due(row, reached, idle))
    return found


async def mark_sent(games: Games, reminder: Due) -> bool:
    """Record a reminder as sent unless the turn moved on meanwhile (then it is not sent at all)."""
    return await games.mark_reminder_sent(reminder.row.id, reminder.row.version, reminder.nth)


async def remind(bot: Host, reminder: Due) -> None:
    """Mention the people a game waits for, in its channel (in the game's language), once per reminder; not yet
    while any of them is in their quiet hours, and never the people who are away."""
    row = reminder.row
    game = bot.rows.game(row)
    people = [s for s in waiting_for(game) if not row.seats[s].computer and s not in row.stand_ins]
    here = await presence(bot, row)
    people = [s for s in people if here.away_until(row.seats[s].user_id) is None]
    if any(here.quiet(row.seats[s].user_id) for s in people):
        return  # not marked sent: the next sweep after their quiet hours sends it
    if not await bot.records.mark_reminder_sent(reminder.row.id, reminder.row.version, reminder.nth):
        return  # the turn moved on while we looked
    if not people:  # only computer players (or people away) owe a decision
        return
    channel = await safely.fetch_channel(bot, row.channel_id, row.id)  # None (logged): a deleted channel
    if not isinstance(channel, discord.abc.Messageable):
        return
    hours = int(reminder.idle // 3600)
    with bot.languages.of_game(row.language):  # posted in the channel: the game's language
        who = listing(row.mention(s) for s in people)
        params = {"who": who, "game": t(f"game.{row.game}"), "hours": hours, "count": hours}
        if row.turn_limit:
            limit = t("reminder.limit_hours", count=row.turn_limit // 3600)
            text = t("reminder.turn_limit", limit=limit, **params)
        else:
            text = t("reminder.turn", **params)
    once = nonce(row.id, row.version, f"r{reminder.nth}")
    try:
        await safely.post(channel, row.id, "reminder", content=text, allowed_mentions=pings.people(row, people),
                          nonce=once)  # fmt: skip
    except Exception as err:
        if not safely.passing(err):
            raise
        # Discord will be back: the next sweep posts it (the nonce keeps it single).
        await bot.records.unmark_reminder_sent(row.id, row.version, reminder.nth)
        log.warning("game %s: reminder not posted yet (%s); the next sweep tries again",
                    row.id, safely.describe(err))  # fmt: skip


async def sweep(bot: Host) -> None:
    """One round: remind the players of every game this process owns whose wait reached the next delay."""
    await bot.ownership.refresh()
    moment, delays = now(), bot.config.reminder_after
    rows = [row for row in await bot.rows.awaiting_reminder(moment, delays) if bot.owns(row)]  # this process's only
    due_now = due(rows, moment, delays)
    await each_game(due_now, "its reminder", lambda reminder: remind(bot, reminder))
