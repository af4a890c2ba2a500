"""Ratings: openskill's Plackett-Luce model (a Bayesian rating for games of any number of players) over finished
games, per server and game (a *pool*).

A rating is a belief about a player's skill: ``mu`` (the estimate) and ``sigma`` (how unsure it is). What
``/stats`` shows is the conservative ``mu - 3 sigma`` (``Standing.rating``): a newcomer starts at 0 and climbs as the
games make the estimate surer. A person is rated by their user id; a computer player by its level, one rating per
level, so that beating the standard computer counts, and counts more than beating a random one.

Everything here is pure: ``rate`` moves the players of one game on from their standings; ``fold`` rates a pool's
games in order from nothing. Rating a game from stored standings gives exactly (to the bit) what folding every game
gives, since both run the same arithmetic on the same numbers in the same order: that is what lets
``python -m bot ratings --rebuild`` prove the stored ratings right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3
MU: Final = MODEL.mu
SIGMA: Final = MODEL.sigma
Z: Final = 3.0  # standard deviations below the estimate that the shown rating stands


@dataclass(frozen=True, order=True)
class Player:
    """Who is rated: a person (their user id) or a computer player (user id 0 and its level)."""

    user_id: int
    level: str = ""

    @property
    def computer(self) -> bool:
        return self.user_id == 0


@dataclass(frozen=True)
class Placing:
    """A seat's outcome in one game: its player, its place (1: first; ties share) and whether it won."""

    seat: int
    player: Player
    place: int
    won: bool


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the ratings see it: when it ended (the order of a pool's games, with its id) and its
    placings."""

    game_id: int
    finished_at: float
    placings: tuple[Placing, ...]

    @property
    def order(self) -> tuple[float, int]:
        return (self.finished_at, self.game_id)


@dataclass(frozen=True)
class Standing:
    """A player's rating now, and their record: games rated, wins, wins in a row up to now."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    streak: int = 0
    rated_at: float = 0.0

    @property
    def rating(self) -> float:
        """The rating shown: ``mu - 3 sigma``, which a player's true skill very likely exceeds."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class Change:
    """One seat's rating before and after a game (a row of ``rating_changes``)."""

    game_id: int
    finished_at: float
    placing: Placing
    before: tuple[float, float]
    after: tuple[float, float]


@dataclass
class Pool:
    """A pool's ratings as a fold leaves them: each player's standing and every change, in order."""

    standings: dict[Player, Standing] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)


def placings(players: Sequence[Player], scores: Sequence[int], winners: Iterable[int]) -> tuple[Placing, ...]:
    """Each seat's place in a finished game: winners before everyone else, then by score; equal ones tie."""
    won = set(winners)
    key = [(seat in won, scores[seat]) for seat in range(len(players))]
    return tuple(
        Placing(seat, player, 1 + sum(other > key[seat] for other in key), seat in won)
        for seat, player in enumerate(players)
    )


def rate(standings: Mapping[Player, Standing], game: RatedGame) -> tuple[dict[Player, Standing], list[Change]]:
    """The players of ``game`` after it, from their standings before it (a player missing has none yet), and each
    seat's change. A player in several seats (two computers of one level) ends at the mean of its seats' results."""
    seats = game.placings
    before = {p.player: standings.get(p.player, Standing()) for p in seats}
    teams = [[MODEL.rating(mu=before[p.player].mu, sigma=before[p.player].sigma)] for p in seats]
    rated = MODEL.rate(teams, ranks=[float(p.place) for p in seats])
    results: dict[Player, list[tuple[float, float]]] = {}
    for placing, (new,) in zip(seats, rated, strict=True):
        results.setdefault(placing.player, []).append((new.mu, new.sigma))
    after: dict[Player, Standing] = {}
    for player, outcomes in results.items():
        mu = sum(o[0] for o in outcomes) / len(outcomes)
        sigma = sum(o[1] for o in outcomes) / len(outcomes)
        won = any(p.won for p in seats if p.player == player)
        old = before[player]
        after[player] = replace(
            old,
            mu=mu,
            sigma=sigma,
            games=old.games + 1,
            wins=old.wins + won,
            streak=old.streak + 1 if won else 0,
            rated_at=game.finished_at,
        )
    changes = [
        Change(
            game.game_id,
            game.finished_at,
            p,
            (before[p.player].mu, before[p.player].sigma),
            (after[p.player].mu, after[p.player].sigma),
        )
        for p in seats
    ]
    return after, changes


def fold(games: Iterable[RatedGame]) -> Pool:
    """A pool's ratings from nothing: its games rated one by one in the order they ended."""
    pool = Pool()
    for game in sorted(games, key=lambda g: g.order):
        after, changes = rate(pool.standings, game)
        pool.standings.update(after)
        pool.changes += changes
    return pool
