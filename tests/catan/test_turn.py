"""A turn (rules section 5): roll, production, the bank shortage, sevens, discards and the robber."""

from __future__ import annotations

from engine.catan import Catan
from tests.catan.helpers import act, beginner, check_bank, empty_hands, grant, hand, live, rejects, to_main


def test_a_settlement_produces_one_and_a_city_two() -> None:
    game = beginner()
    empty_hands(game)
    act(game, 0, "roll", dice=[4, 4])  # 8: M forest (red 29, blue 40) and L mountains (white 26)
    assert hand(game, 0) == {"lumber": 1} and hand(game, 1) == {"lumber": 1} and hand(game, 2) == {"ore": 1}
    grant(game, 0, grain=2, ore=3)
    act(game, 0, "city", at=29)
    assert game.bank[3] == 19 and game.bank[4] == 18  # the city's cards went back to the bank
    act(game, 0, "end_turn")
    empty_hands(game)
    applied = act(game, 1, "roll", dice=[5, 3])
    assert hand(game, 0) == {"lumber": 2} and hand(game, 1) == {"lumber": 1}
    produced = next(e for e in applied.events if e["type"] == "produced")
    assert produced["gains"][0] == {"lumber": 2} and produced["total"] == 8
    check_bank(game)


def test_the_robber_blocks_its_hex() -> None:
    game = beginner()
    empty_hands(game)
    game.robber = 12  # M, the forest 8
    act(game, 0, "roll", dice=[4, 4])
    assert hand(game, 0) == {} and hand(game, 1) == {} and hand(game, 2) == {"ore": 1}


def test_bank_shortage_pays_nobody_when_several_are_owed() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 3, lumber=18)  # the bank keeps 1 lumber; red and blue are owed 1 each on an 8
    applied = act(game, 0, "roll", dice=[4, 4])
    assert hand(game, 0) == {} and hand(game, 1) == {} and game.bank[1] == 1
    assert hand(game, 2) == {"ore": 1}  # other resources are paid as usual
    assert next(e for e in applied.events if e["type"] == "produced")["shortage"] == ["lumber"]


def test_bank_shortage_lets_a_sole_claimant_take_what_is_left() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 0, grain=2, ore=3)
    act(game, 0, "roll", dice=[6, 6])
    act(game, 0, "city", at=29)
    act(game, 0, "end_turn")
    empty_hands(game)
    grant(game, 3, grain=18)  # 1 grain left; only red is owed grain on a 9 (H fields: city 29 owes 2)
    act(game, 1, "roll", dice=[4, 5])
    assert hand(game, 0) == {"grain": 1} and game.bank[3] == 0
    check_bank(game)


def test_a_seven_makes_everyone_above_seven_discard_half_rounded_down() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 0, brick=7)  # exactly 7: keeps them
    grant(game, 1, lumber=8)  # 8: discards 4
    grant(game, 2, wool=5, grain=4)  # 9: discards 4
    applied = act(game, 0, "roll", dice=[3, 4])
    assert not any(e["type"] == "produced" for e in applied.events)
    assert game.owed == [0, 4, 4, 0]
    assert game.pending() == [
        {"seat": 1, "decision": "discard", "count": 4},
        {"seat": 2, "decision": "discard", "count": 4},
    ]
    assert sorted(game.actors()) == [1, 2]
    rejects(game, 0, "discard", "no_discard_owed", cards={"brick": 3})
    rejects(game, 1, "discard", "discard_wrong_count", cards={"lumber": 3})
    rejects(game, 1, "discard", "discard_wrong_count", cards={"lumber": 5})
    rejects(game, 2, "discard", "cards_not_held", cards={"wool": 2, "ore": 2})
    rejects(game, 0, "robber", "discards_pending", hex="A", victim=None)
    rejects(game, 0, "road", "resolve_seven_first", at="1-5")
    rejects(game, 0, "end_turn", "resolve_seven_first")
    # In any order: the later seat first.
    act(game, 2, "discard", cards={"wool": 2, "grain": 2})
    assert game.actors() == [1]
    rejects(game, 2, "discard", "no_discard_owed", cards={"wool": 1})
    act(game, 1, "discard", cards={"lumber": 4})
    assert game.pending() == [{"seat": 0, "decision": "robber"}]
    assert hand(game, 0) == {"brick": 7} and hand(game, 1) == {"lumber": 4} and hand(game, 2) == {"wool": 3, "grain": 2}
    check_bank(game)


def test_the_robber_must_move_and_steals_from_a_player_on_the_hex() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=1)
    grant(game, 3, wool=2)
    act(game, 0, "roll", dice=[3, 4])
    assert game.phase == "robber"
    rejects(game, 0, "knight", "resolve_seven_first", hex="N", victim=1)
    rejects(game, 0, "robber", "robber_must_move", hex="J", victim=None)
    rejects(game, 1, "robber", "not_your_turn", hex="N", victim=3)
    rejects(game, 0, "robber", "victim_not_adjacent", hex="N", victim=2)  # white has nothing on N
    rejects(game, 0, "robber", "victim_not_adjacent", hex="N", victim=0)
    rejects(game, 0, "robber", "victim_required", hex="N", victim=None)
    rejects(game, 0, "robber", "stolen_mismatch", hex="N", victim=1, stolen="wool")
    rejects(game, 0, "robber", "outcome_not_allowed", replay=False, hex="N", victim=1, stolen="ore")
    applied = act(game, 0, "robber", hex="N", victim=1, stolen="ore")
    assert applied.action == {"player": 0, "type": "robber", "hex": "N", "victim": 1, "stolen": "ore"}
    assert hand(game, 0) == {"ore": 1} and hand(game, 1) == {}
    assert game.view(None)["board"]["robber"] == "N" and game.phase == "main"


def test_stealing_from_an_empty_hand_gives_nothing() -> None:
    game = beginner()
    empty_hands(game)
    act(game, 0, "roll", dice=[3, 4])
    applied = act(game, 0, "robber", hex="N", victim=1)
    assert applied.action["stolen"] is None and hand(game, 0) == {}
    stolen = next(e for e in applied.events if e["type"] == "stolen")
    assert stolen["resource"] is None and "private" not in stolen


def test_a_hex_without_opponents_takes_no_victim() -> None:
    game = beginner()
    act(game, 0, "roll", dice=[3, 4])
    rejects(game, 0, "robber", "victim_not_adjacent", hex="B", victim=1)  # only red is on B
    applied = act(game, 0, "robber", hex="B", victim=None)
    assert applied.action["victim"] is None and applied.action["stolen"] is None


def test_live_mode_draws_the_dice_and_the_stolen_card() -> None:
    game = beginner()
    rejects(game, 0, "roll", "outcome_not_allowed", replay=False, dice=[3, 4])
    applied = live(game, 0, "roll")
    assert len(applied.action["dice"]) == 2 and all(1 <= d <= 6 for d in applied.action["dice"])
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=1)
    act(game, 0, "roll", dice=[3, 4])
    applied = live(game, 0, "robber", hex="N", victim=1)
    assert applied.action["stolen"] == "ore"


def test_rolling_rules() -> None:
    game = beginner()
    rejects(game, 1, "roll", "not_your_turn", dice=[1, 2])
    rejects(game, 0, "roll", "bad_dice", dice=[0, 7])
    rejects(game, 0, "roll", "bad_dice", dice=[1])
    rejects(game, 0, "end_turn", "roll_first")
    rejects(game, 0, "road", "roll_first", at="1-5")
    to_main(game)
    rejects(game, 0, "roll", "already_rolled", dice=[1, 2])
    rejects(game, 0, "jump", "unknown_action")
    rejects(game, 0, "end_turn", "malformed_action", extra=1)
    rejects(game, 7, "end_turn", "malformed_action")
    act(game, 0, "end_turn")
    assert game.current == 1 and game.turn == 2 and game.phase == "roll"


def test_a_seven_with_nobody_above_seven_goes_straight_to_the_robber() -> None:
    game: Catan = beginner()
    applied = act(game, 0, "roll", dice=[6, 1])
    assert not any(e["type"] == "must_discard" for e in applied.events)
    assert game.pending() == [{"seat": 0, "decision": "robber"}]


def test_a_replay_may_leave_the_stolen_card_out_but_not_deny_a_theft() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, wool=2)
    act(game, 0, "roll", dice=[3, 4])
    rejects(game, 0, "robber", "stolen_mismatch", hex="N", victim=1, stolen=None)
    applied = act(game, 0, "robber", hex="N", victim=1)  # drawn from the game's generator
    assert applied.action["stolen"] == "wool" and hand(game, 0) == {"wool": 1}


def test_json_round_trip_in_the_middle_of_a_seven() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=9)
    act(game, 0, "roll", dice=[3, 4])
    data = game.to_json()
    copy = Catan.from_json(data)
    assert copy.to_json() == data and copy.pending() == game.pending()
    act(copy, 1, "discard", cards={"ore": 4})
    act(game, 1, "discard", cards={"ore": 4})
    assert copy.to_json() == game.to_json()
