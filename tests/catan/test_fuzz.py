"""Malformed and illegal actions in random positions: always a RuleError, and the state exactly as before."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catan import Catan
from engine.catan.game import FIELDS
from engine.errors import RuleError

VALUES: list[Any] = [
    None, True, 0, 1, 2, 3, 7, 55, -1, 2.5, "A", "J", "N", "Z", "J-NE", "1-4", "5-9", "9-13", "x", "ore", "gold",
    "knight", [], [1, 2], [7, 7], [3, 4], ["1-5"], ["1-5", "1-4"], {}, {"ore": 1}, {"ore": -1}, {"gold": 1},
    {"brick": 4}, {"wool": 2.5}, {"brick": 1, "ore": 1}, {"lumber": 2},
]  # fmt: skip
NAMES = sorted({f for fields in FIELDS.values() for f in fields} | {"extra"})
TYPES: list[Any] = [*FIELDS, "jump", None, 3]


def random_action(rng: random.Random, game: Catan) -> dict[str, Any]:
    kind = rng.choice(TYPES)
    action: dict[str, Any] = {"type": kind, "player": rng.choice([*range(game.n), -1, game.n, "0", None])}
    fields = sorted(FIELDS.get(kind, frozenset())) if isinstance(kind, str) else []
    for name in fields:
        if rng.random() < 0.8:
            action[name] = rng.choice(VALUES)
    if rng.random() < 0.1:
        action[rng.choice(NAMES)] = rng.choice(VALUES)
    if rng.random() < 0.05:
        del action["type"]
    return action


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), steps=st.integers(0, 600))
def test_any_action_is_applied_or_refused_cleanly(seed: int, players: int, steps: int) -> None:
    game = Catan.new([f"P{i}" for i in range(players)], {}, seed)
    policy = random.Random(seed)
    for _ in range(steps):
        if game.finished:
            break
        game.apply(game.random_action(policy))
    fuzz = random.Random(seed + steps)
    for _ in range(150):
        before = json.dumps(game.to_json(), sort_keys=True)
        action = random_action(fuzz, game)
        try:
            game.apply(action, replay=fuzz.random() < 0.5)
        except RuleError as err:
            assert err.code and err.message
            assert json.dumps(game.to_json(), sort_keys=True) == before, (action, err.code)
        for r in range(5):
            assert game.bank[r] + sum(h[r] for h in game.hand) == 19
