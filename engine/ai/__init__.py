"""Computer players: policies that choose one of a seat's legal actions from what that seat may see.

A policy never receives the game object. ``decide`` is the one place that touches it: it asks the game for the
seat's view (``Game.view(seat)``, the same function that filters what the bot shows that player) and for the
seat's legal actions, and hands only those to the policy. A policy that wants to look ahead builds its own model
from the view (hidden parts sampled with its own generator), so it cannot read another seat's secrets.
"""

from __future__ import annotations

import random

from engine.ai.base import LEVELS, SEARCHING, Policy, Situation, policy_seed
from engine.ai.registry import Factory, factory_for, levels, policy_for, register, strongest, unregister
from engine.errors import RuleError
from engine.game import Action, Game, not_your_turn

__all__ = [
    "LEVELS",
    "SEARCHING",
    "Factory",
    "Policy",
    "Situation",
    "decide",
    "decide_with",
    "factory_for",
    "levels",
    "policy_for",
    "policy_seed",
    "register",
    "strongest",
    "unregister",
]


def situation(game: Game, seat: int, rng: random.Random) -> Situation:
    """Everything a computer player in ``seat`` may know now: its view and its legal actions."""
    return Situation(game=game.GAME, seat=seat, view=game.view(seat), legal=game.legal_actions(seat), rng=rng)


def decide(game: Game, seat: int, level: str, rng: random.Random) -> Action:
    """The action the ``level`` computer player in ``seat`` takes now; ``seat`` must owe a decision."""
    return decide_with(policy_for(game.GAME, level), game, seat, rng)


def decide_with(policy: Policy, game: Game, seat: int, rng: random.Random) -> Action:
    """The action ``policy`` takes for ``seat`` now (a worker process is sent the policy's factory, not a level)."""
    if seat not in game.actors():
        raise not_your_turn(seat, game.current_seat())
    found = situation(game, seat, rng)
    if not found.legal:
        raise RuleError("no_legal_action", f"seat {seat} has no legal action", seat=seat)
    return policy.choose(found)
