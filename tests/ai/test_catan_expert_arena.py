"""``bench/catan_expert_arena.py --no-domestic``: a tuning ground under catanatron's rule of no domestic trade."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.ai.arena import Tally, play_one
from engine.catan.game import Catan

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "catan_expert_arena.py"
sys.path.insert(0, str(BENCH.parent))
from catan_expert_arena import without_domestic_offers  # noqa: E402

LEVELS = ["standard"] * 4


def offers_made(monkeypatch: pytest.MonkeyPatch, seed: int) -> int:
    made: list[str] = []
    apply = Catan.apply

    def counted(game: Catan, action: Any, **kwargs: Any) -> Any:
        if action.get("type") == "offer":
            made.append(action["type"])
        return apply(game, action, **kwargs)

    monkeypatch.setattr(Catan, "apply", counted)
    tally = Tally(["a", "b", "c", "d"])
    tally.times = {"standard": []}
    play_one(Catan, LEVELS, [0, 1, 2, 3], {}, seed, lambda: 0.0, tally)
    return len(made)


def test_standard_players_trade_among_themselves_unless_domestic_trade_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert offers_made(monkeypatch, 4_000_001) > 0
    with without_domestic_offers():
        assert offers_made(monkeypatch, 4_000_001) == 0
    assert offers_made(monkeypatch, 4_000_001) > 0  # the standard players' own rule is back after the block


def test_the_arena_reports_a_run_without_domestic_trade() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "2", "--workers", "1", "--seeds", "tune", "--no-domestic"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=300,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["no_domestic"] is True
    assert report["games"] == 2 and report["unfinished"] == 0
