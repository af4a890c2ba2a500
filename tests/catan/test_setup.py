"""Set-up (rules section 4): the snake order, its violations, second-settlement resources, the beginner set-up."""

from __future__ import annotations

from engine.catan import Catan
from tests.catan.helpers import PLAYERS3, PLAYERS4, act, beginner, beginner_layout_json, check_bank, hand, rejects

# Spots on the beginner map far enough apart for the distance rule, with a road each.
PLACES = [
    (1, "1-4"),
    (3, "3-7"),
    (12, "12-17"),
    (16, "11-16"),
    (43, "43-47"),
    (54, "51-54"),
    (48, "44-48"),
    (25, "19-25"),
]


def snake_game(players: list[str], first: int = 0) -> Catan:
    return Catan.new(players, {"board": beginner_layout_json(), "first_player": first}, 5)


def test_snake_order_with_four_players() -> None:
    game = snake_game(PLAYERS4, first=2)
    order = []
    for node, path in PLACES:
        seat = game.pending()[0]["seat"]
        order.append(seat)
        assert game.pending() == [{"seat": seat, "decision": "setup_settlement"}]
        assert game.turn == 0 and game.result()["turn"] == 0
        act(game, seat, "settlement", at=node)
        assert game.pending() == [{"seat": seat, "decision": "setup_road", "touching": node}]
        act(game, seat, "road", at=path)
    assert order == [2, 3, 0, 1, 1, 0, 3, 2]
    assert game.turn == 1 and game.current == 2
    assert game.pending() == [{"seat": 2, "decision": "roll_or_play"}]


def test_snake_order_with_three_players() -> None:
    game = snake_game(PLAYERS3)
    order = []
    for node, path in PLACES[:6]:
        order.append(game.current)
        act(game, game.current, "settlement", at=node)
        act(game, game.current, "road", at=path)
    assert order == [0, 1, 2, 2, 1, 0]
    assert game.current == 0 and game.turn == 1


def test_set_up_violations_are_refused_and_change_nothing() -> None:
    game = snake_game(PLAYERS4)
    rejects(game, 1, "settlement", "not_your_turn", at=1)
    rejects(game, 0, "road", "setup_expects_settlement", at="1-4")
    rejects(game, 0, "city", "wrong_phase", at=1)
    rejects(game, 0, "roll", "wrong_phase", dice=[3, 4])
    rejects(game, 0, "end_turn", "wrong_phase")
    rejects(game, 0, "buy", "wrong_phase")
    act(game, 0, "settlement", at=1)
    rejects(game, 0, "settlement", "setup_expects_road", at=3)
    rejects(game, 0, "road", "setup_road_must_touch", at="2-5")  # a path not touching 1
    act(game, 0, "road", at="1-4")
    rejects(game, 1, "settlement", "occupied", at=1)
    rejects(game, 1, "settlement", "distance_rule", at=4)  # next to 1
    rejects(game, 1, "settlement", "distance_rule", at="A-NE")  # 5 is next to 1 as well
    act(game, 1, "settlement", at=3)
    rejects(game, 1, "road", "setup_road_must_touch", at="1-5")


def test_only_the_second_settlement_pays_and_the_desert_gives_nothing() -> None:
    game = snake_game(PLAYERS3)
    act(game, 0, "settlement", at=9)  # A mountains, B pasture, E hills: first settlement, nothing
    assert hand(game, 0) == {}
    act(game, 0, "road", at="5-9")
    act(game, 1, "settlement", at=42)
    act(game, 1, "road", at="42-47")
    act(game, 2, "settlement", at=15)
    act(game, 2, "road", at="10-15")
    act(game, 2, "settlement", at=25)  # F pasture, J desert, K forest
    assert hand(game, 2) == {"wool": 1, "lumber": 1}
    act(game, 2, "road", at="25-31")
    act(game, 1, "settlement", at=29)  # H fields, I forest, M forest
    assert hand(game, 1) == {"grain": 1, "lumber": 2}
    act(game, 1, "road", at="29-34")
    act(game, 0, "settlement", at=40)  # M forest, N mountains, Q hills
    assert hand(game, 0) == {"lumber": 1, "ore": 1, "brick": 1}
    act(game, 0, "road", at="40-44")
    check_bank(game)


def test_the_beginner_set_up_with_four_players() -> None:
    game = beginner(4)
    view = game.view(None)
    assert {(s["at"], s["player"]) for s in view["board"]["settlements"]} == {
        (9, 0),
        (29, 0),
        (42, 1),
        (40, 1),
        (26, 2),
        (18, 2),
        (15, 3),
        (41, 3),
    }
    assert len(view["board"]["roads"]) == 8
    # Resources of the starred settlements: red 29 (H fields, I forest, M forest) ...
    assert hand(game, 0) == {"grain": 1, "lumber": 2}
    assert hand(game, 1) == {"lumber": 1, "ore": 1, "brick": 1}  # blue 40: M forest, N mountains, Q hills
    assert hand(game, 2) == {"grain": 1, "brick": 1, "lumber": 1}  # white 18: D fields, E hills, I forest
    assert hand(game, 3) == {"ore": 1, "grain": 2}  # orange 41: N mountains, O fields, R fields
    assert game.turn == 1 and game.pending() == [{"seat": 0, "decision": "roll_or_play"}]
    assert game.result()["scores"] == [2, 2, 2, 2]


def test_the_beginner_set_up_with_three_players_leaves_red_out() -> None:
    game = beginner(3)
    view = game.view(None)
    assert {(s["at"], s["player"]) for s in view["board"]["settlements"]} == {
        (42, 0),
        (40, 0),
        (26, 1),
        (18, 1),
        (15, 2),
        (41, 2),
    }
    assert hand(game, 0) == {"lumber": 1, "ore": 1, "brick": 1}


def test_seat_0_starts_unless_the_first_player_is_given_and_it_is_recorded() -> None:
    """Replay format: "seat 0 moves first unless options.first_player says otherwise" (the bot draws and records)."""
    assert {Catan.new(PLAYERS4, {}, seed).first_player for seed in range(10)} == {0}
    game = Catan.new(PLAYERS4, {"first_player": 2}, 7)
    assert game.replay_options()["first_player"] == game.first_player == game.current == 2
