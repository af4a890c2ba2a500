"""A game's lobby: opened in a channel, seats taken and left (people's and computers'), cancelled or started.

Every change of a lobby owes Discord its lobby message (``LOBBY``: posted, or brought up to date), stored with it:
a process killed before showing it leaves it to the next one, so the message never offers the buttons of a version
that is gone (they would all be refused)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from bot.host.computer_seats import available
from bot.host.errors import HostError
from bot.host.outcome import Outcome, OwedAnswer, owed
from bot.host.play import automatic
from bot.host.rows import GameRows
from bot.storage import ChannelBusy, GameRow, Seat, StaleVersion
from bot.storage.games import AWAY_RULES
from engine import RuleError, game_class
from engine.ai import strongest

LOBBY: Final = owed("lobby", [], [])  # what a lobby's change owes: its message, showing the lobby as it is now


class Lobby:
    """Lobbies, stored through the game rows (``bot.host.rows``); ``rng`` draws each game's seed."""

    def __init__(self, rows: GameRows, rng: random.Random | None = None) -> None:
        self.rows = rows
        self.rng = rng or random.SystemRandom()

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
            lobby = await self.rows.games.create_lobby(
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
                owe=LOBBY,
            )
            return self.rows.known(lobby)
        except ChannelBusy:
            raise HostError("channel_busy") from None

    async def _lobby(self, game_id: int, version: int | None) -> GameRow:
        """The lobby clicked on ``version``; ``HostError`` when it is no lobby (any more) or has moved on."""
        row = await self.rows.row(game_id)
        if row.status != "lobby":
            raise HostError("not_a_lobby")
        self.rows.fresh(row, version)
        return row

    async def join(self, game_id: int, version: int | None, seat: Seat) -> GameRow:
        row = await self._lobby(game_id, version)
        if row.seat_of(seat.user_id) is not None:
            raise HostError("already_joined")
        high = game_class(row.game).MAX_PLAYERS
        if len(row.seats) >= high:
            raise HostError("lobby_full", max=high)
        return await self.rows.update(row, seats=[*row.seats, seat], owe=LOBBY)

    async def add_computer(
        self, game_id: int, version: int | None, user_id: int, level: str, name: Callable[[int], str]
    ) -> GameRow:
        """The host seats a computer player at ``level``; ``name(number)`` names it (numbered from 1)."""
        row = await self._lobby(game_id, version)
        if user_id != row.host_id:
            raise HostError("host_only")
        if not available(row.game, level):
            raise HostError("computer_unavailable", level=level)
        high = game_class(row.game).MAX_PLAYERS
        if len(row.seats) >= high:
            raise HostError("lobby_full", max=high)
        taken = {-s.user_id for s in row.seats if s.computer}
        number = next(n for n in range(1, high + 2) if n not in taken)
        return await self.rows.update(row, seats=[*row.seats, Seat(-number, name(number), level)], owe=LOBBY)

    async def remove_computer(self, game_id: int, version: int | None, user_id: int) -> GameRow:
        """The host takes back the computer player seated last."""
        row = await self._lobby(game_id, version)
        if user_id != row.host_id:
            raise HostError("host_only")
        computers = row.computer_seats()
        if not computers:
            raise HostError("no_computer")
        last = computers[-1]
        return await self.rows.update(row, seats=[s for i, s in enumerate(row.seats) if i != last], owe=LOBBY)

    async def leave_lobby(
        self, game_id: int, version: int | None, user_id: int, *, answer: OwedAnswer | None = None
    ) -> GameRow:
        """``answer``: what the leaver's command waits on (the channel's line), owed with the lobby's message. Without
        a ``version`` (``/game leave``), whoever joined or left first."""

        async def leave() -> GameRow:
            row = await self._lobby(game_id, version)
            refuse_leaving(row, user_id)
            owe = LOBBY if answer is None else owed("lobby", [], [], answer=answer)
            return await self.rows.update(row, seats=[s for s in row.seats if s.user_id != user_id], owe=owe)

        return await self.rows.attempt(version, leave)

    async def cancel(self, game_id: int, version: int | None, user_id: int, *, can_manage: bool = False) -> GameRow:
        row = await self._lobby(game_id, version)
        if user_id != row.host_id and not can_manage:
            raise HostError("host_only")
        return await self.rows.update(row, status="abandoned", owe=owed("ended", [], [], user_id))

    async def start(self, game_id: int, version: int | None, user_id: int) -> Outcome:
        row = await self._lobby(game_id, version)
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
        actions, events = automatic(game)
        changes: dict[str, Any] = {"status": "active", "options": options, "turn_started_at": self.rows.clock()}
        owe = owed("turn", events, [], user_id, opening=True)
        try:  # one write: automatic follow-ups (a first tile that fits nowhere) belong to the log from the start
            updated = await self.rows.games.record_action(
                row.id, row.version, user_id=None, actions=actions, state=game.to_json(), owe=owe, **changes
            )
        except StaleVersion:
            raise HostError("stale") from None
        self.rows.remember(row.id, updated.version, game)
        return Outcome(self.rows.known(updated), game, events, actions, kind="turn", actor=user_id, opening=True)


def refuse_leaving(row: GameRow, user_id: int) -> None:
    """Why ``user_id`` cannot leave the lobby, raised: not seated, or its host (who cancels it instead)."""
    if row.seat_of(user_id) is None:
        raise HostError("not_seated")
    if user_id == row.host_id:
        raise HostError("host_cannot_leave")
