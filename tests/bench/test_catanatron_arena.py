"""The catanatron arena's summary of where points came from, read from game lines as its log keeps them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bench.catanatron_arena import _by_seat, _made, _points_from, _spent, from_log

LOG = Path(__file__).resolve().parent.parent.parent / "bench" / "catan_expert_ab_tune7_exact_buy.log"


def made(settlements: int = 0, cities: int = 0, road: int = 0, army: int = 0, cards: int = 0) -> dict[str, int]:
    return {
        "settlements": settlements,
        "cities": cities,
        "point_cards": cards,
        "longest_road": road,
        "largest_army": army,
        "knights": 3 * army,
    }


def game(ours: int, result: str, points: list[int], made_by: list[dict[str, int]], pips: list[int]) -> dict[str, Any]:
    return {
        "seats": [ours],
        "result": result,
        "points": points,
        "made": made_by,
        "opening": [{"pips": p, "kinds": 4} for p in pips],
    }


def test_the_winner_is_the_other_seat_with_most_points_and_ours_is_counted_apart_by_result() -> None:
    lost = game(
        0,
        "theirs",
        [6, 10, 7, 4],
        [made(2, 1, army=1), made(2, 3, road=1), made(3, 2), made(4)],
        [20, 25, 18, 15],
    )
    won = game(2, "ours", [5, 8, 10, 3], [made(3), made(2, 2), made(2, 3, army=1, cards=1), made(3)], [19, 21, 23, 17])
    unfinished = game(1, "unfinished", [9, 9, 9, 9], [made()] * 4, [0, 0, 0, 0])

    means = _points_from([lost, won, unfinished])

    assert means["their_winner"] == {
        "games": 1,
        "points": 10.0,
        **made(2, 3, road=1),
        "opening_pips": 25.0,
        "opening_kinds": 4.0,
    }
    assert means["ours_lost"]["points"] == 6.0 and means["ours_lost"]["largest_army"] == 1.0
    assert means["ours_won"]["cities"] == 3.0 and means["ours_won"]["opening_pips"] == 23.0
    assert _by_seat([lost, won, unfinished]) == {"0": [0, 1], "1": [0, 1], "2": [1, 1]}


def test_logs_from_before_the_points_were_kept_summarise_without_them() -> None:
    old = {"seats": [3], "result": "ours", "points": [4, 5, 6, 10]}

    assert _points_from([old]) == {}
    assert _by_seat([old]) == {"3": [1, 1]}


def test_a_seats_pieces_on_the_board_are_what_it_no_longer_has_in_stock() -> None:
    state = SimpleNamespace(
        player_state={
            "P1_SETTLEMENTS_AVAILABLE": 2,  # a city gives its settlement back: these are on the board now
            "P1_CITIES_AVAILABLE": 3,
            "P1_VICTORY_POINT_IN_HAND": 1,
            "P1_PLAYED_VICTORY_POINT": 0,
            "P1_HAS_ROAD": True,
            "P1_HAS_ARMY": False,
            "P1_PLAYED_KNIGHT": 2,
        }
    )

    assert _made(state, 1) == {
        "settlements": 3,
        "cities": 1,
        "point_cards": 1,
        "longest_road": 1,
        "largest_army": 0,
        "knights": 2,
    }


def test_a_seats_cards_went_to_what_its_own_actions_bought() -> None:
    def act(color: str, kind: str) -> SimpleNamespace:
        return SimpleNamespace(color=color, action_type=SimpleNamespace(value=kind))

    actions = [act("RED", "BUY_DEVELOPMENT_CARD"), act("BLUE", "BUY_DEVELOPMENT_CARD"), act("BLUE", "MARITIME_TRADE")]
    actions += [act("BLUE", "DISCARD"), act("BLUE", "BUILD_CITY"), act("BLUE", "BUY_DEVELOPMENT_CARD")]
    state = SimpleNamespace(colors=("RED", "BLUE"), actions=actions, player_state={"P1_ROADS_AVAILABLE": 9})

    assert _spent(state, 1) == {"cards_bought": 2, "bank_trades": 1, "discards": 1, "roads": 6}
    assert _spent(SimpleNamespace(**{**vars(state), "player_state": {"P0_ROADS_AVAILABLE": 13}}), 0) == {
        "cards_bought": 1,
        "bank_trades": 0,
        "discards": 0,
        "roads": 2,
    }


def test_a_log_joining_runs_from_before_and_after_the_spending_was_kept_means_only_what_all_games_hold() -> None:
    spent = {"cards_bought": 4, "bank_trades": 6, "discards": 1, "roads": 9}
    old = game(0, "ours", [10, 4, 5, 6], [made(2, 2)] * 4, [20] * 4)
    new = {**game(0, "ours", [10, 4, 5, 6], [made(2, 4)] * 4, [20] * 4), "spent": [spent] * 4}

    assert _points_from([new])["ours_won"]["cards_bought"] == 4.0
    both = _points_from([old, new])["ours_won"]
    assert "cards_bought" not in both and both["cities"] == 3.0 and both["games"] == 2


def test_a_game_logged_twice_counts_once_as_first_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs that overlapped log a game twice: the summary counts the first, as ``bench/paired.py`` pairs it."""
    real = json.loads(LOG.read_text(encoding="utf-8").splitlines()[0])
    lines = [{**real, "result": "ours"}, {**real, "result": "theirs"}]
    log = tmp_path / "twice.log"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    args = argparse.Namespace(first=0, workers=1, level=None, against=None, ours=None, seeds=None)
    assert from_log(log, args) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["games"], report["our_wins"], report["their_wins"]) == (1, 1, 0)
