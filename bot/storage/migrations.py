"""Numbered schema migrations per backend, applied in order (``python -m bot migrate``, or at start-up).

Never edit a released one: add the next number, to both backends (the same number means the same change).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from bot.storage.database import Executor

SQLITE: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE games (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER,
            channel_id      INTEGER NOT NULL,
            game            TEXT    NOT NULL,               -- engine name: carcassonne | catan
            status          TEXT    NOT NULL,               -- lobby | active | finished | abandoned
            host_id         INTEGER NOT NULL,
            options         TEXT    NOT NULL DEFAULT '{}',  -- JSON, as given to the engine
            seed            INTEGER NOT NULL,
            seats           TEXT    NOT NULL DEFAULT '[]',  -- JSON [{"user_id": .., "name": ..}] in seat order
            state           TEXT,                           -- engine JSON once started
            version         INTEGER NOT NULL DEFAULT 0,     -- bumped by every accepted change
            language        TEXT,
            turn_limit      INTEGER,                        -- seconds, chosen by the host
            message_id      INTEGER,                        -- the latest board / lobby message
            turn_started_at REAL,
            reminders_sent  INTEGER NOT NULL DEFAULT 0,
            created_at      REAL    NOT NULL,
            updated_at      REAL    NOT NULL,
            finished_at     REAL,
            winners         TEXT                            -- JSON list of user ids once finished
        );
        -- One lobby or running game per channel.
        CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
        CREATE INDEX games_by_guild ON games(guild_id, status);

        CREATE TABLE actions (
            game_id    INTEGER NOT NULL REFERENCES games(id),
            seq        INTEGER NOT NULL,                    -- 0, 1, 2 ... in order of acceptance
            user_id    INTEGER,
            action     TEXT    NOT NULL,                    -- the engine's recorded action (replay format)
            created_at REAL    NOT NULL,
            PRIMARY KEY (game_id, seq)
        );

        CREATE TABLE user_settings (
            user_id     INTEGER PRIMARY KEY,
            dm_on_turn  INTEGER NOT NULL DEFAULT 0
        );
        """,
    ),
    (
        2,
        """
        -- Computer seats are marked in the seats JSON ({"user_id": -n, "name": .., "level": "random"}).
        -- The host's rule: when a seat's turn limit runs out, a computer plays for it until the person returns.
        ALTER TABLE games ADD COLUMN takeover INTEGER NOT NULL DEFAULT 0;
        -- JSON list of seats a computer plays for now (takeover), until their person returns.
        ALTER TABLE games ADD COLUMN stand_ins TEXT NOT NULL DEFAULT '[]';
        """,
    ),
    (
        3,
        """
        -- Ids Discord gave the slash commands (``python -m bot sync``), for command mentions such as </game back:id>.
        -- guild_id 0: registered globally.
        CREATE TABLE command_ids (
            guild_id   BIGINT  NOT NULL,
            name       TEXT    NOT NULL,
            command_id BIGINT  NOT NULL,
            PRIMARY KEY (guild_id, name)
        );
        """,
    ),
    (
        4,
        """
        -- The channel message of each public Catan trade offer, whose reply buttons are taken off once the offer
        -- closes (a row is dropped then).
        CREATE TABLE offer_messages (
            game_id    INTEGER NOT NULL REFERENCES games(id),
            offer      INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            PRIMARY KEY (game_id, offer)
        );
        """,
    ),
    (
        5,
        """
        -- Background work without a guild (DM-only games) and takeover of a dead process's shards: whoever holds
        -- a lease (renewed on every sweep) does the work; an expired lease may be taken.
        CREATE TABLE leases (
            name       TEXT PRIMARY KEY,                    -- 'dm' or 'shard:N'
            holder     TEXT NOT NULL,                       -- the process holding it
            expires_at REAL NOT NULL
        );
        """,
    ),
    (
        6,
        """
        -- What each stored change still owes Discord (the turn message, direct messages, the timelapse), written in
        -- the change's own transaction and deleted once delivered: a crash or an outage between the write and the
        -- post loses nothing (bot/flows/outbox.py). ``done``: the parts already delivered (JSON list).
        CREATE TABLE outbox (
            game_id    INTEGER NOT NULL REFERENCES games(id),
            version    INTEGER NOT NULL,                    -- the game's version the change made
            owed       TEXT    NOT NULL,                    -- JSON: the change's events and what to post
            done       TEXT    NOT NULL DEFAULT '[]',
            attempts   INTEGER NOT NULL DEFAULT 0,
            next_at    REAL    NOT NULL DEFAULT 0,          -- not tried again before (back-off after a failure)
            problem    TEXT,                                -- why it waits (missing permissions, ...), for /game status
            created_at REAL    NOT NULL,
            PRIMARY KEY (game_id, version)
        );
        -- The version the game's channel shows: an owed turn message at or below it was posted already.
        ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
        -- When Discord refused a direct message to the user (DMs closed): the channel is used instead for a while.
        ALTER TABLE user_settings ADD COLUMN dms_closed_at REAL;
        """,
    ),
    (
        7,
        """
        -- Each person's games without reading every game (/game mine): one row per person seated (computer seats
        -- are nobody), written by the same write that changes a game's seats.
        CREATE TABLE players (
            user_id INTEGER NOT NULL,
            game_id INTEGER NOT NULL REFERENCES games(id),
            PRIMARY KEY (user_id, game_id)
        );
        INSERT INTO players (user_id, game_id)
            SELECT DISTINCT json_extract(seat.value, '$.user_id'), games.id FROM games, json_each(games.seats) AS seat
             WHERE json_extract(seat.value, '$.user_id') > 0;
        -- Quiet hours (minutes after midnight in the person's IANA time zone; none when NULL) and time away.
        ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
        ALTER TABLE user_settings ADD COLUMN quiet_from INTEGER;
        ALTER TABLE user_settings ADD COLUMN quiet_to INTEGER;
        ALTER TABLE user_settings ADD COLUMN away_since REAL;
        ALTER TABLE user_settings ADD COLUMN away_until REAL;
        -- The host's rule for a person who is away: 'wait' (their turn limit waits) or 'computer' (a computer plays
        -- for them until they are back); and the seats a computer plays now for that reason (among stand_ins).
        ALTER TABLE games ADD COLUMN away_rule TEXT NOT NULL DEFAULT 'wait';
        ALTER TABLE games ADD COLUMN away_seats TEXT NOT NULL DEFAULT '[]';
        -- Turn DMs held back by their reader's quiet hours: sent once the hours end, if the game still waits for them.
        CREATE TABLE held_dms (
            user_id INTEGER NOT NULL,
            game_id INTEGER NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,                    -- the game's version the DM was owed for
            due_at  REAL    NOT NULL,                    -- when the reader's quiet hours end
            PRIMARY KEY (user_id, game_id)
        );
        CREATE INDEX held_dms_by_due ON held_dms(due_at);
        """,
    ),
    (
        8,
        """
        -- Ratings (openskill's Plackett-Luce) per server and game, from the finished games (never abandoned ones):
        -- a person by user id (level ''), a computer player by its level (user_id 0). Rebuilt from the games' logs
        -- by ``python -m bot ratings --rebuild``; ``rating_changes`` keeps each rated game's placings, so a game rated
        -- out of turn re-rates its pool in order (bot/storage/ratings.py).
        CREATE TABLE ratings (
            guild_id   BIGINT  NOT NULL,                    -- 0: games in direct messages
            game       TEXT    NOT NULL,
            user_id    BIGINT  NOT NULL,                    -- 0: a computer player
            level      TEXT    NOT NULL DEFAULT '',         -- a computer player's level; '' for a person
            mu         REAL    NOT NULL,
            sigma      REAL    NOT NULL,
            games      INTEGER NOT NULL,
            wins       INTEGER NOT NULL,
            streak     INTEGER NOT NULL,                    -- wins in a row up to the latest game
            rated_at   REAL    NOT NULL,                    -- when the latest game rated ended
            PRIMARY KEY (guild_id, game, user_id, level)
        );
        -- One row per seat of every rated game: its place and the rating before and after it (the history).
        CREATE TABLE rating_changes (
            game_id      INTEGER NOT NULL REFERENCES games(id),
            seat         INTEGER NOT NULL,
            guild_id     BIGINT  NOT NULL,
            game         TEXT    NOT NULL,
            user_id      BIGINT  NOT NULL,
            level        TEXT    NOT NULL DEFAULT '',
            place        INTEGER NOT NULL,                  -- 1: first; ties share a place
            won          INTEGER NOT NULL,
            mu_before    REAL    NOT NULL,
            sigma_before REAL    NOT NULL,
            mu           REAL    NOT NULL,
            sigma        REAL    NOT NULL,
            finished_at  REAL    NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX rating_changes_by_player ON rating_changes(guild_id, game, user_id, level, finished_at);
        CREATE INDEX rating_changes_by_pool ON rating_changes(guild_id, game, finished_at, game_id);
        -- A row per server and game, locked by each rating update: two processes never rate one pool at once.
        CREATE TABLE rating_pools (
            guild_id BIGINT  NOT NULL,
            game     TEXT    NOT NULL,
            rated    INTEGER NOT NULL DEFAULT 0,            -- games rated
            PRIMARY KEY (guild_id, game)
        );
        """,
    ),
    (
        9,
        """
        -- The host's choice of the computer level that plays for a person who timed out or is away (NULL: the
        -- strongest the game has).
        ALTER TABLE games ADD COLUMN stand_in_level TEXT;
        """,
    ),
)

# The same schema in PostgreSQL's types: Discord ids need 64 bits; JSON stays text (stored and read as it is).
POSTGRES: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE games (
            id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            guild_id        BIGINT,
            channel_id      BIGINT  NOT NULL,
            game            TEXT    NOT NULL,
            status          TEXT    NOT NULL,
            host_id         BIGINT  NOT NULL,
            options         TEXT    NOT NULL DEFAULT '{}',
            seed            BIGINT  NOT NULL,
            seats           TEXT    NOT NULL DEFAULT '[]',
            state           TEXT,
            version         INTEGER NOT NULL DEFAULT 0,
            language        TEXT,
            turn_limit      INTEGER,
            message_id      BIGINT,
            turn_started_at DOUBLE PRECISION,
            reminders_sent  INTEGER NOT NULL DEFAULT 0,
            created_at      DOUBLE PRECISION NOT NULL,
            updated_at      DOUBLE PRECISION NOT NULL,
            finished_at     DOUBLE PRECISION,
            winners         TEXT
        );
        CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
        CREATE INDEX games_by_guild ON games(guild_id, status);

        CREATE TABLE actions (
            game_id    BIGINT  NOT NULL REFERENCES games(id),
            seq        INTEGER NOT NULL,
            user_id    BIGINT,
            action     TEXT    NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seq)
        );

        CREATE TABLE user_settings (
            user_id     BIGINT PRIMARY KEY,
            dm_on_turn  INTEGER NOT NULL DEFAULT 0
        );
        """,
    ),
    (
        2,
        """
        ALTER TABLE games ADD COLUMN takeover INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN stand_ins TEXT NOT NULL DEFAULT '[]';
        """,
    ),
    (
        3,
        """
        CREATE TABLE command_ids (
            guild_id   BIGINT  NOT NULL,
            name       TEXT    NOT NULL,
            command_id BIGINT  NOT NULL,
            PRIMARY KEY (guild_id, name)
        );
        """,
    ),
    (
        4,
        """
        CREATE TABLE offer_messages (
            game_id    BIGINT  NOT NULL REFERENCES games(id),
            offer      INTEGER NOT NULL,
            message_id BIGINT  NOT NULL,
            PRIMARY KEY (game_id, offer)
        );
        """,
    ),
    (
        5,
        """
        CREATE TABLE leases (
            name       TEXT PRIMARY KEY,
            holder     TEXT NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        );
        """,
    ),
    (
        6,
        """
        CREATE TABLE outbox (
            game_id    BIGINT  NOT NULL REFERENCES games(id),
            version    INTEGER NOT NULL,
            owed       TEXT    NOT NULL,
            done       TEXT    NOT NULL DEFAULT '[]',
            attempts   INTEGER NOT NULL DEFAULT 0,
            next_at    DOUBLE PRECISION NOT NULL DEFAULT 0,
            problem    TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, version)
        );
        ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE user_settings ADD COLUMN dms_closed_at DOUBLE PRECISION;
        """,
    ),
    (
        7,
        """
        CREATE TABLE players (
            user_id BIGINT NOT NULL,
            game_id BIGINT NOT NULL REFERENCES games(id),
            PRIMARY KEY (user_id, game_id)
        );
        INSERT INTO players (user_id, game_id)
            SELECT DISTINCT (seat.value ->> 'user_id')::bigint, games.id
              FROM games, json_array_elements(games.seats::json) AS seat(value)
             WHERE (seat.value ->> 'user_id')::bigint > 0;
        ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
        ALTER TABLE user_settings ADD COLUMN quiet_from INTEGER;
        ALTER TABLE user_settings ADD COLUMN quiet_to INTEGER;
        ALTER TABLE user_settings ADD COLUMN away_since DOUBLE PRECISION;
        ALTER TABLE user_settings ADD COLUMN away_until DOUBLE PRECISION;
        ALTER TABLE games ADD COLUMN away_rule TEXT NOT NULL DEFAULT 'wait';
        ALTER TABLE games ADD COLUMN away_seats TEXT NOT NULL DEFAULT '[]';
        CREATE TABLE held_dms (
            user_id BIGINT  NOT NULL,
            game_id BIGINT  NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,
            due_at  DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, game_id)
        );
        CREATE INDEX held_dms_by_due ON held_dms(due_at);
        """,
    ),
    (
        8,
        """
        CREATE TABLE ratings (
            guild_id   BIGINT  NOT NULL,
            game       TEXT    NOT NULL,
            user_id    BIGINT  NOT NULL,
            level      TEXT    NOT NULL DEFAULT '',
            mu         DOUBLE PRECISION NOT NULL,
            sigma      DOUBLE PRECISION NOT NULL,
            games      INTEGER NOT NULL,
            wins       INTEGER NOT NULL,
            streak     INTEGER NOT NULL,
            rated_at   DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (guild_id, game, user_id, level)
        );
        CREATE TABLE rating_changes (
            game_id      BIGINT  NOT NULL REFERENCES games(id),
            seat         INTEGER NOT NULL,
            guild_id     BIGINT  NOT NULL,
            game         TEXT    NOT NULL,
            user_id      BIGINT  NOT NULL,
            level        TEXT    NOT NULL DEFAULT '',
            place        INTEGER NOT NULL,
            won          INTEGER NOT NULL,
            mu_before    DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu           DOUBLE PRECISION NOT NULL,
            sigma        DOUBLE PRECISION NOT NULL,
            finished_at  DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX rating_changes_by_player ON rating_changes(guild_id, game, user_id, level, finished_at);
        CREATE INDEX rating_changes_by_pool ON rating_changes(guild_id, game, finished_at, game_id);
        CREATE TABLE rating_pools (
            guild_id BIGINT  NOT NULL,
            game     TEXT    NOT NULL,
            rated    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, game)
        );
        """,
    ),
    (
        9,
        """
        ALTER TABLE games ADD COLUMN stand_in_level TEXT;
        """,
    ),
)

# The SQLite migrations under their historical name.
MIGRATIONS: Final = SQLITE

# Tables whose rows others refer to come first (copying, clearing in reverse).
FIRST: Final = ("games",)


async def apply(conn: Executor, number: int, sql: str) -> None:
    """Run migration ``number`` inside ``conn``'s transaction and record it as applied."""
    for statement in statements(sql):
        await conn.execute(statement)
    await conn.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", (number, time.time()))


def statements(sql: str) -> list[str]:
    """Split a migration script on semicolons (our migrations hold no semicolons inside literals)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def ordered(tables: Sequence[str]) -> list[str]:
    """``tables`` with the ones others refer to first, the rest by name."""
    return sorted(tables, key=lambda name: (name not in FIRST, name))
