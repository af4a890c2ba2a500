"""Computers at the table: their decisions, and the seats they play for people (a takeover when a turn limit runs
out, time away, a person who left) until those people are back."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from bot.host.computer_seats import available, choose, computers_owing, controllers, quick_level
from bot.host.errors import HostError
from bot.host.outcome import Outcome, OwedAnswer, owed
from bot.host.play import Play
from bot.host.rows import GameRows
from bot.host.thinking import Decision, Thinker, ThinkingFailed
from bot.storage import GameRow
from engine import Event, Game
from engine.ai import SEARCHING, factory_for, strongest
from engine.game import Action

log = logging.getLogger("boardhost.computers")


class StandIns:
    """Computer players' moves (through ``play``) and the seats they stand in for, stored through the game rows."""

    def __init__(self, rows: GameRows, play: Play) -> None:
        self.rows = rows
        self.play = play
        self.thinker = Thinker()  # the worker process of the searching computer levels, started on first use

    def close(self) -> None:
        """Stop what runs beside the event loop (the decision process): on SIGTERM, before the database closes."""
        self.thinker.close()

    async def tell_processes(self, channel: str, payload: str) -> None:
        """Tell the other bot processes sharing the database (PostgreSQL NOTIFY; nobody else listens to SQLite)."""
        await self.rows.games.db.notify(channel, payload)

    async def listen_to_processes(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for what other bot processes tell on ``channel``."""
        await self.rows.games.db.listen(channel, callback)

    async def computer_move(self, game_id: int) -> Outcome | None:
        """One decision of a computer-played seat that owes one (None when no computer owes a decision).

        The decision is computed away from the event loop from the seat's view and legal actions (``think``), then
        stored like any person's move: one transaction guarded by the version it was computed for
        (``HostError("stale")`` if a person moved meanwhile), logged without a user.
        """
        row = await self.rows.row(game_id)
        if row.status != "active":
            return None
        current = self.rows.game(row)
        owing = computers_owing(row, current)
        if not owing:
            return None
        seat = owing[0]
        level = controllers(row)[seat]
        step = await self.rows.games.action_count(row.id)
        action = await self.think(row, current, seat, level, step)
        return await self.play.apply(row, seat, action, None)

    async def think(self, row: GameRow, game: Game, seat: int, level: str, step: int) -> Action:
        """The decision of the ``level`` computer in ``seat``: a searching level's in the decision process (so a
        second of thinking never holds up other games' clicks), a quick level's in a thread. A searching decision
        that cannot be had (its process failed, or took too long) is made at the strongest quick level instead:
        a computer player never stalls a game. Each decision's time is logged (the process tests read it)."""
        started = time.perf_counter()
        if not available(row.game, level):  # a level the game no longer has (a seat from an older release)
            level = strongest(row.game)
        played = level
        action: Action | None = None
        if level in SEARCHING and row.state is not None:
            job = Decision.of(factory_for(row.game, level), row.game, row.state, seat, row.seed, step)
            try:
                action = await self.thinker.choose(job)
            except ThinkingFailed as err:
                played = quick_level(row.game)
                log.error("game %s: the %s computer in seat %d failed (%s); deciding at %s", row.id, level, seat,
                          err, played)  # fmt: skip
        if action is None:
            thinking = game.copy()  # the thread's own copy
            action = await asyncio.to_thread(choose, thinking, seat, played, row.seed, step)
        log.info("game %s: seat %d (%s) decided in %.0f ms", row.id, seat, played,
                 (time.perf_counter() - started) * 1000)  # fmt: skip
        return action

    async def _active_at(self, game_id: int, version: int | None) -> tuple[GameRow, Game, dict[int, str]]:
        """An active game at ``version`` (``HostError`` otherwise), its engine game and its computer-played seats."""
        row = await self.rows.active(game_id, version)
        return row, self.rows.game(row), controllers(row)

    async def take_over(self, game_id: int, version: int | None) -> Outcome:
        """The turn limit ran out in a game with the takeover rule: computers play the idle people's seats.

        Nothing is played here (the computer players move next, like after any change); the outcome's events are
        one ``taken_over`` per seat. ``HostError("nothing_to_take_over")`` when every idle seat is a computer's.
        """
        row, game, played = await self._active_at(game_id, version)
        idle = [s for s in game.actors() if s not in played]
        if not idle:
            raise HostError("nothing_to_take_over")
        events: list[Event] = [{"type": "taken_over", "player": s} for s in idle]
        return await self._stand_in(row, game, idle, events)

    async def stand_in_while_away(self, game_id: int, version: int | None, away: Mapping[int, float]) -> Outcome:
        """The host's away rule is ``computer``: computers play the seats of ``away`` (seat -> when its person is
        back), people the game waits for, until they are back (``back_from_away``, or their own move).

        Like a takeover, nothing is played here; the outcome's events are one ``away`` per seat (with ``until``).
        ``HostError("nothing_to_take_over")`` when none of the seats is a person's the game waits for.
        """
        row, game, played = await self._active_at(game_id, version)
        seats = [s for s in game.actors() if s in away and s not in played]
        if row.away_rule != "computer" or not seats:
            raise HostError("nothing_to_take_over")
        events: list[Event] = [{"type": "away", "player": s, "until": away[s]} for s in seats]
        return await self._stand_in(row, game, seats, events, away_seats=sorted({*row.away_seats, *seats}))

    async def _stand_in(
        self, row: GameRow, game: Game, seats: list[int], events: list[Event], **columns: Any
    ) -> Outcome:
        """Computers play ``seats`` from now on (nothing is played here): stored with the takeover message owed, the
        wait's clock and reminders started again."""
        updated = await self.rows.update(
            row,
            stand_ins=sorted({*row.stand_ins, *seats}),
            turn_started_at=self.rows.clock(),
            reminders_sent=0,
            owe=owed("takeover", events, game.actors()),
            **columns,
        )
        self.rows.remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), kind="takeover")

    async def back_from_away(self, game_id: int, user_id: int) -> Outcome | None:
        """A person a computer played for while they were away is back: they play their seat again and the turn is
        posted again for them. None when no computer played for them here because they were away."""
        row = await self.rows.row(game_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or seat is None or seat not in row.away_seats:
            return None
        game = self.rows.game(row)
        events: list[Event] = [{"type": "returned", "player": seat}]
        # A wait for them starts afresh (the computer's time was not theirs); anyone else's goes on as it was.
        clock = {"turn_started_at": self.rows.clock(), "reminders_sent": 0} if seat in game.actors() else {}
        updated = await self.rows.update(
            row,
            stand_ins=[s for s in row.stand_ins if s != seat],
            away_seats=[s for s in row.away_seats if s != seat],
            owe=owed("turn", events, game.actors()),
            **clock,
        )
        self.rows.remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors())

    async def leave_game(
        self, game_id: int, version: int | None, user_id: int, *, answer: OwedAnswer | None = None, ended: str = ""
    ) -> Outcome | None:
        """A person leaves a running game: a computer player plays their seat from now on, so the others play on.

        None when nobody else would be left playing (only computers): then the game is abandoned instead. The
        person may still take the seat back (``come_back``), like after a takeover. ``answer``: what the person's
        interaction waits on, owed with the change (``ended``: its text when the game is abandoned). Without a
        ``version`` (``/game leave``), whatever move came first.
        """
        return await self.rows.attempt(version, lambda: self._leave_game(game_id, version, user_id, answer, ended))

    async def _leave_game(
        self, game_id: int, version: int | None, user_id: int, answer: OwedAnswer | None, ended: str
    ) -> Outcome | None:
        row = await self.rows.active(game_id, version)
        seat = row.seat_of(user_id)
        if seat is None or row.seats[seat].computer:
            raise HostError("not_seated")
        others = [s for s, who in enumerate(row.seats) if s != seat and not who.computer and s not in row.stand_ins]
        if not others:
            final = dataclasses.replace(answer, text=ended) if answer is not None else None
            await self.play.abandon(row.id, row.version, user_id, can_manage=True, answer=final)
            return None
        game = self.rows.game(row)
        events: list[Event] = [{"type": "left", "player": seat}]
        updated = await self.rows.update(
            row,
            stand_ins=sorted({*row.stand_ins, seat}),
            turn_started_at=self.rows.clock(),
            reminders_sent=0,
            owe=owed("turn", events, game.actors(), user_id, answer=answer),
        )
        self.rows.remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), actor=user_id, answer=answer)

    async def come_back(self, game_id: int, user_id: int, *, answer: OwedAnswer | None = None) -> Outcome:
        """A person a computer stands in for plays again (``I'm back``); the turn is posted again for them.
        ``answer``: what their interaction waits on, owed with the change."""
        row = await self.rows.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        seat = row.seat_of(user_id)
        if seat is None:
            raise HostError("not_seated")
        if seat not in row.stand_ins:
            raise HostError("not_stood_in")
        game = self.rows.game(row)
        stand_ins = [s for s in row.stand_ins if s != seat]
        events: list[Event] = [{"type": "returned", "player": seat}]
        updated = await self.rows.update(
            row,
            stand_ins=stand_ins,
            away_seats=[s for s in row.away_seats if s != seat],
            turn_started_at=self.rows.clock(),
            reminders_sent=0,
            owe=owed("turn", events, game.actors(), user_id, answer=answer),
        )
        self.rows.remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), actor=user_id, answer=answer)
