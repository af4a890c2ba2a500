"""Playing a started game: a person's move, the moves a timeout makes, undo, and the game's end by abandon.

A move passed without a version is judged on the newest game instead, and judged again when another move was
stored first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.host.errors import HostError
from bot.host.outcome import Outcome, OwedAnswer, owed
from bot.host.rebuild import rebuild
from bot.host.rows import GameRows
from bot.storage import GameRow, StaleVersion
from engine import Event, Game

# At most this many timeout moves in one step: the longest chain is a Catan turn (roll, robber, end) or the
# set-up's double placement at the turn of the snake (settlement, road, settlement, road).
TIMEOUT_MOVES: Final = 8


def automatic(game: Game) -> tuple[list[dict[str, Any]], list[Event]]:
    """Moves nobody chooses: a Carcassonne tile that fits nowhere is discarded at once."""
    actions: list[dict[str, Any]] = []
    events: list[Event] = []
    while (action := game.automatic_action()) is not None:
        applied = game.apply(action)
        actions.append(applied.action)
        events += applied.events
    return actions, events


class Play:
    """Moves and their undoing, stored through the game rows (``bot.host.rows``)."""

    def __init__(self, rows: GameRows) -> None:
        self.rows = rows

    async def act(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        action: Mapping[str, Any],
        *,
        row: GameRow | None = None,
        answer: OwedAnswer | None = None,
    ) -> Outcome:
        """Apply a user's action for their seat; RuleError (engine) or HostError on refusal, nothing changed.

        ``row`` saves a read when the caller has just read the game's row (the write is guarded by its version).
        With ``version`` None the move is not bound to what the user was shown (several players discard after a
        seven, or answer one offer, at the same moment): when another move is stored between reading the game and
        writing this one, the move is judged again on the newer game and refused only if it is no longer legal
        there (a double click's second discard: the engine's "no discard owed"). ``answer``: the user's interaction
        waits on an answer, owed with the move.
        """
        given = [row]  # for the first try; after a lost race, the newer game is read
        return await self.rows.attempt(
            version, lambda: self._act(game_id, version, user_id, action, given.pop() if given else None, answer)
        )

    async def _act(
        self,
        game_id: int,
        version: int | None,
        user_id: int,
        action: Mapping[str, Any],
        row: GameRow | None,
        answer: OwedAnswer | None,
    ) -> Outcome:
        rows = self.rows
        if row is None or row.id != game_id:
            # A click on a version: the row in memory if it is that version (the write is guarded by it), else read.
            row = await (rows.row(game_id) if version is None else rows.row_at(game_id, version))
        if row.status != "active":
            raise HostError("not_active")
        rows.fresh(row, version)
        seat = row.seat_of(user_id)
        if seat is None:
            raise HostError("not_seated")
        if seat in row.stand_ins:  # the person is back: their own move ends the computer's stand-in
            back: list[Event] = [{"type": "returned", "player": seat}]
            stand_ins = [s for s in row.stand_ins if s != seat]
            away_seats = [s for s in row.away_seats if s != seat]
            return await self.apply(
                row, seat, action, user_id, back, answer=answer, stand_ins=stand_ins, away_seats=away_seats
            )
        return await self.apply(row, seat, action, user_id, answer=answer)

    async def apply(
        self,
        row: GameRow,
        seat: int,
        action: Mapping[str, Any],
        user_id: int | None,
        first: list[Event] | None = None,
        *,
        answer: OwedAnswer | None = None,
        **changes: Any,
    ) -> Outcome:
        """One seat's action (a person's, or a computer's: ``user_id`` None) and its automatic follow-ups, stored in
        one version-guarded transaction."""
        current = self.rows.game(row)
        game = current.copy()  # work on a copy: a refusal changes nothing
        applied = game.apply({**action, "player": seat})
        actions = [applied.action]
        events = [*(first or []), *applied.events]
        more, more_events = automatic(game)
        actions += more
        events += more_events
        before = current.actors()
        owe = owed("turn", events, before, user_id, answer=answer)
        updated = await self._record(row, current, game, actions, user_id, owe, **changes)
        return Outcome(updated, game, events, actions, before, actor=user_id, answer=answer)

    async def _record(
        self,
        row: GameRow,
        current: Game,
        game: Game,
        actions: list[dict[str, Any]],
        user_id: int | None,
        owe: dict[str, Any],
        **changes: Any,
    ) -> GameRow:
        """Store ``game`` (reached from ``current`` by ``actions``), and what the change owes Discord, in one
        transaction guarded by the version."""
        clock = self.rows.clock
        if game.actors() != current.actors() or game.finished:
            changes.update(turn_started_at=clock(), reminders_sent=0)
        if game.finished:
            result = game.result()
            changes.update(status="finished", finished_at=clock(),
                           winners=[row.seats[s].user_id for s in result["winners"]])  # fmt: skip
        try:
            updated = self.rows.known(
                await self.rows.games.record_action(
                    row.id, row.version, user_id=user_id, actions=actions, state=game.to_json(), owe=owe, **changes
                )
            )
        except StaleVersion:
            self.rows.forget(row.id)
            raise HostError("stale") from None
        self.rows.remember(row.id, updated.version, game)
        return updated

    async def timeout(self, game_id: int, version: int | None) -> Outcome:
        """The turn limit ran out: make the idle seats' decisions with the engine's timeout moves.

        The seats owing a decision now are the idle ones. Their decisions are made (latest-listed seat first, so
        replies to a trade offer are settled before the offering player's turn ends) until the game waits for
        someone else, a new turn begins or the game ends; automatic follow-ups come after each move. Everything
        is logged without a user (``user_id`` NULL) in one transaction guarded by ``version``. The outcome's
        events start with one ``timed_out`` event per idle seat that was moved for.
        """
        row = await self.rows.active(game_id, version)
        current = self.rows.game(row)
        idle = current.actors()
        turn = current.result()["turn"]
        game = current.copy()
        actions: list[dict[str, Any]] = []
        events: list[Event] = []
        moved: list[int] = []
        for _ in range(TIMEOUT_MOVES):
            owing = game.actors()
            if not owing or any(s not in idle for s in owing) or game.result()["turn"] != turn:
                break
            seat = owing[-1]
            applied = game.apply(game.timeout_action(seat))
            more, more_events = automatic(game)
            actions += [applied.action, *more]
            events += [*applied.events, *more_events]
            if seat not in moved:
                moved.append(seat)
        if not actions:
            raise HostError("not_active")
        timed_out: list[Event] = [{"type": "timed_out", "player": s} for s in moved]
        updated = await self._record(row, current, game, actions, None, owed("turn", timed_out + events, idle))
        return Outcome(updated, game, timed_out + events, actions, idle)

    async def undo(
        self, game_id: int, version: int | None, user_id: int, *, answer: OwedAnswer | None = None
    ) -> Outcome:
        """Take back the acting player's last action of the current turn, if it revealed nothing."""
        row = await self.rows.active(game_id, version)
        seat = row.seat_of(user_id)
        log = await self.rows.games.actions(row.id)
        if not log or seat is None:
            raise HostError("nothing_to_undo")
        last = log[-1]
        game = self.rows.game(row)
        if last.get("player") != seat or seat not in game.actors():
            raise HostError("nothing_to_undo")
        if not game.undoable(last):
            raise HostError("undo_revealed", action=str(last.get("type")))
        rebuilt = rebuild(row, log[:-1])
        if seat not in rebuilt.actors():
            raise HostError("nothing_to_undo")
        events: list[Event] = [{"type": "undone", "player": seat, "action": last}]
        owe = owed("turn", events, game.actors(), user_id, answer=answer)
        try:
            dropped = await self.rows.games.drop_last_actions(
                row.id, row.version, count=1, state=rebuilt.to_json(), owe=owe
            )
        except StaleVersion:
            raise HostError("stale") from None
        updated = self.rows.known(dropped)
        self.rows.remember(row.id, updated.version, rebuilt)
        return Outcome(updated, rebuilt, events, [], game.actors(), actor=user_id, answer=answer)

    async def abandon(
        self, game_id: int, version: int | None, user_id: int, *, can_manage: bool, answer: OwedAnswer | None = None
    ) -> GameRow:
        """The game ends unplayed. Without a ``version`` (``/game abandon``), whatever move came first."""
        return await self.rows.attempt(version, lambda: self._abandon(game_id, version, user_id, can_manage, answer))

    async def _abandon(
        self, game_id: int, version: int | None, user_id: int, can_manage: bool, answer: OwedAnswer | None
    ) -> GameRow:
        row = await self.rows.row(game_id)
        if row.status not in ("lobby", "active"):
            raise HostError("not_active")
        self.rows.fresh(row, version)
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        # The last message (the lobby's, or the last turn's) loses its buttons.
        owe = owed("ended", [], [], user_id, answer=answer)
        updated = await self.rows.update(row, status="abandoned", finished_at=self.rows.clock(), owe=owe)
        self.rows.forget(row.id)
        return updated

    async def archive(self, game_id: int) -> None:
        """A game whose channel is gone for good ends as abandoned (nothing left to owe it: no outbox entry)."""
        row = await self.rows.row(game_id)
        if row.status not in ("lobby", "active"):
            return
        try:
            await self.rows.update(row, status="abandoned", finished_at=self.rows.clock())
        except HostError:  # moved meanwhile: the next sweep looks again
            return
        self.rows.forget(row.id)
