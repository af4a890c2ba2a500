"""What is kept of a game beside its moves: the messages that show it (the turn message, reminders sent, public
offers' messages), its language, its log and replay file, its rating, and what its stored changes still owe
Discord (the outbox's table)."""

from __future__ import annotations

from typing import Any

from bot.host.errors import HostError
from bot.host.rows import GameRows
from bot.host.standings import Standings, pool_of, rated_game
from bot.storage import GameRow
from bot.storage.owed import OwedTable
from engine.history import GameLog
from engine.replay import export


class Records:
    """A game's columns and tables that change without a new version (the version stays), and its history."""

    def __init__(self, rows: GameRows) -> None:
        self.rows = rows
        self.owed = OwedTable(rows.games.db)  # what stored changes still owe Discord (``bot.flows.outbox`` delivers it)
        self.standings = Standings(rows.games)  # the ratings (``/stats``), a finished game's owed ``rating`` part

    async def set_message(self, game_id: int, message_id: int | None, version: int | None = None) -> None:
        """Remember the game's newest turn (or lobby) message (not a change of the game: the version stays); with
        ``version``, that the channel shows that version now."""
        await self.rows.games.set_message(game_id, message_id, version)

    async def mark_reminder_sent(self, game_id: int, version: int, nth: int) -> bool:
        """Record the ``nth`` reminder of the wait at ``version`` as sent, unless the turn moved on meanwhile (then
        it is not sent at all) or it was sent already."""
        return await self.rows.games.mark_reminder_sent(game_id, version, nth)

    async def unmark_reminder_sent(self, game_id: int, version: int, nth: int) -> None:
        """The ``nth`` reminder could not be posted after all: due again at the next sweep."""
        await self.rows.games.unmark_reminder_sent(game_id, version, nth)

    async def remember_offer_message(self, game_id: int, offer: int, message_id: int) -> None:
        await self.rows.games.add_offer_message(game_id, offer, message_id)

    async def offer_messages(self, game_id: int) -> dict[int, int]:
        """Offer number -> the id of the channel message that shows its reply buttons."""
        return await self.rows.games.offer_messages(game_id)

    async def forget_offer_message(self, game_id: int, offer: int) -> None:
        await self.rows.games.forget_offer_message(game_id, offer)

    async def set_language(self, game_id: int, user_id: int, language: str, *, can_manage: bool) -> GameRow:
        """The host (or someone with Manage Channels) chooses the language of the game's public messages."""
        row = await self.rows.row(game_id)
        if row.status not in ("lobby", "active"):
            raise HostError("not_active")
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        await self.rows.games.set_language(game_id, language)
        return await self.rows.row(game_id)

    async def log(self, row: GameRow) -> GameLog:
        """The game's set-up and action log, to look back at any turn (``engine.history``); ``HostError`` for a
        lobby."""
        if row.status == "lobby" or row.state is None:
            raise HostError("not_started")
        actions = await self.rows.games.actions(row.id)
        return GameLog(row.game, tuple(s.name for s in row.seats), dict(row.options), row.seed, tuple(actions))

    async def export(self, game_id: int) -> dict[str, Any]:
        """The replay file of a finished game."""
        row = await self.rows.row(game_id)
        if row.status != "finished":
            raise HostError("export_unfinished")
        game = self.rows.game(row)
        return export(game, row.seed, await self.rows.games.actions(row.id))

    async def stats(self, guild_id: int) -> tuple[int, dict[int, int], dict[str, int]]:
        return await self.rows.games.stats(guild_id)

    async def rate(self, game_id: int) -> bool:
        """Rate a finished game into its server's ratings, once (``bot.host.standings``): False when it is not
        finished (an abandoned game never counts) or was rated already."""
        row = await self.rows.row(game_id)
        if row.status != "finished" or row.state is None:
            return False
        return await self.standings.rate(pool_of(row), rated_game(row, self.rows.game(row).result()))
