"""The registry of computer levels: each game has the levels registered for it, weakest first, and nothing else."""

from __future__ import annotations

import pytest

from engine.ai import LEVELS, levels, policy_for, register, strongest, unregister
from engine.ai.base import RandomPolicy
from engine.errors import RuleError


def a_random_player() -> RandomPolicy:
    return RandomPolicy()


def test_each_game_has_its_registered_levels_weakest_first() -> None:
    for game in ("carcassonne", "catan"):
        found = levels(game)
        assert found[:2] == ("random", "standard") and set(found) <= set(LEVELS)
        assert list(found) == sorted(found, key=LEVELS.index)
        assert strongest(game) == found[-1]


def test_a_level_registered_later_is_offered_in_its_place_and_taken_back() -> None:
    before = register("carcassonne", "expert", a_random_player)
    try:
        assert levels("carcassonne")[-1] == "expert" == strongest("carcassonne")
        assert isinstance(policy_for("carcassonne", "expert"), RandomPolicy)
    finally:
        unregister("carcassonne", "expert", before)
    assert ("expert" in levels("carcassonne")) == (before is not None)


def test_unknown_and_missing_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="grandmaster"):
        register("carcassonne", "grandmaster", a_random_player)
    with pytest.raises(RuleError) as err:
        policy_for("catan", "grandmaster")
    assert err.value.params["allowed"] == list(levels("catan"))
    assert levels("chess") == () and strongest("chess") == "random"
