"""A game of Carcassonne: turn flow, the actions of the replay format, and the state's JSON form.

Every action handler validates completely before it changes anything, so a RuleError leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Self, TypedDict

from engine.carcassonne import scoring
from engine.carcassonne.board import DELTA, Board, cell, xy
from engine.carcassonne.options import (
    FOLLOWERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_NAMES,
    Options,
    build_stack,
    parse_options,
    stage,
    start_tile,
    tower_pieces,
)
from engine.carcassonne.river import RiverEnd, check_river, flow_on
from engine.carcassonne.state_json import dump, load
from engine.carcassonne.tiles import (
    EDGE_NAME,
    ORIENTED,
    ROTATIONS,
    SIDES,
    TILES,
    Oriented,
    lowercase_lookup,
    opposite,
)
from engine.carcassonne.tower import in_reach
from engine.carcassonne.view import CarcassonneView, player_view
from engine.carcassonne.view import changes as board_changes
from engine.errors import RuleError
from engine.game import Action, Applied, Event

PLACE: Final = "place"
FOLLOWER: Final = "follower"
OVER: Final = "over"
RANSOM_PRICE: Final = 3
# Board coordinates stay within the packed-cell range with a wide margin (a game has at most 102 tiles).
MAX_COORD: Final = 400
FOLLOWER_ROLE: Final = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}
# Actions a player may take back: placing the drawn tile and paying a ransom reveal nothing. The follower decision
# (follower, tower, tower top, pass) ends the turn and draws the next tile; a discard is the game's own move.
UNDOABLE: Final = frozenset({"place", "ransom"})


class Pending(TypedDict):
    """What is awaited and from whom (``Carcassonne.pending``)."""

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


def _int(action: Mapping[str, Any], name: str, what: str) -> int:
    value = action.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("malformed_action", f"{what} needs a whole number {name!r}", action=what, field=name)
    return value


class Carcassonne:
    """Carcassonne with The River and The Tower."""

    GAME: ClassVar[str] = "carcassonne"
    SCHEMA: ClassVar[int] = 1
    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    OPTIONS: ClassVar[frozenset[str]] = OPTION_NAMES

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
        self._cache: tuple[tuple[int, str | None], dict[int, tuple[int, ...]]] | None = None

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
        game.put_tile(cell(0, 0), ORIENTED[start_tile(opts)][0])
        events: list[Event] = []
        game._start_turn(first, events)
        return game

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

    def undoable(self, action: Mapping[str, Any]) -> bool:
        return action.get("type") in UNDOABLE

    def decision(self) -> str:
        """``place``, ``discard`` (the drawn tile fits nowhere), ``follower`` or ``over``."""
        if self.phase == PLACE and not self._placements():
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

    # -- legal choices -------------------------------------------------------------------------------------

    def _placements(self) -> dict[int, tuple[int, ...]]:
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
        return {xy(c): [q * 90 for q in rots] for c, rots in self._placements().items()}

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
                for tx, ty, on, seat in self._followers_in_reach(c, height + 1)
            ]
            options.append({"x": x, "y": y, "height": height, "captures": captures})
        return options

    def tower_top_options(self) -> list[tuple[int, int]]:
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

    def _followers_in_reach(self, tower: int, height: int) -> list[tuple[int, int, str, int]]:
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

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or seat != self.current:
            return []
        me = {"player": seat}
        actions: list[Action] = [{**me, "type": "ransom", "from": h} for h in self.ransom_options()]
        if self.phase == PLACE:
            placements = self._placements()
            if not placements:
                return [*actions, {**me, "type": "discard", "tile": self.drawn}]
            for c, rots in placements.items():
                x, y = xy(c)
                actions += [
                    {**me, "type": "place", "tile": self.drawn, "x": x, "y": y, "rotation": q * 90} for q in rots
                ]
            return actions
        actions += [{**me, "type": "follower", "on": on} for on in self.follower_spots()]
        for option in self.tower_options():
            tower = {**me, "type": "tower", "x": option["x"], "y": option["y"]}
            actions.append(tower)
            actions += [
                {**tower, "capture": {"x": cap["x"], "y": cap["y"], "on": cap["on"]}} for cap in option["captures"]
            ]
        actions += [{**me, "type": "tower_top", "x": x, "y": y} for x, y in self.tower_top_options()]
        actions.append({**me, "type": "pass"})
        return actions

    def automatic_action(self) -> Action | None:
        """A drawn tile that fits nowhere is discarded without asking anyone (rules section 3.1)."""
        if self.decision() == "discard":
            return {"player": self.current, "type": "discard"}
        return None

    def timeout_action(self, seat: int) -> Action:
        """The move the host makes for ``seat`` when its time is up: the smallest one that keeps the game going.

        Placing: the drawn tile at the first legal cell in the bot's numbering (top row first, then left to
        right: sorted by (y, x)) with its first legal rotation; a tile that fits nowhere is discarded. The follower
        decision: pass (no follower, no tower).
        """
        if self.phase == OVER:
            raise RuleError("game_over", "the game is over")
        if seat != self.current:
            raise RuleError(
                "not_your_turn",
                f"it is {self.players[self.current]}'s turn (seat {self.current}), not seat {seat}'s",
                player=seat,
                current=self.current,
            )
        if self.phase == PLACE:
            placements = self.legal_placements()
            if not placements:
                return {"player": seat, "type": "discard"}
            x, y = min(placements, key=lambda c: (c[1], c[0]))
            return {"player": seat, "type": "place", "x": x, "y": y, "rotation": placements[(x, y)][0]}
        return {"player": seat, "type": "pass"}

    def random_action(self, rng: random.Random) -> Action:
        """Uniform over ``legal_actions(current)``, without building the whole list on the common path."""
        if self.phase == OVER:
            raise RuleError("game_over", "the game is over")
        if self.phase == PLACE and not self.ransom_options():
            placements = self._placements()
            if not placements:
                return {"player": self.current, "type": "discard", "tile": self.drawn}
            total = sum(len(r) for r in placements.values())
            pick = rng.randrange(total)
            for c, rots in placements.items():
                if pick < len(rots):
                    x, y = xy(c)
                    return {
                        "player": self.current,
                        "type": "place",
                        "tile": self.drawn,
                        "x": x,
                        "y": y,
                        "rotation": rots[pick] * 90,
                    }
                pick -= len(rots)
        actions = self.legal_actions(self.current)
        return actions[rng.randrange(len(actions))]

    # -- applying actions ----------------------------------------------------------------------------------

    def apply(self, action: Mapping[str, Any], *, replay: bool = False) -> Applied:
        if not isinstance(action, Mapping):
            raise RuleError("malformed_action", "an action must be a JSON object")
        kind = action.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise RuleError(
                "unknown_action",
                f"unknown action type {kind!r} (known: {', '.join(_HANDLERS)})",
                type=str(kind),
                known=list(_HANDLERS),
            )
        if self.phase == OVER:
            raise RuleError("game_over", "the game is over")
        seat = action.get("player")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
            raise RuleError(
                "malformed_action",
                f"the action needs a player seat from 0 to {len(self.players) - 1}",
                field="player",
                max=len(self.players) - 1,
            )
        if seat != self.current:
            raise RuleError(
                "not_your_turn",
                f"it is {self.players[self.current]}'s turn (seat {self.current}), not seat {seat}'s",
                player=seat,
                current=self.current,
            )
        recorded, events = handler(self, seat, action, replay)
        self.actions += 1
        return Applied(recorded, events)

    def _drawn_tile(self, action: Mapping[str, Any], replay: bool) -> tuple[str, bool]:
        """The tile this action uses, and whether a replay's recorded outcome must be swapped in."""
        drawn = self.drawn
        assert drawn is not None
        tile = action.get("tile", drawn)
        if tile == drawn:
            return drawn, False
        if not isinstance(tile, str) or tile not in TILES:
            raise RuleError("unknown_tile", f"unknown tile id {tile!r}", tile=str(tile))
        if not replay:
            raise RuleError("wrong_tile", f"the tile drawn is {drawn}, not {tile}", tile=tile, drawn=drawn)
        if self.options.deck is not None:
            raise RuleError("wrong_tile", f"the deck's next tile is {drawn}, not {tile}", tile=tile, drawn=drawn)
        if tile not in self.stack:
            raise RuleError("tile_not_in_stack", f"the stack holds no tile {tile}", tile=tile)
        if stage(tile) != stage(drawn):
            raise RuleError(
                "tile_out_of_order",
                f"{tile} cannot be drawn now: River tiles come first, then the lake, then the rest",
                tile=tile,
            )
        return tile, True

    def _swap_in(self, tile: str) -> None:
        """A replay recorded ``tile`` as drawn: exchange it with the tile our own shuffle put on top."""
        assert self.drawn is not None
        index = len(self.stack) - 1 - self.stack[::-1].index(tile)
        self.stack[index] = self.drawn
        self.drawn = tile

    def _act_place(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        if self.phase != PLACE:
            raise RuleError(
                "already_placed",
                "you already placed a tile this turn: place a follower, use a tower, or pass",
            )
        tile, swap = self._drawn_tile(action, replay)
        x, y = _int(action, "x", "place"), _int(action, "y", "place")
        rotation = action.get("rotation")
        if rotation not in ROTATIONS or isinstance(rotation, bool):
            raise RuleError(
                "bad_rotation",
                f"rotation must be 0, 90, 180 or 270, not {rotation!r}",
                rotation=str(rotation),
            )
        c = cell(x, y) if abs(x) <= MAX_COORD and abs(y) <= MAX_COORD else None
        o = ORIENTED[tile][rotation // 90]
        turn = self._check_placement(tile, c, o, x, y)
        assert c is not None
        if swap:
            self._swap_in(tile)
        self.put_tile(c, o, turn)
        self.phase = FOLLOWER
        self.placed = c
        self.last[seat] = c
        self.drawn = None
        recorded = {"player": seat, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation}
        return recorded, [{"type": "tile_placed", "player": seat, "tile": tile, "x": x, "y": y, "rotation": rotation}]

    def _check_placement(self, tile: str, c: int | None, o: Oriented, x: int, y: int) -> int:
        """Rules section 3.1; returns the river turn a River tile makes (0 otherwise)."""
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
                self._check_placement(tile, target, o, x, y)
            except RuleError:
                continue
            rots.append(o.rotation)
        return {target: tuple(rots)} if rots else {}

    def put_tile(self, c: int, o: Oriented, river_turn: int = 0) -> None:
        """Place a tile, checked or known to fit, and move the river's open end if it is a River tile."""
        self.board.place(c, o)
        if o.river:
            self.river_end, self.river_turn = flow_on(self.river_end, self.river_turn, c, o, river_turn)

    def lay_tile(self, c: int, o: Oriented) -> None:
        """Put a tile down again where it was played (rebuilding a board): a River tile's curve is worked out."""
        river = o.tile.expansion == "river" and not o.tile.spring
        x, y = xy(c)
        self.put_tile(c, o, check_river(self.board, self.river_end, self.river_turn, c, o, x, y) if river else 0)

    def _act_discard(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        if self.phase != PLACE:
            raise RuleError("already_placed", "you already placed a tile this turn")
        tile, swap = self._drawn_tile(action, replay)
        if swap:
            saved = self.drawn
            self.drawn = tile
            fits = self._placements()
            self.drawn = saved
        else:
            fits = self._placements()
        if fits:
            spots = sum(len(r) for r in fits.values())
            raise RuleError(
                "tile_fits",
                f"tile {tile} fits in {len(fits)} cells ({spots} placements), so it cannot be discarded",
                tile=tile,
                cells=len(fits),
                placements=spots,
            )
        if swap:
            self._swap_in(tile)
        self.discarded.append(tile)
        events: list[Event] = [{"type": "tile_discarded", "player": seat, "tile": tile}]
        self.drawn = None
        if self.stack:
            self.drawn = self.stack.pop()
            events.append({"type": "tile_drawn", "player": seat, "tile": self.drawn})
        else:
            self._final_scoring(events)
        return {"player": seat, "type": "discard", "tile": tile}, events

    def _segment(self, c: int, on: Any, what: str) -> int:
        """The segment index named ``on`` on the tile at ``c``."""
        o, _ = self.board.cells[c]
        index = o.lookup.get(lowercase_lookup(on)) if isinstance(on, str) else None
        if index is None:
            x, y = xy(c)
            raise RuleError(
                "unknown_segment",
                f"the tile at ({x}, {y}) has no segment {on!r}; {what}: {', '.join(o.names)}",
                segment=str(on),
                choices=list(o.names),
                x=x,
                y=y,
            )
        return index

    def _need_follower_phase(self) -> int:
        if self.phase != FOLLOWER or self.placed is None:
            raise RuleError("place_first", "place the drawn tile first")
        return self.placed

    def _act_follower(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        c = self._need_follower_phase()
        index = self._segment(c, action.get("on"), "its segments are")
        board = self.board
        o, base = board.cells[c]
        name = o.names[index]
        if not self.supply[seat]:
            raise RuleError("no_followers", "you have no follower in supply")
        if board.count[board.find(base + index)]:
            kind, _, where = lowercase_lookup(str(action.get("on"))).partition(":")
            raise RuleError(
                "feature_occupied",
                f"the {kind} on {where} already has a follower" if where else f"the {kind} already has a follower",
                segment=name,
                kind=kind,
                side=where,
            )
        board.add_follower(base + index, seat)
        self.supply[seat] -= 1
        x, y = xy(c)
        kind = name.partition(":")[0]
        events: list[Event] = [
            {
                "type": "follower_placed",
                "player": seat,
                "x": x,
                "y": y,
                "on": name,
                "role": FOLLOWER_ROLE[kind],
            }
        ]
        self._end_turn(events)
        return {"player": seat, "type": "follower", "on": name}, events

    def _act_pass(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        self._need_follower_phase()
        events: list[Event] = []
        self._end_turn(events)
        return {"player": seat, "type": "pass"}, events

    def _tower_at(self, action: Mapping[str, Any], what: str) -> tuple[int, int, int]:
        if not self.options.tower:
            raise RuleError("no_tower", "this game is played without The Tower")
        self._need_follower_phase()
        x, y = _int(action, "x", what), _int(action, "y", what)
        c = cell(x, y) if abs(x) <= MAX_COORD and abs(y) <= MAX_COORD else -1
        if c not in self.board.towers:
            raise RuleError("not_a_tower", f"there is no tower foundation at ({x}, {y})", x=x, y=y)
        if c in self.board.tops:
            raise RuleError("tower_closed", f"the tower at ({x}, {y}) is closed by a follower on top", x=x, y=y)
        return c, x, y

    def _act_tower(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        c, x, y = self._tower_at(action, "tower")
        if not self.pieces[seat]:
            raise RuleError("no_tower_pieces", "you have no tower pieces left")
        height = self.board.towers[c] + 1
        capture = action.get("capture")
        target: tuple[int, int | None] | None = None  # (cell, node); node None for a tower-top follower
        node: int | None
        if capture is not None:
            if not isinstance(capture, Mapping):
                raise RuleError("malformed_action", 'capture must be {"x": X, "y": Y, "on": SEGMENT}')
            tx, ty = _int(capture, "x", "capture"), _int(capture, "y", "capture")
            tc = cell(tx, ty) if abs(tx) <= MAX_COORD and abs(ty) <= MAX_COORD else -1
            if tc not in self.board.cells or not in_reach(c, tc, height):
                raise RuleError(
                    "out_of_reach",
                    f"({tx}, {ty}) is out of reach of a tower of height {height} at ({x}, {y}): same row or "
                    f"column, at most {height} cells away",
                    x=tx,
                    y=ty,
                    height=height,
                    tower_x=x,
                    tower_y=y,
                )
            on = capture.get("on")
            if on == "tower":
                if tc not in self.board.tops:
                    raise RuleError("no_follower_there", f"no follower stands on a tower at ({tx}, {ty})", x=tx, y=ty)
                target = (tc, None)
            else:
                node = self.board.node_of(tc, self._segment(tc, on, "its segments are"))
                if node not in self.board.followers:
                    raise RuleError(
                        "no_follower_there",
                        f"no follower stands on {on} at ({tx}, {ty})",
                        x=tx,
                        y=ty,
                        segment=str(on),
                    )
                target = (tc, node)
        # Valid: build, then capture.
        self.board.towers[c] = height
        self.pieces[seat] -= 1
        recorded: Action = {"player": seat, "type": "tower", "x": x, "y": y}
        events: list[Event] = [{"type": "tower_built", "player": seat, "x": x, "y": y, "height": height}]
        if target is not None:
            tc, node = target
            tx, ty = xy(tc)
            on_name = "tower" if node is None else self.board.segment_name(node)
            owner = self.board.tops.pop(tc) if node is None else self.board.remove_follower(node)
            recorded["capture"] = {"x": tx, "y": ty, "on": on_name}
            events.append({"type": "captured", "player": seat, "owner": owner, "x": tx, "y": ty, "on": on_name})
            if owner == seat:
                self.supply[seat] += 1
                events.append({"type": "follower_returned", "player": seat, "x": tx, "y": ty, "on": on_name})
            else:
                self.prisoners[seat][owner] += 1
                if self.prisoners[owner][seat]:
                    # Both hold a prisoner of the other: one of each goes home at once.
                    self.prisoners[seat][owner] -= 1
                    self.prisoners[owner][seat] -= 1
                    self.supply[seat] += 1
                    self.supply[owner] += 1
                    events.append({"type": "prisoners_exchanged", "players": sorted((seat, owner))})
        self._end_turn(events)
        return recorded, events

    def _act_tower_top(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        c, x, y = self._tower_at(action, "tower_top")
        if self.board.towers[c] < 1:
            raise RuleError("no_tower_yet", f"the foundation at ({x}, {y}) has no tower on it yet", x=x, y=y)
        if not self.supply[seat]:
            raise RuleError("no_followers", "you have no follower in supply")
        self.board.tops[c] = seat
        self.supply[seat] -= 1
        events: list[Event] = [{"type": "tower_closed", "player": seat, "x": x, "y": y}]
        self._end_turn(events)
        return {"player": seat, "type": "tower_top", "x": x, "y": y}, events

    def _act_ransom(self, seat: int, action: Mapping[str, Any], replay: bool) -> tuple[Action, list[Event]]:
        holder = action.get("from")
        if not isinstance(holder, int) or isinstance(holder, bool) or not 0 <= holder < len(self.players):
            raise RuleError("malformed_action", f'ransom needs "from": a seat from 0 to {len(self.players) - 1}')
        if self.ransomed:
            raise RuleError("ransom_used", "you already paid a ransom this turn (one per turn)")
        if holder == seat or not self.prisoners[holder][seat]:
            raise RuleError("no_prisoner", f"seat {holder} holds none of your followers", holder=holder)
        if self.scores[seat] < RANSOM_PRICE:
            raise RuleError(
                "ransom_unaffordable",
                f"a ransom costs {RANSOM_PRICE} points and you have {self.scores[seat]}",
                score=self.scores[seat],
                price=RANSOM_PRICE,
            )
        self.prisoners[holder][seat] -= 1
        self.supply[seat] += 1
        self._add_points(seat, "ransom", -RANSOM_PRICE)
        self._add_points(holder, "ransom", RANSOM_PRICE)
        self.ransomed = True
        events: list[Event] = [{"type": "ransom_paid", "player": seat, "to": holder, "points": RANSOM_PRICE}]
        return {"player": seat, "type": "ransom", "from": holder}, events

    # -- turn flow and scoring -----------------------------------------------------------------------------

    def _add_points(self, seat: int, category: str, points: int) -> None:
        self.scores[seat] += points
        self.breakdown[seat][category] += points

    def _award(self, event: Event) -> None:
        for seat in event["scorers"]:
            self._add_points(seat, event["category"], event["points"])

    def _return_followers(self, root: int, events: list[Event]) -> None:
        board = self.board
        for node, seat in board.feature_followers(root):
            board.remove_follower(node)
            self.supply[seat] += 1
            x, y = xy(board.node_cell[node])
            events.append({"type": "follower_returned", "player": seat, "x": x, "y": y, "on": board.segment_name(node)})

    def _end_turn(self, events: list[Event]) -> None:
        assert self.placed is not None
        for root, event in scoring.completed_by(self.board, self.placed, self.options.small_city):
            events.append(event)
            self._award(event)
            self._return_followers(root, events)
        self.placed = None
        if not self.stack:
            self._final_scoring(events)
            return
        self._start_turn((self.current + 1) % len(self.players), events)

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        self.current = seat
        self.turn += 1
        self.phase = PLACE
        self.ransomed = False
        self.drawn = self.stack.pop()
        events.append({"type": "turn_started", "player": seat, "turn": self.turn, "tile": self.drawn})

    def _final_scoring(self, events: list[Event]) -> None:
        board = self.board
        for _, event in scoring.final_features(board):
            self._award(event)
            events.append(event)
        farms = (
            scoring.farms_current(board)
            if self.options.farm_scoring == "current"
            else scoring.farms_first_edition(board)
        )
        for event in farms:
            self._award(event)
            events.append(event)
        for holder, held in enumerate(self.prisoners):
            for owner, count in enumerate(held):
                if count:
                    self.supply[owner] += count
                    held[owner] = 0
                    events.append({"type": "prisoners_returned", "holder": holder, "owner": owner, "count": count})
        self.phase = OVER
        self.drawn = None
        best = max(self.scores)
        self.winners = [s for s, score in enumerate(self.scores) if score == best]
        events.append(
            {
                "type": "game_over",
                "scores": list(self.scores),
                "breakdown": [dict(b) for b in self.breakdown],
                "winners": list(self.winners),
            }
        )

    # -- views and results ---------------------------------------------------------------------------------

    def view(self, seat: int | None) -> CarcassonneView:
        return player_view(self, seat)

    def progress(self) -> tuple[int, int]:
        return (self.turn, 0)

    @staticmethod
    def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
        return board_changes(before, after)

    def result(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
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

    # -- JSON (``state_json``) -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return dump(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("game") != cls.GAME:
            raise RuleError("bad_state", f"not a Carcassonne state: game is {data.get('game')!r}")
        if data.get("schema") != cls.SCHEMA:
            raise RuleError("bad_state", f"unsupported state schema {data.get('schema')!r} (this engine: {cls.SCHEMA})")
        players = list(data["players"])
        game = cls(players, parse_options(data["options"], len(players)), data["seed"], data["first_player"])
        load(game, data)
        return game


_Handler = Callable[[Carcassonne, int, Mapping[str, Any], bool], tuple[Action, list[Event]]]
_HANDLERS: Final[dict[str, _Handler]] = {
    "place": Carcassonne._act_place,
    "discard": Carcassonne._act_discard,
    "follower": Carcassonne._act_follower,
    "tower": Carcassonne._act_tower,
    "tower_top": Carcassonne._act_tower_top,
    "ransom": Carcassonne._act_ransom,
    "pass": Carcassonne._act_pass,
}
