"""What a Carcassonne game is made of: the constants of the rules, the decision awaited, and the state with its
queries.

The rules (``game`` and the modules of each kind of action: ``placing``, ``followers``, ``tower``, ``flow``)
change this state; the policy, the view and the computer players read it. Nothing here changes the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Self, TypedDict

from engine.carcassonne.board import DELTA, Board, in_reach, xy
from engine.carcassonne.options import FOLLOWERS, Options, tower_pieces
from engine.carcassonne.river import RiverEnd, check_river
from engine.carcassonne.tiles import EDGE_NAME, ORIENTED, SIDES, TILES, Oriented, lowercase_lookup, opposite
from engine.errors import RuleError

GAME: Final = "carcassonne"  # the replay format's ``game`` value

# Phases of a turn (the state's ``phase``): place the drawn tile, then decide about a follower; or the game is over.
PLACE: Final = "place"
FOLLOWER: Final = "follower"
OVER: Final = "over"

RANSOM_PRICE: Final = 3
# Board coordinates stay within the packed-cell range with a wide margin (a game has at most 102 tiles).
MAX_COORD: Final = 400
# What a follower is called by the kind of feature it stands on.
FOLLOWER_ROLE: Final = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}


class Pending(TypedDict):
    """What is awaited and from whom (``State.pending``)."""

    decision: str  # place, discard, follower or over
    player: int | None
    tile: str | None  # the tile drawn, while it waits to be placed
    ransom: list[int]  # seats holding a follower the player may ransom now


class Capture(TypedDict):
    """A follower a new tower level would capture: where it stands and whose it is."""

    x: int
    y: int
    on: str  # a segment name, or "tower" for a follower on top of a tower
    player: int


class TowerOption(TypedDict):
    """A foundation or open tower the current player may build on, with the followers then in reach."""

    x: int
    y: int
    height: int
    captures: list[Capture]


class State:
    """A game of Carcassonne at one moment, and what can be read from it. The rules change it (``Carcassonne``)."""

    def __init__(self, players: Sequence[str], options: Options, seed: int, first_player: int) -> None:
        n = len(players)
        self.players = list(players)
        self.options = options
        self.seed = seed
        self.first_player = first_player
        self.board = Board()
        self.stack: list[str] = []  # remaining tiles, the next one last
        self.drawn: str | None = None
        self.current = first_player
        self.turn = 0
        self.phase = PLACE
        self.placed: int | None = None  # cell of the tile placed this turn
        self.ransomed = False
        self.supply = [FOLLOWERS] * n
        self.pieces = [tower_pieces(options, n)] * n
        self.prisoners = [[0] * n for _ in range(n)]  # [holder][owner]
        self.scores = [0] * n
        self.breakdown = [dict.fromkeys(("road", "city", "cloister", "farm", "ransom"), 0) for _ in range(n)]
        self.last: list[int | None] = [None] * n  # each player's latest placement
        self.discarded: list[str] = []
        self.river_end: RiverEnd | None = None  # (cell the river must continue into, flow direction)
        self.river_turn = 0  # turn of the last river tile: -1 left, 0 straight, 1 right
        self.actions = 0
        self.winners: list[int] = []
        # The drawn tile's placements, by (tiles on the board, tile drawn): asked for several times a decision.
        self._cache: tuple[tuple[int, str | None], dict[int, tuple[int, ...]]] | None = None

    def copy(self) -> Self:
        """An independent copy of the whole state (for computer players trying moves on their model)."""
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new.board = self.board.copy()
        new.stack = list(self.stack)
        new.supply = list(self.supply)
        new.pieces = list(self.pieces)
        new.prisoners = [list(row) for row in self.prisoners]
        new.scores = list(self.scores)
        new.breakdown = [dict(b) for b in self.breakdown]
        new.last = list(self.last)
        new.discarded = list(self.discarded)
        new.winners = list(self.winners)
        new._cache = None
        return new

    # -- the decision now ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def actors(self) -> list[int]:
        return [] if self.phase == OVER else [self.current]

    def public_actors(self) -> list[int]:
        """Carcassonne hides nobody's decision."""
        return self.actors()

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.current

    def replies_owed_to(self, seat: int) -> list[int]:
        """Carcassonne has no offers: nobody ever owes a reply."""
        return []

    def decision(self) -> str:
        """``place``, ``discard`` (the drawn tile fits nowhere), ``follower`` or ``over``."""
        if self.phase == PLACE and not self.placements():
            return "discard"
        return self.phase

    def pending(self) -> Pending:
        """What is awaited and from whom, in JSON terms."""
        return {
            "decision": self.decision(),
            "player": None if self.phase == OVER else self.current,
            "tile": self.drawn,
            "ransom": self.ransom_options(),
        }

    # -- where the drawn tile fits ---------------------------------------------------------------------------

    def placements(self) -> dict[int, tuple[int, ...]]:
        """For the drawn tile: each packed cell where it fits, with the quarter turns that fit there."""
        key = (len(self.board), self.drawn)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        result: dict[int, tuple[int, ...]] = {}
        if self.drawn is not None:
            tile = TILES[self.drawn]
            if tile.expansion == "river":
                result = self._river_placements(self.drawn)
            else:
                result = self.board.placements(self.drawn)
        self._cache = (key, result)
        return result

    def legal_placements(self) -> dict[tuple[int, int], list[int]]:
        """For the drawn tile: each cell where it fits, with the rotations (degrees) that fit there."""
        if self.phase != PLACE:
            return {}
        return {xy(c): [q * 90 for q in rots] for c, rots in self.placements().items()}

    def check_placement(self, tile: str, c: int | None, o: Oriented, x: int, y: int) -> int:
        """Whether ``tile`` turned as ``o`` may go to cell ``c`` = (x, y) (None: off the board), by rules section
        3.1; raises RuleError if not, else returns the river turn a River tile makes (0 otherwise)."""
        board = self.board
        if c is not None and c in board.cells:
            raise RuleError("cell_occupied", f"({x}, {y}) already holds a tile", x=x, y=y)
        if c is None or c not in board.open:
            raise RuleError("not_adjacent", f"({x}, {y}) is not next to any placed tile (an edge must touch)", x=x, y=y)
        turn = (
            check_river(board, self.river_end, self.river_turn, c, o, x, y) if TILES[tile].expansion == "river" else 0
        )
        for side in range(4):
            other = board.cells.get(c + DELTA[side])
            if other is None:
                continue
            theirs = other[0].edges[opposite(side)]
            mine = o.edges[side]
            if mine != theirs:
                nx, ny = xy(c + DELTA[side])
                raise RuleError(
                    "edges_mismatch",
                    f"the {SIDES[side]} edge ({EDGE_NAME[mine]}) does not match the {EDGE_NAME[theirs]} of the "
                    f"tile at ({nx}, {ny})",
                    x=x,
                    y=y,
                    side=SIDES[side],
                    edge=EDGE_NAME[mine],
                    neighbour=EDGE_NAME[theirs],
                    neighbour_x=nx,
                    neighbour_y=ny,
                )
        return turn

    def _river_placements(self, tile: str) -> dict[int, tuple[int, ...]]:
        end = self.river_end
        if end is None:
            return {}
        target = end[0]
        rots = []
        x, y = xy(target)
        for o in ORIENTED[tile]:
            try:
                self.check_placement(tile, target, o, x, y)
            except RuleError:
                continue
            rots.append(o.rotation)
        return {target: tuple(rots)} if rots else {}

    # -- the follower decision ---------------------------------------------------------------------------------

    def segment(self, c: int, on: Any) -> int:
        """The index of the segment named ``on`` on the tile at ``c``; raises RuleError for an unknown name."""
        o, _ = self.board.cells[c]
        index = o.lookup.get(lowercase_lookup(on)) if isinstance(on, str) else None
        if index is None:
            x, y = xy(c)
            raise RuleError(
                "unknown_segment",
                f"the tile at ({x}, {y}) has no segment {on!r}; its segments are: {', '.join(o.names)}",
                segment=str(on),
                choices=list(o.names),
                x=x,
                y=y,
            )
        return index

    def follower_spots(self) -> list[str]:
        """Segments of the tile just placed where a follower may stand (empty if none in supply)."""
        if self.phase != FOLLOWER or self.placed is None or not self.supply[self.current]:
            return []
        board = self.board
        o, base = board.cells[self.placed]
        return [o.names[i] for i in range(len(o.names)) if not board.count[board.find(base + i)]]

    def tower_options(self) -> list[TowerOption]:
        """Foundations and open towers the current player may build on, each with the followers in reach."""
        if self.phase != FOLLOWER or not self.pieces[self.current]:
            return []
        options: list[TowerOption] = []
        for c, height in self.board.towers.items():
            if c in self.board.tops:
                continue
            x, y = xy(c)
            captures: list[Capture] = [
                {"x": tx, "y": ty, "on": on, "player": seat}
                for tx, ty, on, seat in self.followers_in_reach(c, height + 1)
            ]
            options.append({"x": x, "y": y, "height": height, "captures": captures})
        return options

    def tower_top_options(self) -> list[tuple[int, int]]:
        """Towers the current player may close with a follower on top."""
        if self.phase != FOLLOWER or not self.supply[self.current]:
            return []
        board = self.board
        return [xy(c) for c, h in board.towers.items() if h >= 1 and c not in board.tops]

    def ransom_options(self) -> list[int]:
        """Seats holding one of the current player's followers that the player may ransom now."""
        if self.phase == OVER or self.ransomed or self.scores[self.current] < RANSOM_PRICE:
            return []
        me = self.current
        return [holder for holder, held in enumerate(self.prisoners) if held[me]]

    def followers_in_reach(self, tower: int, height: int) -> list[tuple[int, int, str, int]]:
        """(x, y, segment or "tower", seat) of each follower a tower of ``height`` at ``tower`` reaches."""
        board = self.board
        found = []
        for node, seat in board.followers.items():
            c = board.node_cell[node]
            if in_reach(tower, c, height):
                x, y = xy(c)
                found.append((x, y, board.segment_name(node), seat))
        for c, seat in board.tops.items():
            if in_reach(tower, c, height):
                x, y = xy(c)
                found.append((x, y, "tower", seat))
        return found

    # -- results -------------------------------------------------------------------------------------------

    def progress(self) -> tuple[int, int]:
        return (self.turn, 0)

    def result(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "turn": self.turn,
            "current_player": None if self.finished else self.current,
            "actions": self.actions,
        }

    def replay_options(self) -> dict[str, Any]:
        data = self.options.to_json()
        data["first_player"] = self.first_player
        return data
