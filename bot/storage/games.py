"""Games and their action logs. Every change is one transaction guarded by the game's state version."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Database, GuardedWrite, Row, UniqueViolation

JSON_COLUMNS = frozenset({"options", "state", "winners", "stand_ins", "away_seats"})
AWAY_RULES = ("wait", "computer")  # the host's rule for a person who is away: their limit waits, or a computer plays
SWEEP_PAGE = 32  # rows a sweep reads in one query: a few milliseconds of the event loop, states included
# The game's turn message and the version the channel shows now (never lowered: a late message shows no newer one).
SHOWN = """UPDATE games SET message_id = ?, shown_version = CASE WHEN shown_version > ? THEN shown_version ELSE ? END
           WHERE id = ?"""


def shown_params(game_id: int, message_id: int | None, version: int) -> tuple[int | None, int, int, int]:
    """The parameters of ``SHOWN``."""
    return (message_id, version, version, game_id)


log = logging.getLogger("boardhost.storage")


class StaleVersion(Exception):
    """The game changed since the caller read it (a double click, a stale button, a concurrent writer)."""

    def __init__(self, game_id: int, expected: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected


class ChannelBusy(Exception):
    """The channel already has a lobby or a running game."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open game")
        self.channel_id = channel_id


@dataclass(frozen=True, slots=True)
class Seat:
    """A person (their Discord user id) or a computer player (``level`` set; a negative id, never a real user)."""

    user_id: int
    name: str
    level: str | None = None

    @property
    def computer(self) -> bool:
        return self.level is not None

    @property
    def mention(self) -> str:
        """How the channel names the seat: a ping for a person, the plain name for a computer player."""
        return self.name if self.computer else f"<@{self.user_id}>"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"user_id": self.user_id, "name": self.name}
        if self.level is not None:
            data["level"] = self.level
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(data["user_id"], data["name"], data.get("level"))


@dataclass(slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    state_json: str | None  # as stored; parsed on first use of ``state`` (most reads find the game in a cache)
    version: int
    language: str | None
    turn_limit: int | None
    message_id: int | None
    turn_started_at: float | None
    reminders_sent: int
    created_at: float
    updated_at: float
    finished_at: float | None
    winners: list[int] = field(default_factory=list)
    takeover: bool = False  # the host's rule: a computer plays for a seat whose turn limit ran out
    stand_ins: list[int] = field(default_factory=list)  # seats a computer plays for now, until their person returns
    shown_version: int = 0  # the version the game's channel shows (its turn message was posted for it)
    away_rule: str = "wait"  # the host's rule for a person who is away (``AWAY_RULES``)
    away_seats: list[int] = field(default_factory=list)  # stand-ins because their person is away (ended on return)
    # The host's choice: the computer level playing for a person who timed out or is away (None: the strongest)
    stand_in_level: str | None = None
    _state: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine state (None in a lobby)."""
        if self._state is None and self.state_json is not None:
            self._state = json.loads(self.state_json)
        return self._state

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def mention(self, seat: int) -> str:
        """A seat as the channel names it: a ping for a person, the plain name for a computer or a person a
        computer plays for now (they are not pinged for turns they do not play)."""
        found = self.seats[seat]
        return found.name if seat in self.stand_ins else found.mention

    def computer_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.computer]

    def people(self) -> list[int]:
        """The seats of people (not computer players)."""
        return [index for index, seat in enumerate(self.seats) if not seat.computer]

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            status=row["status"],
            host_id=row["host_id"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            seats=[Seat.from_json(s) for s in json.loads(row["seats"])],
            state_json=row["state"],
            version=row["version"],
            language=row["language"],
            turn_limit=row["turn_limit"],
            message_id=row["message_id"],
            turn_started_at=row["turn_started_at"],
            reminders_sent=row["reminders_sent"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            finished_at=row["finished_at"],
            winners=json.loads(row["winners"]) if row["winners"] else [],
            takeover=bool(row["takeover"]),
            stand_ins=json.loads(row["stand_ins"] or "[]"),
            shown_version=row["shown_version"] or 0,
            away_rule=row["away_rule"] or "wait",
            away_seats=json.loads(row["away_seats"] or "[]"),
            stand_in_level=row["stand_in_level"],
        )


def people(seats: Sequence[Seat]) -> list[int]:
    """The user ids of the people among ``seats`` (a computer seat is nobody), for the players index."""
    return [seat.user_id for seat in seats if not seat.computer]


def _readable(rows: list[Row]) -> list[GameRow]:
    """The rows that decode, for the sweeps over many games: one that does not is logged and left out."""
    found = []
    for row in rows:
        try:
            found.append(GameRow.from_row(row))
        except (ValueError, TypeError, KeyError):  # JSONDecodeError is a ValueError
            log.exception("game %s: stored row cannot be read; left out", row["id"])
    return found


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _encode(changes: dict[str, Any]) -> dict[str, Any]:
    """Column values for an UPDATE: seats and JSON columns serialised, the rest as they are."""
    return {
        name: _dump([s.to_json() for s in value])
        if name == "seats"
        else _dump(value)
        if name in JSON_COLUMNS
        else value
        for name, value in changes.items()
    }


class Games:
    """Queries and guarded writes for the ``games`` and ``actions`` tables."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def _first(self, sql: str, params: Sequence[Any]) -> GameRow | None:
        row = await self.db.fetchone(sql, params)
        return None if row is None else GameRow.from_row(row)

    async def get(self, game_id: int) -> GameRow | None:
        return await self._first("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._first(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )

    async def latest_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status (for /game export after the end)."""
        return await self._first("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def latest_started_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game that was started (running, finished or abandoned after its start)."""
        return await self._first(
            "SELECT * FROM games WHERE channel_id = ? AND state IS NOT NULL ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def open_of(self, user_id: int) -> list[GameRow]:
        """The lobbies and running games ``user_id`` is seated in, found through the players index (a person's own
        games, however many games are stored), oldest first."""
        rows = await self.db.fetchall(
            """SELECT games.* FROM players JOIN games ON games.id = players.game_id
                WHERE players.user_id = ? AND games.status IN ('lobby', 'active') ORDER BY games.id""",
            (user_id,),
        )
        return _readable(rows)

    async def with_status(self, *statuses: str) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.fetchall(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", statuses)
        return _readable(rows)

    # The sweeps' reads. Each minute's sweep asks the database for the running games it may act on, not for every
    # running game: a host with thousands of games played over days read (and parsed) them all three times a
    # minute, holding the event loop for over a second (bench/README.md, "The minute's sweeps"). Each condition may let
    # through more than the sweep acts on (its own check in Python decides), never fewer. They read a page of rows
    # at a time: PostgreSQL's driver decodes a whole answer on the event loop, states included.

    async def _running(self, where: str, params: Sequence[Any] = ()) -> list[GameRow]:
        """The running games that meet ``where``, by id, ``SWEEP_PAGE`` rows a query so that the event loop runs
        between two pages."""
        found: list[GameRow] = []
        after = 0
        while True:
            rows = await self.db.fetchall(
                f"SELECT * FROM games WHERE status = 'active' AND ({where}) AND id > ? ORDER BY id LIMIT {SWEEP_PAGE}",
                [*params, after],
            )
            found += _readable(rows)
            if len(rows) < SWEEP_PAGE:
                return found
            after = rows[-1]["id"]

    async def awaiting_reminder(self, now: float, delays: Sequence[float]) -> list[GameRow]:
        """Running games whose wait has reached their next reminder: the n-th reminder of a wait once it has lasted
        the n-th shortest of ``delays`` (``bot.flows.reminders.due``); a game that had them all is not read."""
        steps = sorted(delays)
        if not steps:
            return []
        reached = " OR ".join("(reminders_sent = ? AND turn_started_at <= ?)" for _ in steps)
        params: list[Any] = []
        for sent, delay in enumerate(steps):
            params += [sent, now - delay]
        return await self._running(f"turn_started_at IS NOT NULL AND ({reached})", params)

    async def with_away_rules(self) -> list[GameRow]:
        """Running games where someone is away now or the host chose that computers play for away people."""
        return await self._running("away_rule <> 'wait' OR away_seats <> '[]'")

    async def with_computers(self) -> list[GameRow]:
        """Running games where a computer plays a seat: a computer seat (its seat carries a level) or a stand-in."""
        return await self._running("""stand_ins <> '[]' OR seats LIKE '%"level"%'""")

    async def overdue(self, now: float) -> list[GameRow]:
        """Running games with a turn limit whose current wait has reached it by ``now``."""
        return await self._running(
            "turn_limit IS NOT NULL AND turn_started_at IS NOT NULL AND turn_started_at + turn_limit <= ?", (now,)
        )

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host: Seat,
        options: dict[str, Any],
        seed: int,
        language: str | None = None,
        turn_limit: int | None = None,
        takeover: bool = False,
        away_rule: str = "wait",
        stand_in_level: str | None = None,
        owe: dict[str, Any] | None = None,
    ) -> GameRow:
        """A lobby in the channel (``ChannelBusy`` when it has an open game), with what it owes Discord (``owe``: its
        message) in the same write."""
        now = self.clock()
        columns = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "game": game,
            "status": "lobby",
            "host_id": host.user_id,
            "options": _dump(options),
            "seed": seed,
            "seats": _dump([host.to_json()]),
            "language": language,
            "turn_limit": turn_limit,
            "takeover": int(takeover),
            "away_rule": away_rule,
            "stand_in_level": stand_in_level,
            "created_at": now,
            "updated_at": now,
        }
        try:
            return GameRow.from_row(
                await self.db.insert_game(columns, people([host]), None if owe is None else _dump(owe))
            )
        except UniqueViolation:
            raise ChannelBusy(channel_id) from None

    async def _write(
        self,
        game_id: int,
        expected: int,
        changes: dict[str, Any],
        *,
        user_id: int | None = None,
        append: Sequence[str] = (),
        drop: int = 0,
        owe: dict[str, Any] | None = None,
    ) -> GameRow:
        row = await self.db.guarded_write(
            GuardedWrite(
                game_id,
                expected,
                _encode(changes),
                self.clock(),
                user_id=user_id,
                append=append,
                drop=drop,
                owe=None if owe is None else _dump(owe),
                players=people(changes["seats"]) if "seats" in changes else None,
            )
        )
        if row is None:
            raise StaleVersion(game_id, expected)
        return GameRow.from_row(row)

    async def update(
        self, game_id: int, expected: int, *, owe: dict[str, Any] | None = None, **changes: Any
    ) -> GameRow:
        """Change lobby or game settings (seats, options, status, language, ...) if still at ``expected``; ``owe``:
        what the change owes Discord (``bot.flows.outbox``), recorded in the same write."""
        return await self._write(game_id, expected, changes, owe=owe)

    async def record_action(
        self,
        game_id: int,
        expected: int,
        *,
        user_id: int | None,
        actions: Sequence[dict[str, Any]],
        state: dict[str, Any],
        owe: dict[str, Any] | None = None,
        **changes: Any,
    ) -> GameRow:
        """Append the engine's recorded action(s) and store the new state, in one transaction.

        Several actions are written together when the host applies automatic follow-ups (a Carcassonne discard)
        in the same step, so the log and the state never disagree.
        """
        changes["state"] = state
        return await self._write(
            game_id, expected, changes, user_id=user_id, append=[_dump(a) for a in actions], owe=owe
        )

    async def drop_last_actions(
        self,
        game_id: int,
        expected: int,
        *,
        count: int,
        state: dict[str, Any],
        owe: dict[str, Any] | None = None,
        **changes: Any,
    ) -> GameRow:
        """Undo: remove the last ``count`` actions and store the state rebuilt without them."""
        changes["state"] = state
        return await self._write(game_id, expected, changes, drop=count, owe=owe)

    async def set_message(self, game_id: int, message_id: int | None, version: int | None = None) -> None:
        """Remember the latest board message (not a game change: the version stays), and with ``version`` that the
        channel now shows that version (an owed turn message at or below it is posted)."""
        if version is None:
            await self.db.execute("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))
        else:
            await self.db.execute(SHOWN, shown_params(game_id, message_id, version))

    async def mark_reminder_sent(self, game_id: int, version: int, nth: int) -> bool:
        """Record the ``nth`` reminder of the current wait as sent, unless the game moved past ``version`` or it was
        already sent (not a game change: the version stays). True when this call recorded it."""
        changed = await self.db.execute(
            "UPDATE games SET reminders_sent = ? WHERE id = ? AND version = ? AND reminders_sent < ?",
            (nth, game_id, version, nth),
        )
        return changed == 1

    async def unmark_reminder_sent(self, game_id: int, version: int, nth: int) -> None:
        """Take back the record of the ``nth`` reminder (Discord failed to post it: the next sweep tries again)."""
        await self.db.execute(
            "UPDATE games SET reminders_sent = ? WHERE id = ? AND version = ? AND reminders_sent = ?",
            (nth - 1, game_id, version, nth),
        )

    async def add_offer_message(self, game_id: int, offer: int, message_id: int) -> None:
        """Remember the channel message of a public trade offer (not a game change: the version stays)."""
        await self.db.execute(
            """INSERT INTO offer_messages (game_id, offer, message_id) VALUES (?, ?, ?)
               ON CONFLICT (game_id, offer) DO UPDATE SET message_id = excluded.message_id""",
            (game_id, offer, message_id),
        )

    async def offer_messages(self, game_id: int) -> dict[int, int]:
        """The remembered public offer messages of a game: offer number -> message id."""
        rows = await self.db.fetchall("SELECT offer, message_id FROM offer_messages WHERE game_id = ?", (game_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    async def forget_offer_message(self, game_id: int, offer: int) -> None:
        await self.db.execute("DELETE FROM offer_messages WHERE game_id = ? AND offer = ?", (game_id, offer))

    async def set_language(self, game_id: int, language: str | None) -> None:
        """The language of the game's public messages (not a game change: the version and buttons stay)."""
        await self.db.execute("UPDATE games SET language = ? WHERE id = ?", (language, game_id))

    async def action_count(self, game_id: int) -> int:
        row = await self.db.fetchone("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.db.fetchall("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(r[0]) for r in rows]

    async def stats(self, guild_id: int) -> tuple[int, dict[int, int], dict[str, int]]:
        """Finished games in a server: total, wins per user, games per game name."""
        rows = await self.db.fetchall(
            "SELECT game, winners FROM games WHERE guild_id = ? AND status = 'finished'", (guild_id,)
        )
        wins: dict[int, int] = {}
        per_game: dict[str, int] = {}
        for row in rows:
            per_game[row["game"]] = per_game.get(row["game"], 0) + 1
            for user_id in json.loads(row["winners"] or "[]"):
                if user_id < 0:  # a computer player
                    continue
                wins[user_id] = wins.get(user_id, 0) + 1
        return len(rows), wins, per_game
