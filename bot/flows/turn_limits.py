"""A game whose turn limit ran out: the host makes the idle seats' decisions, or computers take them over.

Every round of the turn-limit sweep (``bot/cogs/turn_limit_sweep.py``) reads the database for running games whose
current wait (``turn_started_at``, reset whenever the seats owing a decision change) has reached their
``turn_limit``, lets the game host make the idle seats' decisions with the engine's timeout moves, and posts the
next turn. Everything it
needs is stored, so a restart loses no limit; the version guard drops a timeout that a last-second move beat.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.funnel import each_game
from bot.flows.computer_turns import ComputerPlayers
from bot.flows.presence import now
from bot.host import HostError
from bot.storage import GameRow
from engine import RuleError

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.turn_limits")


async def sweep(bot: Host, players: ComputerPlayers | None) -> None:
    """One round: the overdue games of this process, each timed out (one game's failure does not stop the others)."""
    await bot.ownership.refresh()
    overdue = [row for row in await bot.people.overdue(now()) if bot.owns(row)]  # this process's
    await each_game(overdue, "its turn limit", lambda row: time_out(bot, row, players))


async def time_out(bot: Host, row: GameRow, players: ComputerPlayers | None) -> None:
    """Make the timeout moves of ``row``'s idle seats and post the turn; with the host's takeover rule, computer
    ``players`` play for the idle people instead, until they come back."""
    if row.takeover and players is not None:
        await players.take_over(row)
        return
    try:
        outcome = await bot.play.timeout(row.id, row.version)
    except HostError as err:  # "stale": somebody moved (or the game ended) since the sweep read it
        log.info("game %s: timeout skipped (%s)", row.id, err.key)
        return
    except RuleError as err:  # an engine whose timeout move is refused: a bug, but nothing was stored
        log.error("game %s: timeout move refused: %s", row.id, err.message)
        return
    log.info("game %s: timed out seats %s", row.id, outcome.before)
    await bot.outbox.deliver(outcome)
