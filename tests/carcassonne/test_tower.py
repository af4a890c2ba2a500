"""The Tower (rules section 6, seed 000): each rule with its own scenario.

Tower foundations used here: T12 (all field) and T13 (all field with a cloister). The first foundation is always
T12 at (0, 1), just south of the start tile D.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.carcassonne import Carcassonne
from tests.carcassonne.helpers import new_game, of_type, only, place, play, rejected

ALICE, BOB = 0, 1


def tower(x: int, y: int, capture: tuple[int, int, str] | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "tower", "x": x, "y": y}
    if capture is not None:
        action["capture"] = {"x": capture[0], "y": capture[1], "on": capture[2]}
    return action


def act(game: Carcassonne, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    return list(game.apply({"player": seat, **action}).events)


def towers(deck: list[str], players: int = 2, **options: Any) -> Carcassonne:
    return new_game(deck, players=players, tower=True, **options)


def followers_of(game: Carcassonne, seat: int) -> int:
    """Supply + on the board + on tower tops + held prisoner by anyone: always 7."""
    board = game.board
    on_board = sum(1 for s in board.followers.values() if s == seat)
    on_tops = sum(1 for s in board.tops.values() if s == seat)
    return game.supply[seat] + on_board + on_tops + sum(row[seat] for row in game.prisoners)


def assert_conserved(game: Carcassonne) -> None:
    for seat in range(len(game.players)):
        assert followers_of(game, seat) == 7


# A board for reach: tower foundation at (0,1); Bob's monks at (1,1) (1 east) and (2,1) (2 east), Bob's thief at
# (-2,0) (not in line with the tower), Alice's monk at (-2,1) (2 west, across the empty cell (-1,1)).
REACH_DECK = ["T12", "B", "U", "U", "B", "B", "U", "U", "U", "U", "U"]


def reach_board() -> Carcassonne:
    g = towers(REACH_DECK)
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "B", 1, 1, 0, "cloister")
    play(g, ALICE, "U", -1, 0, 0)
    play(g, BOB, "U", -2, 0, 0, "road:W")
    play(g, ALICE, "B", -2, 1, 0, "cloister")
    play(g, BOB, "B", 2, 1, 0, "cloister")
    return g


def test_build_on_a_foundation_then_on_the_open_tower() -> None:
    """Rules 6.1a: "put one of their tower pieces on any foundation or open tower anywhere on the board
    (height + 1)"."""
    g = towers(["T12", "U", "U"])
    play(g, ALICE, "T12", 0, 1, 0)
    assert g.board.towers  # a bare foundation, height 0
    place(g, BOB, "U", 1, 0, 0)
    assert [(o["x"], o["y"], o["height"]) for o in g.tower_options()] == [(0, 1, 0)]
    events = act(g, BOB, tower(0, 1))
    assert only(events, "tower_built") == {"type": "tower_built", "player": BOB, "x": 0, "y": 1, "height": 1}
    assert g.pieces == [10, 9]
    place(g, ALICE, "U", -1, 0, 0)  # anyone may build on any open tower
    events = act(g, ALICE, tower(0, 1))
    assert only(events, "tower_built")["height"] == 2
    assert g.pieces == [9, 9]
    assert g.view(None)["towers"] == [{"x": 0, "y": 1, "height": 2, "top": None}]


def test_reach_is_height_cells_in_each_orthogonal_direction_and_nothing_blocks() -> None:
    """Rules 6.1a: reach is "the tower's own cell plus, in each of the 4 orthogonal directions, as many cells as the
    tower's new height. Other towers and empty cells do not block"."""
    g = reach_board()
    place(g, ALICE, "U", 1, 0, 0)
    options = g.tower_options()
    assert [(c["x"], c["y"], c["on"], c["player"]) for c in options[0]["captures"]] == [(1, 1, "cloister", BOB)]
    error = rejected(g, {"player": ALICE, **tower(0, 1, (2, 1, "cloister"))}, "out_of_reach")  # 2 away, height 1
    assert error.params["height"] == 1
    rejected(g, {"player": ALICE, **tower(0, 1, (-2, 1, "cloister"))}, "out_of_reach")
    rejected(g, {"player": ALICE, **tower(0, 1, (-2, 0, "road:W"))}, "out_of_reach")  # not in line
    rejected(g, {"player": ALICE, **tower(0, 1, (1, 0, "road:W"))}, "out_of_reach")  # diagonal neighbour
    act(g, ALICE, tower(0, 1, (1, 1, "cloister")))
    play(g, BOB, "U", 2, 0, 0)
    place(g, ALICE, "U", 3, 0, 0)
    captures = {(c["x"], c["y"]) for c in g.tower_options()[0]["captures"]}
    assert captures == {(2, 1), (-2, 1)}  # height 2: across the empty cell (-1, 1) and past the tile at (1, 1)
    act(g, ALICE, tower(0, 1, (2, 1, "cloister")))
    play(g, BOB, "U", -3, 0, 0)
    place(g, ALICE, "U", 4, 0, 0)
    rejected(g, {"player": ALICE, **tower(0, 1, (-2, 0, "road:W"))}, "out_of_reach")  # height 3: still diagonal
    assert g.prisoners[ALICE][BOB] == 2


def test_capturing_an_opponents_follower_makes_it_a_prisoner() -> None:
    """Rules 6.1a: "a captured follower of another player becomes that player's prisoner held by the capturer"."""
    g = reach_board()
    place(g, ALICE, "U", 1, 0, 0)
    events = act(g, ALICE, tower(0, 1, (1, 1, "cloister")))
    captured = only(events, "captured")
    assert (captured["player"], captured["owner"], captured["x"], captured["y"], captured["on"]) == (
        ALICE,
        BOB,
        1,
        1,
        "cloister",
    )
    assert g.prisoners == [[0, 1], [0, 0]]
    assert g.supply[BOB] == 4  # 3 on the board, 1 held by Alice
    assert "cloister" not in [f["on"] for f in g.view(None)["followers"] if (f["x"], f["y"]) == (1, 1)]
    assert_conserved(g)


@pytest.mark.parametrize(
    ("tile", "x", "y", "rotation", "segment", "role"),
    [
        ("E", 0, 2, 180, "city:S", "knight"),  # a city on the tile south of the tower
        ("U", -1, 1, 90, "road:N", "thief"),  # a road west of it
        ("B", 1, 1, 0, "cloister", "monk"),
        ("B", 1, 1, 0, "field:Nw", "farmer"),
    ],
)
def test_any_kind_of_follower_can_be_captured(
    tile: str, x: int, y: int, rotation: int, segment: str, role: str
) -> None:
    """Rules 6.1a: "Any follower can be captured (knights, thieves, monks, farmers, followers on other tower
    tops)"."""
    g = towers(["T12", tile, "U", "U"])  # a tile left over: the game is not over yet
    play(g, ALICE, "T12", 0, 1, 0)
    events = play(g, BOB, tile, x, y, rotation, segment)
    assert only(events, "follower_placed")["role"] == role
    place(g, ALICE, "U", 1, 0, 0)
    events = act(g, ALICE, tower(0, 1, (x, y, segment)))
    assert only(events, "captured")["owner"] == BOB
    assert g.prisoners[ALICE][BOB] == 1


def test_capturing_ones_own_follower_returns_it_to_supply() -> None:
    """Rules 6.1a: "capturing one's own follower returns it to supply"."""
    g = reach_board()
    place(g, ALICE, "U", 1, 0, 0)
    act(g, ALICE, tower(0, 1))
    play(g, BOB, "U", 2, 0, 0)
    place(g, ALICE, "U", 3, 0, 0)
    supply = g.supply[ALICE]
    events = act(g, ALICE, tower(0, 1, (-2, 1, "cloister")))
    assert only(events, "captured")["owner"] == ALICE
    assert only(events, "follower_returned")["player"] == ALICE
    assert g.supply[ALICE] == supply + 1
    assert g.prisoners == [[0, 0], [0, 0]]


def tops_board() -> Carcassonne:
    """Foundations at (0,1) (T12) and (1,1) (T13); Alice builds (0,1) to height 1."""
    g = towers(["T12", "T13", "U", "U", "U", "U"])
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "T13", 1, 1, 0)
    play(g, ALICE, "U", 1, 0, 0, tower(0, 1))
    return g


def test_follower_on_a_tower_top_closes_the_tower() -> None:
    """Rules 6.1b: "put a follower from supply on top of an open tower (height >= 1): the tower is closed, cannot
    grow"."""
    g = tops_board()
    place(g, BOB, "U", -1, 0, 0)
    assert g.tower_top_options() == [(0, 1)]  # the bare foundation (1,1) is not a tower yet
    rejected(g, {"player": BOB, "type": "tower_top", "x": 1, "y": 1}, "no_tower_yet")
    rejected(g, {"player": BOB, "type": "tower_top", "x": 0, "y": 0}, "not_a_tower")
    events = act(g, BOB, {"type": "tower_top", "x": 0, "y": 1})
    assert only(events, "tower_closed") == {"type": "tower_closed", "player": BOB, "x": 0, "y": 1}
    assert g.supply[BOB] == 6
    assert g.current == ALICE  # the turn is over
    place(g, ALICE, "U", 2, 0, 0)
    assert [(o["x"], o["y"]) for o in g.tower_options()] == [(1, 1)]
    rejected(g, {"player": ALICE, **tower(0, 1)}, "tower_closed")
    rejected(g, {"player": ALICE, "type": "tower_top", "x": 0, "y": 1}, "tower_closed")


def test_tower_top_follower_is_captured_from_another_tower_which_reopens_the_first() -> None:
    """Rules 6.1: the top follower "can still be captured from another tower"; capturing it "re-opens that
    tower"."""
    g = tops_board()
    place(g, BOB, "U", -1, 0, 0)
    act(g, BOB, {"type": "tower_top", "x": 0, "y": 1})
    place(g, ALICE, "U", 2, 0, 0)
    events = act(g, ALICE, tower(1, 1, (0, 1, "tower")))
    assert only(events, "captured")["on"] == "tower"
    assert g.prisoners[ALICE][BOB] == 1
    assert g.view(None)["towers"] == [
        {"x": 0, "y": 1, "height": 1, "top": None},
        {"x": 1, "y": 1, "height": 1, "top": None},
    ]
    place(g, BOB, "U", -2, 0, 0)
    events = act(g, BOB, tower(0, 1))  # open again
    assert only(events, "tower_built")["height"] == 2
    assert_conserved(g)


def test_capture_with_on_tower_needs_a_follower_on_that_tower() -> None:
    g = tops_board()
    place(g, BOB, "U", -1, 0, 0)
    rejected(g, {"player": BOB, **tower(1, 1, (0, 1, "tower"))}, "no_follower_there")
    rejected(g, {"player": BOB, **tower(0, 1, (0, 1, "field:Nw"))}, "no_follower_there")
    rejected(g, {"player": BOB, **tower(0, 1, (0, 1, "city:N"))}, "unknown_segment")
    rejected(g, {"player": BOB, **tower(0, 1, (0, 5, "field:Nw"))}, "out_of_reach")  # no tile there
    rejected(g, {"player": BOB, "type": "tower", "x": 0, "y": 1, "capture": [0, 1]}, "malformed_action")
    rejected(g, {"player": BOB, **tower(0, 0)}, "not_a_tower")


def exchange_board() -> Carcassonne:
    """Alice's monk at (-1,1), Bob's monk at (1,1), both beside the foundation at (0,1)."""
    g = towers(["T12", "B", "B", "U", "U", "U", "U"])
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "B", 1, 1, 0, "cloister")
    play(g, ALICE, "B", -1, 1, 0, "cloister")
    return g


def test_prisoners_are_exchanged_automatically() -> None:
    """Rules 6.2: "whenever two players each hold a prisoner of the other, one of each is returned at once,
    automatically"."""
    g = exchange_board()
    play(g, BOB, "U", 1, 0, 0, tower(0, 1, (-1, 1, "cloister")))
    assert g.prisoners == [[0, 0], [1, 0]]
    events = play(g, ALICE, "U", -1, 0, 0, tower(0, 1, (1, 1, "cloister")))
    assert only(events, "prisoners_exchanged")["players"] == [0, 1]
    assert g.prisoners == [[0, 0], [0, 0]]
    assert g.supply == [7, 7]
    assert_conserved(g)


def ransom_board() -> Carcassonne:
    """Bob has 4 points (a 2-tile city) and Alice holds Bob's monk."""
    g = towers(["T12", "E", "U", "B", "U", "U", "U", "U"])
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "E", 0, -1, 180, "city:S")
    play(g, ALICE, "U", -1, 0, 0)
    play(g, BOB, "B", 1, 1, 0, "cloister")
    play(g, ALICE, "U", 1, 0, 0, tower(0, 1, (1, 1, "cloister")))
    assert (g.scores, g.prisoners, g.supply) == ([0, 4], [[0, 1], [0, 0]], [7, 6])
    return g


def test_ransom_moves_3_points_and_the_follower_is_usable_that_turn() -> None:
    """Rules 6.3: "once per turn, during their own turn, a player with at least 3 points may pay 3 points to a player
    holding one of their followers; that follower returns to the payer's supply and may be used that turn"."""
    g = ransom_board()
    assert g.ransom_options() == [ALICE]
    events = act(g, BOB, {"type": "ransom", "from": ALICE})
    assert events == [{"type": "ransom_paid", "player": BOB, "to": ALICE, "points": 3}]
    assert g.scores == [3, 1]
    assert (g.breakdown[ALICE]["ransom"], g.breakdown[BOB]["ransom"]) == (3, -3)
    assert g.supply[BOB] == 7 and g.prisoners == [[0, 0], [0, 0]]
    assert g.result()["breakdown"][BOB]["ransom"] == -3
    play(g, BOB, "U", 2, 0, 0, "road:E")  # the ransomed follower goes straight back out
    assert g.supply[BOB] == 6
    assert_conserved(g)


def test_ransom_also_after_placing_the_tile() -> None:
    """Replay format: "One ransom may come anywhere in the turn before that ending action"."""
    g = ransom_board()
    place(g, BOB, "U", 2, 0, 0)
    act(g, BOB, {"type": "ransom", "from": ALICE})
    act(g, BOB, {"type": "follower", "on": "road:W"})
    assert g.scores == [3, 1]


def test_ransom_only_once_per_turn_only_own_turn_only_with_3_points() -> None:
    """Rules 6.3: once per turn, during one's own turn, with at least 3 points, to a player holding a prisoner."""
    g = ransom_board()
    rejected(g, {"player": ALICE, "type": "ransom", "from": BOB}, "not_your_turn")
    rejected(g, {"player": BOB, "type": "ransom", "from": BOB}, "no_prisoner")
    rejected(g, {"player": BOB, "type": "ransom", "from": "Alice"}, "malformed_action")
    act(g, BOB, {"type": "ransom", "from": ALICE})
    rejected(g, {"player": BOB, "type": "ransom", "from": ALICE}, "ransom_used")
    # Next turn: Alice, who holds nobody's follower now, cannot ransom.
    play(g, BOB, "U", 2, 0, 0)
    rejected(g, {"player": ALICE, "type": "ransom", "from": BOB}, "no_prisoner")


def test_ransom_needs_3_points() -> None:
    g = exchange_board()
    play(g, BOB, "U", 1, 0, 0, tower(0, 1, (-1, 1, "cloister")))  # Bob holds Alice's monk; Alice has 0 points
    assert g.ransom_options() == []
    error = rejected(g, {"player": ALICE, "type": "ransom", "from": BOB}, "ransom_unaffordable")
    assert error.params == {"score": 0, "price": 3}


def test_prisoners_return_at_game_end_and_towers_score_nothing() -> None:
    """Rules 6.4: "At game end, prisoners return to their owners; tower pieces and towers score nothing"; a
    follower on a tower top "scores nothing"."""
    g = towers(["T12", "T13", "U", "U", "B"])
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "T13", 1, 1, 0, "cloister")
    play(g, ALICE, "U", 1, 0, 0, tower(0, 1, (1, 1, "cloister")))  # Alice holds Bob's monk
    play(g, BOB, "U", -1, 0, 0, {"type": "tower_top", "x": 0, "y": 1})  # Bob on the tower top
    events = play(g, ALICE, "B", -1, 1, 0)
    assert g.finished
    returned = only(events, "prisoners_returned")
    assert (returned["holder"], returned["owner"], returned["count"]) == (ALICE, BOB, 1)
    assert not of_type(events, "feature_scored")
    assert g.scores == [0, 0]
    assert g.prisoners == [[0, 0], [0, 0]]
    assert g.supply == [7, 6]  # Bob's top follower simply stays there


@pytest.mark.parametrize(("players", "pieces"), [(2, 10), (3, 9), (4, 7), (5, 6), (6, 5)])
def test_tower_pieces_per_player_official_table(players: int, pieces: int) -> None:
    """Rules 1: "official table: 2 players 10, 3 players 9, 4 players 7, 5 players 6, 6 players 5"."""
    g = towers(["U"], players=players)
    assert g.pieces == [pieces] * players
    assert g.view(0)["players"][0]["tower_pieces"] == pieces


def test_tower_pieces_option_and_none_without_the_tower() -> None:
    """Rules 1: "a game may set a number explicitly" (e.g. seed 000's 10/9/8/7/6)."""
    assert towers(["U"], players=4, tower_pieces=8).pieces == [8] * 4
    assert new_game(["U"]).pieces == [0, 0]


def test_no_tower_pieces_left() -> None:
    g = towers(["T12", "U", "U", "U"], tower_pieces=1)
    play(g, ALICE, "T12", 0, 1, 0)
    play(g, BOB, "U", 1, 0, 0, tower(0, 1))
    assert g.pieces == [1, 0]
    place(g, ALICE, "U", -1, 0, 0)
    act(g, ALICE, tower(0, 1))
    place(g, BOB, "U", 2, 0, 0)
    assert g.tower_options() == []
    rejected(g, {"player": BOB, **tower(0, 1)}, "no_tower_pieces")


def test_tower_action_instead_of_a_follower_ends_the_turn() -> None:
    """Rules 6.1: "instead of placing a follower" -- the tower action ends the turn."""
    g = towers(["T12", "U", "U"])
    place(g, ALICE, "T12", 0, 1, 0)
    events = act(g, ALICE, tower(0, 1))
    assert [e["type"] for e in events] == ["tower_built", "turn_started"]
    assert g.current == BOB and g.decision() == "place"
    rejected(g, {"player": ALICE, "type": "follower", "on": "field:Nw"}, "not_your_turn")
    rejected(g, {"player": BOB, **tower(0, 1)}, "place_first")


def test_tower_actions_need_the_tower_option() -> None:
    g = new_game(["U"])
    place(g, ALICE, "U", 1, 0, 0)
    rejected(g, {"player": ALICE, **tower(1, 0)}, "no_tower")
    rejected(g, {"player": ALICE, "type": "tower_top", "x": 1, "y": 0}, "no_tower")


def test_capture_happens_before_the_completed_feature_is_scored() -> None:
    """Rules 3: the tower action is step 2, scoring step 3: a knight captured by the tile that completes its city
    is gone before the city scores, so its owner scores nothing."""
    g = towers(["U", "G", "T12", "U", "E", "U"])
    play(g, ALICE, "U", 1, 0, 0)
    play(g, BOB, "G", 0, -1, 90, "city:N")  # Bob's knight in the city D-G, open to the north
    play(g, ALICE, "T12", 1, -1, 0)  # foundation beside the knight
    play(g, BOB, "U", -1, 0, 0)
    events = play(g, ALICE, "E", 0, -2, 180, tower(1, -1, (0, -1, "city:N")))
    kinds = [e["type"] for e in events]
    assert kinds.index("captured") < kinds.index("feature_completed")
    done = only(events, "feature_completed")
    assert (done["points"], done["scorers"], done["followers"]) == (6, [], {})
    assert g.scores == [0, 0]
    assert g.prisoners[ALICE][BOB] == 1
    assert not of_type(events, "follower_returned")


def test_followers_are_conserved_through_captures_exchanges_and_ransom() -> None:
    """Rules 1 and 6: each player always owns exactly 7 followers: in supply, on the board, on tops or held."""
    g = exchange_board()
    assert_conserved(g)
    play(g, BOB, "U", 1, 0, 0, tower(0, 1, (-1, 1, "cloister")))
    assert_conserved(g)
    play(g, ALICE, "U", -1, 0, 0, {"type": "tower_top", "x": 0, "y": 1})
    assert_conserved(g)
    play(g, BOB, "U", 2, 0, 0)
    assert_conserved(g)
    play(g, ALICE, "U", -2, 0, 0)
    assert g.finished
    assert_conserved(g)
    assert g.supply == [6, 6]  # Alice's top follower, Bob's monk stay on the board


def test_reach_includes_the_towers_own_cell() -> None:
    """Rules 6.1a: reach is "the tower's own cell plus" the lines -- a farmer on the foundation tile is in reach."""
    g = towers(["T12", "U", "U", "U"])
    play(g, ALICE, "T12", 0, 1, 0, "field:Nw")
    place(g, BOB, "U", 1, 0, 0)
    events = act(g, BOB, tower(0, 1, (0, 1, "field:Nw")))
    assert (only(events, "captured")["owner"], g.prisoners[BOB][ALICE]) == (ALICE, 1)
