"""Smoke test of ``bench/bot_process_bench.py``: ``python -m bot`` as a process, played against the loopback Discord
by a tiny run, reports what it measured (no timing asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot_process_bench.py"


def test_a_tiny_run_plays_the_real_process_and_reports_its_cpu_and_requests() -> None:
    small = ["--config", "base", "--games", "2", "--actions", "8", "--rate", "0", "--idle", "0", "--settle", "0"]
    done = subprocess.run([sys.executable, str(BENCH), *small], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    run = json.loads(done.stdout)
    assert run["config"] == "base" and run["error_count"] == 0 and run["tracebacks_in_log"] == 0
    assert run["actions"] >= 8 and run["latency_ms"]["p95"] > 0 and run["private_reply_ms"]["p50"] > 0
    assert run["bot_process_cpu_ms_per_action"] > 0, "the bot process's CPU, read from /proc"
    assert run["drawing_probe_ms"] > 0, "how slow the machine draws: a sample board drawn in a process of its own"
    assert "discord_would_refuse" not in run
    # every action is answered through Discord: an interaction's answer, and a turn message posted or edited
    requests = run["requests_per_action"]
    assert requests["POST /interactions/:id/:id/callback"] >= 1
    assert requests.get("POST /channels/:id/messages", 0) + requests.get("PATCH /channels/:id/messages/:id", 0) >= 1
