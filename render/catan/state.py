"""Read the public part of a Catan view into one small immutable record.

Only public facts are read: terrain, numbers, harbours, robber, pieces on the board, played knights, holders of
longest road and largest army, public points and the *number* of cards in each hand. A seat's own view may hold
its hand and development cards: only their counts are used, so the board image is the same for every viewer.

Accepted shapes (the engine's view; alternatives are tolerated so the renderer does not break on small changes):

- ``board``: ``{"hexes": [[terrain, number|null] x 19 in letter order], "harbors": {"1-4": "3:1", ...}}``
  (or ``hexes`` / ``harbors`` at the top level; a hex may also be ``{"terrain": ..., "number": ...}``);
- ``robber``: hex letter (or index);
- ``settlements`` / ``cities``: ``[{"at": 25, "player": 1}, ...]`` or ``{"25": 1, ...}``; or ``buildings``:
  ``[{"at": 25, "player": 1, "kind": "settlement"|"city"}]``;
- ``roads``: ``[{"at": "12-17", "player": 0}, ...]`` or ``{"12-17": 0}``;
- ``players[i]``: ``seat``, ``name``, ``points`` (public), ``cards`` (count or hand dict), ``dev_cards`` (count
  or list), ``knights`` (played); ``longest_road`` / ``largest_army``: seat or null at the top level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from render.catan.geometry import HARBOR_SPOTS, HEX_NAMES, path_nodes


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    points: int
    cards: int
    dev_cards: int
    knights: int
    road_length: int | None
    vp_cards: int  # revealed at the end only
    discard_owed: int
    settlements: int
    cities: int


@dataclass(frozen=True)
class CatanState:
    hexes: tuple[tuple[str, int | None], ...]
    harbors: tuple[str, ...]  # in the order of HARBOR_SPOTS
    robber: str
    settlements: tuple[tuple[int, int], ...]  # (intersection, seat), sorted
    cities: tuple[tuple[int, int], ...]
    roads: tuple[tuple[str, int], ...]  # (path, seat), sorted
    players: tuple[Player, ...]
    longest_road: int | None
    largest_army: int | None
    current: int | None
    turn: int
    dice: tuple[int, int] | None
    setup: bool
    finished: bool
    winners: tuple[int, ...]


def _count(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return sum(_count(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(v if isinstance(v, int) and not isinstance(v, bool) else 1 for v in value)
    return 0


def _first(mapping: Mapping[str, Any], *keys: str, default: Any = None) -> Any:
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return default


def _pieces(raw: Any, key: str = "at") -> list[tuple[Any, int]]:
    out: list[tuple[Any, int]] = []
    if isinstance(raw, Mapping):
        for at, seat in raw.items():
            if isinstance(seat, Mapping):
                seat = _first(seat, "player", "seat", "owner")
            out.append((at, int(seat)))
    elif isinstance(raw, list | tuple):
        for item in raw:
            if isinstance(item, Mapping):
                out.append(
                    (
                        _first(item, key, "intersection", "path", "node", "edge"),
                        int(_first(item, "player", "seat", "owner")),
                    )
                )
            elif isinstance(item, list | tuple) and len(item) == 2:
                out.append((item[0], int(item[1])))
    return out


def _seat_or_none(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Mapping):
        value = _first(value, "player", "seat", "holder")
    return int(value) if isinstance(value, int) else None


def _winners(view: Mapping[str, Any]) -> tuple[int, ...]:
    many = view.get("winners")
    if isinstance(many, list | tuple):
        return tuple(int(w) for w in many)
    one = view.get("winner")
    return (int(one),) if isinstance(one, int) and not isinstance(one, bool) else ()


def read(view: Mapping[str, Any]) -> CatanState:
    board = view.get("board") if isinstance(view.get("board"), Mapping) else view
    assert isinstance(board, Mapping)
    hexes: list[tuple[str, int | None]] = []
    for entry in board.get("hexes") or []:
        if isinstance(entry, Mapping):
            hexes.append((str(entry.get("terrain")), entry.get("number")))
        else:
            hexes.append((str(entry[0]), entry[1]))
    raw_harbors = board.get("harbors") or {}
    if isinstance(raw_harbors, Mapping):
        spots = {"-".join(map(str, path_nodes(str(k)))): str(v) for k, v in raw_harbors.items()}
        harbors = tuple(spots.get(s, "3:1") for s in HARBOR_SPOTS)
    else:
        harbors = tuple(str(h) for h in raw_harbors)
    robber = _first(view, "robber", default=None)
    if robber is None:
        robber = _first(board, "robber", default=None)
    if isinstance(robber, int):
        robber = HEX_NAMES[robber]
    if robber is None:
        robber = HEX_NAMES[next((i for i, (t, _) in enumerate(hexes) if t == "desert"), 9)]
    settlements = [(int(a), s) for a, s in _pieces(_first(view, "settlements", default=board.get("settlements")))]
    cities = [(int(a), s) for a, s in _pieces(_first(view, "cities", default=board.get("cities")))]
    for item in _first(view, "buildings", default=board.get("buildings")) or []:
        if isinstance(item, Mapping):
            target = cities if item.get("kind") == "city" else settlements
            target.append((int(item["at"]), int(_first(item, "player", "seat", "owner"))))
    roads = []
    for at, seat in _pieces(_first(view, "roads", default=board.get("roads"))):
        a, b = path_nodes(str(at))
        roads.append((f"{a}-{b}", seat))
    players: list[Player] = []
    for i, p in enumerate(view.get("players") or []):
        players.append(
            Player(
                seat=int(p.get("seat", i)),
                name=str(p.get("name", f"Player {i + 1}")),
                points=_count(_first(p, "points", "public_points", "score", "victory_points", default=0)),
                cards=_count(_first(p, "cards", "resource_count", "resources", "hand", default=0)),
                dev_cards=_count(
                    _first(p, "development_cards", "dev_cards", "development_count", "development", default=0)
                ),
                knights=_count(_first(p, "knights", "played_knights", "knights_played", default=0)),
                road_length=_first(p, "road_length", "longest_road_length"),
                vp_cards=_count(_first(p, "victory_point_cards", default=0)),
                discard_owed=_count(_first(p, "discard_owed", default=0)),
                settlements=0,
                cities=0,
            )
        )
    longest = _seat_or_none(view.get("longest_road"))
    army = _seat_or_none(view.get("largest_army"))
    for p in view.get("players") or []:
        if p.get("longest_road") is True:
            longest = int(p.get("seat", 0))
        if p.get("largest_army") is True:
            army = int(p.get("seat", 0))
    dice_raw = _first(view, "dice", "last_roll", "roll")
    dice = (int(dice_raw[0]), int(dice_raw[1])) if isinstance(dice_raw, list | tuple) and len(dice_raw) == 2 else None
    phase = str(view.get("phase", ""))
    players = [
        replace(
            p,
            settlements=sum(1 for _, s in settlements if s == p.seat),
            cities=sum(1 for _, s in cities if s == p.seat),
        )
        for p in players
    ]
    return CatanState(
        hexes=tuple(hexes),
        harbors=harbors,
        robber=str(robber),
        settlements=tuple(sorted(settlements)),
        cities=tuple(sorted(cities)),
        roads=tuple(sorted(roads)),
        players=tuple(players),
        longest_road=longest,
        largest_army=army,
        current=_seat_or_none(view.get("current_player")),
        turn=int(view.get("turn") or 0),
        dice=dice,
        setup=phase.startswith("setup") or int(view.get("turn") or 0) == 0,
        finished=bool(view.get("finished")) or phase == "over" or bool(_winners(view)),
        winners=_winners(view),
    )
