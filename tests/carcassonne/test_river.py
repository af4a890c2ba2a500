"""The River (rules 1 and 3.1, seed 000): each rule with its own scenario.

The spring R1 is at (0, 0) in reference orientation, the river leaving east, so the river's open end starts at
(1, 0). R3 is a straight (river W-E), R4 a curve (river S-W), R8 a straight N-S with a bridge, R9 a curve E-S with
a city, R10 a curve S-W with a road, R2 the lake (river from W).
"""

from __future__ import annotations

from engine.carcassonne import Carcassonne
from engine.carcassonne.options import stage
from engine.carcassonne.tiles import RIVER_TILES
from tests.carcassonne.helpers import new_game, of_type, only, place, play, rejected


def placing(tile: str, x: int, y: int, rotation: int, player: int = 0) -> dict[str, object]:
    return {"player": player, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation}


def river(deck: list[str], players: int = 2) -> Carcassonne:
    return new_game(deck, players=players, river=True)


def test_spring_is_the_start_tile_and_the_river_leaves_east() -> None:
    """Rules 1: "the spring is placed at (0, 0) in reference orientation (river leaving east)"."""
    g = river(["R3"])
    assert g.to_json()["tiles"] == [["R1", 0, 0, 0]]
    assert g.legal_placements() == {(1, 0): [0, 180]}
    assert g.view(None)["river_end"] == [1, 0]


def test_river_tile_must_continue_at_the_open_end() -> None:
    """Rules 3.1: "each must continue the river, joining its river edge to the open river end"."""
    g = river(["R3"])
    rejected(g, placing("R3", 0, 1, 90), "river_must_continue")  # next to the spring, but not at its river end
    rejected(g, placing("R3", -1, 0, 0), "river_must_continue")
    rejected(g, placing("R3", 1, 0, 90), "river_must_continue")  # at the end, but the river runs N-S
    events = place(g, 0, "R3", 1, 0, 180)
    assert only(events, "tile_placed")["rotation"] == 180
    assert g.view(None)["river_end"] == [2, 0]


def test_curve_may_not_turn_the_same_way_twice_in_a_row() -> None:
    """Rules 3.1: "No U-turn: a river curve may not turn in the same direction as the previous curve placed
    immediately before it"."""
    g = river(["R4", "R4"])
    play(g, 0, "R4", 1, 0, 0)  # river W -> S: a right turn
    assert g.legal_placements() == {(1, 1): [180]}  # only the left turn is offered
    error = rejected(g, placing("R4", 1, 1, 90, player=1), "river_u_turn")  # N -> W: right again
    assert error.params["direction"] == "right"
    play(g, 1, "R4", 1, 1, 180)  # N -> E: a left turn (an S-bend) is fine
    assert g.finished


def test_curve_straight_curve_in_the_same_direction_is_allowed() -> None:
    """Rules 3.1: "curve-straight-curve in the same direction is allowed"."""
    g = river(["R4", "R8", "R4"])
    play(g, 0, "R4", 1, 0, 0)  # right
    play(g, 1, "R8", 1, 1, 0)  # straight N-S
    assert 90 in g.legal_placements()[(1, 2)]
    play(g, 0, "R4", 1, 2, 90)  # right again: N -> W
    assert g.view(None)["river_end"] == [0, 2]


SPIRAL = [("R4", 1, 0, 0), ("R8", 1, 1, 0), ("R4", 1, 2, 90), ("R3", 0, 2, 0), ("R9", -1, 2, 270), ("R3", -1, 1, 90)]


def spiral(tail: list[str]) -> Carcassonne:
    """Right turns, each after a straight, round the spring: the river's open end ends up at (-1, 0), entering
    from the south, right beside the spring."""
    g = river([t for t, *_ in SPIRAL] + tail)
    for i, (tile, x, y, rot) in enumerate(SPIRAL):
        play(g, i % 2, tile, x, y, rot)
    assert g.view(None)["river_end"] == [-1, 0]
    return g


def test_new_open_end_may_not_point_at_an_occupied_cell() -> None:
    """Rules 3.1: "the river's new open end may not point at an occupied cell": the last right turn would flow
    into the spring."""
    g = spiral(["R10", "R2"])
    error = rejected(g, placing("R10", -1, 0, 270), "river_faces_occupied")  # S -> E, into (0, 0)
    assert error.params["side"] == "E"


def test_other_touching_edges_of_a_river_tile_must_still_match() -> None:
    """Rules 3.1: "other touching edges match as usual": R10 turning left (S -> W) would be a fine river, but its
    road faces the spring's field."""
    g = spiral(["R10", "R2"])
    error = rejected(g, placing("R10", -1, 0, 0), "edges_mismatch")
    assert (error.params["side"], error.params["edge"], error.params["neighbour"]) == ("E", "road", "field")


def test_river_tile_that_fits_nowhere_is_discarded_and_the_next_drawn() -> None:
    """Rules 3.1: "If the tile fits nowhere it is removed from the game (recorded publicly) and the player draws
    another" -- R10 cannot continue the spiral either way; the lake is drawn and closes it."""
    g = spiral(["R10", "R2"])
    assert g.legal_placements() == {}
    assert g.decision() == "discard"
    events = g.apply({"player": 0, "type": "discard", "tile": "R10"}).events
    assert [(e["type"], e["tile"]) for e in events] == [("tile_discarded", "R10"), ("tile_drawn", "R2")]
    assert g.legal_placements() == {(-1, 0): [270]}
    play(g, 0, "R2", -1, 0, 270)
    assert g.finished
    assert g.view(None)["discarded"] == ["R10"]


def test_lake_closes_the_river() -> None:
    """Rules 3.1: "The lake closes the river"; base tiles follow and go anywhere they fit."""
    g = river(["R3", "R2", "U"])
    play(g, 0, "R3", 1, 0, 0)
    rejected(g, placing("R2", 2, 0, 180, player=1), "river_must_continue")  # the lake's river must face west
    play(g, 1, "R2", 2, 0, 0)  # river enters from the west and ends
    assert g.view(None)["river_end"] is None
    assert g.drawn == "U"
    assert (0, 1) in g.legal_placements()  # beside the spring's field, no river end to follow


def test_stack_order_river_then_lake_then_the_rest() -> None:
    """Seed 000 order "spring -> 10 river tiles -> lake -> the rest" for a game shuffled by its seed."""
    for seed in (1, 2, 3):
        g = Carcassonne.new(["A", "B"], {}, seed=seed)
        state = g.to_json()
        order = [state["drawn"], *state["stack"]]
        assert len(order) == 11 + 72
        assert all(stage(t) == 0 and t in RIVER_TILES for t in order[:10])
        assert order[10] == "R2"
        assert all(stage(t) == 2 for t in order[11:])
        assert sorted(order[:10]) == sorted(["R3", "R3", "R4", "R4", "R5", "R6", "R7", "R8", "R9", "R10"])


def test_base_tile_cannot_be_placed_against_a_river_edge() -> None:
    """Rules 3.1: river-river only; a road or field against the river's open end does not match."""
    g = river(["R3", "U"])
    play(g, 0, "R3", 1, 0, 0)  # the river is open at (2, 0) (a deck without the lake)
    assert (2, 0) not in g.legal_placements()
    error = rejected(g, placing("U", 2, 0, 0, player=1), "edges_mismatch")
    assert (error.params["edge"], error.params["neighbour"]) == ("road", "river")
    rejected(g, placing("U", 2, 0, 90, player=1), "edges_mismatch")


def test_nobody_stands_on_the_river() -> None:
    """Rules 3.1: "A river edge is not a feature and nobody may stand on it"."""
    g = river(["R3"])
    place(g, 0, "R3", 1, 0, 0)
    assert sorted(g.follower_spots()) == ["field:Es", "field:Nw"]  # the two banks, nothing else
    assert not any(s.startswith("river") for s in g.follower_spots())
    rejected(g, {"player": 0, "type": "follower", "on": "river:E"}, "unknown_segment")
    rejected(g, {"player": 0, "type": "follower", "on": "river:W"}, "unknown_segment")


def test_river_separates_fields_but_spring_and_lake_join_both_banks() -> None:
    """Rules 3.1: the river "separates fields like a road"; seed 000 FAQ: the fields round the spring and the lake
    connect the two banks. A farmer north of the river therefore also occupies the south bank."""
    g = river(["R3", "R3", "R2"])
    play(g, 0, "R3", 1, 0, 0, "field:Nw")  # north bank
    place(g, 1, "R3", 2, 0, 0)
    assert g.follower_spots() == []  # both banks are the farmer's field, joined through the spring
    g.apply({"player": 1, "type": "pass"})
    place(g, 0, "R2", 3, 0, 0)
    assert g.follower_spots() == []


def test_tile_that_fits_nowhere_is_discarded_and_the_next_is_drawn() -> None:
    """Rules 3.1: "If the tile fits nowhere it is removed from the game (recorded publicly) and the player draws
    another". The all-city C fits nowhere beside the start tile once its city is closed."""
    g = new_game(["E", "C", "U"])
    play(g, 0, "E", 0, -1, 180)
    assert g.drawn == "C"
    assert g.decision() == "discard"
    assert g.legal_actions(1) == [{"player": 1, "type": "discard", "tile": "C"}]
    rejected(g, placing("C", 0, -2, 0, player=1), "edges_mismatch")
    events = g.apply({"player": 1, "type": "discard", "tile": "C"}).events
    assert [e["type"] for e in events] == ["tile_discarded", "tile_drawn"]
    assert events[1]["tile"] == "U"
    assert g.current == 1 and g.drawn == "U"
    assert g.view(None)["discarded"] == ["C"]
    play(g, 1, "U", 1, 0, 0)
    assert g.finished


def test_discarding_the_last_tile_ends_the_game() -> None:
    """Rules 3.5: the game ends after the turn in which the last tile is drawn (placed, or discarded)."""
    g = new_game(["E", "C"])
    play(g, 0, "E", 0, -1, 180, "city:S")
    events = g.apply({"player": 1, "type": "discard", "tile": "C"}).events
    assert g.finished
    assert only(events, "game_over")["scores"] == [4, 0]
    assert not of_type(events, "tile_drawn")


def test_a_tile_that_fits_nowhere_is_the_hosts_automatic_action() -> None:
    """The host discards a tile that fits nowhere without asking anyone; otherwise it has nothing to do itself."""
    from engine.carcassonne import Carcassonne

    game = Carcassonne.new(["A", "B"], {"river": False, "deck": ["E", "C", "U"], "first_player": 0}, 1)
    assert game.automatic_action() is None
    game.apply({"player": 0, "type": "place", "x": 0, "y": -1, "rotation": 180})  # closes the start tile's city
    game.apply({"player": 0, "type": "pass"})
    assert game.decision() == "discard"  # C is all city and no city edge is open
    assert game.automatic_action() == {"player": 1, "type": "discard"}
    game.apply(game.automatic_action() or {})
    assert game.decision() == "place" and game.drawn == "U" and game.current == 1
    assert game.automatic_action() is None
