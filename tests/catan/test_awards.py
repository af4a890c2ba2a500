"""Longest road and largest army (rules section 9) and winning (section 10)."""

from __future__ import annotations

from typing import Any

from engine.catan import Catan
from tests.catan.helpers import act, beginner, empty_hands, grant, rejects, to_main

# Red (seat 0) extends 9-5 into a chain 9-5-1-4-8-12-17-23-29 (with its set-up road 23-29): 8 segments.
RED_TO_8 = ["1-5", "1-4", "4-8"]
RED_PAST_8 = ["8-12", "12-17", "17-23"]
BLUE_6 = ["42-47", "47-51", "51-54", "54-50", "50-46"]  # with 37-42: 37-42-47-51-54-50-46
ORANGE_6 = ["6-10", "3-6", "3-7", "7-11", "11-16"]  # with 10-15: 15-10-6-3-7-11-16


def road(game: Catan, seat: int, path: str) -> list[dict[str, Any]]:
    grant(game, seat, brick=1, lumber=1)
    return act(game, seat, "road", at=path).events


def awards(events: list[dict[str, Any]]) -> list[tuple[str, int | None, int | None]]:
    return [(e["card"], e["from"], e["to"]) for e in events if e["type"] == "award"]


def turn_of(game: Catan, seat: int) -> None:
    """End turns until ``seat`` has rolled."""
    if game.phase == "roll":
        to_main(game)
    while game.current != seat:
        act(game, game.current, "end_turn")
        to_main(game)


def test_the_first_road_of_five_takes_the_card_and_an_equal_road_does_not() -> None:
    game = beginner()
    empty_hands(game)
    to_main(game)
    for path in ["1-5", "1-4", "4-8"]:
        assert awards(road(game, 0, path)) == []
    assert game.road_length[0] == 4 and game.longest_holder is None
    assert awards(road(game, 0, "8-12")) == [("longest_road", None, 0)]
    assert game.result()["longest_road"] == 0 and game.result()["breakdown"][0]["longest_road"] == 2
    turn_of(game, 1)
    for path in BLUE_6[:3]:
        road(game, 1, path)
    assert game.road_length[1] == 4
    assert awards(road(game, 1, BLUE_6[3])) == []  # 5 = 5: red keeps it
    assert game.longest_holder == 0
    assert awards(road(game, 1, BLUE_6[4])) == [("longest_road", 0, 1)]  # strictly longer


def test_a_loop_counts_every_segment() -> None:
    game = beginner()
    empty_hands(game)
    to_main(game)
    for path in ["1-5", "1-4", "4-8", "8-13"]:
        road(game, 0, path)
    assert game.road_length[0] == 5
    road(game, 0, "9-13")  # closes the ring around hex A
    assert game.road_length[0] == 6
    road(game, 0, "9-14")  # a branch off the ring: the path goes round and out
    assert game.road_length[0] == 7


def chains(game: Catan, red: list[str], blue: int, orange: int) -> None:
    """Red builds ``red``; then blue and orange build that many of their chains' roads."""
    empty_hands(game)
    to_main(game)
    for path in red:
        road(game, 0, path)
    turn_of(game, 1)
    for path in BLUE_6[:blue]:
        road(game, 1, path)
    turn_of(game, 3)
    for path in ORANGE_6[:orange]:
        road(game, 3, path)


def white_breaks_red_at_8(game: Catan) -> list[dict[str, Any]]:
    turn_of(game, 2)
    road(game, 2, "8-13")
    grant(game, 2, brick=1, lumber=1, wool=1, grain=1)
    return act(game, 2, "settlement", at=8).events


def test_a_broken_holder_still_tied_for_longest_keeps_the_card() -> None:
    game = beginner()
    chains(game, [*RED_TO_8, *RED_PAST_8, "29-34", "28-34"], blue=5, orange=0)
    assert game.road_length == [10, 6, 1, 1] and game.longest_holder == 0
    events = white_breaks_red_at_8(game)
    assert game.road_length[0] == 6  # 8-12-17-23-29-34-28
    assert awards(events) == [] and game.longest_holder == 0


def test_after_a_break_a_single_longer_player_takes_the_card_on_another_players_turn() -> None:
    game = beginner()
    chains(game, [*RED_TO_8, *RED_PAST_8], blue=5, orange=0)
    assert game.road_length[0] == 8 and game.longest_holder == 0
    events = white_breaks_red_at_8(game)  # white's turn
    assert game.road_length[0] == 4
    assert awards(events) == [("longest_road", 0, 1)]


def test_after_a_break_two_others_tied_set_the_card_aside() -> None:
    game = beginner()
    chains(game, [*RED_TO_8, *RED_PAST_8], blue=5, orange=5)
    assert game.road_length == [8, 6, 1, 6]
    events = white_breaks_red_at_8(game)
    assert awards(events) == [("longest_road", 0, None)] and game.result()["longest_road"] is None
    # It stays aside until exactly one player is longest.
    turn_of(game, 1)
    road(game, 1, "42-46")  # closes blue's ring around S: 7
    assert game.road_length[1] == 7 and game.longest_holder == 1


def test_after_a_break_nobody_at_five_sets_the_card_aside() -> None:
    game = beginner()
    chains(game, [*RED_TO_8, *RED_PAST_8], blue=3, orange=0)
    events = white_breaks_red_at_8(game)
    assert max(game.road_length) == 4
    assert awards(events) == [("longest_road", 0, None)]


def test_a_road_cannot_continue_through_an_opponents_settlement() -> None:
    game = beginner()
    chains(game, [*RED_TO_8], blue=0, orange=0)
    white_breaks_red_at_8(game)
    turn_of(game, 0)
    grant(game, 0, brick=1, lumber=1)
    rejects(game, 0, "road", "blocked_by_opponent", at="8-12")


def test_largest_army_needs_three_knights_and_strictly_more_to_change_hands() -> None:
    game = beginner(dev_deck=["knight"] * 7)
    empty_hands(game)
    to_main(game)
    for _ in range(3):
        grant(game, 0, wool=1, grain=1, ore=1)
        act(game, 0, "buy", card="knight")
    turn_of(game, 1)
    for _ in range(4):
        grant(game, 1, wool=1, grain=1, ore=1)
        act(game, 1, "buy", card="knight")
    played = {0: 0, 1: 0}
    events: list[dict[str, Any]] = []
    hexes = ["A", "B"]
    for _ in range(4):
        for seat in (0, 1):
            turn_of(game, seat)
            if played[seat] < (3 if seat == 0 else 4):
                target = hexes[(played[0] + played[1]) % 2]
                if game.robber == "AB".index(target):
                    target = "C"
                events = act(game, seat, "knight", hex=target, victim=None).events
                played[seat] += 1
                if seat == 0 and played[0] < 3:
                    assert game.army_holder is None
                if seat == 0 and played[0] == 3:
                    assert awards(events) == [("largest_army", None, 0)]
                if seat == 1 and played[1] == 3:
                    assert awards(events) == [] and game.army_holder == 0  # 3 = 3: red keeps it
    assert game.knights == [3, 4, 0, 0]
    assert awards(events) == [("largest_army", 0, 1)] and game.result()["largest_army"] == 1
    assert game.view(None)["players"][1]["knights"] == 4


def test_hidden_victory_points_win_on_the_players_own_turn() -> None:
    game = beginner(points_to_win=4, dev_deck=["victory_point", "victory_point"])
    empty_hands(game)
    to_main(game)
    grant(game, 0, wool=2, grain=2, ore=2)
    act(game, 0, "buy", card="victory_point")
    assert not game.finished
    assert game.result()["scores"][0] == 2  # hidden before the end
    assert game.view(1)["players"][0]["points"] == 2 and "victory_point_cards" not in game.view(1)["players"][0]
    events = act(game, 0, "buy", card="victory_point").events
    assert game.finished and game.result()["winners"] == [0]
    over = events[-1]
    assert over["type"] == "game_over" and over["winner"] == 0 and over["victory_point_cards"][0] == 2
    result = game.result()
    assert result["scores"][0] == 4 and result["breakdown"][0]["victory_point"] == 2
    assert result["current_player"] is None and result["turn"] == 1
    assert game.view(1)["players"][0]["victory_point_cards"] == 2
    rejects(game, 0, "end_turn", "game_over")


def test_reaching_the_target_on_another_players_turn_wins_only_when_ones_own_turn_begins() -> None:
    game = beginner(points_to_win=5, dev_deck=["victory_point"])
    empty_hands(game)
    to_main(game)
    for path in [*RED_TO_8, *RED_PAST_8]:
        road(game, 0, path)
    assert game.public_points(0) == 4 and not game.finished
    turn_of(game, 1)
    grant(game, 1, wool=1, grain=1, ore=1)
    act(game, 1, "buy", card="victory_point")  # blue: 2 + 1 hidden
    for path in BLUE_6:
        road(game, 1, path)
    assert game.longest_holder == 0 and not game.finished
    events = white_breaks_red_at_8(game)  # blue takes the card on white's turn: 5 points
    assert awards(events) == [("longest_road", 0, 1)] and game.points(1) == 5
    assert not game.finished
    act(game, 2, "end_turn")
    assert not game.finished and game.current == 3
    to_main(game)
    act(game, 3, "end_turn")
    assert not game.finished and game.current == 0
    to_main(game)
    events = act(game, 0, "end_turn").events
    assert game.finished and game.winner == 1
    assert [e["type"] for e in events] == ["turn_started", "game_over"]
    assert game.result()["scores"][1] == 5 and game.result()["breakdown"][1]["victory_point"] == 1
