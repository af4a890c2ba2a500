"""The games as this process knows them, and the one write path every change of a game goes through.

Each accepted change is one storage transaction guarded by the game's version; the caller passes the version it
showed the user (on a button, say), so a stale or repeated click fails with ``HostError("stale")``. The other
services of the host (``lobbies``, ``play``, ``stand_ins``...) read and write games through this one, so that the
rows and engine games kept in memory follow every change.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, TypeVar

from bot.host.errors import HostError
from bot.storage import GameRow, Games, StaleVersion
from bot.storage.health import Problem
from engine import Game, game_class

CACHE_SIZE: Final = 256
# A change not bound to a version (a Catan discard, a reply to an offer, /game leave) that another change beat to
# the write is judged again on the newer game at most this many times before it is refused as stale.
RETRIES: Final = 3
T = TypeVar("T")


class GameRows:
    """Rows and engine games, read (the newest of each game kept in memory) and written (version-guarded)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        # Engine games by id at a known version: saves re-reading state JSON on every click.
        self._cache: dict[int, tuple[int, Game]] = {}
        # The newest row read or written per game: a click on that version needs no read (``row_at``).
        self._rows: dict[int, GameRow] = {}

    def storage_health(self) -> Problem | None:
        """What is wrong with the database now (a failing write, a WAL that cannot be checkpointed), or None."""
        return self.games.db.health()

    def clock(self) -> float:
        """Now, as the storage stamps changes (seconds since the epoch)."""
        return self.games.clock()

    async def row(self, game_id: int) -> GameRow:
        row = await self.games.get(game_id)
        if row is None:
            raise HostError("no_such_game", game=game_id)
        return self.known(row)

    async def row_at(self, game_id: int, version: int) -> GameRow:
        """The game's row for a click made on ``version``: the one in memory if it is that version, else read.

        Every change of a game's status, seats or state is written through these rows and makes a new version, so
        a remembered row of the clicked version is the game as it was then; if the game has moved on since (a
        change made elsewhere), the version-guarded write of the move refuses it as stale. Columns that change
        without a new version (the turn message id, reminders sent) may be older here: callers do not use them.
        """
        known = self._rows.get(game_id)
        if known is not None and known.version == version:
            return known
        return await self.row(game_id)

    async def placed(self, game_id: int) -> GameRow:
        """The game's row for where it is played and by whom (its channel, its seats' user ids): the one in memory
        once the game has started (neither changes after the lobby; a person who leaves keeps their seat), else
        read. Every click asks it (``bot.core.clicks.check``), so a running game's clicks need no extra read."""
        known = self._rows.get(game_id)
        if known is not None and known.status != "lobby":
            return known
        return await self.row(game_id)

    def known(self, row: GameRow) -> GameRow:
        """``row``, remembered as the game's newest unless a newer one is."""
        if row.id not in self._rows and len(self._rows) >= CACHE_SIZE:
            self._rows.pop(next(iter(self._rows)))
        known = self._rows.get(row.id)
        if known is None or known.version <= row.version:
            self._rows[row.id] = row
        return row

    async def stored(self, game_id: int) -> GameRow | None:
        """The game's row as stored now, with the columns that change without a new version (the turn message)."""
        return await self.games.get(game_id)

    async def open_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game, or None."""
        row = await self.games.open_in_channel(channel_id)
        return None if row is None else self.known(row)

    async def latest_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status (for /game export after the end)."""
        return await self.games.latest_in_channel(channel_id)

    async def in_channel(self, channel_id: int) -> GameRow:
        row = await self.games.open_in_channel(channel_id)
        if row is None:
            raise HostError("no_game_here")
        return self.known(row)

    async def latest_game(self, channel_id: int) -> GameRow:
        """The channel's running game, else its most recent started one (to look back at a finished game even when
        a new lobby, or an abandoned one, came after it); else its lobby, which has nothing to look back at yet."""
        row = await self.games.open_in_channel(channel_id)
        if row is None or row.state is None:
            row = await self.games.latest_started_in_channel(channel_id) or row
        row = row or await self.games.latest_in_channel(channel_id)
        if row is None:
            raise HostError("no_game_here")
        return self.known(row)

    async def awaiting_reminder(self, now: float, delays: Sequence[float]) -> list[GameRow]:
        """Running games whose wait has reached its next reminder's delay (the reminder sweep)."""
        return await self.games.awaiting_reminder(now, delays)

    async def with_away_rules(self) -> list[GameRow]:
        """Running games with someone away or an away rule that acts (the away sweep)."""
        return await self.games.with_away_rules()

    async def with_computers(self) -> list[GameRow]:
        """Running games where a computer plays a seat (the computer players' sweep)."""
        return await self.games.with_computers()

    async def open_of(self, user_id: int) -> list[GameRow]:
        """The lobbies and running games ``user_id`` is seated in (``/game mine``), through the players index."""
        return [self.known(row) for row in await self.games.open_of(user_id)]

    def waiting_people(self, row: GameRow) -> list[int]:
        """The user ids of the people a running game waits for (not computers, nor people a computer plays for)."""
        if row.status != "active" or row.state is None:
            return []
        seats = self.game(row).actors()
        return [row.seats[s].user_id for s in seats if not row.seats[s].computer and s not in row.stand_ins]

    def game(self, row: GameRow) -> Game:
        """The engine game of a started row (cached per version; callers must not mutate it)."""
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = row.state
        if state is None:
            raise HostError("not_started")
        game = game_class(row.game).from_json(state)
        self.remember(row.id, row.version, game)
        return game

    def remember(self, game_id: int, version: int, game: Game) -> None:
        """``game`` is the engine game of ``game_id`` at ``version`` (just written: no need to parse it again)."""
        if len(self._cache) >= CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[game_id] = (version, game)

    def forget(self, game_id: int) -> None:
        """The engine game kept for ``game_id`` is no longer to be trusted (a lost write, the game's end)."""
        self._cache.pop(game_id, None)

    @staticmethod
    async def attempt(version: int | None, change: Callable[[], Awaitable[T]]) -> T:
        """``change()``, which reads the game, judges a request on it and writes version-guarded. A request bound to
        the ``version`` the user was shown (a click) is tried once. One bound to none (a command, a discard) is judged
        again on the newer game when another change was stored between its read and its write (the write's
        ``HostError("stale")``), ``RETRIES`` times at most: what the person asked for does not depend on the version,
        and a refusal would only say that somebody else was quicker."""
        for retry in range(RETRIES + 1):
            try:
                return await change()
            except HostError as err:
                if version is not None or err.key != "stale" or retry == RETRIES:
                    raise
        raise AssertionError("unreachable")

    @staticmethod
    def fresh(row: GameRow, version: int | None) -> None:
        """``HostError("stale")`` when a click made on ``version`` no longer shows ``row``."""
        if version is not None and version != row.version:
            raise HostError("stale")

    async def active(self, game_id: int, version: int | None) -> GameRow:
        """The game's row if it is running at ``version`` (any version when None); ``HostError`` otherwise."""
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        self.fresh(row, version)
        return row

    async def update(self, row: GameRow, *, owe: dict[str, Any] | None = None, **changes: Any) -> GameRow:
        """Change the game's columns (and store what the change owes Discord) unless it moved on from ``row``'s
        version: then ``HostError("stale")``."""
        try:
            return self.known(await self.games.update(row.id, row.version, owe=owe, **changes))
        except StaleVersion:
            raise HostError("stale") from None
