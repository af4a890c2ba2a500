"""Building (rules section 6) and development cards (section 8)."""

from __future__ import annotations

from engine.catan import Catan, public_events
from engine.catan.board import EDGE_NAMES
from engine.catan.state import DECK_COUNTS
from tests.catan.helpers import act, beginner, check_bank, empty_hands, grant, hand, live, rejects, to_main


def test_building_costs_and_connections() -> None:
    game = beginner()
    empty_hands(game)
    to_main(game)
    empty_hands(game)
    rejects(game, 0, "road", "cannot_afford", at="1-5")
    rejects(game, 0, "settlement", "cannot_afford", at=1)
    rejects(game, 0, "city", "cannot_afford", at=9)
    rejects(game, 0, "buy", "cannot_afford")
    grant(game, 0, brick=2, lumber=2, wool=1, grain=1)
    rejects(game, 0, "road", "occupied", at="5-9")
    rejects(game, 0, "road", "not_connected", at="50-53")
    rejects(game, 0, "settlement", "not_connected", at=3)
    rejects(game, 0, "settlement", "distance_rule", at=5)  # next to red's own 9
    rejects(game, 0, "settlement", "occupied", at=42)
    act(game, 0, "road", at="1-5")
    act(game, 0, "settlement", at="A-N")  # 1, with the road 1-5
    assert hand(game, 0) == {"lumber": 0} or hand(game, 0) == {}
    assert game.view(None)["players"][0]["settlements_left"] == 2
    rejects(game, 0, "city", "not_own_settlement", at=42)
    rejects(game, 0, "city", "not_own_settlement", at=3)
    grant(game, 0, grain=2, ore=3)
    act(game, 0, "city", at=1)
    rejects(game, 0, "city", "not_own_settlement", at=1)  # already a city
    view = game.view(None)["players"][0]
    assert view["settlements_left"] == 3 and view["cities_left"] == 3  # the settlement went back to supply
    assert game.result()["breakdown"][0] == {
        "settlement": 2,
        "city": 2,
        "longest_road": 0,
        "largest_army": 0,
        "victory_point": 0,
    }
    check_bank(game)


def build_road(game: Catan, seat: int, last: bool = False) -> None:
    grant(game, seat, brick=1, lumber=1)
    roads = game.legal_roads(seat)
    act(game, seat, "road", at=EDGE_NAMES[roads[-1] if last else roads[0]])


def test_piece_limits() -> None:
    game = beginner()
    game.options.points_to_win = 30  # past any option allowed: red builds everything and must not win meanwhile
    empty_hands(game)
    to_main(game)
    # Settlements: red has 2 and builds roads until it has placed all 5.
    while len(game.settlements[0]) < 5:
        spots = game.legal_settlements(0)
        if spots:
            grant(game, 0, brick=1, lumber=1, wool=1, grain=1)
            act(game, 0, "settlement", at=spots[0] + 1)
        else:
            build_road(game, 0, last=True)
    grant(game, 0, brick=1, lumber=1, wool=1, grain=1)
    while not game.legal_settlements(0):
        build_road(game, 0, last=True)
    spot = game.legal_settlements(0)[0] + 1
    rejects(game, 0, "settlement", "no_pieces_left", at=spot)
    for node in list(game.settlements[0])[:4]:
        grant(game, 0, grain=2, ore=3)
        act(game, 0, "city", at=node + 1)
    grant(game, 0, grain=2, ore=3)
    rejects(game, 0, "city", "no_pieces_left", at=game.settlements[0][0] + 1)
    act(game, 0, "settlement", at=spot)  # the cities gave settlements back to supply
    while len(game.roads[0]) < 15:
        build_road(game, 0)
    grant(game, 0, brick=1, lumber=1)
    rejects(game, 0, "road", "no_pieces_left", at=EDGE_NAMES[game.legal_roads(0)[0]])
    assert game.public_points(0) >= 4 * 2 + 2
    check_bank(game)


def test_the_deck_holds_25_cards_and_dev_deck_fixes_its_top() -> None:
    game = Catan.new(["a", "b", "c"], {}, 3)
    assert len(game.deck) == 25 and [game.deck.count(c) for c in range(5)] == list(DECK_COUNTS)
    game = beginner(dev_deck=["monopoly", "year_of_plenty", "knight"])
    to_main(game)
    bought = []
    for _ in range(3):
        grant(game, 0, wool=1, grain=1, ore=1)
        bought.append(live(game, 0, "buy").action["card"])
    assert bought == ["monopoly", "year_of_plenty", "knight"]
    grant(game, 0, wool=1, grain=1, ore=1)
    rejects(game, 0, "buy", "outcome_not_allowed", replay=False, card="knight")
    act(game, 0, "buy", card="monopoly")  # the second and last monopoly, from inside the deck
    grant(game, 0, wool=1, grain=1, ore=1)
    rejects(game, 0, "buy", "card_not_in_deck", card="monopoly")
    rejects(game, 0, "buy", "unknown_card", card="joker")


def test_a_bought_card_is_hidden_from_the_others() -> None:
    game = beginner(dev_deck=["knight"])
    to_main(game)
    grant(game, 0, wool=1, grain=1, ore=1)
    events = act(game, 0, "buy", card="knight").events
    bought = next(e for e in events if e["type"] == "bought")
    assert public_events([bought], 0) == [{"type": "bought", "player": 0, "card": "knight"}]
    assert public_events([bought], 1) == [{"type": "bought", "player": 0}]
    assert public_events([bought], None) == [{"type": "bought", "player": 0}]
    assert game.view(0)["players"][0]["development"]["knight"] == 1
    other = game.view(1)["players"][0]
    assert other["development_cards"] == 1 and "development" not in other and "hand" not in other


def test_the_deck_runs_out() -> None:
    game = beginner()
    to_main(game)
    for _ in range(25):
        grant(game, 0, wool=1, grain=1, ore=1)
        act(game, 0, "buy")
    assert not game.finished and game.dev[0] == [14, 5, 2, 2, 2]  # 2 + 5 hidden points: not 10
    grant(game, 0, wool=1, grain=1, ore=1)
    rejects(game, 0, "buy", "deck_empty")


def knights_game() -> Catan:
    """Red holds 2 knights, a road building, a year of plenty and a monopoly, bought in turn 1; now turn 5."""
    game = beginner(dev_deck=["knight", "knight", "road_building", "year_of_plenty", "monopoly"])
    to_main(game)
    for _ in range(5):
        grant(game, 0, wool=1, grain=1, ore=1)
        act(game, 0, "buy")
    for _ in range(4):
        act(game, game.current, "end_turn")
        if game.current != 0:
            to_main(game)
    return game


def test_a_card_cannot_be_played_in_the_turn_it_was_bought() -> None:
    game = beginner(dev_deck=["knight"])
    to_main(game)
    grant(game, 0, wool=1, grain=1, ore=1)
    act(game, 0, "buy", card="knight")
    rejects(game, 0, "knight", "card_bought_this_turn", hex="N", victim=1)
    rejects(game, 0, "monopoly", "no_such_card", resource="ore")
    rejects(game, 0, "victory_point", "unknown_action")


def test_a_knight_may_be_played_before_the_roll_and_only_one_card_per_turn() -> None:
    game = knights_game()
    assert game.current == 0 and game.phase == "roll"
    rejects(game, 1, "knight", "not_your_turn", hex="N", victim=3)
    applied = act(game, 0, "knight", hex="N", victim=1, stolen="ore")
    assert applied.action == {"player": 0, "type": "knight", "hex": "N", "victim": 1, "stolen": "ore"}
    assert game.phase == "roll" and game.knights[0] == 1
    rejects(game, 0, "knight", "one_card_per_turn", hex="A", victim=None)
    to_main(game)
    rejects(game, 0, "monopoly", "one_card_per_turn", resource="ore")
    rejects(game, 0, "year_of_plenty", "one_card_per_turn", take={"ore": 2})


def test_road_building_places_two_roads_for_free() -> None:
    game = knights_game()
    to_main(game)
    empty_hands(game)
    rejects(game, 0, "road_building", "road_building_count", roads=["1-5"])
    rejects(game, 0, "road_building", "not_connected", roads=["1-5", "3-7"])
    rejects(game, 0, "road_building", "occupied", roads=["1-5", "1-5"])
    rejects(game, 0, "road_building", "malformed_action", roads=[])
    act(game, 0, "road_building", roads=["1-5", "1-4"])  # the second road builds on the first
    assert hand(game, 0) == {} and len(game.roads[0]) == 4


def test_road_building_with_one_road_left_places_one() -> None:
    game = knights_game()
    to_main(game)
    while len(game.roads[0]) < 14:
        build_road(game, 0)
    first, second = (EDGE_NAMES[e] for e in game.legal_roads(0)[:2])
    rejects(game, 0, "road_building", "no_pieces_left", roads=[first, second])
    act(game, 0, "road_building", roads=[first])
    assert len(game.roads[0]) == 15


def test_year_of_plenty_is_limited_by_the_bank() -> None:
    game = knights_game()
    to_main(game)
    empty_hands(game)
    grant(game, 3, ore=18)
    rejects(game, 0, "year_of_plenty", "bank_empty", take={"ore": 2})
    rejects(game, 0, "year_of_plenty", "year_of_plenty_count", take={"ore": 1})
    act(game, 0, "year_of_plenty", take={"ore": 1, "wool": 1})
    assert hand(game, 0) == {"ore": 1, "wool": 1}


def test_year_of_plenty_takes_what_little_the_bank_holds() -> None:
    game = knights_game()
    to_main(game)
    empty_hands(game)
    grant(game, 3, brick=19, lumber=19, wool=19, grain=19, ore=18)
    rejects(game, 0, "year_of_plenty", "year_of_plenty_count", take={"ore": 2})
    act(game, 0, "year_of_plenty", take={"ore": 1})
    assert sum(game.bank) == 0
    check_bank(game)


def test_monopoly_takes_every_card_of_a_resource() -> None:
    game = knights_game()
    to_main(game)
    empty_hands(game)
    grant(game, 1, wool=3, ore=1)
    grant(game, 2, wool=1)
    grant(game, 0, wool=1)
    events = act(game, 0, "monopoly", resource="wool").events
    assert hand(game, 0) == {"wool": 5} and hand(game, 1) == {"ore": 1} and hand(game, 2) == {}
    assert next(e for e in events if e["type"] == "monopoly")["taken"] == [0, 3, 1, 0]
    rejects(game, 0, "monopoly", "one_card_per_turn", resource="gold")
