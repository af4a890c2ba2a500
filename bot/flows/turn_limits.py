"""A game whose turn limit ran out: the host makes the idle seats' decisions, or computers take them over.

The sweep that finds such games is ``bot/cogs/turn_limits.py``; this is what it does for each one.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.flows.computer_turns import ComputerPlayers
from bot.host import HostError
from bot.storage import GameRow
from engine import RuleError

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.turn_limits")


async def time_out(bot: Host, row: GameRow, players: ComputerPlayers | None) -> None:
    """Make the timeout moves of ``row``'s idle seats and post the turn; with the host's takeover rule, computer
    ``players`` play for the idle people instead, until they come back."""
    if row.takeover and players is not None:
        await players.take_over(row)
        return
    try:
        outcome = await bot.service.timeout(row.id, row.version)
    except HostError as err:  # "stale": somebody moved (or the game ended) since the sweep read it
        log.info("game %s: timeout skipped (%s)", row.id, err.key)
        return
    except RuleError as err:  # an engine whose timeout move is refused: a bug, but nothing was stored
        log.error("game %s: timeout move refused: %s", row.id, err.message)
        return
    log.info("game %s: timed out seats %s", row.id, outcome.before)
    await bot.outbox.deliver(outcome)
