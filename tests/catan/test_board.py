"""Board naming (rules section 2) and maps (section 3)."""

from __future__ import annotations

import random

import pytest

from engine.catan import Catan, parse_intersection, parse_path
from engine.catan.board import (
    EDGE_NAMES,
    HARBOR_SPOTS,
    HEX_CORNERS,
    HEX_NEIGHBORS,
    NODE_COUNT,
    NODE_HEXES,
    NODE_NEIGHBORS,
)
from engine.catan.maps import TOKENS, random_layout, red_numbers_touch, spiral
from engine.errors import RuleError
from tests.catan.helpers import PLAYERS4, beginner_layout_json


def test_hexes_intersections_and_paths_are_named_in_reading_order() -> None:
    assert NODE_COUNT == 54 and len(EDGE_NAMES) == 72
    assert [c + 1 for c in HEX_CORNERS[0]] == [1, 5, 9, 13, 8, 4]  # A: N NE SE S SW NW
    assert [c + 1 for c in HEX_CORNERS[9]] == [19, 25, 31, 36, 30, 24]  # J
    assert [c + 1 for c in HEX_CORNERS[18]] == [42, 47, 51, 54, 50, 46]  # S
    for name in EDGE_NAMES:
        a, b = (int(x) for x in name.split("-"))
        assert a < b
    # Every intersection touches 1 to 3 hexes and 2 or 3 paths; the centre hex has 6 neighbours.
    assert all(1 <= len(NODE_HEXES[n]) <= 3 and 2 <= len(NODE_NEIGHBORS[n]) <= 3 for n in range(54))
    assert len(HEX_NEIGHBORS[9]) == 6 and len(HEX_NEIGHBORS[0]) == 3


def test_the_nine_harbour_spots_are_paths_on_the_coast() -> None:
    assert len(HARBOR_SPOTS) == 9
    for spot in HARBOR_SPOTS:
        assert spot in EDGE_NAMES
        a, b = (int(x) - 1 for x in spot.split("-"))
        assert len(set(NODE_HEXES[a]) & set(NODE_HEXES[b])) == 1  # a coast path borders one hex


@pytest.mark.parametrize(
    ("text", "number"),
    [("J-NE", 25), ("j-ne", 25), ("A-N", 1), ("A-SW", 8), ("S-S", 54), ("25", 25), (25, 25), ("J-SW", 30)],
)
def test_intersections_parse_from_hex_and_corner(text: object, number: int) -> None:
    assert parse_intersection(text) == number


@pytest.mark.parametrize(
    ("text", "path"),
    [("J-E", "25-31"), ("31-25", "25-31"), ("12-17", "12-17"), ("D-W", "12-17"), ("A-NW", "1-4"), ("j-e", "25-31")],
)
def test_paths_parse_from_hex_and_side(text: str, path: str) -> None:
    assert parse_path(text) == path


@pytest.mark.parametrize("bad", [0, 55, "J-X", "T-N", "", None, True, "1-2-3"])
def test_bad_intersections_are_refused(bad: object) -> None:
    with pytest.raises(RuleError) as info:
        parse_intersection(bad)
    assert info.value.code == "unknown_intersection"


@pytest.mark.parametrize("bad", ["1-2", "1-54", "J-N", "J", 12, "x-y"])
def test_bad_paths_are_refused(bad: object) -> None:
    with pytest.raises(RuleError) as info:
        parse_path(bad)
    assert info.value.code == "unknown_path"


def test_the_beginner_map() -> None:
    game = Catan.new(PLAYERS4, {"board": "beginner", "first_player": 0}, 1)
    assert game.layout[0][0] == ("mountains", 10) and game.layout[0][9] == ("desert", None)
    assert game.layout[0][18] == ("pasture", 11)
    assert game.view(None)["board"]["robber"] == "J"
    assert game.replay_options()["board"] == beginner_layout_json()


def test_random_maps_hold_the_components_and_lay_numbers_in_a_spiral() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        hexes, harbors = random_layout(rng, "spiral")
        assert sorted(t for t, _ in hexes).count("forest") == 4
        assert sorted(n for _, n in hexes if n is not None) == sorted(TOKENS)
        assert all((n is None) == (t == "desert") for t, n in hexes)
        assert sorted(harbors) == sorted(["3:1"] * 4 + ["brick", "lumber", "wool", "grain", "ore"])
        assert not red_numbers_touch(hexes)  # the official spiral never puts 6 and 8 together
        # The tokens follow one of the 6 spirals in letter order.
        assert any([hexes[h][1] for h in spiral(c) if hexes[h][1] is not None] == list(TOKENS) for c in range(6))


def test_random_numbers_never_put_6_and_8_together() -> None:
    for seed in range(200):
        hexes, _ = random_layout(random.Random(seed), "random")
        assert not red_numbers_touch(hexes)
        assert sorted(n for _, n in hexes if n is not None) == sorted(TOKENS)


def test_random_boards_differ_by_seed_and_are_exported_explicitly() -> None:
    a = Catan.new(PLAYERS4, {}, 1)
    b = Catan.new(PLAYERS4, {}, 2)
    assert a.layout != b.layout
    again = Catan.new(PLAYERS4, {"board": a.replay_options()["board"], "first_player": a.first_player}, 99)
    assert again.layout == a.layout
    assert Catan.new(PLAYERS4, {"board": "random_numbers"}, 3).replay_options()["board"]["hexes"][0][0]


def test_an_explicit_layout_is_validated() -> None:
    good = beginner_layout_json()
    Catan.new(PLAYERS4, {"board": good}, 1)
    cases = []
    bad = beginner_layout_json()
    bad["hexes"] = bad["hexes"][:18]
    cases.append(bad)
    bad = beginner_layout_json()
    bad["hexes"][0] = ["lava", 3]
    cases.append(bad)
    bad = beginner_layout_json()
    bad["hexes"][0] = ["mountains", 7]
    cases.append(bad)
    bad = beginner_layout_json()
    bad["hexes"][9] = ["desert", 5]
    cases.append(bad)
    bad = beginner_layout_json()
    bad["hexes"][0] = ["desert", None]
    cases.append(bad)
    bad = beginner_layout_json()
    del bad["harbors"]["1-4"]
    cases.append(bad)
    bad = beginner_layout_json()
    bad["harbors"]["1-4"] = "gold"
    cases.append(bad)
    for layout in cases:
        with pytest.raises(RuleError) as info:
            Catan.new(PLAYERS4, {"board": layout}, 1)
        assert info.value.code == "bad_board"
    # Harbour spots may be named by hex and side too.
    alias = beginner_layout_json()
    alias["harbors"]["D-W"] = alias["harbors"].pop("12-17")
    assert Catan.new(PLAYERS4, {"board": alias}, 1).harbors == Catan.new(PLAYERS4, {"board": good}, 1).harbors


def test_options_are_checked() -> None:
    for options, code in [
        ({"colour": "red"}, "unknown_option"),
        ({"board": "moon"}, "bad_option"),
        ({"setup": "beginner"}, "bad_option"),  # the beginner set-up needs the beginner map
        ({"setup": "fast"}, "bad_option"),
        ({"points_to_win": 0}, "bad_option"),
        ({"first_player": 4}, "bad_option"),
        ({"strict_phases": "yes"}, "bad_option"),
        ({"dev_deck": ["knight", "joker"]}, "bad_option"),
        ({"dev_deck": ["monopoly"] * 3}, "bad_option"),
    ]:
        with pytest.raises(RuleError) as info:
            Catan.new(PLAYERS4, options, 1)
        assert info.value.code == code, options
    for players in (["a", "b"], ["a", "b", "c", "d", "e"]):
        with pytest.raises(RuleError) as info:
            Catan.new(players, {}, 1)
        assert info.value.code == "player_count"
