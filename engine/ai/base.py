"""What every computer player is given and what it must do."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.game import Action

LEVELS = ("random", "standard", "expert")


@dataclass(frozen=True)
class Situation:
    """One decision: the seat's view of the game (``Game.view(seat)``) and its legal actions, nothing more."""

    game: str  # "carcassonne" or "catan"
    seat: int
    view: Mapping[str, Any]
    legal: Sequence[Action]
    rng: random.Random  # the policy's own generator (never the game's)


class Policy(Protocol):
    level: str

    def choose(self, situation: Situation) -> Action:
        """One of ``situation.legal`` (or an equivalent complete action the seat may take)."""
        ...


def policy_seed(game_seed: int, seat: int, step: int) -> int:
    """A deterministic seed for a computer decision, so a host can reproduce it without storing a generator."""
    return (game_seed * 1_000_003 + seat * 7919 + step) & 0xFFFF_FFFF_FFFF


class RandomPolicy:
    """``random``: uniform over the legal actions."""

    level = "random"

    def choose(self, situation: Situation) -> Action:
        return dict(situation.legal[situation.rng.randrange(len(situation.legal))])
