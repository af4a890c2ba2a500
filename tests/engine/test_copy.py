"""``Game.copy``: the host works on a copy so that a refused action changes nothing; the copy must be exact."""

from __future__ import annotations

import random

import pytest

from engine.registry import game_class

GAMES = [
    ("carcassonne", 2, {}),
    ("carcassonne", 4, {"river": True, "tower": True}),
    ("catan", 4, {}),
]


@pytest.mark.parametrize("name,players,options", GAMES)
def test_a_copy_has_the_same_state_and_the_same_future(name: str, players: int, options: dict[str, object]) -> None:
    for seed in range(3):
        game = game_class(name).new([f"P{i}" for i in range(players)], options, seed)
        moves = random.Random(seed)
        step = 0
        while not game.finished and step < 400:
            if step % 7 == 0:
                twin = game.copy()
                assert twin.to_json() == game.to_json()
                # The same actions lead to the same states (the generator is copied too: dice, bag, thefts).
                probe = random.Random(step)
                for _ in range(15):
                    if game.finished:
                        break
                    action = game.random_action(probe)
                    assert twin.apply(action).action == game.apply(action).action
                    assert twin.to_json() == game.to_json()
                    step += 1
                if game.finished:
                    break
            game.apply(game.random_action(moves))
            step += 1


@pytest.mark.parametrize("name,players,options", GAMES)
def test_playing_on_a_copy_leaves_the_original_untouched(name: str, players: int, options: dict[str, object]) -> None:
    game = game_class(name).new([f"P{i}" for i in range(players)], options, 11)
    moves = random.Random(11)
    for _ in range(120):
        game.apply(game.random_action(moves))
    before = game.to_json()
    twin = game.copy()
    for _ in range(200):
        if twin.finished:
            break
        twin.apply(twin.random_action(moves))
    assert game.to_json() == before
    # Internals too (features, union-find, generator): the original plays on exactly like a fresh load.
    fresh = game_class(name).from_json(before)
    probe = random.Random(5)
    while not game.finished:
        action = game.random_action(probe)
        assert fresh.apply(action).action == game.apply(action).action
        assert fresh.to_json() == game.to_json()
