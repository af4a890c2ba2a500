"""What the bot and the board image need beyond the rules: the public roll, and no automatic moves."""

from __future__ import annotations

import random

import pytest

from engine import RuleError, game_class
from engine.catan import Catan
from tests.catan.helpers import act, beginner, empty_hands, grant, live, to_main


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


@pytest.mark.parametrize("players", [2, 5])
def test_three_or_four_players(players: int) -> None:
    assert (Catan.MIN_PLAYERS, Catan.MAX_PLAYERS) == (3, 4)
    assert game_class("catan") is Catan
    with pytest.raises(RuleError) as error:
        Catan.new([f"P{i}" for i in range(players)])
    assert error.value.code == "player_count"


def test_the_roller_stays_on_turn_while_others_discard() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=8)
    grant(game, 2, wool=9)
    act(game, 0, "roll", dice=[3, 4])
    assert game.actors() == [1, 2] and game.current_seat() == 0
    act(game, 1, "discard", cards={"ore": 4})
    act(game, 2, "discard", cards={"wool": 4})
    assert game.actors() == [0] and game.current_seat() == 0


def test_replies_owed_to_the_maker_of_open_offers() -> None:
    game = beginner()
    to_main(game)
    empty_hands(game)
    grant(game, 0, brick=2)
    grant(game, 2, wool=1)
    first = live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1}).action
    live(game, 0, "offer", to=2, give={"brick": 1}, get={"wool": 1})
    assert game.replies_owed_to(0) == [1, 2, 3]
    assert game.replies_owed_to(1) == []
    ident = game.offers[0]["id"]
    assert game.offer(ident) is game.offers[0] and game.offer(99) is None
    live(game, 1, "decline", offer=ident)
    live(game, 3, "decline", offer=ident)
    assert game.replies_owed_to(0) == [2]
    assert game.undoable(first)


def test_building_and_trading_may_be_undone_but_nothing_chance_or_hidden_cards_decided() -> None:
    game = beginner()
    for kind in ("settlement", "road", "city", "bank_trade", "offer", "accept", "decline", "counter", "withdraw"):
        assert game.undoable({"player": 0, "type": kind}), kind
    revealing = ("roll", "buy", "robber", "knight", "discard", "road_building", "year_of_plenty", "monopoly")
    for kind in (*revealing, "trade", "end_turn"):
        assert not game.undoable({"player": 0, "type": kind}), kind


def test_nobody_is_on_turn_once_the_game_is_over() -> None:
    game = beginner(points_to_win=2)  # the beginner set-up gives everyone 2 points: the first player wins at once
    assert game.finished and game.current_seat() is None and game.replies_owed_to(0) == []


def test_a_private_offer_keeps_its_recipient_out_of_the_public_actors() -> None:
    game = beginner()
    to_main(game)
    empty_hands(game)
    grant(game, 0, brick=2)
    live(game, 0, "offer", to=2, give={"brick": 1}, get={"wool": 1})
    assert game.actors() == [0, 2] and game.public_actors() == [0]
    live(game, 0, "offer", to=None, give={"brick": 1}, get={"ore": 1})
    assert game.actors() == [0, 2, 1, 3] and game.public_actors() == [0, 1, 2, 3]


def test_the_public_actors_are_the_decisions_the_spectator_view_shows() -> None:
    for seed in range(6):
        game = Catan.new(["A", "B", "C", "D"], {}, seed)
        rng = random.Random(seed)
        for _ in range(600):
            if game.finished:
                break
            shown: list[int] = []
            for decision in game.view(None)["pending"]:
                if decision["seat"] not in shown:
                    shown.append(decision["seat"])
            assert game.public_actors() == shown
            game.apply(game.random_action(rng))
