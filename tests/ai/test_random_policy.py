"""The random computer player: legal moves only, reproducible from its seed, whole games to the end."""

from __future__ import annotations

import random

import pytest

from engine.ai import decide, policy_seed
from engine.errors import RuleError
from engine.registry import game_class


@pytest.mark.parametrize("name,players", [("carcassonne", 2), ("catan", 3)])
def test_random_players_finish_a_game_with_legal_moves(name: str, players: int) -> None:
    game = game_class(name).new([f"P{i}" for i in range(players)], {}, seed=7)
    rng = random.Random(policy_seed(7, 0, 0))
    for _ in range(20_000):
        if game.finished:
            break
        auto = game.automatic_action()
        seat = game.actors()[-1]  # answers to offers and discards before the player on turn, as the bot asks
        action = auto if auto is not None else decide(game, seat, "random", rng)
        game.apply(action)
    assert game.finished


def test_a_seat_that_owes_nothing_cannot_be_asked() -> None:
    game = game_class("carcassonne").new(["A", "B"], {}, seed=1)
    with pytest.raises(RuleError) as err:
        decide(game, 1 - game.actors()[0], "random", random.Random(1))
    assert err.value.code == "not_your_turn"


def test_unknown_level_is_refused_with_the_allowed_levels() -> None:
    game = game_class("catan").new(["A", "B", "C"], {}, seed=1)
    with pytest.raises(RuleError) as err:
        decide(game, game.actors()[0], "grandmaster", random.Random(1))
    assert err.value.code == "unknown_level"
    assert err.value.params["allowed"] == ["random", "standard", "expert"]
