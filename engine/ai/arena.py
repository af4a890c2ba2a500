"""Computer players against each other: ``python -m engine arena GAME --players standard,random ...``.

Seats rotate between games (game ``i`` shifts the seating by ``i``) so no level keeps the first-player advantage.
The clock is passed in by the caller (the command-line tool): policies never read it, the arena only times them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import decide, policy_for, policy_seed
from engine.game import Game
from engine.registry import game_class

# A uniformly random Catan game may wander for a very long time; an unfinished game has no winner.
MAX_ACTIONS = 20_000


@dataclass
class Tally:
    """What the games so far add up to, per entry of the players list (not per seat)."""

    entries: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0] * len(self.entries)
        self.scores = [0] * len(self.entries)
        self.times = {level: [] for level in self.entries}


def seating(entries: int, index: int) -> list[int]:
    """For game ``index``: the entry of the players list that sits in each seat."""
    return [(seat + index) % entries for seat in range(entries)]


def play_one(
    cls: type[Game],
    levels: Sequence[str],
    seats: list[int],
    options: Mapping[str, Any],
    seed: int,
    clock: Callable[[], float],
    tally: Tally,
) -> Game:
    """One game with entry ``seats[s]`` in seat ``s``; decision times go into the tally."""
    game = cls.new([f"{levels[e]}-{e + 1}" for e in seats], options, seed)
    for step in range(MAX_ACTIONS):
        if game.finished:
            break
        action = game.automatic_action()
        if action is None:
            seat = game.actors()[0]
            level = levels[seats[seat]]
            rng = random.Random(policy_seed(seed, seat, step))
            started = clock()
            action = decide(game, seat, level, rng)
            tally.times[level].append(clock() - started)
        game.apply(action)
    result = game.result()
    for seat, entry in enumerate(seats):
        tally.scores[entry] += result["scores"][seat]
        if seat in result["winners"]:
            tally.wins[entry] += 1
    tally.games += 1
    return game


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def arena(
    game: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any],
    clock: Callable[[], float],
) -> dict[str, Any]:
    """Play ``games`` games and summarise them as the ``arena`` command prints them."""
    cls = game_class(game)
    for level in levels:
        policy_for(game, level)  # an unknown level fails before any game is played
    tally = Tally(list(levels))
    seeds = random.Random(seed)
    for index in range(games):
        play_one(cls, levels, seating(len(levels), index), options, seeds.getrandbits(48), clock, tally)
    return {
        "game": game,
        "players": list(levels),
        "games": games,
        "wins": tally.wins,
        "win_rates": [round(w / games, 4) for w in tally.wins],
        "mean_scores": [round(s / games, 2) for s in tally.scores],
        "seconds_per_decision_p95": {level: round(percentile(t, 0.95), 5) for level, t in tally.times.items()},
    }
