"""Looking back at a game from its action log (engine/history.py): turns as players count them, what the channel was
told in each, the board at any earlier turn, and what happened since a player's previous move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import game_class
from engine.history import GameLog, frame_count, frames, history, since_last_move, view_at, views_at
from engine.replay import ReplayError

DECK = ["U", "V", "E", "B", "K", "U"]


def carcassonne_log(actions: list[dict[str, Any]], players: int = 3) -> GameLog:
    names = ("Alice", "Bob", "Carol", "Dave")[:players]
    return GameLog("carcassonne", names, {"river": False, "deck": DECK, "first_player": 0}, 1, tuple(actions))


def turn(seat: int, tile: str, x: int, y: int, rotation: int = 0, then: dict[str, Any] | None = None) -> list[Any]:
    end = then or {"type": "pass"}
    return [
        {"player": seat, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation},
        {"player": seat, **end},
    ]


# Alice and Bob extend the start tile's road east (Bob's curve turns it south, his thief on it), Carol puts a city
# above the start tile, then Alice a cloister below it.
OPENING = [
    *turn(0, "U", 1, 0),
    *turn(1, "V", 2, 0, 0, {"type": "follower", "on": "road:S"}),
    *turn(2, "E", 0, -1, 180),
    *turn(0, "B", 0, 1),
]


def played(game_name: str, players: int, seed: int, options: dict[str, Any], stop: int | None = None) -> GameLog:
    """A game of uniformly random moves (outcomes drawn live, as the bot records them), whole or its first
    ``stop`` actions."""
    game = game_class(game_name).new([f"P{i}" for i in range(players)], options, seed)
    rng = random.Random(seed)
    actions = []
    while not game.finished and (stop is None or len(actions) < stop):
        actions.append(game.apply(game.random_action(rng)).action)
    return GameLog(game_name, tuple(f"P{i}" for i in range(players)), options, seed, tuple(actions))


def test_each_carcassonne_turn_is_one_players_tile_and_its_ending_numbered_as_the_channel_showed() -> None:
    turns = history(carcassonne_log(OPENING))
    assert [(t.number, t.seat, t.start, t.end, t.complete) for t in turns] == [
        (1, 0, 0, 2, True),
        (2, 1, 2, 4, True),
        (3, 2, 4, 6, True),
        (4, 0, 6, 8, True),
        (5, 1, 8, 8, False),  # Bob's turn has begun: nothing done yet
    ]
    bob = turns[1]
    assert [e["type"] for e in bob.events][:2] == ["tile_placed", "follower_placed"]


def test_the_turn_in_progress_holds_what_was_done_so_far() -> None:
    log = carcassonne_log([*OPENING[:2], OPENING[2]])  # Bob placed his tile, the follower decision is open
    last = history(log)[-1]
    assert (last.number, last.seat, last.complete) == (2, 1, False)
    assert [e["type"] for e in last.events] == ["tile_placed"]


def test_the_board_at_an_earlier_turn_shows_the_tiles_placed_until_then_and_nothing_of_the_stack() -> None:
    log = carcassonne_log(OPENING)
    first = view_at(log, 0)
    assert [(t["x"], t["y"]) for t in first["tiles"]] == [(0, 0), (1, 0)]
    assert first["options"]["deck"] is None
    assert first["drawn"] == "V"  # Bob's tile, shown in the channel when his turn began: not a secret then
    assert first["tiles_left"] == len(DECK) - 1
    assert view_at(log, -1)["tiles"] == [{"tile": "D", "x": 0, "y": 0, "rotation": 0}]
    assert len(view_at(log, 3)["tiles"]) == 5


def test_a_turn_the_game_has_not_reached_is_refused() -> None:
    with pytest.raises(IndexError, match="past the game's last turn"):
        view_at(carcassonne_log(OPENING[:2]), 5)


def test_a_players_own_view_at_an_earlier_turn_is_that_players_view() -> None:
    log = played("catan", 4, 3, {}, stop=120)
    views = views_at(log, [10, 20], seat=2)
    for view in views.values():
        assert "hand" in view["players"][2]
        assert all("hand" not in p for s, p in enumerate(view["players"]) if s != 2)


def test_catan_set_up_placements_are_turn_zero_parts_one_to_eight_then_turns_count_from_one() -> None:
    turns = history(played("catan", 4, 5, {"first_player": 0}, stop=40))
    setup = turns[:8]
    assert [(t.number, t.part) for t in setup] == [(0, i) for i in range(1, 9)]
    assert [t.seat for t in setup] == [0, 1, 2, 3, 3, 2, 1, 0]  # snake order
    assert all([e["type"] for e in t.events] == ["built", "built"] for t in setup[:4])
    assert all([e["type"] for e in t.events] == ["built", "start_resources", "built"] for t in setup[4:7])
    assert (turns[8].number, turns[8].part, turns[8].seat) == (1, 0, 0)


def test_a_card_stolen_in_a_running_catan_game_is_told_without_the_resource() -> None:
    log = played("catan", 4, 11, {})
    stolen = [e for t in history(log) for e in t.events if e["type"] == "stolen" and e.get("victim") is not None]
    assert stolen, "this seed's game has robberies"
    assert all("resource" not in e and "private" not in e for e in stolen)
    bought = [e for t in history(log) for e in t.events if e["type"] == "bought"]
    assert bought and all("card" not in e for e in bought)


def test_no_catan_view_of_the_history_holds_a_hand_or_a_development_card() -> None:
    log = played("catan", 4, 11, {}, stop=300)
    for _, view in frames(log):
        for player in view["players"]:
            assert not {"hand", "development", "victory_points", "bought_this_turn"} & set(player)


def test_a_finished_game_ends_with_its_final_scoring_in_the_last_turn() -> None:
    log = played("carcassonne", 2, 4, {"river": True, "tower": True})
    turns = history(log)
    assert turns[-1].complete and turns[-1].end == len(log.actions)
    assert "game_over" in [e["type"] for e in turns[-1].events]
    assert [t.number for t in turns] == list(range(1, len(turns) + 1))
    pictures = list(frames(log))
    assert len(pictures) == len(turns) + 1 and pictures[-1][1]["finished"]


def test_since_a_players_last_move_lists_the_others_turns_and_the_tiles_they_placed() -> None:
    since = since_last_move(carcassonne_log(OPENING[:6]), 0)  # Alice's second turn is on
    assert [(t.number, t.seat) for t in since.turns] == [(2, 1), (3, 2)]
    assert since.placed == {"tiles": [[2, 0], [0, -1]]}
    assert len(since.view["tiles"]) == 4


def test_before_a_players_first_move_everything_so_far_counts_as_since() -> None:
    since = since_last_move(carcassonne_log(OPENING[:4]), 2)  # Carol's first turn
    assert [t.seat for t in since.turns] == [0, 1]
    assert since.placed == {"tiles": [[1, 0], [2, 0]]}


def test_a_move_made_in_the_players_own_turn_is_not_news_to_them() -> None:
    since = since_last_move(carcassonne_log([*OPENING[:6], OPENING[6]]), 0)  # Alice placed already
    assert since.placed == {"tiles": [[2, 0], [0, -1]]}
    assert [0, 1] not in since.placed["tiles"]


def test_since_in_catan_names_roads_settlements_and_cities_built_by_the_others() -> None:
    log = played("catan", 3, 8, {"first_player": 0}, stop=200)
    seat = history(log)[-1].seat
    assert seat is not None
    since = since_last_move(log, seat)
    built = {e["at"] for t in since.turns for e in t.events if e["type"] == "built"}
    assert set(since.placed) == {"roads", "settlements", "cities"}
    assert set(since.placed["roads"]) | set(since.placed["settlements"]) | set(since.placed["cities"]) == built


def test_a_replay_file_gives_the_same_log_and_a_bad_action_names_its_index() -> None:
    data = {"format": "boardhost-replay", "version": 1, "game": "carcassonne", "players": ["A", "B", "C"],
            "seed": 1, "options": {"river": False, "deck": DECK, "first_player": 0}, "actions": OPENING}  # fmt: skip
    assert history(GameLog.from_replay(data)) == history(carcassonne_log(OPENING))
    bad = {**data, "actions": [*OPENING[:2], {"player": 1, "type": "place", "tile": "V", "x": 9, "y": 9}]}
    with pytest.raises(ReplayError, match="action 2 "):
        history(GameLog.from_replay(bad))


def test_only_the_frames_asked_for_are_given_and_they_are_the_frames_of_the_whole_game() -> None:
    log = played("catan", 3, 5, {}, stop=300)
    every = list(frames(log))
    assert frame_count(log) == len(every)
    wanted = {0, 7, len(every) - 1}
    some = list(frames(log, wanted))
    assert some == [every[i] for i in sorted(wanted)]
