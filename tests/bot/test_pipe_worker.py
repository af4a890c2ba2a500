"""How the bot's worker processes (drawing, thinking) start: forked from multiprocessing's fork server, which has
imported what they run, and with the bot's environment as it is when each starts."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import random
import struct
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from bot.host.pipe_worker import READ_BYTES, STOP, WORKER_MODULES, Frames, serve, start_worker, worker_context


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


def test_answers_are_read_as_their_bytes_arrive_however_the_pipe_cuts_them() -> None:
    rng = random.Random(5)
    messages = [b"", b"ready", rng.randbytes(70_000), STOP, rng.randbytes(5), rng.randbytes(300_000)]
    ours, theirs = multiprocessing.Pipe()
    writer = threading.Thread(target=lambda: [theirs.send_bytes(m) for m in messages])  # as a worker writes
    writer.start()
    wire = bytearray()
    while len(wire) < sum(4 + len(m) for m in messages):  # read as the bytes come
        wire += os.read(ours.fileno(), 1 << 20)
    writer.join()
    ours.close()
    theirs.close()
    long_form = struct.pack("!iQ", -1, 3) + b"abc"  # the header of a message of 2 GiB or more, on a short one
    wire += long_form
    for _ in range(50):
        frames, read, at = Frames(), [], 0
        while at < len(wire):
            step = rng.choice([1, 2, 3, 4, 7, 100, 65_536, READ_BYTES])
            read += frames.feed(bytes(wire[at : at + step]))
            at += step
        assert read == [*messages, b"abc"]
    with pytest.raises(ValueError, match="length -2"):
        Frames().feed(struct.pack("!i", -2))
