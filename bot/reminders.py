"""Reminders for idle turns, decided from the database alone so that they survive restarts.

A game's ``turn_started_at`` is reset whenever the players owing a decision change; ``reminders_sent`` counts the
reminders of the current wait. The n-th reminder is due once the wait reaches the n-th configured delay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage import GameRow, Games


@dataclass(frozen=True, slots=True)
class Due:
    row: GameRow
    nth: int  # 1 for the first reminder of this wait
    idle: float  # seconds since the turn started


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
