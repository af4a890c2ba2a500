"""The host's timeout move (turn limits): for each kind of decision, the smallest move that keeps the game going."""

from __future__ import annotations

import pytest

from engine.catan import Catan
from engine.errors import RuleError
from tests.catan.helpers import (
    PLAYERS3,
    act,
    beginner,
    beginner_layout_json,
    empty_hands,
    grant,
    hand,
    live,
    to_main,
)


def test_set_up_takes_the_lowest_numbered_intersection_then_the_first_path_touching_it() -> None:
    game = Catan.new(PLAYERS3, {"board": beginner_layout_json(), "first_player": 1}, 2)
    assert game.timeout_action(1) == {"player": 1, "type": "settlement", "at": 1}
    game.apply(game.timeout_action(1))
    assert game.timeout_action(1) == {"player": 1, "type": "road", "at": "1-4"}
    game.apply(game.timeout_action(1))
    # The next seat may not build on intersection 1 or beside it (4 and 5): 2 is the lowest free one.
    assert game.timeout_action(2) == {"player": 2, "type": "settlement", "at": 2}


def test_before_the_roll_the_dice_are_rolled() -> None:
    game = beginner(dev_deck=["knight"])
    assert game.timeout_action(0) == {"player": 0, "type": "roll"}


def test_a_discard_takes_half_the_hand_from_the_largest_piles_first() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, brick=5, grain=4)  # 9 cards: 4 to discard, one at a time from the largest pile
    grant(game, 2, lumber=4, wool=4)  # a tie goes by resource order: lumber before wool
    act(game, 0, "roll", dice=[3, 4])
    assert game.timeout_action(1) == {"player": 1, "type": "discard", "cards": {"brick": 3, "grain": 1}}
    assert game.timeout_action(2) == {"player": 2, "type": "discard", "cards": {"lumber": 2, "wool": 2}}
    game.apply(game.timeout_action(2))
    game.apply(game.timeout_action(1))
    assert hand(game, 1) == {"brick": 2, "grain": 3} and hand(game, 2) == {"lumber": 2, "wool": 2}
    with pytest.raises(RuleError) as error:
        game.timeout_action(1)
    assert error.value.code == "not_your_turn"


def test_the_robber_goes_to_the_first_hex_without_an_own_building_and_robs_the_first_victim() -> None:
    game = beginner()
    empty_hands(game)
    act(game, 0, "roll", dice=[3, 4])
    # Red has buildings on A and B; C has orange, who holds nothing: nobody is robbed.
    assert game.timeout_action(0) == {"player": 0, "type": "robber", "hex": "C", "victim": None}

    game = beginner()
    empty_hands(game)
    grant(game, 3, wool=1)
    act(game, 0, "roll", dice=[3, 4])
    assert game.timeout_action(0) == {"player": 0, "type": "robber", "hex": "C", "victim": 3}
    applied = game.apply(game.timeout_action(0))
    assert applied.action["stolen"] == "wool" and game.phase == "main"


def test_after_the_roll_the_turn_ends_and_an_open_offer_is_declined() -> None:
    game = beginner()
    to_main(game)
    empty_hands(game)
    grant(game, 0, brick=1)
    assert game.timeout_action(0) == {"player": 0, "type": "end_turn"}
    offer = next(e for e in live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1}).events)["offer"]
    assert game.timeout_action(2) == {"player": 2, "type": "decline", "offer": offer}
    game.apply(game.timeout_action(2))
    assert 2 not in game.actors() and 1 in game.actors()
    with pytest.raises(RuleError) as error:
        game.timeout_action(2)  # replied already: owes nothing
    assert error.value.code == "not_your_turn"


def test_a_finished_game_has_no_timeout_move() -> None:
    game = beginner(points_to_win=3, dev_deck=["victory_point"])
    to_main(game)
    grant(game, 0, wool=1, grain=1, ore=1)
    act(game, 0, "buy")  # the third point wins at once
    assert game.finished
    with pytest.raises(RuleError) as error:
        game.timeout_action(0)
    assert error.value.code == "game_over"
