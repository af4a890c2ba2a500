"""Time away (``/settings away until:<date>``): the other players see it in the turn message and ``/game status``;
a game's turn limit waits for an away person, or, where its host chose so in the lobby (``away:computer``), a
computer plays for them until they are back. They are back on the day they gave, or earlier with one click: the
*I'm back* button (a personal click table: it names no game and works wherever it is clicked).

A computer takes an away person's seat as soon as the game waits for them (after every posted turn, and every
sweep); it hands the seat back, with the turn posted again for them, once they are back (the button at once, the
day they gave at the next sweep), or when they move themselves.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

from bot.core.clicks import Click, Control, Op, Reply, Table, button
from bot.core.components import BLUE
from bot.core.funnel import each_game
from bot.flows.presence import now
from bot.host import HostError, Outcome
from bot.host.hours import is_away
from bot.storage import GameRow
from bot.text import t

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.away")
SCOPE: Final = "away"  # its click table's, in custom ids bh:away:0:0:back


def back_button() -> Control:
    """*I'm back*: ends the clicker's time away now, in every game."""
    return button(SCOPE, 0, 0, "back", label=t("away.button.back"), style=BLUE)


async def _back(click: Click) -> Reply:
    was_away = await back(click.host, click.user_id)
    return Reply(content=t("away.welcome_back" if was_away else "away.not_away"))


TABLE: Final = Table(SCOPE, {"back": Op(_back)}, personal=True)


async def back(bot: Host, user_id: int) -> bool:
    """The person is back now: their time away ends, and every seat a computer played for them meanwhile is theirs
    again (its turn posted again). False when they were not away."""
    was_away = await bot.people.end_away(user_id)
    for row in await bot.rows.open_of(user_id):
        seat = row.seat_of(user_id)
        if seat is not None and seat in row.away_seats:
            await deliver(bot, await bot.stand_ins.back_from_away(row.id, user_id))
    return was_away


async def deliver(bot: Host, outcome: Outcome | None) -> None:
    if outcome is not None:
        await bot.outbox.deliver(outcome)


async def stand_in(bot: Host, row: GameRow) -> None:
    """Where the host chose it, computers play for the away people the game waits for now."""
    if row.away_rule != "computer" or row.status != "active":
        return
    users = bot.rows.waiting_people(row)
    if not users:
        return
    known = await bot.people.availability(users)
    moment = now()
    away = {}
    for user in users:
        seat, until = row.seat_of(user), known[user].away_until
        if seat is not None and until is not None and is_away(known[user], moment):
            away[seat] = until
    if not away:
        return
    try:
        outcome = await bot.stand_ins.stand_in_while_away(row.id, row.version, away)
    except HostError as err:  # "stale": the game moved on since it was read; the next turn or sweep looks again
        log.info("game %s: no stand-in for the away (%s)", row.id, err.key)
        return
    await bot.outbox.deliver(outcome)  # the stand-in message; then the computers move


async def returned(bot: Host, row: GameRow) -> None:
    """The people a computer played for while they were away, whose time away is over by now, play again."""
    if not row.away_seats:
        return
    users = [row.seats[s].user_id for s in row.away_seats if 0 <= s < len(row.seats)]
    known = await bot.people.availability(users)
    moment = now()
    for user in users:
        if not is_away(known[user], moment):
            await deliver(bot, await bot.stand_ins.back_from_away(row.id, user))


async def settle(bot: Host, row: GameRow) -> None:
    await returned(bot, row)
    await stand_in(bot, await bot.rows.row(row.id) if row.away_seats else row)


async def sweep(bot: Host) -> None:
    """One round: in every running game of this process, the away people whose time is over play again, and
    computers play for the away people the game waits for (where the host chose it)."""
    rows = [row for row in await bot.rows.with_away_rules() if bot.owns(row)]  # someone away, or a rule that acts
    await each_game(rows, "its away players", lambda row: settle(bot, row))


async def turn_posted(bot: Host, outcome: Outcome) -> None:
    """After a turn is posted: if it waits for someone away, a computer plays for them (where the host chose it)."""
    if outcome.kind == "turn" and outcome.row.away_rule == "computer" and outcome.game is not None:
        await each_game([outcome.row], "its away players", lambda row: stand_in(bot, row))
