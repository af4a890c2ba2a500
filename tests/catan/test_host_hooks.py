"""What the bot and the board image need beyond the rules: the public roll, and no automatic moves."""

from __future__ import annotations

from tests.catan.helpers import act, beginner


def test_the_roll_of_this_turn_is_public_until_the_next_turn() -> None:
    game = beginner()
    assert game.view(None)["dice"] is None
    act(game, 0, "roll", dice=[3, 5])
    assert all(game.view(seat)["dice"] == [3, 5] for seat in (None, 0, 1, 2, 3))
    act(game, 0, "end_turn")
    assert game.view(None)["dice"] is None
    assert game.to_json()["dice"] is None


def test_catan_never_asks_the_host_to_move_for_a_player() -> None:
    game = beginner()
    assert game.automatic_action() is None
    act(game, 0, "roll", dice=[3, 5])
    assert game.automatic_action() is None
