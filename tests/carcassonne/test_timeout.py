"""The host's timeout move (turn limits): the smallest move that keeps the game going, chosen without judgement."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from tests.carcassonne.helpers import new_game
from tests.carcassonne.test_river import spiral


def test_the_drawn_tile_goes_to_the_first_cell_of_the_bots_numbering_with_its_first_rotation() -> None:
    # S fits north of the start tile (three ways), east and west of it. The bot numbers cells top row first,
    # then left to right, so (0, -1) is cell 1 although (-1, 0) is further left; its first rotation is 90.
    game = new_game(["S", "U"])
    assert game.legal_placements() == {(0, -1): [90, 180, 270], (1, 0): [90], (-1, 0): [270]}
    assert game.timeout_action(0) == {"player": 0, "type": "place", "x": 0, "y": -1, "rotation": 90}


def test_a_single_row_of_cells_is_taken_left_to_right() -> None:
    game = new_game(["V", "U"])  # (1, 0), (0, 1) and (-1, 0): (-1, 0) is on the top row and leftmost
    assert game.timeout_action(0) == {"player": 0, "type": "place", "x": -1, "y": 0, "rotation": 180}


def test_at_the_follower_decision_the_timeout_passes_and_the_next_turn_begins() -> None:
    game = new_game(["E", "U", "E"])
    placed = game.apply(game.timeout_action(0))
    assert placed.action == {"player": 0, "type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180}
    assert game.decision() == "follower" and game.follower_spots()  # a knight could go on the city: not chosen
    assert game.timeout_action(0) == {"player": 0, "type": "pass"}
    passed = game.apply(game.timeout_action(0))
    assert game.actors() == [1] and game.supply[0] == 7
    assert passed.events[-1] == {"type": "turn_started", "player": 1, "turn": 2, "tile": "U"}


def test_a_seat_that_owes_nothing_gets_no_timeout_move() -> None:
    game = new_game(["E", "U"])
    with pytest.raises(RuleError) as error:
        game.timeout_action(1)
    assert error.value.code == "not_your_turn"


def test_a_tile_that_fits_nowhere_is_discarded() -> None:
    game = spiral(["R10", "R2"])
    assert game.decision() == "discard"
    assert game.timeout_action(game.current) == {"player": game.current, "type": "discard"}
