"""Looking back at a game from its action log: the turns as players count them, what each turn showed the channel,
and the board at any earlier turn.

Everything here replays the log from the game's set-up (``GameLog``): a recorded action carries its chance outcomes,
so a replay reproduces the game exactly. What leaves this module for display is a view (``game.view(seat)``, by
default the spectator's) and the events a spectator saw, so nothing secret of the time (a Catan hand, the order of
the Carcassonne stack) can leak, and nothing that had not happened yet at that point either.

A game's history is its turns in order (``Turn.index`` 0, 1, ...): each is a run of consecutive actions during which
``game.progress()`` stays the same (Carcassonne: one turn of one player; Catan: one set-up placement, or one turn,
with the discards, trade replies and robber moves of everyone in it). The last turn of a game still running is the
turn in progress (``complete`` False), possibly with no action yet.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.game import Action, Event, Game
from engine.registry import game_class
from engine.replay import ReplayError, start


@dataclass(frozen=True)
class GameLog:
    """A game's set-up and every action so far, in order: enough to rebuild it at any point."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed: int
    actions: Sequence[Action] = ()

    @classmethod
    def from_replay(cls, data: Any) -> GameLog:
        """The log of a replay file (``docs/replays.md``); raises ReplayError for a malformed header."""
        start(data)  # checks the header and the set-up
        actions = data.get("actions", [])
        if not all(isinstance(a, Mapping) for a in actions):
            index = next(i for i, a in enumerate(actions) if not isinstance(a, Mapping))
            raise ReplayError("an action must be a JSON object", index, "None")
        return cls(str(data["game"]), tuple(data["players"]), dict(data.get("options", {})), int(data.get("seed", 0)),
                   tuple(actions))  # fmt: skip

    def new(self) -> Game:
        """The game as it was set up, before any action."""
        try:
            return game_class(self.game).new(list(self.players), dict(self.options), self.seed)
        except RuleError as err:
            raise ReplayError(err.message) from None


@dataclass(frozen=True)
class Turn:
    """One turn of the history.

    ``number`` and ``part`` are ``game.progress()`` during the turn: the turn number the channel showed (Catan's
    set-up placements are turn 0 with ``part`` 1 to 2n). ``seat`` is whose turn it was. Its actions are
    ``log.actions[start:end]``; ``events`` are what a spectator saw of them (secret parts of private events left
    out), the facts the channel was told.
    """

    index: int
    number: int
    part: int
    seat: int | None
    start: int
    end: int
    events: tuple[Event, ...] = field(default=(), compare=False)
    complete: bool = True


def spectator_events(events: Iterable[Event]) -> list[Event]:
    """``events`` as the channel may tell them: an event with ``private`` (the seats that may see all of it) loses
    the keys listed in its ``secret``, or disappears when ``secret`` holds ``"*"``."""
    out = []
    for event in events:
        if "private" not in event:
            out.append(event)
            continue
        secret = event.get("secret", [])
        if "*" not in secret:
            out.append({k: v for k, v in event.items() if k not in secret and k not in ("private", "secret")})
    return out


def _apply(game: Game, index: int, action: Any) -> list[Event]:
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(action, Mapping):
        raise ReplayError("an action must be a JSON object", index, str(kind))
    try:
        return game.apply(action, replay=True).events
    except RuleError as err:
        raise ReplayError(err.message, index, str(kind)) from None


def walk(log: GameLog) -> Iterator[tuple[Turn, Game]]:
    """Replay ``log`` turn by turn: each turn with the game as it stands at the end of that turn.

    The game is the same object throughout, moved on between items: read it before taking the next one. Raises
    ReplayError for an action the game refuses.
    """
    game = log.new()
    index = 0
    first = 0
    key = game.progress()
    seat = game.current_seat()
    events: list[Event] = []
    for i, action in enumerate(log.actions):
        events += _apply(game, i, action)
        now = game.progress()
        if now != key or (game.finished and i == len(log.actions) - 1):
            yield Turn(index, key[0], key[1], seat, first, i + 1, tuple(spectator_events(events))), game
            index, first, key, seat, events = index + 1, i + 1, now, game.current_seat(), []
    if not game.finished:
        yield Turn(index, key[0], key[1], seat, first, len(log.actions), tuple(spectator_events(events)), False), game


def history(log: GameLog) -> list[Turn]:
    """Every turn of the game so far, in order (the last one in progress while the game runs)."""
    return [turn for turn, _ in walk(log)]


def views_at(log: GameLog, indices: Iterable[int], seat: int | None = None) -> dict[int, Mapping[str, Any]]:
    """The view of ``seat`` (None: a spectator) at the end of each turn in ``indices`` (``Turn.index``; -1 is the
    set-up, before any action), in one replay. Raises IndexError for a turn the game has not reached."""
    wanted = set(indices)
    out: dict[int, Mapping[str, Any]] = {}
    if -1 in wanted:
        out[-1] = log.new().view(seat)
    last = -1
    for turn, game in walk(log):
        last = turn.index
        if turn.index in wanted:
            out[turn.index] = game.view(seat)
        if len(out) == len(wanted):
            break
    missing = sorted(wanted - set(out))
    if missing:
        raise IndexError(f"turn index {missing[0]} is past the game's last turn ({last})")
    return out


def view_at(log: GameLog, turn: int, seat: int | None = None) -> Mapping[str, Any]:
    """The view of ``seat`` (None: a spectator, what the channel may show) at the end of turn index ``turn``
    (-1: the set-up). For the turn in progress, the game as it stands now."""
    return views_at(log, [turn], seat)[turn]


def frames(log: GameLog, only: Collection[int] | None = None) -> Iterator[tuple[Turn | None, Mapping[str, Any]]]:
    """The spectator's view after the set-up (turn None) and at the end of every turn, in one replay: the pictures
    of a timelapse. A turn in progress counts once something was done in it. ``only``: the numbers of the frames
    wanted (0 is the set-up, ``frame_count(log) - 1`` the last); the others are skipped without building a view."""
    if only is None or 0 in only:
        yield None, log.new().view(None)
    number = 0
    for turn, game in walk(log):
        if turn.complete or turn.end > turn.start:
            number += 1
            if only is None or number in only:
                yield turn, game.view(None)


def frame_count(log: GameLog) -> int:
    """How many pictures ``frames(log)`` gives."""
    return 1 + sum(1 for turn, _ in walk(log) if turn.complete or turn.end > turn.start)


@dataclass(frozen=True)
class Since:
    """What happened since a player's previous move.

    ``turns`` are the complete turns of the others since then (all turns so far if the player has not moved yet);
    ``view`` the spectator's view at the end of the last of them (the board as the player's turn found it);
    ``placed`` what was placed on the board in those turns (``Game.changes``).
    """

    seat: int
    turns: tuple[Turn, ...]
    view: Mapping[str, Any]
    placed: dict[str, list[Any]]


def since_last_move(log: GameLog, seat: int) -> Since:
    """The turns since ``seat``'s previous complete turn, up to (not including) the turn in progress."""
    turns = history(log)
    done = [turn for turn in turns if turn.complete]
    own = [turn.index for turn in done if turn.seat == seat]
    previous = own[-1] if own else -1
    between = tuple(turn for turn in done if turn.index > previous)
    after = between[-1].index if between else previous
    views = views_at(log, {previous, after})
    placed = game_class(log.game).changes(views[previous], views[after])
    return Since(seat, between, views[after], placed)


__all__ = [
    "GameLog",
    "Since",
    "Turn",
    "frame_count",
    "frames",
    "history",
    "since_last_move",
    "spectator_events",
    "view_at",
    "views_at",
    "walk",
]
