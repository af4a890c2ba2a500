"""Leases on background work shared by several bot processes (stored in the ``leases`` table).

A process holds a lease by renewing it before it expires; an expired lease may be taken by anyone. Claims are
single statements (``INSERT ... ON CONFLICT DO UPDATE ... WHERE``), so two processes reaching for the same expired
lease at once cannot both get it: the database serialises them and the second finds it taken.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.database import Database

CLAIM = """INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE leases.holder = excluded.holder OR leases.expires_at < ?"""
FORCE = """INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at"""


class Leases:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, holder: str, name: str, now: float, ttl: float, *, force: bool = False) -> bool:
        """Take or renew ``name`` for ``ttl`` seconds: True if ``holder`` holds it now. ``force`` takes it whoever
        holds it (a process taking back its own shard from one that stood in for it)."""
        if force:
            await self.db.execute(FORCE, (name, holder, now + ttl))
            return True
        return await self.db.execute(CLAIM, (name, holder, now + ttl, now)) == 1

    async def held(self, holder: str, now: float) -> set[str]:
        rows = await self.db.fetchall("SELECT name FROM leases WHERE holder = ? AND expires_at >= ?", (holder, now))
        return {r[0] for r in rows}

    async def release(self, holder: str, names: Iterable[str] = ()) -> None:
        """Give up ``holder``'s leases (all of them when ``names`` is empty): a clean stop hands them on at once."""
        wanted = list(names)
        if wanted:
            marks = ", ".join("?" * len(wanted))
            await self.db.execute(f"DELETE FROM leases WHERE holder = ? AND name IN ({marks})", (holder, *wanted))
        else:
            await self.db.execute("DELETE FROM leases WHERE holder = ?", (holder,))
