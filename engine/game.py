"""The shape every game engine has: what the bot, the replay tools and the tests rely on."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeVar

from engine.errors import RuleError

# An action is the JSON object of the replay format (``{"player": 0, "type": "place", ...}``).
Action = dict[str, Any]
# An event is a JSON object with a ``type`` and the facts a narrator needs (who, what, how many points).
# Events are values: an event shares no list or dict with the game state, so it still tells what happened after
# later actions change the state (the host keeps a turn's events for replays and "since your last turn").
Event = dict[str, Any]


class Applied(NamedTuple):
    """What ``Game.apply`` returns: the action as recorded (every chance outcome filled in) and its events."""

    action: Action
    events: list[Event]


class Game(Protocol):
    """A game in progress. Implementations are pure and deterministic given their seed and actions."""

    GAME: ClassVar[str]  # the replay format's ``game`` value
    SCHEMA: ClassVar[int]  # version of the state JSON
    MIN_PLAYERS: ClassVar[int]  # how many may play: the host's lobbies follow these
    MAX_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[frozenset[str]]  # option names accepted by ``new``

    players: list[str]

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None, seed: int = 0) -> Self:
        """Start a game; raises RuleError for bad players or options."""
        ...

    def apply(self, action: Mapping[str, Any], *, replay: bool = False) -> Applied:
        """Apply one action or raise RuleError leaving the state untouched.

        With ``replay=True`` chance outcomes written in the action (tile drawn, dice, card bought, card stolen)
        are taken as they are; otherwise they must be absent or equal what the game's own generator produced.
        """
        ...

    def actors(self) -> list[int]:
        """Seats that owe a decision now (several at once for parallel Catan discards); empty when finished."""
        ...

    def public_actors(self) -> list[int]:
        """``actors()`` as anyone may know them (what a channel may show): without the recipients of private
        offers, which only their two parties see."""
        ...

    def current_seat(self) -> int | None:
        """The seat whose turn it is (it may be waiting for others, e.g. Catan discards); None when finished."""
        ...

    def replies_owed_to(self, seat: int) -> list[int]:
        """Seats that still owe ``seat`` an answer to one of its open offers (empty for games without offers)."""
        ...

    def undoable(self, action: Mapping[str, Any]) -> bool:
        """Whether the recorded ``action`` may be taken back by its player: it revealed nothing new (no chance
        outcome, no hidden card, no automatic move) and did not pass the turn on. The host also checks that the
        player still owes a decision before and after taking it back."""
        ...

    def legal_actions(self, seat: int) -> list[Action]:
        """Every complete action ``seat`` may take now (outcomes left out where the game supplies them)."""
        ...

    def automatic_action(self) -> Action | None:
        """An action the host applies without asking anyone (a Carcassonne tile that fits nowhere), else None."""
        ...

    def timeout_action(self, seat: int) -> Action:
        """The deterministic minimal move the host makes for ``seat`` when its time is up (turn limits).

        ``seat`` must owe a decision now (one of ``actors()``); raises RuleError otherwise. The move needs no
        judgement and keeps the game going; chance outcomes are left to ``apply``.
        """
        ...

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action for one of ``actors()`` (used by selfplay and fuzz tests)."""
        ...

    @property
    def finished(self) -> bool: ...

    def stalled(self) -> bool:
        """Whether the game can no longer end: it is not over and nothing anyone may do will ever change a score
        again (Catan: the pieces, building spots and cards that score are gone and nobody has the points to win).
        Command lines cut such a game short. A game that always ends (Carcassonne: the stack runs out) says False."""
        ...

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (``None``: a spectator). The only way hidden information leaves the engine.

        A JSON object; each game returns its own TypedDict (``CarcassonneView``, ``CatanView``), which the
        game's own code reads field by field. Code that serves every game reads it as a mapping."""
        ...

    def progress(self) -> tuple[int, int]:
        """Which turn is being played, as players count them: ``(turn, part)``. It changes exactly when a new turn
        begins (``engine.history`` cuts the action log there). ``part`` numbers the steps of a phase without turn
        numbers (Catan's set-up placements: turn 0, part 1, 2, ...); else 0."""
        ...

    @staticmethod
    def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
        """What was placed on the board between two views of the same game (``after`` the later one): lists by
        kind of piece, each item as the view names its place (Carcassonne ``{"tiles": [[x, y], ...]}``; Catan
        ``{"roads": ["12-17"], "settlements": [12], "cities": [25]}``). Empty lists when nothing was placed."""
        ...

    def result(self) -> dict[str, Any]:
        """The ``python -m engine replay`` output object."""
        ...

    def replay_options(self) -> dict[str, Any]:
        """Options to write into an exported replay so that it reproduces this game exactly."""
        ...

    def copy(self) -> Self:
        """An independent copy: the same state and the same future (generator included)."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self: ...


# -- applying an action: the checks every game makes before the rules of the action's kind ------------------------


class Seated(Protocol):
    """What ``dispatch`` reads from a game: its name, its seats, whether it is over and whose turn it is."""

    GAME: ClassVar[str]
    players: list[str]

    @property
    def finished(self) -> bool: ...

    def current_seat(self) -> int | None: ...


S = TypeVar("S")
G = TypeVar("G", bound=Seated)

# The rules of one kind of action: ``handler(state, seat, action, replay, events)`` applies ``action`` (type, seat
# and game-wide checks done) and returns it as recorded, appending its events to ``events``. It validates
# completely before it changes anything, so a RuleError leaves the state as it was.
Handler = Callable[[S, int, Mapping[str, Any], bool, list[Event]], Action]


def not_your_turn(seat: int, current: int | None) -> RuleError:
    """The one refusal of a seat that owes no decision now (the host words it by its code)."""
    turn = "" if current is None else f" (it is seat {current}'s turn)"
    return RuleError("not_your_turn", f"seat {seat} owes no decision now{turn}", player=seat, current=current)


def seat_field(action: Mapping[str, Any], name: str, players: int, what: str) -> int:
    """The seat number an action names in field ``name``, checked."""
    value = action.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise RuleError(
            "malformed_action",
            f"{what} needs {name!r} as a seat number from 0 to {players - 1}",
            action=what,
            field=name,
        )
    return value


def dispatch(
    game: G,
    action: Mapping[str, Any],
    handlers: Mapping[str, Handler[G]],
    *,
    replay: bool,
    check: Callable[[str, Mapping[str, Any], bool], None] | None = None,
    own_turn: bool = True,
) -> Applied:
    """Check what every action of every game needs, then apply it with the handler of its kind.

    In this order: a JSON object of a known type, the game not over, a valid seat, then the game's own ``check``
    of the action's fields (``check(kind, action, replay)``), then that the seat's turn it is. ``own_turn=False``
    leaves the last to the handlers, for a game where other seats act too (Catan's discards and trade replies).
    """
    if type(action) is not dict and not isinstance(action, Mapping):
        raise RuleError("malformed_action", "an action must be a JSON object")
    kind = action.get("type")
    if type(kind) is not str or kind not in handlers:
        raise RuleError(
            "unknown_action",
            f"unknown {game.GAME.capitalize()} action type {kind!r} (known: {', '.join(handlers)})",
            type=str(kind),
            known=list(handlers),
        )
    if game.finished:
        raise RuleError("game_over", "the game is over: no more actions", type=kind)
    seat = action.get("player")
    if type(seat) is not int or not 0 <= seat < len(game.players):
        seat = seat_field(action, "player", len(game.players), kind)
    if check is not None:
        check(kind, action, replay)
    if own_turn:
        current = game.current_seat()
        if seat != current:
            raise not_your_turn(seat, current)
    events: list[Event] = []
    return Applied(handlers[kind](game, seat, action, replay, events), events)
