"""``Game.stalled``: a game that can never end is recognised, and a game said to be stalled never ends."""

from __future__ import annotations

import random

import pytest

import engine.catan.options
from engine.carcassonne import Carcassonne
from engine.catan import Catan


@pytest.fixture
def any_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Targets past the limit the lobby and the engine allow: where games stall."""
    monkeypatch.setattr(engine.catan.options, "MAX_POINTS_TO_WIN", 30)


def play(game: Catan | Carcassonne, rng: random.Random, actions: int) -> int:
    """Up to ``actions`` random actions; how many were played."""
    for done in range(actions):
        if game.finished:
            return done
        game.apply(game.random_action(rng))
    return actions


@pytest.mark.usefixtures("any_points")
def test_a_game_said_to_be_stalled_never_ends_and_its_leader_never_passes_the_bound() -> None:
    stalls = 0
    for seed in range(24):
        points = 13 + seed % 5
        game = Catan.new([f"P{i}" for i in range(3 + seed % 2)], {"points_to_win": points}, seed)
        rng = random.Random(seed)
        while not game.finished and not game.stalled() and game.actions < 15_000:
            play(game, rng, 16)
        if not game.stalled():
            continue
        stalls += 1
        bounds = [game.most_points(seat) for seat in range(game.n)]
        play(game, rng, 3_000)
        assert not game.finished, f"seed {seed}: said to be stalled at {points} points, then won"
        assert all(game.points(s) <= bound for s, bound in enumerate(bounds))
    assert stalls >= 8  # the check has something to check


@pytest.mark.usefixtures("any_points")
def test_a_target_past_every_piece_card_and_award_is_stalled_from_the_first_turn() -> None:
    game = Catan.new(["A", "B", "C", "D"], {"points_to_win": 23}, 1)  # 13 from buildings, 4 awards, 5 cards: 22
    rng = random.Random(1)
    while game.phase == "setup":
        assert not game.stalled()  # nothing is decided while the set-up runs
        play(game, rng, 1)
    assert game.stalled()


def test_a_game_that_can_still_be_won_is_not_stalled() -> None:
    game = Catan.new(["A", "B", "C"], {"points_to_win": 10}, 4)
    rng = random.Random(4)
    while not game.finished:
        assert not game.stalled()
        play(game, rng, 1)
    assert not game.stalled()  # over is not stalled


def test_a_carcassonne_game_always_ends() -> None:
    game = Carcassonne.new(["A", "B"], {}, 1)
    rng = random.Random(1)
    while not game.finished:
        assert not game.stalled()
        play(game, rng, 1)
