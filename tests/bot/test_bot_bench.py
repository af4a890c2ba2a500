"""Smoke test of ``bench/bot_bench.py``: a tiny run plays through simulated Discord and reports (no timing asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot_bench.py"


def test_a_tiny_run_plays_and_reports() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "2", "--actions", "6", "--rate", "0", "--cpus", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert [run["config"] for run in result["runs"]] == ["base", "river+tower"]
    for run in result["runs"]:
        assert run["error_count"] == 0 and run["actions"] >= 6
        assert run["latency_ms"]["p95"] > 0 and run["png_kb_mean"] > 0
