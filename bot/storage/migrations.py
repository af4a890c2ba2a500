"""Numbered schema migrations, applied in order at start-up. Never edit a released one: add the next number."""

from __future__ import annotations

from typing import Final

MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
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
)
