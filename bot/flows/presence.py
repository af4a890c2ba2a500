"""The people of a game as its channel messages need them now: who is in their quiet hours, so that a ping to them
comes silently (Discord's suppress-notifications flag), and who is away until when, which the turn message and
``/game status`` tell the others.

A message pings the people it is for; when every one of them is in their quiet hours it is sent silent (they still
see the mention, without a sound or a push). When only some are, the others are pinged as usual and the quiet ones
are named without a ping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.core.pings import only
from bot.host.hours import is_away, is_quiet
from bot.storage import GameRow
from bot.storage.settings import Availability
from bot.text import t

if TYPE_CHECKING:
    from bot.core.host import Host


def now() -> float:
    """Wall-clock seconds, through discord.py so that simulated time in tests moves it too."""
    return discord.utils.utcnow().timestamp()


def when(moment: float) -> str:
    """A moment as Discord shows it to each reader: in their own time zone and language (date and time)."""
    return f"<t:{int(moment)}:f>"


@dataclass(frozen=True)
class Presence:
    """Who of a game's people is in their quiet hours and who is away, at ``at``."""

    at: float
    people: Mapping[int, Availability]  # by user id

    def quiet(self, user_id: int) -> bool:
        known = self.people.get(user_id)
        return known is not None and is_quiet(known, self.at)

    def wants_dms(self, user_id: int) -> bool:
        """Whether the person asked for a direct message when a turn starts (``/settings``)."""
        known = self.people.get(user_id)
        return known is not None and known.dm_on_turn

    def away_until(self, user_id: int) -> float | None:
        known = self.people.get(user_id)
        return known.away_until if known is not None and is_away(known, self.at) else None

    def pings(self, mentions: discord.AllowedMentions) -> dict[str, Any]:
        """A message's ``allowed_mentions`` (and ``silent``) for pinging ``mentions``'s users as their hours allow."""
        users = [user.id for user in mentions.users] if isinstance(mentions.users, list) else []
        quiet = [user for user in users if self.quiet(user)]
        if not quiet:
            return {"allowed_mentions": mentions}
        if len(quiet) == len(users):
            return {"allowed_mentions": mentions, "silent": True}
        return {"allowed_mentions": only(user for user in users if user not in quiet)}

    def notes(self, row: GameRow) -> list[str]:
        """A line for each seated person who is away, in the current language: until when, and what happens to
        their turns meanwhile."""
        lines = []
        for person in row.seats:
            until = None if person.computer else self.away_until(person.user_id)
            if until is None:
                continue
            lines.append(t(f"presence.away_{row.away_rule}", name=person.name, until=when(until)))
        return lines


FRESH = 2.0  # seconds a turn message's read of its people serves the same change's turn DMs
_recent: dict[tuple[int, int], tuple[int, Presence]] = {}  # (host, game) -> (version, its latest presence)


async def presence(bot: Host, row: GameRow) -> Presence:
    """The game's people as they are now (one read)."""
    users = [seat.user_id for seat in row.seats if not seat.computer]
    found = Presence(now(), await bot.people.availability(users))
    key = (id(bot), row.id)
    if key not in _recent and len(_recent) >= 1024:
        _recent.pop(next(iter(_recent)))
    _recent[key] = (row.version, found)
    return found


async def recent_presence(bot: Host, row: GameRow) -> Presence:
    """The game's people as read for this version's turn message a moment ago (the turn DMs of the change that
    message tells: no second read), else as they are now."""
    known = _recent.get((id(bot), row.id))
    if known is not None and known[0] == row.version and 0 <= now() - known[1].at < FRESH:
        return known[1]
    return await presence(bot, row)
