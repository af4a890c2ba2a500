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
from engine.limits import CHECK_EVERY, Outcome, stopped
from engine.registry import game_class

# Called with the number of the game being played (from 0) and its actions so far, every so often: the command
# line shows it to a person waiting.
Progress = Callable[[int, int], None]


@dataclass
class Tally:
    """What the games so far add up to, per entry of the players list (not per seat)."""

    entries: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)  # per game: finished, or why it was cut short

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
    progress: Progress | None = None,
) -> Game:
    """One game with entry ``seats[s]`` in seat ``s``, played until it ends or is cut short (``engine.limits``);
    decision times and how it ended go into the tally."""
    game = cls.new([f"{levels[e]}-{e + 1}" for e in seats], options, seed)
    step = 0
    while (ended := stopped(game, step)) is None:
        if progress is not None and step % CHECK_EVERY == 0:
            progress(tally.games, step)
        action = game.automatic_action()
        if action is None:
            seat = game.actors()[0]
            level = levels[seats[seat]]
            rng = random.Random(policy_seed(seed, seat, step))
            started = clock()
            action = decide(game, seat, level, rng)
            tally.times[level].append(clock() - started)
        game.apply(action)
        step += 1
    tally.outcomes.append(ended)
    result = game.result()
    for seat, entry in enumerate(seats):
        tally.scores[entry] += result["scores"][seat]
        if seat in result["winners"]:
            tally.wins[entry] += 1
    tally.games += 1
    return game


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a win rate, ``wins`` of ``n`` (95% for the default ``z``), within 0 and 1: what
    the arenas in ``bench/`` report beside every rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def play_games(
    game: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any],
    clock: Callable[[], float],
    progress: Progress | None = None,
) -> Tally:
    """Play ``games`` games, seats rotating, and add them up."""
    cls = game_class(game)
    for level in levels:
        policy_for(game, level)  # an unknown level fails before any game is played
    tally = Tally(list(levels))
    seeds = random.Random(seed)
    for index in range(games):
        play_one(cls, levels, seating(len(levels), index), options, seeds.getrandbits(48), clock, tally, progress)
    return tally


def summary(game: str, tally: Tally) -> dict[str, Any]:
    """The games as the ``arena`` command prints them; ``unfinished`` counts the games cut short, which have no
    winner (``Tally.outcomes`` says why)."""
    games = tally.games
    return {
        "game": game,
        "players": list(tally.entries),
        "games": games,
        "wins": tally.wins,
        "win_rates": [round(w / games, 4) for w in tally.wins],
        "mean_scores": [round(s / games, 2) for s in tally.scores],
        "seconds_per_decision_p95": {level: round(percentile(t, 0.95), 5) for level, t in tally.times.items()},
        "unfinished": games - tally.outcomes.count("finished"),
    }


def arena(
    game: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any],
    clock: Callable[[], float],
) -> dict[str, Any]:
    """Play ``games`` games and summarise them as the ``arena`` command prints them."""
    return summary(game, play_games(game, levels, games, seed, options, clock))
