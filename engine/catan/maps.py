"""Maps (rules section 3): the random map with spiral numbers, random numbers, the beginner map, explicit layouts.

A layout is ``(hexes, harbors)``: hexes is 19 ``(terrain, number|None)`` pairs in letter order, harbors the 9
harbour types in the order of ``board.HARBOR_SPOTS``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from engine.catan.board import (
    BEGINNER_HARBORS,
    HARBOR_SPOTS,
    HARBOR_TYPES,
    HEX_NAMES,
    HEX_NEIGHBORS,
    TERRAIN_RESOURCE,
    parse_path,
)
from engine.errors import RuleError

Hexes = list[tuple[str, int | None]]
Layout = tuple[Hexes, list[str]]

TERRAINS: Final = ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3 + ["desert"]
TOKENS: Final = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
HARBORS: Final = ["3:1"] * 4 + ["brick", "lumber", "wool", "grain", "ore"]
# Counterclockwise rings starting at the top-left corner hex A; a spiral may start at any of the 6 corners.
OUTER_RING: Final = tuple(HEX_NAMES.index(c) for c in "ADHMQRSPLGCB")
INNER_RING: Final = tuple(HEX_NAMES.index(c) for c in "EINOKF")
CENTRE: Final = HEX_NAMES.index("J")

BEGINNER_HEXES: Final[Hexes] = [
    ("mountains", 10), ("pasture", 2), ("forest", 9),
    ("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10),
    ("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8),
    ("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5),
    ("hills", 5), ("fields", 6), ("pasture", 11),
]  # fmt: skip


def spiral(corner: int) -> list[int]:
    """Hexes in the order the official variable set-up lays number tokens, starting at corner ``corner`` (0..5)."""
    outer = OUTER_RING[2 * corner :] + OUTER_RING[: 2 * corner]
    inner = INNER_RING[corner:] + INNER_RING[:corner]
    return [*outer, *inner, CENTRE]


def random_layout(rng: random.Random, numbers: str) -> Layout:
    """``numbers`` is ``"spiral"`` (map ``random``) or ``"random"`` (map ``random_numbers``)."""
    terrains = list(TERRAINS)
    rng.shuffle(terrains)
    hexes: Hexes = [(t, None) for t in terrains]
    if numbers == "spiral":
        tokens = iter(TOKENS)
        for h in spiral(rng.randrange(6)):
            if terrains[h] != "desert":
                hexes[h] = (terrains[h], next(tokens))
    else:
        land = [h for h, t in enumerate(terrains) if t != "desert"]
        while True:
            tokens_list = list(TOKENS)
            rng.shuffle(tokens_list)
            for h, n in zip(land, tokens_list, strict=True):
                hexes[h] = (terrains[h], n)
            if not red_numbers_touch(hexes):
                break
    harbors = list(HARBORS)
    rng.shuffle(harbors)
    return hexes, harbors


def red_numbers_touch(hexes: Hexes) -> bool:
    """True when a 6 or 8 is next to another 6 or 8."""
    red = {h for h, (_, n) in enumerate(hexes) if n in (6, 8)}
    return any(g in red for h in red for g in HEX_NEIGHBORS[h])


def beginner_layout() -> Layout:
    return list(BEGINNER_HEXES), list(BEGINNER_HARBORS)


def explicit_layout(data: Mapping[str, Any]) -> Layout:
    """Validate ``{"hexes": [[terrain, number], ...], "harbors": {path: type}}``."""
    if set(data) != {"hexes", "harbors"}:
        raise RuleError(
            "bad_board", 'an explicit board is {"hexes": [...19 entries], "harbors": {...9 spots}}', field="board"
        )
    raw = data["hexes"]
    if not isinstance(raw, list) or len(raw) != len(HEX_NAMES):
        raise RuleError("bad_board", "an explicit board needs 19 hexes in letter order A..S", field="hexes")
    hexes: Hexes = []
    for i, entry in enumerate(raw):
        name = HEX_NAMES[i]
        if not isinstance(entry, list | tuple) or len(entry) != 2 or entry[0] not in TERRAIN_RESOURCE:
            raise RuleError(
                "bad_board",
                f"hex {name} must be [terrain, number] with terrain one of {', '.join(TERRAIN_RESOURCE)}",
                hex=name,
            )
        terrain, number = entry
        if terrain == "desert":
            if number is not None:
                raise RuleError("bad_board", f"hex {name} is the desert and takes no number (null)", hex=name)
        elif not isinstance(number, int) or isinstance(number, bool) or not 2 <= number <= 12 or number == 7:
            raise RuleError("bad_board", f"hex {name} needs a number from 2 to 12 other than 7", hex=name)
        hexes.append((terrain, number))
    if sum(1 for t, _ in hexes if t == "desert") != 1:
        raise RuleError("bad_board", "an explicit board needs exactly one desert (where the robber starts)")
    spots = data["harbors"]
    if not isinstance(spots, Mapping):
        raise RuleError("bad_board", "harbors must map the 9 harbour spots to their harbour", field="harbors")
    by_spot: dict[str, str] = {}
    for spot, kind in spots.items():
        path = parse_path(spot)
        if path not in HARBOR_SPOTS:
            raise RuleError(
                "bad_board",
                f"{spot} is not a harbour spot (the spots are {', '.join(HARBOR_SPOTS)})",
                spot=str(spot),
            )
        if kind not in HARBOR_TYPES:
            raise RuleError("bad_board", f"harbour {spot} must be one of {', '.join(HARBOR_TYPES)}", spot=str(spot))
        by_spot[path] = kind
    if len(by_spot) != len(HARBOR_SPOTS):
        raise RuleError("bad_board", f"harbors must name all 9 spots: {', '.join(HARBOR_SPOTS)}", field="harbors")
    return hexes, [by_spot[s] for s in HARBOR_SPOTS]


def layout_json(layout: Layout) -> dict[str, Any]:
    hexes, harbors = layout
    return {"hexes": [[t, n] for t, n in hexes], "harbors": dict(zip(HARBOR_SPOTS, harbors, strict=True))}
