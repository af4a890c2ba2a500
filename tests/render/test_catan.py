"""Catan images: pieces and robber at their named places, previews, and nothing from a hand."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import render
from render.catan import board as cboard
from render.catan import pictures
from render.catan.geometry import HARBOR_SPOTS, HEX_CORNERS, PATH_NAMES, corner_names
from render.catan.geometry import HEX_NAMES as HEX_NAMES_
from render.palette import player_colour

from .helpers import decode, differs, share

BEGINNER_HEXES = [
    ["mountains", 10], ["pasture", 2], ["forest", 9],
    ["fields", 12], ["hills", 6], ["pasture", 4], ["hills", 10],
    ["fields", 9], ["forest", 11], ["desert", None], ["forest", 3], ["mountains", 8],
    ["forest", 8], ["mountains", 3], ["fields", 4], ["pasture", 5],
    ["hills", 5], ["fields", 6], ["pasture", 11],
]  # fmt: skip
BEGINNER_HARBORS = dict(
    zip(HARBOR_SPOTS, ["3:1", "grain", "ore", "3:1", "wool", "3:1", "3:1", "brick", "lumber"], strict=True)
)
ROBBER = (44, 44, 48)


def beginner_view(**changes: Any) -> dict[str, Any]:
    """The beginner set-up as a spectator sees it (rules section 4), 4 players, seat 2 to move."""
    view: dict[str, Any] = {
        "game": "catan",
        "viewer": None,
        "board": {"hexes": BEGINNER_HEXES, "harbors": BEGINNER_HARBORS},
        "robber": "J",
        "settlements": [
            {"at": n, "player": s} for n, s in [(9, 0), (29, 0), (42, 1), (40, 1), (26, 2), (18, 2), (15, 3), (41, 3)]
        ],
        "cities": [],
        "roads": [
            {"at": r, "player": s}
            for r, s in [
                ("5-9", 0),
                ("23-29", 0),
                ("37-42", 1),
                ("35-40", 1),
                ("20-26", 2),
                ("13-18", 2),
                ("10-15", 3),
                ("36-41", 3),
            ]
        ],
        "players": [
            {"seat": i, "name": n, "points": 2, "cards": 3, "dev_cards": 0, "knights": 0}
            for i, n in enumerate(["Red", "Blue", "White", "Orange"])
        ],
        "longest_road": None,
        "largest_army": None,
        "current_player": 2,
        "turn": 3,
        "dice": [2, 4],
        "finished": False,
        "winners": [],
    }
    view.update(changes)
    return view


def test_geometry_matches_the_rules() -> None:
    names = corner_names()
    assert [names[f"A-{c}"] for c in ("N", "NE", "SE", "S", "SW", "NW")] == [1, 5, 9, 13, 8, 4]
    assert [names[f"J-{c}"] for c in ("N", "NE", "SE", "S", "SW", "NW")] == [19, 25, 31, 36, 30, 24]
    assert [names[f"S-{c}"] for c in ("N", "NE", "SE", "S", "SW", "NW")] == [42, 47, 51, 54, 50, 46]
    assert len(PATH_NAMES) == 72 and len({n for cs in HEX_CORNERS for n in cs}) == 54
    # reading order of drawn position: top first, then left to right
    pts = [cboard.intersection_point(n) for n in range(1, 55)]
    assert pts == sorted(pts, key=lambda p: (p[1], p[0]))


def test_engine_names_agree() -> None:
    import engine.catan.board as eb

    assert tuple(eb.EDGE_NAMES) == PATH_NAMES
    assert [tuple(n + 1 for n in cs) for cs in eb.HEX_CORNERS] == list(HEX_CORNERS)


def test_settlement_of_player_2_at_intersection_25() -> None:
    before = decode(render.board_png(beginner_view()))
    xy = cboard.intersection_point(25)
    assert share(before, xy, player_colour(2), radius=3) < 0.2
    view = beginner_view()
    view["settlements"].append({"at": 25, "player": 2})
    after = decode(render.board_png(view))
    # the left of the house's body (its middle carries the owner's mark)
    body = (xy[0] - round(cboard.R * 0.42 * 0.28), xy[1] + 2)
    assert share(after, body, player_colour(2), radius=2) >= 0.7
    assert share(before, body, player_colour(2), radius=2) < 0.2
    # and only there: the neighbouring intersections did not change colour
    for n in (19, 31):
        assert share(after, cboard.intersection_point(n), player_colour(2), radius=2) < 0.2


def test_city_and_road_in_the_owners_colour() -> None:
    view = beginner_view(cities=[{"at": 9, "player": 0}])
    view["settlements"] = [s for s in view["settlements"] if s["at"] != 9]
    img = decode(render.board_png(view))
    x, y = cboard.intersection_point(9)
    assert share(img, (x - round(cboard.R * 0.56 * 0.3), y + 6), player_colour(0), radius=2) > 0.8
    assert share(img, cboard.path_point("37-42"), player_colour(1), radius=2) > 0.6


@pytest.mark.parametrize("letter", ["J", "E", "P"])
def test_robber_on_its_hex(letter: str) -> None:
    img = decode(render.board_png(beginner_view(robber=letter)))
    assert share(img, cboard.robber_point(letter, [tuple(h) for h in BEGINNER_HEXES]), ROBBER, radius=2) > 0.6
    for other in {"J", "E", "P"} - {letter}:
        assert share(img, cboard.robber_point(other, [tuple(h) for h in BEGINNER_HEXES]), ROBBER, radius=2) < 0.2


def test_spectator_image_never_shows_a_hand() -> None:
    """Views that differ only in hidden cards (not their number) give byte-identical images."""
    a = beginner_view()
    b = copy.deepcopy(a)
    a["players"][1] |= {"cards": {"ore": 3, "wool": 0}, "dev_cards": ["knight", "victory_point"]}
    b["players"][1] |= {"cards": {"brick": 1, "grain": 2}, "dev_cards": ["monopoly", "road_building"]}
    assert not differs(render.board_png(a), render.board_png(b))
    # a seat's own view of the same position posts the same public image as the spectator's
    c = copy.deepcopy(a)
    c["viewer"] = 1
    c["players"][1]["hand"] = {"ore": 3}
    assert not differs(render.board_png(c), render.board_png(a))


def test_build_preview_shows_only_the_legal_spots() -> None:
    view = beginner_view()
    public = decode(render.board_png(view))
    preview = decode(pictures.preview_png(view, [1, 44]))
    for n in (1, 44):
        assert share(preview, cboard.intersection_point(n), cboard.PREVIEW, radius=3) > 0.3
        assert share(public, cboard.intersection_point(n), cboard.PREVIEW, radius=3) < 0.05
    assert share(preview, cboard.intersection_point(3), cboard.PREVIEW, radius=3) < 0.05
    roads = decode(pictures.preview_png(view, ["4-8", "19-24"]))
    (x0, y0), (x1, y1) = cboard.GEOMETRY.path("4-8")
    quarter = (round(x0 + (x1 - x0) * 0.3), round(y0 + (y1 - y0) * 0.3))
    assert share(roads, quarter, (250, 247, 240), radius=1) > 0.5


def test_sizes() -> None:
    png = render.board_png(beginner_view())
    assert len(png) <= 1_000_000 and max(decode(png).size) <= 2048


def _engine() -> Any:
    from engine.catan import Catan

    return Catan


SETUP = [
    (0, 1, "1-4"),
    (1, 42, "42-46"),
    (2, 25, "19-25"),
    (3, 10, "10-15"),
    (3, 52, "48-52"),
    (2, 33, "27-33"),
    (1, 30, "24-30"),
    (0, 17, "12-17"),
]


def engine_replay(extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    actions: list[dict[str, Any]] = []
    for seat, node, road in SETUP:
        actions += [{"player": seat, "type": "settlement", "at": node}, {"player": seat, "type": "road", "at": road}]
    return {
        "format": "boardhost-replay",
        "version": 1,
        "game": "catan",
        "players": ["Ann", "Бо", "陈", "さち"],
        "seed": 3,
        "options": {"board": "beginner", "first_player": 0},
        "actions": actions + (extra or []),
    }


def _play(data: dict[str, Any]) -> Any:
    _engine()
    from engine.replay import play

    return play(data)


def test_engine_settlement_of_player_2_at_intersection_25() -> None:
    before = _play({**engine_replay(), "actions": engine_replay()["actions"][:4]})
    after = _play(engine_replay())
    x, y = cboard.intersection_point(25)
    body = (x - round(cboard.R * 0.42 * 0.28), y + 2)
    assert share(decode(render.board_png(after.view(None))), body, player_colour(2), radius=2) >= 0.7
    assert share(decode(render.board_png(before.view(None))), body, player_colour(2), radius=2) < 0.2


def _robbed(stolen: str | None, hexagon: str, victim: int | None) -> Any:
    extra = [
        {"player": 0, "type": "roll", "dice": [3, 4]},
        {"player": 0, "type": "robber", "hex": hexagon, "victim": victim, "stolen": stolen},
    ]
    return _play(engine_replay(extra))


def test_engine_robber_on_its_hex() -> None:
    hexes = [tuple(h) for h in BEGINNER_HEXES]
    taken = {n for _, n, _ in SETUP}
    empty = next(HEX_NAMES_[h] for h, cs in enumerate(HEX_CORNERS) if not taken & set(cs) and HEX_NAMES_[h] != "J")
    game = _robbed(None, empty, None)
    assert game.view(None)["board"]["robber"] == empty
    img = decode(render.board_png(game.view(None)))
    assert share(img, cboard.robber_point(empty, hexes), ROBBER, radius=2) > 0.6
    assert share(img, cboard.robber_point("J", hexes), ROBBER, radius=2) < 0.2


def test_engine_spectator_image_identical_whatever_the_hands() -> None:
    """Two games that differ only in which card was stolen (hands differ, counts do not)."""
    base = _play(engine_replay())
    victim, held = next(
        (seat, kinds)
        for seat in (1, 2, 3)
        for kinds in [[r for r, n in base.view(seat)["players"][seat]["hand"].items() if n]]
        if len(kinds) >= 2
    )
    homes = {n for s, n, _ in SETUP if s == victim}
    victim_hex = next(HEX_NAMES_[h] for h, cs in enumerate(HEX_CORNERS) if homes & set(cs) and HEX_NAMES_[h] != "J")
    one = _robbed(held[0], victim_hex, victim)
    two = _robbed(held[1], victim_hex, victim)
    assert one.view(victim)["players"][victim]["hand"] != two.view(victim)["players"][victim]["hand"]
    assert one.view(0)["players"][0]["hand"] != two.view(0)["players"][0]["hand"]
    png = render.board_png(one.view(None))
    assert not differs(png, render.board_png(two.view(None)))
    # and every seat's own view posts the same public board
    for seat in range(4):
        assert not differs(png, render.board_png(one.view(seat)))


def test_engine_end_image_matches_the_engine_breakdown() -> None:
    catan = _engine()
    import random

    game = catan.new(["Ann", "Бо", "陈", "さち"], {"board": "beginner", "setup": "beginner"}, 4)
    rng = random.Random(4)
    while not game.finished:
        game.apply(game.random_action(rng))
    derived = pictures.breakdown(game.view(None))
    assert [derived[s] for s in range(4)] == game.result()["breakdown"]
    png = render.end_png(game.view(None))
    assert png.startswith(b"\x89PNG") and len(png) < 1_000_000
