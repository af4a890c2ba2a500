"""Smoke test of ``bench/bot_bench.py``: a tiny run plays through simulated Discord and reports (no timing asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import Server, required

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
        # The drawing processes are the fork server's children, not the bench's: their CPU is counted all the same.
        assert run["drawing_cpu_ms_per_action"] > 0


def test_the_cpu_below_a_process_counts_a_grandchild_that_ended() -> None:
    """As a drawing process forked from the fork server and stopped after its idle time: its CPU is the server's."""
    sys.path.insert(0, str(BENCH.parent))
    from bot_bench import cpu_of_descendants

    grandchild = "import time\nx = 0\nfor i in range(10**7): x += i\nprint(time.process_time())"
    server = (
        "import subprocess, sys, time\n"
        f"done = subprocess.run([sys.executable, '-c', {grandchild!r}], capture_output=True, text=True)\n"
        "print(done.stdout.strip(), flush=True)\n"
        "time.sleep(60)\n"
    )
    before = cpu_of_descendants(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", server], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        burnt = float(child.stdout.readline())  # the grandchild's own CPU seconds; it has ended and been waited for
        assert cpu_of_descendants(os.getpid()) - before >= burnt - 0.02  # clock ticks of /proc
    finally:
        child.kill()
        child.wait()


def test_sqlite_and_postgresql_with_one_and_two_processes_side_by_side(postgres_server: Server) -> None:
    if postgres_server.dsn is None:
        reason = postgres_server.why_not or "no PostgreSQL"
        if required():
            pytest.fail(reason)
        pytest.skip(reason)
    small = ["--config", "base", "--games", "4", "--actions", "8", "--rate", "0", "--cpus", "0"]
    small += ["--render-processes", "0", "--database-url", postgres_server.dsn]
    done = subprocess.run(
        [sys.executable, str(BENCH), "--compare", *small],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    rows = result["side_by_side"]
    assert [(r["backend"], r["processes"]) for r in rows] == [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)]
    assert all(r["actions"] >= 8 and r["actions_per_s"] > 0 and r["p95_ms"] > 0 for r in rows)
    two = result["runs"][2]
    assert two["games"] == 4 and [p["games"] for p in two["parts"]] == [2, 2] and two["error_count"] == 0
    assert "| base |" in done.stderr, "the side-by-side table"


def test_before_and_after_alternate_and_report_medians_and_ratios() -> None:
    tree = Path(__file__).resolve().parents[2]
    small = ["--config", "base", "--games", "2", "--actions", "6", "--rate", "0", "--cpus", "0"]
    done = subprocess.run(
        [sys.executable, str(BENCH), "--against", str(tree), "--repeat", "2", *small],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    runs = [(run["side"], run["round"]) for run in result["runs"]]
    assert runs == [("before", 1), ("after", 1), ("after", 2), ("before", 2)], "interleaved, first side alternating"
    assert result["code"]["before"]["tree"] == result["code"]["after"]["tree"] == str(tree)
    assert all(run["error_count"] == 0 and run["actions"] >= 6 for run in result["runs"])
    medians, ratios = result["medians"]["base"], result["ratios_after_over_before"]["base"]
    assert medians["before"]["actions_per_s"] > 0 and medians["after"]["p95"] > 0
    assert ratios["p95"] == round(medians["after"]["p95"] / medians["before"]["p95"], 3)
    assert result["paired_ratios_median"]["base"]["actions_per_s"] > 0, "each round's ratio, their median"
    assert all(run["cpu_ms_per_action_all"] >= run["cpu_ms_per_action"] for run in result["runs"]), "drawing counted"
    assert "| base | after / before |" in done.stderr, "the medians table"
