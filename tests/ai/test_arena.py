"""``python -m engine arena``: computer players against each other, seats rotating, one JSON object out."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.ai.arena import Tally, arena, percentile, play_one, seating, wilson
from engine.cli import main
from engine.registry import game_class

KEYS = ["game", "players", "games", "wins", "win_rates", "mean_scores", "seconds_per_decision_p95", "unfinished"]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["arena", *argv]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # exactly one JSON object
    parsed: dict[str, object] = json.loads(out)
    return parsed


def test_carcassonne_arena_prints_one_summary_in_the_order_of_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_cli(capsys, "carcassonne", "--players", "standard,random", "--games", "2", "--seed", "4")
    assert list(summary) == KEYS
    assert summary["game"] == "carcassonne"
    assert summary["players"] == ["standard", "random"]
    assert summary["games"] == 2
    wins, rates, means = summary["wins"], summary["win_rates"], summary["mean_scores"]
    assert isinstance(wins, list) and isinstance(rates, list) and isinstance(means, list)
    assert len(wins) == len(rates) == len(means) == 2
    assert sum(wins) >= 2  # every finished game has a winner; a tie counts for each
    assert rates == [w / 2 for w in wins]
    times = summary["seconds_per_decision_p95"]
    assert isinstance(times, dict) and set(times) == {"standard", "random"}
    assert all(isinstance(t, float) and t >= 0 for t in times.values())


def test_catan_arena_runs_with_whatever_levels_are_registered(capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_cli(capsys, "catan", "--players", "random,random,random", "--games", "1", "--seed", "2")
    assert summary["players"] == ["random", "random", "random"]
    times = summary["seconds_per_decision_p95"]
    assert isinstance(times, dict) and list(times) == ["random"]


def test_an_unknown_level_is_refused_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "carcassonne", "--players", "standard,grandmaster", "--games", "1"]) == 2
    assert "grandmaster" in capsys.readouterr().err


def test_game_i_shifts_the_seating_by_i() -> None:
    assert [seating(3, i) for i in range(4)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]
    cls = game_class("carcassonne")
    levels = ["random", "random", "random"]
    tally = Tally(levels)
    first_seats = []
    for index in range(3):
        game = play_one(cls, levels, seating(3, index), {}, 100 + index, itertools.count().__next__, tally)
        first_seats.append(game.players[0])
    assert first_seats == ["random-1", "random-2", "random-3"]
    assert tally.games == 3


def test_wins_and_scores_are_credited_to_the_entry_not_the_seat() -> None:
    clock = itertools.count().__next__  # a fake clock: every decision takes one tick
    levels = ["random", "random"]
    tally = Tally(levels)
    game = play_one(game_class("carcassonne"), levels, seating(2, 1), {"river": False}, 5, clock, tally)
    result = game.result()
    # Game 1 seats entry 1 first: seat 0's score and win belong to the second entry.
    assert tally.scores == [result["scores"][1], result["scores"][0]]
    assert tally.wins == [int(1 in result["winners"]), int(0 in result["winners"])]
    assert tally.times == {"random": [1] * len(tally.times["random"])}


def test_a_fake_clock_gives_exact_decision_times() -> None:
    summary = arena("carcassonne", ["random", "random"], 2, 9, {"river": False}, itertools.count().__next__)
    assert summary["seconds_per_decision_p95"] == {"random": 1}


def test_p95_is_the_nearest_rank() -> None:
    assert percentile([], 0.95) == 0.0
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0
    assert percentile([3.0], 0.95) == 3.0


def test_the_wilson_interval_of_a_win_rate_stays_within_nothing_and_everything() -> None:
    low, high = wilson(103, 200)
    assert (round(low, 4), round(high, 4)) == (0.4461, 0.5833)  # 51.5% of 200, as bench/README.md reports it
    assert wilson(0, 0) == (0.0, 1.0)
    for wins, n in ((0, 10), (10, 10), (1, 1000), (999, 1000)):
        low, high = wilson(wins, n)
        assert 0.0 <= low < wins / n + 1e-9 and wins / n - 1e-9 < high <= 1.0
    assert wilson(1.5, 3)[0] < 0.5 < wilson(1.5, 3)[1]  # a shared first place counts half
