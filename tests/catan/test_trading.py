"""Trading (rules section 7): maritime rates and domestic offers."""

from __future__ import annotations

from engine.catan import Catan, bank_trades, public_events
from tests.catan.helpers import act, beginner, check_bank, empty_hands, grant, hand, live, rejects, to_main


def main_phase(**options: object) -> Catan:
    game = beginner(**options)
    to_main(game)
    empty_hands(game)
    return game


def test_four_to_one_with_the_bank_in_one_or_several_lots() -> None:
    game = main_phase()
    grant(game, 0, brick=9)
    rejects(game, 0, "bank_trade", "trade_rate", give={"brick": 3}, get={"ore": 1})
    rejects(game, 0, "bank_trade", "trade_rate", give={"brick": 4}, get={"ore": 2})
    rejects(game, 0, "bank_trade", "like_for_like", give={"brick": 4}, get={"brick": 1})
    rejects(game, 0, "bank_trade", "empty_side", give={"brick": 4}, get={})
    rejects(game, 0, "bank_trade", "cannot_afford", give={"brick": 12}, get={"ore": 3})
    rejects(game, 0, "bank_trade", "unknown_resource", give={"knight": 4}, get={"ore": 1})
    rejects(game, 1, "bank_trade", "not_your_turn", give={"brick": 4}, get={"ore": 1})
    act(game, 0, "bank_trade", give={"brick": 8}, get={"ore": 1, "wool": 1})
    assert hand(game, 0) == {"brick": 1, "ore": 1, "wool": 1}
    check_bank(game)


def test_the_bank_must_hold_the_card() -> None:
    game = main_phase()
    grant(game, 0, brick=4)
    grant(game, 1, ore=19)
    rejects(game, 0, "bank_trade", "bank_empty", give={"brick": 4}, get={"ore": 1})


def test_no_trading_before_the_roll() -> None:
    game = beginner()
    grant(game, 0, brick=4)
    rejects(game, 0, "bank_trade", "roll_first", give={"brick": 4}, get={"ore": 1})
    rejects(game, 0, "offer", "trade_not_allowed", to=None, give={"brick": 1}, get={"ore": 1})


def test_a_generic_harbour_trades_three_to_one() -> None:
    game = main_phase()
    grant(game, 0, brick=2, lumber=2, wool=1, grain=1)
    act(game, 0, "road", at="1-5")
    act(game, 0, "settlement", at=1)  # on the 3:1 harbour 1-4
    assert game.view(0)["players"][0]["trade_rates"] == dict.fromkeys(["brick", "lumber", "wool", "grain", "ore"], 3)
    grant(game, 0, wool=3)
    rejects(game, 0, "bank_trade", "trade_rate", give={"wool": 2}, get={"ore": 1})
    rejects(game, 0, "bank_trade", "trade_rate", give={"wool": 3}, get={"ore": 2})
    act(game, 0, "bank_trade", give={"wool": 3}, get={"ore": 1})
    assert hand(game, 0) == {"ore": 1}


def on_the_generic_harbour() -> Catan:
    """Red's settlement at 1 stands on the 3:1 harbour 1-4; red holds no cards."""
    game = main_phase()
    grant(game, 0, brick=2, lumber=2, wool=1, grain=1)
    act(game, 0, "road", at="1-5")
    act(game, 0, "settlement", at=1)
    return game


def on_the_grain_harbour() -> Catan:
    """Red's settlement at 2 stands on the 2:1 grain harbour 2-6; red holds no cards."""
    game = main_phase()
    grant(game, 0, brick=1, lumber=1)
    act(game, 0, "road", at="2-5")
    grant(game, 0, brick=1, lumber=1, wool=1, grain=1)
    act(game, 0, "settlement", at=2)
    return game


def test_four_to_one_is_always_allowed_beside_a_generic_harbour() -> None:
    """Rules section 7: "4 identical cards for 1 of any other resource, always"."""
    game = on_the_generic_harbour()
    grant(game, 0, wool=11)
    act(game, 0, "bank_trade", give={"wool": 4}, get={"ore": 1})
    assert hand(game, 0) == {"wool": 7, "ore": 1}
    act(game, 0, "bank_trade", give={"wool": 7}, get={"ore": 1, "grain": 1})  # one lot of 3 and one of 4
    assert hand(game, 0) == {"ore": 2, "grain": 1}
    check_bank(game)


def test_cards_that_make_no_whole_lot_at_three_or_four_are_refused() -> None:
    game = on_the_generic_harbour()
    grant(game, 0, wool=5)
    error = rejects(game, 0, "bank_trade", "trade_rate", give={"wool": 5}, get={"ore": 1})
    assert error.params == {"resource": "wool", "rate": 3, "count": 5}
    rejects(game, 0, "bank_trade", "trade_rate", give={"wool": 4}, get={"ore": 2})


def test_four_to_one_is_always_allowed_beside_a_special_harbour() -> None:
    game = on_the_grain_harbour()
    grant(game, 0, grain=10)
    act(game, 0, "bank_trade", give={"grain": 4}, get={"ore": 1})  # 4:1 although 2:1 would give two cards
    assert hand(game, 0) == {"grain": 6, "ore": 1}
    act(game, 0, "bank_trade", give={"grain": 4}, get={"ore": 2})  # the same cards at 2:1
    act(game, 0, "bank_trade", give={"grain": 2}, get={"brick": 1})
    assert hand(game, 0) == {"ore": 3, "brick": 1}
    rejects(game, 0, "bank_trade", "empty_side", give={"grain": 0}, get={"ore": 1})
    check_bank(game)


def test_the_bank_trade_choices_still_offer_only_the_best_rate() -> None:
    game = on_the_grain_harbour()
    grant(game, 0, grain=4)
    assert {(*t["give"].items(), t["rate"]) for t in bank_trades(game, 0)} == {(("grain", 2), 2)}


def test_a_special_harbour_trades_two_to_one_of_its_resource_only() -> None:
    game = main_phase()
    grant(game, 0, brick=1, lumber=1)
    act(game, 0, "road", at="2-5")
    grant(game, 0, brick=1, lumber=1, wool=1, grain=1)
    act(game, 0, "settlement", at=2)  # on the grain harbour 2-6
    grant(game, 0, grain=2, wool=2)
    rejects(game, 0, "bank_trade", "trade_rate", give={"wool": 2}, get={"ore": 1})
    act(game, 0, "bank_trade", give={"grain": 2}, get={"ore": 1})
    assert hand(game, 0) == {"ore": 1, "wool": 2}


def test_an_offer_to_everyone_accepted_by_one_and_confirmed() -> None:
    game = main_phase()
    grant(game, 0, brick=2)
    grant(game, 1, ore=1)
    grant(game, 2, ore=1)
    applied = live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1})
    offer = next(e for e in applied.events if e["type"] == "offer_made")["offer"]
    assert sorted(game.actors()) == [0, 1, 2, 3]
    assert {"seat": 3, "decision": "trade_reply", "offer": offer} in game.pending()
    live(game, 3, "decline", offer=offer)
    rejects(game, 3, "accept", "cannot_afford", replay=False, offer=offer)
    live(game, 1, "accept", offer=offer)
    live(game, 2, "accept", offer=offer)
    assert game.actors() == [0]
    rejects(game, 0, "confirm", "not_accepted", replay=False, offer=offer, **{"with": 3})
    rejects(game, 1, "confirm", "not_your_turn", replay=False, offer=offer, **{"with": 2})
    applied = live(game, 0, "confirm", offer=offer, **{"with": 2})
    assert applied.action == {"player": 0, "type": "trade", "with": 2, "give": {"brick": 1}, "get": {"ore": 1}}
    assert hand(game, 0) == {"brick": 1, "ore": 1} and hand(game, 2) == {"brick": 1}
    assert game.offers == []
    check_bank(game)


def test_a_private_offer_is_seen_only_by_its_two_players() -> None:
    game = main_phase()
    grant(game, 0, brick=1)
    grant(game, 1, ore=1)
    grant(game, 2, ore=1)
    applied = live(game, 0, "offer", to=1, give={"brick": 1}, get={"ore": 1})
    offer = applied.action
    assert offer == {"player": 0, "type": "offer", "to": 1, "give": {"brick": 1}, "get": {"ore": 1}}
    assert public_events(applied.events, 2) == [] and public_events(applied.events, None) == []
    assert len(public_events(applied.events, 1)) == 1
    assert game.view(2)["offers"] == [] and game.view(None)["offers"] == [] and len(game.view(1)["offers"]) == 1
    assert all(p["decision"] != "trade_reply" for p in game.view(None)["pending"])
    ident = game.offers[0]["id"]
    rejects(game, 2, "accept", "not_offer_recipient", replay=False, offer=ident)
    live(game, 1, "accept", offer=ident)
    live(game, 0, "confirm", offer=ident, **{"with": 1})
    assert hand(game, 1) == {"brick": 1}


def test_a_counter_offer_goes_to_the_active_player_who_accepts_it() -> None:
    game = main_phase()
    grant(game, 0, brick=1, wool=1)
    grant(game, 1, ore=2)
    first = live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1}).events[0]["offer"]
    applied = live(game, 1, "counter", offer=first, give={"ore": 1}, get={"brick": 1, "wool": 1})
    counter = next(e for e in applied.events if e["type"] == "offer_made")
    assert counter["player"] == 1 and counter["to"] == 0
    assert game.offers[0]["declined"] == [1]
    applied = live(game, 0, "accept", offer=counter["offer"])
    assert applied.action == {
        "player": 0,
        "type": "trade",
        "with": 1,
        "give": {"brick": 1, "wool": 1},
        "get": {"ore": 1},
    }
    assert hand(game, 0) == {"ore": 1} and hand(game, 1) == {"ore": 1, "brick": 1, "wool": 1}
    assert game.offers == []  # the first offer became void: red no longer holds the brick


def test_another_player_may_propose_to_the_active_player_but_never_to_a_third() -> None:
    game = main_phase()
    grant(game, 0, brick=1)
    grant(game, 2, ore=1)
    rejects(game, 2, "offer", "trade_not_allowed", replay=False, to=1, give={"ore": 1}, get={"wool": 1})
    applied = live(game, 2, "offer", to=None, give={"ore": 1}, get={"brick": 1})
    assert applied.action["to"] == 0
    ident = game.offers[0]["id"]
    rejects(game, 1, "accept", "not_offer_recipient", replay=False, offer=ident)
    rejects(game, 1, "withdraw", "not_your_offer", replay=False, offer=ident)
    live(game, 0, "confirm", offer=ident, **{"with": 2})
    assert hand(game, 0) == {"ore": 1} and hand(game, 2) == {"brick": 1}


def test_forbidden_domestic_trades() -> None:
    game = main_phase()
    grant(game, 0, brick=2)
    rejects(game, 0, "offer", "empty_side", replay=False, to=None, give={"brick": 1}, get={})
    rejects(game, 0, "offer", "empty_side", replay=False, to=None, give={}, get={"ore": 1})
    rejects(game, 0, "offer", "like_for_like", replay=False, to=None, give={"brick": 1}, get={"brick": 1, "ore": 1})
    rejects(game, 0, "offer", "unknown_resource", replay=False, to=None, give={"knight": 1}, get={"ore": 1})
    rejects(game, 0, "offer", "cannot_afford", replay=False, to=None, give={"brick": 3}, get={"ore": 1})
    rejects(game, 0, "offer", "trade_not_allowed", replay=False, to=0, give={"brick": 1}, get={"ore": 1})
    rejects(game, 0, "trade", "trade_needs_offer", replay=False, give={"brick": 1}, get={"ore": 1}, **{"with": 1})
    rejects(game, 0, "trade", "cannot_afford", give={"brick": 1}, get={"ore": 1}, **{"with": 1})
    rejects(game, 0, "accept", "unknown_offer", replay=False, offer=99)


def test_offers_become_void_when_a_party_can_no_longer_pay_and_end_with_the_turn() -> None:
    game = main_phase()
    grant(game, 0, brick=1, lumber=1, wool=1)
    grant(game, 1, ore=1)
    grant(game, 2, ore=1)
    brick = live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1}).events[0]["offer"]
    live(game, 1, "accept", offer=brick)
    live(game, 2, "accept", offer=brick)
    wool = live(game, 2, "offer", to=None, give={"ore": 1}, get={"wool": 1}).events[0]["offer"]
    live(game, 0, "accept", offer=wool)  # white's ore goes to red: white can no longer pay for the brick
    assert game.offers[0]["accepted"] == [1]
    events = act(game, 0, "road", at="1-5").events  # the brick is spent: red's offer is void
    assert any(e["type"] == "offer_void" for e in events) and game.offers == []
    grant(game, 0, wool=1)
    live(game, 0, "offer", to=None, give={"wool": 1}, get={"ore": 1})
    live(game, 0, "end_turn")
    assert game.offers == []


def test_strict_phases_puts_all_trading_before_building() -> None:
    game = main_phase(strict_phases=True)
    grant(game, 0, brick=5, lumber=1, wool=1)
    act(game, 0, "bank_trade", give={"brick": 4}, get={"ore": 1})
    live(game, 0, "offer", to=None, give={"wool": 1}, get={"grain": 1})
    act(game, 0, "road", at="1-5")
    assert game.offers == []
    grant(game, 0, brick=4)
    rejects(game, 0, "bank_trade", "trading_after_building", give={"brick": 4}, get={"ore": 1})
    rejects(game, 0, "offer", "trading_after_building", replay=False, to=None, give={"wool": 1}, get={"grain": 1})
    game = main_phase()
    grant(game, 0, brick=5, lumber=1)
    act(game, 0, "road", at="1-5")
    act(game, 0, "bank_trade", give={"brick": 4}, get={"ore": 1})  # allowed without the option


def test_a_replayed_trade_settles_its_recorded_offer() -> None:
    game = main_phase()
    grant(game, 0, brick=1)
    grant(game, 1, ore=1)
    act(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1})
    act(game, 1, "accept", offer=game.offers[0]["id"])
    act(game, 0, "trade", give={"brick": 1}, get={"ore": 1}, **{"with": 1})
    assert game.offers == [] and hand(game, 0) == {"ore": 1}
