"""What the host asks the engine beyond the rules: player limits, whose turn it is, and which moves may be undone."""

from __future__ import annotations

import pytest

from engine import RuleError, game_class
from engine.carcassonne import Carcassonne
from tests.carcassonne.helpers import NAMES, new_game, place
from tests.carcassonne.test_river import spiral


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    assert (Carcassonne.MIN_PLAYERS, Carcassonne.MAX_PLAYERS) == (2, 6)
    assert game_class("carcassonne") is Carcassonne
    with pytest.raises(RuleError) as error:
        Carcassonne.new(list(NAMES[:1]) * players)
    assert error.value.code == "player_count"


def test_the_seat_on_turn_is_the_only_one_deciding_and_nobody_owes_replies() -> None:
    game = new_game(["E", "U"])
    assert game.current_seat() == 0 and game.actors() == game.public_actors() == [0]
    assert game.replies_owed_to(0) == [] and game.replies_owed_to(1) == []
    place(game, 0, "E", 0, -1, 180)
    game.apply({"player": 0, "type": "pass"})
    assert game.current_seat() == 1


def test_a_placement_may_be_taken_back_but_not_the_follower_decision_that_ends_the_turn() -> None:
    game = new_game(["E", "U"])
    placed = game.apply({"player": 0, "type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180}).action
    assert game.undoable(placed)
    for decision in ("follower", "tower", "tower_top", "pass"):
        assert not game.undoable({"player": 0, "type": decision})
    assert game.undoable({"player": 0, "type": "ransom", "from": 1})


def test_the_automatic_discard_of_a_tile_that_fits_nowhere_is_never_undone() -> None:
    game = spiral(["R10", "R2"])
    discard = game.automatic_action()
    assert discard is not None
    recorded = game.apply(discard).action
    assert recorded["type"] == "discard" and not game.undoable(recorded)


def test_nobody_is_on_turn_once_the_game_is_over() -> None:
    game = new_game(["E"])
    place(game, 0, "E", 0, -1, 180)
    game.apply({"player": 0, "type": "pass"})
    assert game.finished and game.current_seat() is None and game.actors() == []
