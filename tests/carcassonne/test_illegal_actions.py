"""Illegal actions and set-ups: each is rejected with its stable code and leaves the state exactly as it was."""

from __future__ import annotations

import pytest

from engine.carcassonne import Carcassonne
from tests.carcassonne.helpers import bad_setup, new_game, play, rejected


def placing(tile: str, x: int, y: int, rotation: int, player: int = 0) -> dict[str, object]:
    return {"player": player, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation}


@pytest.fixture
def game() -> Carcassonne:
    return new_game(["E", "U", "V", "B"])


def test_wrong_player(game: Carcassonne) -> None:
    """Rules 3: the player whose turn it is acts; every action names that player."""
    rejected(game, placing("E", 0, -1, 180, player=1), "not_your_turn")


def test_player_seat_out_of_range_or_missing(game: Carcassonne) -> None:
    rejected(game, placing("E", 0, -1, 180, player=2), "malformed_action")
    rejected(game, {"type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180}, "malformed_action")
    rejected(game, {**placing("E", 0, -1, 180), "player": True}, "malformed_action")


def test_unknown_action_type(game: Carcassonne) -> None:
    """Replay format: unknown action types are errors, not ignored."""
    rejected(game, {"player": 0, "type": "fly"}, "unknown_action")
    rejected(game, {"player": 0}, "unknown_action")


def test_action_that_is_not_an_object(game: Carcassonne) -> None:
    rejected(game, ["place"], "malformed_action")


def test_malformed_coordinates(game: Carcassonne) -> None:
    rejected(game, {"player": 0, "type": "place", "tile": "E", "y": -1, "rotation": 180}, "malformed_action")
    rejected(game, {**placing("E", 0, -1, 180), "x": "0"}, "malformed_action")
    rejected(game, {**placing("E", 0, -1, 180), "y": 1.5}, "malformed_action")


def test_bad_rotation(game: Carcassonne) -> None:
    """Rules 2: rotation is 0, 90, 180 or 270."""
    rejected(game, placing("E", 0, -1, 45), "bad_rotation")
    rejected(game, placing("E", 0, -1, 360), "bad_rotation")
    rejected(game, {**placing("E", 0, -1, 0), "rotation": None}, "bad_rotation")


def test_placing_twice_in_one_turn(game: Carcassonne) -> None:
    game.apply(placing("E", 0, -1, 180))
    rejected(game, placing("U", 1, 0, 0), "already_placed")
    rejected(game, {"player": 0, "type": "discard", "tile": "U"}, "already_placed")


def test_follower_or_pass_before_placing(game: Carcassonne) -> None:
    """Rules 3: draw and place first, then a follower (or nothing)."""
    rejected(game, {"player": 0, "type": "follower", "on": "city:N"}, "place_first")
    rejected(game, {"player": 0, "type": "pass"}, "place_first")


def test_occupied_cell(game: Carcassonne) -> None:
    rejected(game, placing("E", 0, 0, 0), "cell_occupied")


def test_diagonal_contact_is_not_enough(game: Carcassonne) -> None:
    """Rules 3.1: "Diagonal contact alone is not enough"."""
    rejected(game, placing("E", 1, 1, 0), "not_adjacent")
    rejected(game, placing("E", 5, 5, 0), "not_adjacent")
    rejected(game, placing("E", 10_000, 0, 0), "not_adjacent")


def test_edges_must_match(game: Carcassonne) -> None:
    """Rules 3.1: city-city, road-road, field-field."""
    rejected(game, placing("E", 0, -1, 0), "edges_mismatch")  # field against the start tile's city
    error = rejected(game, placing("E", 1, 0, 0), "edges_mismatch")  # field against its road
    assert error.params["side"] == "W"
    assert (error.params["edge"], error.params["neighbour"]) == ("field", "road")
    rejected(game, placing("E", 0, 1, 0), "edges_mismatch")  # city N against... the start tile's S is field


def test_wrong_tile_live(game: Carcassonne) -> None:
    """Live play: the tile placed must be the one drawn."""
    rejected(game, placing("U", 0, -1, 180), "wrong_tile")
    rejected(game, placing("U", 0, -1, 180), "wrong_tile", replay=True)  # with a fixed deck even in a replay
    rejected(game, placing("Z9", 0, -1, 180), "unknown_tile")


def test_replay_tile_must_be_in_the_stack_in_order() -> None:
    """Replay format: without a deck the recorded tile must be a tile the stack still holds, in stack order."""
    g = Carcassonne.new(["A", "B"], {"river": True}, seed=3)
    assert g.drawn is not None and g.drawn.startswith("R")
    rejected(g, placing("U", 1, 0, 0), "tile_out_of_order", replay=True)
    rejected(g, placing("R1", 1, 0, 0), "tile_not_in_stack", replay=True)  # the spring is on the board
    rejected(g, placing("R2", 1, 0, 0), "tile_out_of_order", replay=True)  # the lake only after the river tiles


def test_unknown_segment_name(game: Carcassonne) -> None:
    game.apply(placing("E", 0, -1, 180))
    rejected(game, {"player": 0, "type": "follower", "on": "road:N"}, "unknown_segment")
    rejected(game, {"player": 0, "type": "follower", "on": "cloister"}, "unknown_segment")
    rejected(game, {"player": 0, "type": "follower", "on": "city"}, "unknown_segment")
    rejected(game, {"player": 0, "type": "follower", "on": 3}, "unknown_segment")
    rejected(game, {"player": 0, "type": "follower"}, "unknown_segment")


def test_follower_on_a_feature_occupied_after_joining() -> None:
    """Rules 3.2: only if "the whole feature that segment belongs to (after joining neighbours) has no follower"."""
    g = new_game(["U", "U"])
    play(g, 0, "U", 1, 0, 0, "road:E")  # Alice's thief on the road through the start tile
    g.apply(placing("U", -1, 0, 0, player=1))
    error = rejected(g, {"player": 1, "type": "follower", "on": "road:W"}, "feature_occupied")
    assert error.params["kind"] == "road"
    rejected(g, {"player": 1, "type": "follower", "on": "road:E"}, "feature_occupied")  # same segment, other name


def test_no_followers_left_after_all_seven_are_used() -> None:
    """Rules 1: "Each player has 7 followers in supply"; seed 001: "with no follower in hand you cannot occupy"."""
    alice = [("B", 0, 1, 0, "cloister"), ("B", 1, 1, 0, "cloister"), ("B", -1, 1, 0, "cloister")]
    alice += [("B", 2, 1, 0, "cloister"), ("A", -2, 1, 0, "cloister"), ("A", 3, 1, 0, "cloister")]
    alice += [("U", -1, 0, 0, "field:Se")]
    bob = [("U", x, 0, 0, None) for x in range(1, 7)] + [("V", 7, 0, 90, None)]
    deck = [t for pair in zip(alice, bob, strict=True) for t in (pair[0][0], pair[1][0])] + ["U"]
    g = new_game(deck)
    for mine, theirs in zip(alice, bob, strict=True):
        play(g, 0, *mine)
        play(g, 1, *theirs)
    assert g.supply == [0, 7]
    g.apply(placing("U", -2, 0, 0))
    assert g.follower_spots() == []
    rejected(g, {"player": 0, "type": "follower", "on": "road:W"}, "no_followers")
    g.apply({"player": 0, "type": "pass"})
    assert g.finished


def test_discarding_a_tile_that_fits(game: Carcassonne) -> None:
    """Rules 3.1: only a tile that fits nowhere is removed."""
    error = rejected(game, {"player": 0, "type": "discard", "tile": "E"}, "tile_fits")
    assert error.params["cells"] >= 1
    rejected(game, {"player": 0, "type": "discard", "tile": "U"}, "wrong_tile")


def test_actions_after_game_over() -> None:
    g = new_game(["E"])
    play(g, 0, "E", 0, -1, 180)
    assert g.finished and g.decision() == "over"
    rejected(g, placing("U", 1, 0, 0, player=1), "game_over")
    rejected(g, {"player": 1, "type": "pass"}, "game_over")
    rejected(g, {"player": 0, "type": "ransom", "from": 1}, "game_over")
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []


# -- set-up ---------------------------------------------------------------------------------------------------


def test_unknown_option() -> None:
    bad_setup("unknown_option", ["A", "B"], {"rivers": False})


@pytest.mark.parametrize(
    "options",
    [
        {"river": "yes"},
        {"tower": 1},
        {"farm_scoring": "fourth_edition"},
        {"small_city": None},
        {"tower_pieces": 31},
        {"tower_pieces": -1},
        {"first_player": 2},
        {"deck": "UUV"},
        {"deck": ["U", 3]},
    ],
)
def test_bad_option_values(options: dict[str, object]) -> None:
    bad_setup("bad_option", ["A", "B"], options)


@pytest.mark.parametrize("count", [0, 1, 7])
def test_wrong_player_count(count: int) -> None:
    """Rules 1: 2 to 6 players."""
    bad_setup("player_count", [f"P{i}" for i in range(count)], {})


def test_too_many_of_a_tile() -> None:
    """Rules 5: the stack holds 5 E; with the River off one of the 4 D is the start tile."""
    bad_setup("too_many_tiles", ["A", "B"], {"river": False, "deck": ["E"] * 6})
    bad_setup("too_many_tiles", ["A", "B"], {"river": False, "deck": ["D"] * 4})
    new_game(["D"] * 3)  # three are left
    bad_setup("too_many_tiles", ["A", "B"], {"river": False, "deck": ["C", "C"]})


def test_expansion_tiles_need_their_option() -> None:
    bad_setup("tile_not_in_game", ["A", "B"], {"river": False, "deck": ["R3"]})
    bad_setup("tile_not_in_game", ["A", "B"], {"river": False, "deck": ["T1"]})


def test_river_tiles_first_and_the_lake_last_of_them() -> None:
    """Seed 000: "spring -> 10 river tiles -> lake -> the rest"."""
    bad_setup("deck_order", ["A", "B"], {"deck": ["R3", "R2", "R4"]})
    bad_setup("deck_order", ["A", "B"], {"deck": ["U", "R3"]})
    bad_setup("deck_order", ["A", "B"], {"deck": ["R2", "R3"]})
    bad_setup("deck_order", ["A", "B"], {"tower": True, "deck": ["T1", "R2"]})


def test_unknown_tile_id_in_deck() -> None:
    bad_setup("unknown_tile", ["A", "B"], {"river": False, "deck": ["U", "Y"]})


def test_spring_in_a_river_deck_is_too_many_tiles_not_a_missing_option() -> None:
    """Replay format: "no id may appear more often than the stack holds it (with the River off, one D is the start
    tile), River and Tower ids only when those options are on". With the River ON the spring R1 is the start tile,
    so the stack holds 0 of it: the error should be too_many_tiles. The engine answers tile_not_in_game with the
    message "tile R1 needs the river option" although the river option is on."""
    error = bad_setup("too_many_tiles", ["A", "B"], {"river": True, "deck": ["R1"]})
    assert "river option" not in error.message
