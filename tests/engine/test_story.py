"""The story of a finished game (``engine.story``), checked against the game itself: the numbers a picture and its
sentences tell add up to what happened, from what a spectator saw."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from engine import game_class
from engine.history import GameLog
from engine.story import story


def played(name: str, options: dict[str, Any], seed: int, players: int = 3) -> tuple[GameLog, Any]:
    """A game of random legal moves to its end, and its log."""
    names = tuple(f"P{i}" for i in range(players))
    game = game_class(name).new(list(names), options, seed)
    rng = random.Random(seed)
    actions = []
    while not game.finished:
        actions.append(game.apply(game.random_action(rng)).action)
    return GameLog(name, names, options, seed, tuple(actions)), game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_carcassonne_story_adds_up_to_the_final_scores(seed: int) -> None:
    log, game = played("carcassonne", {"tower": True}, seed)
    told = story(log)
    result = game.result()
    assert (told["scores"], told["winners"], told["turns"]) == (result["scores"], result["winners"], result["turn"])
    assert [sum(points.values()) for points in told["features"]] == result["scores"]
    assert told["lead"][-1] == [result["turn"], result["scores"]] and told["lead"][0][0] == 1
    assert all(a[0] < b[0] for a, b in pairwise(told["lead"])), "one entry per turn, in order"
    biggest = told["biggest"]
    assert biggest is None or (biggest["points"] > 0 and set(biggest["scorers"]) <= {0, 1, 2})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_catan_story_counts_every_roll_card_and_award(seed: int) -> None:
    log, game = played("catan", {}, seed)
    told = story(log)
    rolls = [a for a in log.actions if a["type"] == "roll"]
    assert sum(told["dice"]) == len(rolls)
    assert told["dice"][7 - 2] == sum(sum(a["dice"]) == 7 for a in rolls)
    discarded = [0] * 3
    for action in log.actions:
        if action["type"] == "discard":
            discarded[action["player"]] += sum(action["cards"].values())
    stolen = [0] * 3
    for action in log.actions:
        if action["type"] in ("robber", "knight") and action.get("stolen"):
            stolen[action["victim"]] += 1
    assert told["robbed"] == [d + s for d, s in zip(discarded, stolen, strict=True)]
    result = game.result()
    for award in ("longest_road", "largest_army"):
        holders = told["holders"][award]
        assert (holders[-1][1] if holders else None) == result[award]
        assert [turn for turn, _ in holders] == sorted(turn for turn, _ in holders)
    assert all(n >= 0 for n in told["gained"] + told["traded"]) and sum(told["gained"]) > 0


def test_a_game_not_over_has_no_story() -> None:
    log, _ = played("carcassonne", {}, 1)
    with pytest.raises(ValueError, match="not over"):
        story(GameLog(log.game, log.players, log.options, log.seed, log.actions[:10]))
