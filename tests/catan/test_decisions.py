"""What the bot asks the engine: pending decisions, legal choices, complete legal actions, views, events."""

from __future__ import annotations

from engine.catan import Catan, public_events
from engine.catan.policy import bank_trades, city_spots, playable_cards, road_spots, robber_choices, settlement_spots
from tests.catan.helpers import act, beginner, beginner_layout_json, empty_hands, grant, to_main


def test_set_up_choices() -> None:
    game = Catan.new(["a", "b", "c"], {"board": beginner_layout_json(), "first_player": 1}, 2)
    assert game.actors() == [1] and len(settlement_spots(game, 1)) == 54
    assert len(game.legal_actions(1)) == 54 and game.legal_actions(0) == []
    act(game, 1, "settlement", at=19)
    assert sorted(road_spots(game, 1)) == ["14-19", "19-24", "19-25"]
    assert 19 not in settlement_spots(game, 1) and 24 not in settlement_spots(game, 1)
    assert [a["type"] for a in game.legal_actions(1)] == ["road"] * 3


def test_choices_after_the_roll() -> None:
    game = beginner()
    assert [a["type"] for a in game.legal_actions(0)] == ["roll"]
    to_main(game)
    empty_hands(game)
    assert [a["type"] for a in game.legal_actions(0)] == ["end_turn"]
    grant(game, 0, brick=4, lumber=1, wool=1, grain=3, ore=3)
    assert sorted(road_spots(game, 0)) == ["1-5", "17-23", "18-23", "2-5", "29-34", "29-35", "9-13", "9-14"]
    assert city_spots(game, 0) == [9, 29]
    assert settlement_spots(game, 0) == []  # no road reaches a free spot yet
    assert bank_trades(game, 0) == [
        {"give": {"brick": 4}, "get": {r: 1}, "rate": 4} for r in ("lumber", "wool", "grain", "ore")
    ]
    kinds = {a["type"] for a in game.legal_actions(0)}
    assert kinds == {"road", "city", "buy", "bank_trade", "offer", "end_turn"}
    assert game.pending() == [{"seat": 0, "decision": "main"}]


def test_robber_choices_name_the_victims_per_hex() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=1)
    act(game, 0, "roll", dice=[3, 4])
    choices = robber_choices(game, 0)
    assert "J" not in choices and len(choices) == 18
    assert choices["N"] == [1, 3]  # blue holds a card: someone must be robbed
    assert choices["B"] == [None]  # only red itself is on B
    assert choices["K"] == [None, 2]  # white is there but holds nothing
    act(game, 0, "robber", hex="N", victim=3)  # an empty hand may still be chosen
    assert game.hand[1] == [0, 0, 0, 0, 1]


def test_playable_cards_and_pending_discards() -> None:
    game = beginner(dev_deck=["knight", "monopoly"])
    to_main(game)
    grant(game, 0, wool=2, grain=2, ore=2)
    act(game, 0, "buy")
    act(game, 0, "buy")
    assert playable_cards(game, 0) == []
    act(game, 0, "end_turn")
    assert playable_cards(game, 0) == []
    for _ in range(3):
        to_main(game)
        act(game, game.current, "end_turn")
    assert playable_cards(game, 0) == ["knight", "monopoly"]
    kinds = [a["type"] for a in game.legal_actions(0)]
    assert kinds.count("monopoly") == 5 and kinds.count("knight") >= 18 and "roll" in kinds
    empty_hands(game)
    grant(game, 2, brick=9)
    act(game, 0, "roll", dice=[5, 2])
    assert game.pending() == [{"seat": 2, "decision": "discard", "count": 4}]
    assert game.legal_actions(2) == [{"player": 2, "type": "discard", "cards": {"brick": 4}}]
    assert playable_cards(game, 0) == []


def test_views_show_own_secrets_only() -> None:
    game = beginner(dev_deck=["victory_point"])
    to_main(game)
    grant(game, 0, wool=1, grain=1, ore=1)
    act(game, 0, "buy")
    own = game.view(0)["players"][0]
    assert own["development"]["victory_point"] == 1 and own["victory_points"] == 3 and own["points"] == 2
    assert own["hand"] == {"brick": 0, "lumber": 2, "wool": 0, "grain": 1, "ore": 0}
    for viewer in (1, None):
        other = game.view(viewer)["players"][0]
        assert set(other) == {
            "seat",
            "name",
            "cards",
            "development_cards",
            "knights",
            "points",
            "road_length",
            "longest_road",
            "largest_army",
            "settlements_left",
            "cities_left",
            "roads_left",
            "discard_owed",
        }
        assert other["cards"] == 3 and other["development_cards"] == 1 and other["points"] == 2
    view = game.view(None)
    assert view["deck_size"] == 24 and "deck" not in view and view["viewer"] is None


def test_events_route_the_stolen_card_to_thief_and_victim_only() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=1)
    act(game, 0, "roll", dice=[3, 4])
    events = act(game, 0, "robber", hex="N", victim=1, stolen="ore").events
    stolen = [e for e in events if e["type"] == "stolen"]
    assert public_events(stolen, 0)[0]["resource"] == "ore" and public_events(stolen, 1)[0]["resource"] == "ore"
    assert "resource" not in public_events(stolen, 2)[0] and "resource" not in public_events(stolen, None)[0]
    assert public_events(stolen, 2)[0] == {"type": "stolen", "thief": 0, "victim": 1}
