"""How the bot's worker processes (drawing, thinking) start: forked from multiprocessing's fork server, which has
imported what they run, and with the bot's environment as it is when each starts."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import subprocess
import sys
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from bot.host.pipe_worker import STOP, WORKER_MODULES, serve, start_worker, worker_context


def _report(conn: Connection) -> None:
    """Answers each request (a variable's name) with what this process knows of itself and that variable."""

    def answer(data: bytes) -> dict[str, object]:
        return {
            "parent": os.getppid(),
            "variable": os.environ.get(data.decode()),
            "imported": [name for name in WORKER_MODULES if name in sys.modules],
        }

    serve(conn, answer)


def ask(conn: Connection, variable: str) -> dict[str, object]:
    conn.send_bytes(variable.encode())
    ok, value = pickle.loads(conn.recv_bytes())
    assert ok, value
    return dict(value)


def stopped(process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
    conn.send_bytes(STOP)
    process.join(timeout=10)
    conn.close()
    assert process.exitcode == 0


def test_a_worker_is_forked_from_the_fork_server_with_what_workers_run_imported() -> None:
    assert worker_context().get_start_method() == "forkserver"
    process, conn = start_worker("test-worker", _report)
    try:
        seen = ask(conn, "HOME")
        # Not a child of the bot: a child of the server, which imported the drawing and thinking modules once.
        assert seen["parent"] != os.getpid()
        assert seen["imported"] == list(WORKER_MODULES)
    finally:
        stopped(process, conn)


def test_workers_are_spawned_where_the_clock_has_been_stood_still(monkeypatch: pytest.MonkeyPatch) -> None:
    # simcord's virtual time: multiprocessing's waits for a fork server's children would spin against it.
    monkeypatch.setattr("time.monotonic", lambda: 0.0)
    assert worker_context().get_start_method() == "spawn"


def test_a_worker_sees_the_environment_as_it_is_when_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    first, conn = start_worker("test-worker", _report)  # the server is running from here on
    stopped(first, conn)
    monkeypatch.setenv("BOARDHOST_TEST_WORKER_ENV", "set after the server started")
    monkeypatch.delenv("HOME", raising=False)
    process, conn = start_worker("test-worker", _report)
    try:
        assert ask(conn, "BOARDHOST_TEST_WORKER_ENV")["variable"] == "set after the server started"
        assert ask(conn, "HOME")["variable"] is None
    finally:
        stopped(process, conn)


def test_the_worker_start_bench_reports_both_ways_of_starting() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "worker_start_bench.py"
    done = subprocess.run([sys.executable, str(bench), "--starts", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert set(report) == {"spawn", "forkserver"}
    assert all(len(method["cpu_ms"]) == 1 for method in report.values())
