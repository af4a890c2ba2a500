"""A game of Catan: the actions of the replay format plus live trade offers, checked and dispatched to the module
of their kind (``building``, ``dice``, ``cards``, ``offers``); the state and its queries are ``state.State``.

Every action handler validates completely before it changes anything, so a RuleError leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Self

from engine.catan import building, cards, dice, offers
from engine.catan.building import beginner_setup
from engine.catan.flow import end_turn
from engine.catan.maps import beginner_layout, random_layout
from engine.catan.options import OPTION_NAMES, parse_options
from engine.catan.policy import legal_actions, random_action, timeout_action
from engine.catan.state import CARD_INDEX, DECK_COUNTS, GAME, SETUP, State
from engine.catan.state_json import SCHEMA, dump, load
from engine.catan.view import CatanView, player_view
from engine.catan.view import changes as board_changes
from engine.errors import RuleError
from engine.game import Action, Applied, Handler, dispatch

# Fields each action type may carry besides "type" and "player".
FIELDS: Final[dict[str, frozenset[str]]] = {
    "settlement": frozenset({"at"}),
    "road": frozenset({"at"}),
    "city": frozenset({"at"}),
    "roll": frozenset({"dice"}),
    "discard": frozenset({"cards"}),
    "robber": frozenset({"hex", "victim", "stolen"}),
    "buy": frozenset({"card"}),
    "knight": frozenset({"hex", "victim", "stolen"}),
    "road_building": frozenset({"roads"}),
    "year_of_plenty": frozenset({"take"}),
    "monopoly": frozenset({"resource"}),
    "bank_trade": frozenset({"give", "get"}),
    "trade": frozenset({"with", "give", "get"}),
    "end_turn": frozenset(),
    "offer": frozenset({"to", "give", "get"}),
    "accept": frozenset({"offer"}),
    "decline": frozenset({"offer"}),
    "counter": frozenset({"offer", "give", "get"}),
    "confirm": frozenset({"offer", "with"}),
    "withdraw": frozenset({"offer"}),
}
_KEYS: Final = {kind: fields | {"type", "player"} for kind, fields in FIELDS.items()}
# Actions a player may take back: building, maritime trade and the steps of a trade offer reveal nothing. Not the
# roll, a purchase or a theft (chance), a played development card or a discard (hidden cards shown), a completed
# trade (another player's cards moved too) or the end of the turn (the turn passes on).
UNDOABLE: Final = frozenset(
    {"settlement", "road", "city", "bank_trade", "offer", "accept", "decline", "counter", "withdraw"}
)
# Chance outcomes a live action must leave to the engine (a player supplying them could cheat).
OUTCOMES: Final = {"roll": "dice", "robber": "stolen", "knight": "stolen", "buy": "card"}


class Catan(State):
    """The Catan base game for 3 or 4 players: the rules on top of ``State``."""

    GAME: ClassVar[str] = GAME
    SCHEMA: ClassVar[int] = SCHEMA
    MIN_PLAYERS: ClassVar[int] = 3
    MAX_PLAYERS: ClassVar[int] = 4
    OPTIONS: ClassVar[frozenset[str]] = OPTION_NAMES
    # Actions of the live game that a replay file leaves out (a completed trade is recorded as ``trade``).
    LIVE_ONLY: Final = frozenset({"offer", "accept", "decline", "counter", "confirm", "withdraw"})

    # -- creation ------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None, seed: int = 0) -> Self:
        n = len(players)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise RuleError(
                "player_count",
                f"Catan needs {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, not {n}",
                count=n,
                min=cls.MIN_PLAYERS,
                max=cls.MAX_PLAYERS,
            )
        if options is not None and not isinstance(options, Mapping):
            raise RuleError("bad_option", "options must be an object")
        opts = parse_options(options or {}, n)
        rng = random.Random(seed)
        if isinstance(opts.board, tuple):
            layout = opts.board
        elif opts.board == "beginner":
            layout = beginner_layout()
        else:
            layout = random_layout(rng, "spiral" if opts.board == "random" else "random")
        # Seat 0 starts unless told otherwise (replay format): the bot draws the first player and records it.
        first = opts.first_player if opts.first_player is not None else 0
        game = cls(players, opts, seed, layout, first)
        game.rng = rng
        rest = [c for i, count in enumerate(DECK_COUNTS) for c in [i] * count]
        top = [CARD_INDEX[c] for c in opts.dev_deck or []]
        for c in top:
            rest.remove(c)
        rng.shuffle(rest)
        game.deck = rest + top[::-1]
        if opts.setup == "beginner":
            beginner_setup(game)
        return game

    # -- actions -------------------------------------------------------------------------------------------

    def undoable(self, action: Mapping[str, Any]) -> bool:
        return action.get("type") in UNDOABLE

    def apply(self, action: Mapping[str, Any], *, replay: bool = False) -> Applied:
        # Who may act depends on the kind and the phase (discards, offer replies): the handlers check the turn.
        applied = dispatch(self, action, _HANDLERS, replay=replay, check=_check_fields, own_turn=False)
        if applied.action["type"] not in self.LIVE_ONLY:  # count what a replay file holds, so both results agree
            self.actions += 1
        return applied

    # -- the bot's helpers, views and JSON live in their own modules -----------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        return legal_actions(self, seat)

    def automatic_action(self) -> Action | None:
        """Catan has no move the host makes for a player: every decision is somebody's."""
        return None

    def random_action(self, rng: random.Random) -> Action:
        return random_action(self, rng)

    def timeout_action(self, seat: int) -> Action:
        """The host's move for an idle seat (``policy.timeout_action``)."""
        return timeout_action(self, seat)

    def view(self, seat: int | None) -> CatanView:
        return player_view(self, seat)

    def progress(self) -> tuple[int, int]:
        """Set-up placements are turn 0, parts 1 to 2n (a settlement and its road each); then turns 1, 2, ..."""
        return (self.turn, self.setup_step + 1 if self.phase == SETUP else 0)

    @staticmethod
    def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
        return board_changes(before, after)

    def to_json(self) -> dict[str, Any]:
        return dump(self)

    def copy(self) -> Self:
        """An independent copy (same state and generator): a JSON round trip is cheap for Catan's flat state."""
        return self.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls.__new__(cls)
        load(game, data)
        return game


def _check_fields(kind: str, action: Mapping[str, Any], replay: bool) -> None:
    """No field the kind does not have; no chance outcome in a live action."""
    if not _KEYS[kind].issuperset(action):
        key = next(k for k in action if k not in _KEYS[kind])
        raise RuleError(
            "malformed_action",
            f"{kind} has no field {key!r} (fields: {', '.join(sorted(FIELDS[kind])) or 'none'})",
            action=kind,
            field=str(key),
        )
    if not replay:
        outcome = OUTCOMES.get(kind)
        if outcome is not None and outcome in action:
            raise RuleError(
                "outcome_not_allowed",
                f"{kind}: {outcome!r} is decided by the game, leave it out",
                action=kind,
                field=outcome,
            )


_HANDLERS: Final[dict[str, Handler[State]]] = {
    "settlement": building.settlement,
    "road": building.road,
    "city": building.city,
    "roll": dice.roll,
    "discard": dice.discard,
    "robber": dice.robber,
    "buy": cards.buy,
    "knight": cards.knight,
    "road_building": cards.road_building,
    "year_of_plenty": cards.year_of_plenty,
    "monopoly": cards.monopoly,
    "bank_trade": offers.bank_trade,
    "trade": offers.trade,
    "end_turn": end_turn,
    "offer": offers.make_offer,
    "accept": offers.accept,
    "decline": offers.decline,
    "counter": offers.counter,
    "confirm": offers.confirm,
    "withdraw": offers.withdraw,
}
