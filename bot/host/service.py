"""The game host: lobbies, starting, acting, undo, abandoning. Discord-free so that it can be tested directly.

Each accepted change is one storage transaction guarded by the game's version; the caller passes the version it
showed the user (on a button, say), so a stale or repeated click fails with ``HostError("stale")``. A move passed
without a version is judged on the newest game instead, and judged again when another move was stored first.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from bot.host.computer_seats import available, choose, computers_owing, controllers, quick_level
from bot.host.errors import HostError
from bot.host.hours import clock_ran
from bot.host.rebuild import rebuild
from bot.host.standings import Standings, pool_of, rated_game
from bot.host.thinking import Decision, Thinker, ThinkingFailed
from bot.storage import ChannelBusy, GameRow, Games, Seat, StaleVersion, UserSettings
from bot.storage.games import AWAY_RULES
from bot.storage.health import Problem
from bot.storage.held import Held, HeldDms
from bot.storage.owed import OwedTable
from bot.storage.settings import Availability
from engine import Event, Game, RuleError, game_class
from engine.ai import SEARCHING, factory_for, strongest
from engine.game import Action
from engine.history import GameLog
from engine.replay import export

log = logging.getLogger("boardhost.computers")

CACHE_SIZE: Final = 256
DMS_CLOSED_FOR: Final = 24 * 3600.0  # seconds a refused DM is not tried again (the channel is used instead)
# At most this many timeout moves in one step: the longest chain is a Catan turn (roll, robber, end) or the
# set-up's double placement at the turn of the snake (settlement, road, settlement, road).
TIMEOUT_MOVES: Final = 8
# A move judged on the newest game (no version: a Catan discard, a reply to an offer) that another player's move
# beat to the write is judged again on the newer game at most this many times before it is refused as stale.
RETRIES: Final = 3


@dataclass
class Outcome:
    """What an accepted change did: the stored row, the engine game after it, and the engine's events.

    ``kind`` says what the change owes Discord (``bot.flows.outbox``): ``turn`` (the turn message, private news, turn
    DMs, the timelapse at the end), ``takeover`` (the takeover message) or ``ended`` (the last message's buttons
    retired); it is stored with the change, as ``owed()``, in the same write.
    """

    row: GameRow
    game: Game | None = None
    events: list[Event] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    before: list[int] = field(default_factory=list)  # the seats owing a decision before the change
    kind: str = "turn"
    actor: int | None = None  # the user whose click it was (None: a computer, a timeout)
    opening: bool = False  # the first turn message, after the lobby

    def owed(self) -> dict[str, Any]:
        return owed(self.kind, self.events, self.before, self.actor, self.opening)


def owed(
    kind: str, events: list[Event], before: list[int], actor: int | None = None, opening: bool = False
) -> dict[str, Any]:
    """What a change owes Discord, as stored in the outbox with it (JSON: engine events are plain values)."""
    return {"kind": kind, "events": events, "before": before, "actor": actor, "opening": opening}


def waiting_for(game: Game) -> list[int]:
    """The seats owing a decision as anyone may know it (private offers hide their recipients)."""
    return game.public_actors()


class GameService:
    def __init__(self, games: Games, rng: random.Random | None = None) -> None:
        self.games = games
        self.settings = UserSettings(games.db)
        self.owed = OwedTable(games.db)  # what stored changes still owe Discord (``bot.flows.outbox`` delivers it)
        self.held = HeldDms(games.db)  # turn DMs waiting for their readers' quiet hours to end
        self.standings = Standings(games)  # the ratings (``/stats``), a finished game's owed ``rating`` part
        self.rng = rng or random.SystemRandom()
        # Engine games by id at a known version: saves re-reading state JSON on every click.
        self._cache: dict[int, tuple[int, Game]] = {}
        # The newest row this service read or wrote per game: a click on that version needs no read (``row_at``).
        self._rows: dict[int, GameRow] = {}
        self.thinker = Thinker()  # the worker process of the searching computer levels, started on first use

    def close(self) -> None:
        """Stop what runs beside the event loop (the decision process): on SIGTERM, before the database closes."""
        self.thinker.close()

    # -- reading -------------------------------------------------------------------------------------------

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
        return self._known(row)

    async def row_at(self, game_id: int, version: int) -> GameRow:
        """The game's row for a click made on ``version``: the one in memory if it is that version, else read.

        Every change of a game's status, seats or state goes through this service and makes a new version, so a
        remembered row of the clicked version is the game as it was then; if the game has moved on since (a
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

    def _known(self, row: GameRow) -> GameRow:
        if row.id not in self._rows and len(self._rows) >= CACHE_SIZE:
            self._rows.pop(next(iter(self._rows)))
        known = self._rows.get(row.id)
        if known is None or known.version <= row.version:
            self._rows[row.id] = row
        return row

    async def stored(self, game_id: int) -> GameRow | None:
        """The game's row as stored now, with the columns that change without a new version (the turn message)."""
        return await self.games.get(game_id)

    async def tell_processes(self, channel: str, payload: str) -> None:
        """Tell the other bot processes sharing the database (PostgreSQL NOTIFY; nobody else listens to SQLite)."""
        await self.games.db.notify(channel, payload)

    async def listen_to_processes(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for what other bot processes tell on ``channel``."""
        await self.games.db.listen(channel, callback)

    async def open_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game, or None."""
        row = await self.games.open_in_channel(channel_id)
        return None if row is None else self._known(row)

    async def latest_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status (for /game export after the end)."""
        return await self.games.latest_in_channel(channel_id)

    async def running(self) -> list[GameRow]:
        """Every running game (the sweeps read them)."""
        return await self.games.with_status("active")

    async def overdue(self, now: float) -> list[GameRow]:
        """Running games whose turn limit has run out by ``now``: its clock stands still while a person the game
        waits for is in their quiet hours or away (``bot.host.hours``)."""
        rows = await self.games.overdue(now)  # every wait longer than its limit: pauses only make waits longer
        waiting = {row.id: self.waiting_people(row) for row in rows}
        known = await self.settings.many(user for users in waiting.values() for user in users)
        return [
            row
            for row in rows
            if row.turn_started_at is not None
            and row.turn_limit is not None
            and clock_ran([known[u] for u in waiting[row.id]], row.turn_started_at, now) >= row.turn_limit
        ]

    def waiting_people(self, row: GameRow) -> list[int]:
        """The user ids of the people a running game waits for (not computers, nor people a computer plays for)."""
        if row.status != "active" or row.state is None:
            return []
        seats = self.game(row).actors()
        return [row.seats[s].user_id for s in seats if not row.seats[s].computer and s not in row.stand_ins]

    async def open_of(self, user_id: int) -> list[GameRow]:
        """The lobbies and running games ``user_id`` is seated in (``/game mine``), through the players index."""
        return [self._known(row) for row in await self.games.open_of(user_id)]

    async def stats(self, guild_id: int) -> tuple[int, dict[int, int], dict[str, int]]:
        return await self.games.stats(guild_id)

    async def rate(self, game_id: int) -> bool:
        """Rate a finished game into its server's ratings, once (``bot.host.standings``): False when it is not
        finished (an abandoned game never counts) or was rated already."""
        row = await self.row(game_id)
        if row.status != "finished" or row.state is None:
            return False
        return await self.standings.rate(pool_of(row), rated_game(row, self.game(row).result()))

    async def set_message(self, game_id: int, message_id: int | None, version: int | None = None) -> None:
        """Remember the game's newest turn (or lobby) message (not a change of the game: the version stays); with
        ``version``, that the channel shows that version now."""
        await self.games.set_message(game_id, message_id, version)

    async def mark_reminder_sent(self, game_id: int, version: int, nth: int) -> bool:
        """Record the ``nth`` reminder of the wait at ``version`` as sent, unless the turn moved on meanwhile (then
        it is not sent at all) or it was sent already."""
        return await self.games.mark_reminder_sent(game_id, version, nth)

    async def unmark_reminder_sent(self, game_id: int, version: int, nth: int) -> None:
        """The ``nth`` reminder could not be posted after all: due again at the next sweep."""
        await self.games.unmark_reminder_sent(game_id, version, nth)

    async def dm_on_turn(self, user_id: int) -> bool:
        return await self.settings.dm_on_turn(user_id)

    async def set_dm_on_turn(self, user_id: int, enabled: bool) -> None:
        await self.settings.set_dm_on_turn(user_id, enabled)

    async def availability(self, user_ids: list[int]) -> dict[int, Availability]:
        """When each user may be disturbed: time zone, quiet hours, time away (one read)."""
        return await self.settings.many(user_ids)

    async def set_time_zone(self, user_id: int, time_zone: str) -> None:
        await self.settings.set_time_zone(user_id, time_zone)

    async def set_quiet(self, user_id: int, start: int | None, end: int | None) -> None:
        await self.settings.set_quiet(user_id, start, end)

    async def go_away(self, user_id: int, until: float) -> None:
        """The user is away from now until ``until`` (already away: from when they went, until the new day)."""
        known = await self.settings.availability(user_id)
        now = self.clock()
        since = now
        if known.away_until is not None and known.away_until > now and known.away_since is not None:
            since = known.away_since
        await self.settings.set_away(user_id, since, until)

    async def end_away(self, user_id: int) -> bool:
        """The user is back now (their time away is kept as it was: a turn limit's clock stood still meanwhile);
        False when they were not away."""
        known = await self.settings.availability(user_id)
        now = self.clock()
        if known.away_until is None or known.away_until <= now:
            return False
        await self.settings.set_away(user_id, known.away_since if known.away_since is not None else now, now)
        return True

    async def hold_dm(self, held: Held) -> None:
        """A turn DM waits for its reader's quiet hours to end."""
        await self.held.hold(held)

    async def held_due(self) -> list[Held]:
        return await self.held.due(self.clock())

    async def take_held(self, held: Held) -> bool:
        """Claim a held turn DM for sending: True for exactly one caller."""
        return await self.held.take(held)

    async def dms_closed(self, user_id: int) -> bool:
        """Whether Discord refused a DM to the user (DMs closed) within ``DMS_CLOSED_FOR``: not worth trying now."""
        since = await self.settings.dms_closed_since(user_id)
        return since is not None and self.clock() - since < DMS_CLOSED_FOR

    async def note_dms(self, user_id: int, *, closed: bool) -> None:
        """Remember that the user's DMs are closed (or, after one was delivered, that they are open again)."""
        await self.settings.set_dms_closed(user_id, self.clock() if closed else None)

    async def in_channel(self, channel_id: int) -> GameRow:
        row = await self.games.open_in_channel(channel_id)
        if row is None:
            raise HostError("no_game_here")
        return self._known(row)

    def game(self, row: GameRow) -> Game:
        """The engine game of a started row (cached per version; callers must not mutate it)."""
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = row.state
        if state is None:
            raise HostError("not_started")
        game = game_class(row.game).from_json(state)
        self._remember(row.id, row.version, game)
        return game

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        if len(self._cache) >= CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[game_id] = (version, game)

    @staticmethod
    def _fresh(row: GameRow, version: int | None) -> None:
        if version is not None and version != row.version:
            raise HostError("stale")

    # -- lobby ---------------------------------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host: Seat,
        options: Mapping[str, Any],
        language: str | None = None,
        turn_limit: int | None = None,
        takeover: bool = False,
        away_rule: str = "wait",
        stand_in_level: str | None = None,
    ) -> GameRow:
        """A lobby in the channel. ``stand_in_level``: the computer level playing for people who time out or are
        away (None: the strongest the game has, fixed now so that the lobby can say it)."""
        high = game_class(game).MAX_PLAYERS
        if takeover and not turn_limit:
            raise HostError("takeover_needs_limit")
        if away_rule not in AWAY_RULES:
            raise HostError("stale")  # an option of another release
        if stand_in_level is not None and not available(game, stand_in_level):
            raise HostError("computer_unavailable", level=stand_in_level)
        try:  # validate the options now, with a full table, so that Start cannot fail on them later
            game_class(game).new([f"P{i}" for i in range(high)], dict(options), 0)
        except RuleError as err:
            raise HostError("bad_options", reason=err.message, code=err.code, **err.params) from None
        try:
            lobby = await self.games.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host=host,
                options=dict(options),
                seed=self.rng.getrandbits(48),
                language=language,
                turn_limit=turn_limit,
                takeover=takeover,
                away_rule=away_rule,
                stand_in_level=stand_in_level or strongest(game),
            )
            return self._known(lobby)
        except ChannelBusy:
            raise HostError("channel_busy") from None

    def _lobby(self, row: GameRow, version: int | None) -> None:
        if row.status != "lobby":
            raise HostError("not_a_lobby")
        self._fresh(row, version)

    async def join(self, game_id: int, version: int | None, seat: Seat) -> GameRow:
        row = await self.row(game_id)
        self._lobby(row, version)
        if row.seat_of(seat.user_id) is not None:
            raise HostError("already_joined")
        high = game_class(row.game).MAX_PLAYERS
        if len(row.seats) >= high:
            raise HostError("lobby_full", max=high)
        return await self._update(row, seats=[*row.seats, seat])

    async def add_computer(
        self, game_id: int, version: int | None, user_id: int, level: str, name: Callable[[int], str]
    ) -> GameRow:
        """The host seats a computer player at ``level``; ``name(number)`` names it (numbered from 1)."""
        row = await self.row(game_id)
        self._lobby(row, version)
        if user_id != row.host_id:
            raise HostError("host_only")
        if not available(row.game, level):
            raise HostError("computer_unavailable", level=level)
        high = game_class(row.game).MAX_PLAYERS
        if len(row.seats) >= high:
            raise HostError("lobby_full", max=high)
        taken = {-s.user_id for s in row.seats if s.computer}
        number = next(n for n in range(1, high + 2) if n not in taken)
        return await self._update(row, seats=[*row.seats, Seat(-number, name(number), level)])

    async def remove_computer(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        """The host takes back the computer player seated last."""
        row = await self.row(game_id)
        self._lobby(row, version)
        if user_id != row.host_id:
            raise HostError("host_only")
        computers = row.computer_seats()
        if not computers:
            raise HostError("no_computer")
        last = computers[-1]
        return await self._update(row, seats=[s for i, s in enumerate(row.seats) if i != last])

    async def leave_lobby(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        row = await self.row(game_id)
        self._lobby(row, version)
        if row.seat_of(user_id) is None:
            raise HostError("not_seated")
        if user_id == row.host_id:
            raise HostError("host_cannot_leave")
        return await self._update(row, seats=[s for s in row.seats if s.user_id != user_id])

    async def cancel(self, game_id: int, version: int | None, user_id: int, *, can_manage: bool = False) -> GameRow:
        row = await self.row(game_id)
        self._lobby(row, version)
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        return await self._update(row, status="abandoned")

    async def start(self, game_id: int, version: int | None, user_id: int) -> Outcome:
        row = await self.row(game_id)
        self._lobby(row, version)
        if user_id != row.host_id:
            raise HostError("host_only")
        engine = game_class(row.game)
        low, high = engine.MIN_PLAYERS, engine.MAX_PLAYERS
        if not low <= len(row.seats) <= high:
            raise HostError("player_count", count=len(row.seats), min=low, max=high)
        options = dict(row.options)
        # The host draws the first player at random and records it, so the replay needs no randomness for it.
        options.setdefault("first_player", random.Random(row.seed).randrange(len(row.seats)))
        game = game_class(row.game).new([s.name for s in row.seats], options, row.seed)
        actions, events = self._automatic(game)
        changes: dict[str, Any] = {"status": "active", "options": options, "turn_started_at": self.games.clock()}
        owe = owed("turn", events, [], user_id, opening=True)
        try:  # one write: automatic follow-ups (a first tile that fits nowhere) belong to the log from the start
            updated = await self.games.record_action(
                row.id, row.version, user_id=None, actions=actions, state=game.to_json(), owe=owe, **changes
            )
        except StaleVersion:
            raise HostError("stale") from None
        self._remember(row.id, updated.version, game)
        return Outcome(self._known(updated), game, events, actions, kind="turn", actor=user_id, opening=True)

    async def _update(self, row: GameRow, *, owe: dict[str, Any] | None = None, **changes: Any) -> GameRow:
        try:
            return self._known(await self.games.update(row.id, row.version, owe=owe, **changes))
        except StaleVersion:
            raise HostError("stale") from None

    # -- playing -------------------------------------------------------------------------------------------

    @staticmethod
    def _automatic(game: Game) -> tuple[list[dict[str, Any]], list[Event]]:
        """Moves nobody chooses: a Carcassonne tile that fits nowhere is discarded at once."""
        actions: list[dict[str, Any]] = []
        events: list[Event] = []
        while (automatic := game.automatic_action()) is not None:
            applied = game.apply(automatic)
            actions.append(applied.action)
            events += applied.events
        return actions, events

    async def act(
        self, game_id: int, version: int | None, user_id: int, action: Mapping[str, Any], *, row: GameRow | None = None
    ) -> Outcome:
        """Apply a user's action for their seat; RuleError (engine) or HostError on refusal, nothing changed.

        ``row`` saves a read when the caller has just read the game's row (the write is guarded by its version).
        With ``version`` None the move is not bound to what the user was shown (several players discard after a
        seven, or answer one offer, at the same moment): when another move is stored between reading the game and
        writing this one, the move is judged again on the newer game and refused only if it is no longer legal
        there (a double click's second discard: the engine's "no discard owed").
        """
        retries = 0
        while True:
            try:
                return await self._act(game_id, version, user_id, action, row)
            except HostError as err:
                # Without a version, "stale" can only mean the version-guarded write lost a race.
                if version is not None or err.key != "stale" or retries == RETRIES:
                    raise
                retries += 1
                row = None  # read the newer game

    async def _act(
        self, game_id: int, version: int | None, user_id: int, action: Mapping[str, Any], row: GameRow | None
    ) -> Outcome:
        if row is None or row.id != game_id:
            # A click on a version: the row in memory if it is that version (the write is guarded by it), else read.
            row = await (self.row(game_id) if version is None else self.row_at(game_id, version))
        if row.status != "active":
            raise HostError("not_active")
        self._fresh(row, version)
        seat = row.seat_of(user_id)
        if seat is None:
            raise HostError("not_seated")
        if seat in row.stand_ins:  # the person is back: their own move ends the computer's stand-in
            back: list[Event] = [{"type": "returned", "player": seat}]
            stand_ins = [s for s in row.stand_ins if s != seat]
            away_seats = [s for s in row.away_seats if s != seat]
            return await self._apply(row, seat, action, user_id, back, stand_ins=stand_ins, away_seats=away_seats)
        return await self._apply(row, seat, action, user_id)

    async def _apply(
        self,
        row: GameRow,
        seat: int,
        action: Mapping[str, Any],
        user_id: int | None,
        first: list[Event] | None = None,
        **changes: Any,
    ) -> Outcome:
        """One seat's action and its automatic follow-ups, stored in one version-guarded transaction."""
        current = self.game(row)
        game = current.copy()  # work on a copy: a refusal changes nothing
        applied = game.apply({**action, "player": seat})
        actions = [applied.action]
        events = [*(first or []), *applied.events]
        more, more_events = self._automatic(game)
        actions += more
        events += more_events
        before = current.actors()
        updated = await self._record(row, current, game, actions, user_id, owed("turn", events, before, user_id),
                                     **changes)  # fmt: skip
        return Outcome(updated, game, events, actions, before, actor=user_id)

    async def computer_move(self, game_id: int) -> Outcome | None:
        """One decision of a computer-played seat that owes one (None when no computer owes a decision).

        The decision is computed away from the event loop from the seat's view and legal actions (``think``), then
        stored like any person's move: one transaction guarded by the version it was computed for
        (``HostError("stale")`` if a person moved meanwhile), logged without a user.
        """
        row = await self.row(game_id)
        if row.status != "active":
            return None
        current = self.game(row)
        owing = computers_owing(row, current)
        if not owing:
            return None
        seat = owing[0]
        level = controllers(row)[seat]
        step = await self.games.action_count(row.id)
        action = await self.think(row, current, seat, level, step)
        return await self._apply(row, seat, action, None)

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
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        self._fresh(row, version)
        return row, self.game(row), controllers(row)

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
        updated = await self._update(
            row,
            stand_ins=sorted({*row.stand_ins, *seats}),
            turn_started_at=self.games.clock(),
            reminders_sent=0,
            owe=owed("takeover", events, game.actors()),
            **columns,
        )
        self._remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), kind="takeover")

    async def back_from_away(self, game_id: int, user_id: int) -> Outcome | None:
        """A person a computer played for while they were away is back: they play their seat again and the turn is
        posted again for them. None when no computer played for them here because they were away."""
        row = await self.row(game_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or seat is None or seat not in row.away_seats:
            return None
        game = self.game(row)
        events: list[Event] = [{"type": "returned", "player": seat}]
        # A wait for them starts afresh (the computer's time was not theirs); anyone else's goes on as it was.
        clock = {"turn_started_at": self.games.clock(), "reminders_sent": 0} if seat in game.actors() else {}
        updated = await self._update(
            row,
            stand_ins=[s for s in row.stand_ins if s != seat],
            away_seats=[s for s in row.away_seats if s != seat],
            owe=owed("turn", events, game.actors()),
            **clock,
        )
        self._remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors())

    async def leave_game(self, game_id: int, version: int | None, user_id: int) -> Outcome | None:
        """A person leaves a running game: a computer player plays their seat from now on, so the others play on.

        None when nobody else would be left playing (only computers): then the game is abandoned instead. The
        person may still take the seat back (``come_back``), like after a takeover.
        """
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        self._fresh(row, version)
        seat = row.seat_of(user_id)
        if seat is None or row.seats[seat].computer:
            raise HostError("not_seated")
        others = [s for s, who in enumerate(row.seats) if s != seat and not who.computer and s not in row.stand_ins]
        if not others:
            await self.abandon(row.id, row.version, user_id, can_manage=True)
            return None
        game = self.game(row)
        events: list[Event] = [{"type": "left", "player": seat}]
        updated = await self._update(
            row,
            stand_ins=sorted({*row.stand_ins, seat}),
            turn_started_at=self.games.clock(),
            reminders_sent=0,
            owe=owed("turn", events, game.actors(), user_id),
        )
        self._remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), actor=user_id)

    async def come_back(self, game_id: int, user_id: int) -> Outcome:
        """A person a computer stands in for plays again (``I'm back``); the turn is posted again for them."""
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        seat = row.seat_of(user_id)
        if seat is None:
            raise HostError("not_seated")
        if seat not in row.stand_ins:
            raise HostError("not_stood_in")
        game = self.game(row)
        stand_ins = [s for s in row.stand_ins if s != seat]
        events: list[Event] = [{"type": "returned", "player": seat}]
        updated = await self._update(
            row,
            stand_ins=stand_ins,
            away_seats=[s for s in row.away_seats if s != seat],
            turn_started_at=self.games.clock(),
            reminders_sent=0,
            owe=owed("turn", events, game.actors(), user_id),
        )
        self._remember(updated.id, updated.version, game)
        return Outcome(updated, game, events, [], game.actors(), actor=user_id)

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
        if game.actors() != current.actors() or game.finished:
            changes.update(turn_started_at=self.games.clock(), reminders_sent=0)
        if game.finished:
            result = game.result()
            changes.update(status="finished", finished_at=self.games.clock(),
                           winners=[row.seats[s].user_id for s in result["winners"]])  # fmt: skip
        try:
            updated = self._known(
                await self.games.record_action(
                    row.id, row.version, user_id=user_id, actions=actions, state=game.to_json(), owe=owe, **changes
                )
            )
        except StaleVersion:
            self._cache.pop(row.id, None)
            raise HostError("stale") from None
        self._remember(row.id, updated.version, game)
        return updated

    async def timeout(self, game_id: int, version: int | None) -> Outcome:
        """The turn limit ran out: make the idle seats' decisions with the engine's timeout moves.

        The seats owing a decision now are the idle ones. Their decisions are made (latest-listed seat first, so
        replies to a trade offer are settled before the offering player's turn ends) until the game waits for
        someone else, a new turn begins or the game ends; automatic follow-ups come after each move. Everything
        is logged without a user (``user_id`` NULL) in one transaction guarded by ``version``. The outcome's
        events start with one ``timed_out`` event per idle seat that was moved for.
        """
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        self._fresh(row, version)
        current = self.game(row)
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
            more, more_events = self._automatic(game)
            actions += [applied.action, *more]
            events += [*applied.events, *more_events]
            if seat not in moved:
                moved.append(seat)
        if not actions:
            raise HostError("not_active")
        timed_out: list[Event] = [{"type": "timed_out", "player": s} for s in moved]
        updated = await self._record(row, current, game, actions, None, owed("turn", timed_out + events, idle))
        return Outcome(updated, game, timed_out + events, actions, idle)

    async def undo(self, game_id: int, version: int | None, user_id: int) -> Outcome:
        """Take back the acting player's last action of the current turn, if it revealed nothing."""
        row = await self.row(game_id)
        if row.status != "active":
            raise HostError("not_active")
        self._fresh(row, version)
        seat = row.seat_of(user_id)
        log = await self.games.actions(row.id)
        if not log or seat is None:
            raise HostError("nothing_to_undo")
        last = log[-1]
        game = self.game(row)
        if last.get("player") != seat or seat not in game.actors():
            raise HostError("nothing_to_undo")
        if not game.undoable(last):
            raise HostError("undo_revealed", action=str(last.get("type")))
        rebuilt = rebuild(row, log[:-1])
        if seat not in rebuilt.actors():
            raise HostError("nothing_to_undo")
        events: list[Event] = [{"type": "undone", "player": seat, "action": last}]
        owe = owed("turn", events, game.actors(), user_id)
        try:
            updated = self._known(
                await self.games.drop_last_actions(row.id, row.version, count=1, state=rebuilt.to_json(), owe=owe)
            )
        except StaleVersion:
            raise HostError("stale") from None
        self._remember(row.id, updated.version, rebuilt)
        return Outcome(updated, rebuilt, events, [], game.actors(), actor=user_id)

    async def abandon(self, game_id: int, version: int | None, user_id: int, *, can_manage: bool) -> GameRow:
        row = await self.row(game_id)
        if row.status not in ("lobby", "active"):
            raise HostError("not_active")
        self._fresh(row, version)
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        # The last message (the lobby's, or the last turn's) loses its buttons.
        owe = owed("ended", [], [], user_id)
        updated = await self._update(row, status="abandoned", finished_at=self.games.clock(), owe=owe)
        self._cache.pop(row.id, None)
        return updated

    async def archive(self, game_id: int) -> None:
        """A game whose channel is gone for good ends as abandoned (nothing left to owe it: no outbox entry)."""
        row = await self.row(game_id)
        if row.status not in ("lobby", "active"):
            return
        try:
            await self._update(row, status="abandoned", finished_at=self.games.clock())
        except HostError:  # moved meanwhile: the next sweep looks again
            return
        self._cache.pop(row.id, None)

    async def set_language(self, game_id: int, user_id: int, language: str, *, can_manage: bool) -> GameRow:
        """The host (or someone with Manage Channels) chooses the language of the game's public messages."""
        row = await self.row(game_id)
        if row.status not in ("lobby", "active"):
            raise HostError("not_active")
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        await self.games.set_language(game_id, language)
        return await self.row(game_id)

    async def log(self, row: GameRow) -> GameLog:
        """The game's set-up and action log, to look back at any turn (``engine.history``); ``HostError`` for a
        lobby."""
        if row.status == "lobby" or row.state is None:
            raise HostError("not_started")
        actions = await self.games.actions(row.id)
        return GameLog(row.game, tuple(s.name for s in row.seats), dict(row.options), row.seed, tuple(actions))

    async def latest_game(self, channel_id: int) -> GameRow:
        """The channel's running game, else its most recent started one (to look back at a finished game even when
        a new lobby, or an abandoned one, came after it); else its lobby, which has nothing to look back at yet."""
        row = await self.games.open_in_channel(channel_id)
        if row is None or row.state is None:
            row = await self.games.latest_started_in_channel(channel_id) or row
        row = row or await self.games.latest_in_channel(channel_id)
        if row is None:
            raise HostError("no_game_here")
        return self._known(row)

    async def export(self, game_id: int) -> dict[str, Any]:
        """The replay file of a finished game."""
        row = await self.row(game_id)
        if row.status != "finished":
            raise HostError("export_unfinished")
        game = self.game(row)
        return export(game, row.seed, await self.games.actions(row.id))

    # -- the channel messages of a game's public offers (not changes of the game: the version stays) -------------

    async def remember_offer_message(self, game_id: int, offer: int, message_id: int) -> None:
        await self.games.add_offer_message(game_id, offer, message_id)

    async def offer_messages(self, game_id: int) -> dict[int, int]:
        """Offer number -> the id of the channel message that shows its reply buttons."""
        return await self.games.offer_messages(game_id)

    async def forget_offer_message(self, game_id: int, offer: int) -> None:
        await self.games.forget_offer_message(game_id, offer)
