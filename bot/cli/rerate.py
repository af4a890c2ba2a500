"""``python -m bot ratings``: check the stored ratings against the finished games' logs, or (``--rebuild``) rate every
finished game again from its log and store the result in place of the old ratings (``bot.host.standings``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.host.standings import Standings
from bot.storage import Games
from bot.storage.opening import open_database

SHOWN = 10  # differences printed by a check


async def ratings(target: str | Path, *, rebuild: bool, say: Callable[[str], None]) -> int:
    """0 when the ratings agree with the logs (or were rebuilt from them), 1 when they do not."""
    db = await open_database(target)
    try:
        standings = Standings(Games(db))
        if rebuild:
            done = await standings.rebuild()
            left = ", ".join(map(str, done.skipped))
            skipped = f"; left out (their logs do not replay): {left}" if left else ""
            say(f"rebuilt the ratings of {done.games} finished games in {done.pools} server and game pools{skipped}")
            return 0
        wrong = await standings.check()
    finally:
        await db.close()
    if not wrong:
        say("the stored ratings are what the finished games' logs give")
        return 0
    say(f"{len(wrong)} stored ratings differ from what the finished games' logs give:")
    for line in wrong[:SHOWN]:
        say(f"  {line}")
    if len(wrong) > SHOWN:
        say(f"  ... and {len(wrong) - SHOWN} more")
    say("rebuild them with: python -m bot ratings --rebuild")
    return 1
