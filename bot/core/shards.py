"""Which process does a game's background work (reminders, turn limits, computer moves, sweeps after a restart).

Every process can answer any interaction (state is shared and every write is version-guarded), but background work
is done once: by the process that runs the game's guild shard, ``(guild_id >> 22) % shard_count`` (Discord's own
formula), while it is alive. Liveness is a lease per shard that its process renews on every sweep; when a process
dies its leases expire and another process takes its shards' work over until it comes back (a returning process
takes its own shards back at once). Games without a guild (DM-only) belong to whoever holds the ``dm`` lease.
A process without sharding (no shard count: the one process of a bot) owns everything and takes no leases.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable

from bot.storage.games import GameRow
from bot.storage.leases import Leases

DM_LEASE = "dm"


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard for a guild."""
    return (guild_id >> 22) % shard_count


def holder_name() -> str:
    """This process among others: host, pid and a random part (two bots in one process differ too)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Ownership:
    """This process's share of the background work, refreshed from the leases before each sweep."""

    def __init__(
        self,
        leases: Leases,
        *,
        shard_count: int | None,
        shard_ids: tuple[int, ...] | None,
        clock: Callable[[], float],
        ttl: float,
        holder: str | None = None,
    ) -> None:
        self.leases = leases
        self.alone = shard_count is None
        self.shard_count = shard_count or 1
        self.shard_ids = frozenset(shard_ids if shard_ids is not None else range(self.shard_count))
        self.clock = clock
        self.ttl = ttl
        self.holder = holder or holder_name()
        self.held: set[str] = set()
        self._refreshed_at: float | None = None

    async def refresh(self, *, force: bool = False) -> None:
        """Renew this process's leases and take expired ones (at most every sixth of a lease's life)."""
        if self.alone:
            return
        now = self.clock()
        if not force and self._refreshed_at is not None and now - self._refreshed_at < self.ttl / 6:
            return
        self._refreshed_at = now
        held = set()
        for shard in range(self.shard_count):
            name = f"shard:{shard}"
            if await self.leases.claim(self.holder, name, now, self.ttl, force=shard in self.shard_ids):
                held.add(name)
        if await self.leases.claim(self.holder, DM_LEASE, now, self.ttl):
            held.add(DM_LEASE)
        self.held = held

    def owns(self, row: GameRow) -> bool:
        """Whether this process does ``row``'s background work now."""
        if self.alone:
            return True
        if row.guild_id is None:
            return DM_LEASE in self.held
        shard = shard_of(row.guild_id, self.shard_count)
        return shard in self.shard_ids or f"shard:{shard}" in self.held

    async def release(self) -> None:
        """A clean stop: hand every lease on at once."""
        await self.leases.release(self.holder)
        self.held = set()
