"""The state's JSON form (schema 1): plain JSON types, and ``load(dump(g))`` continues exactly like ``g``.

Tables that follow from the pieces on the board (distance-rule counts, reach, harbour rates) are rebuilt on load.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.catan.board import EDGE_NODES, HEX_NAMES, NODE_HEXES, NODE_NEIGHBORS
from engine.catan.options import Options
from engine.catan.state import GAME, State, copy_offer
from engine.catan.trading import harbor_rates
from engine.catan.view import HexView
from engine.errors import RuleError

SCHEMA: Final = 1  # version of the state JSON

_LISTS = (
    "node_owner",
    "node_city",
    "edge_owner",
    "settlements",
    "cities",
    "roads",
    "hand",
    "bank",
    "dev",
    "bought",
    "deck",
    "knights",
    "road_length",
    "owed",
)
_SCALARS = (
    "dice",
    "robber",
    "longest_holder",
    "army_holder",
    "phase",
    "current",
    "turn",
    "setup_step",
    "setup_road",
    "card_played",
    "built",
    "next_offer",
    "offers_made",
    "actions",
    "winner",
)


def dump(game: State) -> dict[str, Any]:
    opts = game.options
    version, internal, gauss = game.rng.getstate()
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "game": GAME,
        "players": list(game.players),
        "seed": game.seed,
        "options": {
            "board": opts.board if isinstance(opts.board, str) else "explicit",
            "setup": opts.setup,
            "strict_phases": opts.strict_phases,
            "points_to_win": opts.points_to_win,
            "first_player": opts.first_player,
            "dev_deck": None if opts.dev_deck is None else list(opts.dev_deck),
            "given": sorted(opts.given),
        },
        "layout": {"hexes": [[t, n] for t, n in game.layout[0]], "harbors": list(game.layout[1])},
        "first_player": game.first_player,
        "rng": [version, list(internal), gauss],
        "offers": [copy_offer(o) for o in game.offers],
    }
    for name in _LISTS:
        value = getattr(game, name)
        data[name] = [list(v) for v in value] if value and isinstance(value[0], list) else list(value)
    for name in _SCALARS:
        data[name] = getattr(game, name)
    return data


# What ``position`` fixes: nothing of the turn's bookkeeping that a position set out by hand cannot know.
_FIXED: Final = {"built": False, "next_offer": 1, "winner": None}


def position(
    players: Sequence[str],
    layout: tuple[Sequence[Sequence[Any]], Sequence[str]],
    *,
    rng: random.Random,
    seed: int,
    setup: str,
    strict_phases: bool,
    points_to_win: int,
    given: Sequence[str] = (),
    **pieces: Any,
) -> dict[str, Any]:
    """The JSON form of a position set out by hand rather than played to (a computer player's guess at what it
    cannot see, another engine's game): its board explicit (``layout``: hexes as (terrain, number), harbours),
    seat 0 the first player, no offer open, nothing built this turn yet, no winner; ``rng`` is the game's dice and
    deck from here on. ``pieces`` are every other field of the schema (the lists and the turn's scalars), all of
    them: a position with one missing would load as a different game."""
    wanted = {*_LISTS, *_SCALARS} - set(_FIXED)
    if set(pieces) != wanted:
        raise ValueError(f"a position needs exactly {sorted(wanted)}: missing {sorted(wanted - set(pieces))}, "
                         f"unknown {sorted(set(pieces) - wanted)}")  # fmt: skip
    version, internal, gauss = rng.getstate()
    hexes, harbors = layout
    return {
        "schema": SCHEMA,
        "game": GAME,
        "players": list(players),
        "seed": seed,
        "options": {
            "board": "explicit",
            "setup": setup,
            "strict_phases": strict_phases,
            "points_to_win": points_to_win,
            "first_player": 0,
            "dev_deck": None,
            "given": list(given),
        },
        "layout": {"hexes": [[t, n] for t, n in hexes], "harbors": list(harbors)},
        "first_player": 0,
        "rng": [version, list(internal), gauss],
        "offers": [],
        **_FIXED,
        **pieces,
    }


def load(game: State, data: Mapping[str, Any]) -> None:
    """Fill ``game`` (made without ``__init__``) from its JSON form."""
    if data.get("schema") != SCHEMA or data.get("game") != GAME:
        raise RuleError("bad_state", f"not a Catan state of schema {SCHEMA}", schema=str(data.get("schema")))
    raw = data["options"]
    hexes = [(t, n) for t, n in data["layout"]["hexes"]]
    harbors = list(data["layout"]["harbors"])
    layout = (hexes, harbors)
    board = raw["board"] if raw["board"] != "explicit" else layout
    options = Options(
        board=board,
        setup=raw["setup"],
        strict_phases=raw["strict_phases"],
        points_to_win=raw["points_to_win"],
        first_player=raw["first_player"],
        dev_deck=None if raw["dev_deck"] is None else list(raw["dev_deck"]),
        given=frozenset(raw["given"]),
    )
    State.__init__(game, data["players"], options, data["seed"], layout, data["first_player"])
    version, internal, gauss = data["rng"]
    game.rng.setstate((version, tuple(internal), gauss))
    for name in _LISTS:
        value = data[name]
        setattr(game, name, [list(v) for v in value] if value and isinstance(value[0], list) else list(value))
    for name in _SCALARS:
        setattr(game, name, data[name])
    game.offers = [copy_offer(o) for o in data["offers"]]
    for node, owner in enumerate(game.node_owner):
        if owner != -1:
            game.crowded[node] += 1
            for m in NODE_NEIGHBORS[node]:
                game.crowded[m] += 1
            game.reach[owner].add(node)
            for h in NODE_HEXES[node]:
                game.hex_buildings[h].append(node)
    for seat, roads in enumerate(game.roads):
        for e in roads:
            game.reach[seat].update(EDGE_NODES[e])
        game.rates[seat] = harbor_rates(game.harbors, game.node_owner, seat)


def stored_hexes(data: Mapping[str, Any]) -> list[HexView]:
    """The hexes of a stored state's board in letter order, as ``view`` shows them, without loading the game (the
    board never changes, so any stored state of a game names its hexes); empty if ``data`` is no Catan state."""
    if data.get("schema") != SCHEMA or data.get("game") != GAME:
        return []
    hexes = data["layout"]["hexes"]
    return [HexView(hex=HEX_NAMES[i], terrain=t, number=n) for i, (t, n) in enumerate(hexes)]
