"""Game options (rules section 1) and the tile stack they produce."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.carcassonne.tiles import (
    BASE_TILES,
    LAKE,
    RIVER_TILES,
    SPRING,
    START_TILE,
    TILES,
    TOWER_TILES,
)
from engine.errors import RuleError

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
FOLLOWERS: Final = 7
# Official table: 30 pieces in the box shared out by player count.
TOWER_PIECES: Final = {2: 10, 3: 9, 4: 7, 5: 6, 6: 5}
FARM_SCORING: Final = ("current", "first_edition")
OPTION_NAMES: Final = frozenset(
    {"river", "tower", "farm_scoring", "small_city", "tower_pieces", "first_player", "deck"}
)


@dataclass(frozen=True, slots=True)
class Options:
    river: bool = True
    tower: bool = False
    farm_scoring: str = "current"
    small_city: bool = False
    tower_pieces: int | None = None  # None: the official table
    first_player: int | None = None  # None: seat 0 (the host draws at random and passes the seat)
    deck: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "river": self.river,
            "tower": self.tower,
            "farm_scoring": self.farm_scoring,
            "small_city": self.small_city,
        }
        if self.tower_pieces is not None:
            data["tower_pieces"] = self.tower_pieces
        if self.first_player is not None:
            data["first_player"] = self.first_player
        if self.deck is not None:
            data["deck"] = list(self.deck)
        return data


def _flag(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if not isinstance(value, bool):
        raise RuleError("bad_option", f"option {name} must be true or false, not {value!r}", option=name)
    return value


def _count(options: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = options.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RuleError(
            "bad_option",
            f"option {name} must be a whole number from {low} to {high}, not {value!r}",
            option=name,
            low=low,
            high=high,
        )
    return value


def parse_options(options: Mapping[str, Any], players: int) -> Options:
    unknown = sorted(set(options) - OPTION_NAMES)
    if unknown:
        raise RuleError(
            "unknown_option",
            f"unknown option {unknown[0]!r} (known: {', '.join(sorted(OPTION_NAMES))})",
            option=unknown[0],
        )
    farm = options.get("farm_scoring", "current")
    if farm not in FARM_SCORING:
        raise RuleError(
            "bad_option",
            f"option farm_scoring must be one of {', '.join(FARM_SCORING)}, not {farm!r}",
            option="farm_scoring",
        )
    parsed = Options(
        river=_flag(options, "river", True),
        tower=_flag(options, "tower", False),
        farm_scoring=str(farm),
        small_city=_flag(options, "small_city", False),
        tower_pieces=_count(options, "tower_pieces", 0, 30),
        first_player=_count(options, "first_player", 0, players - 1),
        deck=None,
    )
    deck = options.get("deck")
    if deck is not None:
        if not isinstance(deck, list | tuple) or not all(isinstance(t, str) for t in deck):
            raise RuleError("bad_option", "option deck must be a list of tile ids", option="deck")
        check_deck(tuple(deck), parsed)
        parsed = Options(**{**_fields(parsed), "deck": tuple(deck)})
    return parsed


def _fields(o: Options) -> dict[str, Any]:
    return {name: getattr(o, name) for name in Options.__slots__}


def start_tile(options: Options) -> str:
    return SPRING if options.river else START_TILE


def inventory(options: Options) -> Counter[str]:
    """How many of each tile the stack holds (the start tile already taken out)."""
    ids = list(BASE_TILES)
    if options.river:
        ids += RIVER_TILES
    if options.tower:
        ids += TOWER_TILES
    stock = Counter({tid: TILES[tid].count for tid in ids})
    stock[start_tile(options)] -= 1
    return +stock


def stage(tile_id: str) -> int:
    """Draw stage: River tiles come first, then the lake, then everything else."""
    if tile_id == LAKE:
        return 1
    return 0 if TILES[tile_id].expansion == "river" else 2


def check_deck(deck: tuple[str, ...], options: Options) -> None:
    stock = inventory(options)
    used: Counter[str] = Counter()
    previous = 0
    for position, tid in enumerate(deck):
        if tid not in TILES:
            raise RuleError("unknown_tile", f"deck position {position}: unknown tile id {tid!r}", tile=tid)
        used[tid] += 1
        if used[tid] > stock[tid]:
            expansion = TILES[tid].expansion
            enabled = {"base": True, "river": options.river, "tower": options.tower}[expansion]
            if not enabled:
                raise RuleError(
                    "tile_not_in_game",
                    f"deck position {position}: tile {tid} needs the {expansion} option",
                    tile=tid,
                    expansion=expansion,
                )
            raise RuleError(
                "too_many_tiles",
                f"deck position {position}: the stack holds only {stock[tid]} of tile {tid}",
                tile=tid,
                count=stock[tid],
            )
        now = stage(tid)
        if now < previous:
            raise RuleError(
                "deck_order",
                f"deck position {position}: {tid} comes too late (River tiles first, the lake last of them)",
                tile=tid,
            )
        previous = now


def build_stack(options: Options, rng: random.Random) -> list[str]:
    """The draw order: the given deck, or River tiles shuffled, the lake, then the rest shuffled."""
    if options.deck is not None:
        return list(options.deck)
    stock = inventory(options)
    river = sorted(t for t in stock.elements() if stage(t) == 0)
    rest = sorted(t for t in stock.elements() if stage(t) == 2)
    rng.shuffle(river)
    rng.shuffle(rest)
    lake = [LAKE] if stock[LAKE] else []
    return river + lake + rest


def tower_pieces(options: Options, players: int) -> int:
    if not options.tower:
        return 0
    return options.tower_pieces if options.tower_pieces is not None else TOWER_PIECES[players]
