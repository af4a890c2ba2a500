"""A game of Carcassonne with The River and The Tower: the actions of the replay format, checked and dispatched to
the module of their kind (``placing``, ``followers``, ``tower``, ``flow``); the state and its queries are
``state.State``.

Every action handler validates completely before it changes anything, so a RuleError leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Self

from engine.carcassonne import followers, placing, tower
from engine.carcassonne.board import cell
from engine.carcassonne.flow import pass_turn, start_turn
from engine.carcassonne.options import MAX_PLAYERS, MIN_PLAYERS, OPTION_NAMES, build_stack, parse_options, start_tile
from engine.carcassonne.policy import automatic_action, legal_actions, random_action, timeout_action
from engine.carcassonne.state import GAME, State
from engine.carcassonne.state_json import SCHEMA, dump, load
from engine.carcassonne.tiles import ORIENTED
from engine.carcassonne.view import CarcassonneView, player_view
from engine.carcassonne.view import changes as board_changes
from engine.errors import RuleError
from engine.game import Action, Applied, Handler, dispatch

# Actions a player may take back: placing the drawn tile and paying a ransom reveal nothing. The follower decision
# (follower, tower, tower top, pass) ends the turn and draws the next tile; a discard is the game's own move.
UNDOABLE: Final = frozenset({"place", "ransom"})


class Carcassonne(State):
    """Carcassonne with The River and The Tower: the rules on top of ``State``."""

    GAME: ClassVar[str] = GAME
    SCHEMA: ClassVar[int] = SCHEMA
    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    OPTIONS: ClassVar[frozenset[str]] = OPTION_NAMES

    # -- creation ------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None, seed: int = 0) -> Self:
        n = len(players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RuleError(
                "player_count",
                f"Carcassonne needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}",
                count=n,
                min=MIN_PLAYERS,
                max=MAX_PLAYERS,
            )
        opts = parse_options(options or {}, n)
        rng = random.Random(seed)
        # Seat 0 starts unless told otherwise: the bot draws the first player and records it as an option.
        first = opts.first_player if opts.first_player is not None else 0
        game = cls(players, opts, seed, first)
        game.stack = build_stack(opts, rng)[::-1]
        placing.put_tile(game, cell(0, 0), ORIENTED[start_tile(opts)][0])
        start_turn(game, first, [])
        return game

    # -- actions -------------------------------------------------------------------------------------------

    def undoable(self, action: Mapping[str, Any]) -> bool:
        return action.get("type") in UNDOABLE

    def apply(self, action: Mapping[str, Any], *, replay: bool = False) -> Applied:
        applied = dispatch(self, action, _HANDLERS, replay=replay)
        self.actions += 1
        return applied

    # -- the bot's helpers, views and JSON live in their own modules -----------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        return legal_actions(self, seat)

    def automatic_action(self) -> Action | None:
        return automatic_action(self)

    def random_action(self, rng: random.Random) -> Action:
        return random_action(self, rng)

    def timeout_action(self, seat: int) -> Action:
        """The host's move for an idle seat (``policy.timeout_action``)."""
        return timeout_action(self, seat)

    def stalled(self) -> bool:
        return False  # every turn draws a tile, so the stack runs out and the game ends

    def view(self, seat: int | None) -> CarcassonneView:
        return player_view(self, seat)

    @staticmethod
    def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
        return board_changes(before, after)

    def to_json(self) -> dict[str, Any]:
        return dump(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("game") != GAME:
            raise RuleError("bad_state", f"not a Carcassonne state: game is {data.get('game')!r}")
        if data.get("schema") != SCHEMA:
            raise RuleError("bad_state", f"unsupported state schema {data.get('schema')!r} (this engine: {SCHEMA})")
        players = list(data["players"])
        game = cls(players, parse_options(data["options"], len(players)), data["seed"], data["first_player"])
        load(game, data)
        return game


_HANDLERS: Final[dict[str, Handler[State]]] = {
    "place": placing.place,
    "discard": placing.discard,
    "follower": followers.follower,
    "tower": tower.tower,
    "tower_top": tower.tower_top,
    "ransom": tower.ransom,
    "pass": pass_turn,
}
