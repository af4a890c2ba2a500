"""What starting one of the bot's worker processes costs (a drawing process, the computer players' process): the CPU
a new worker spends before it can take its first job, spawned (a fresh Python that imports the drawing code) against
forked from multiprocessing's fork server that imported it once (``bot.host.pipe_worker.worker_context``).

Each worker runs ``bot.core.rendering``'s background entry (the drawing settings, no warm-up: what the background
drawing process does each time it starts after a quiet spell), says it is ready, and reports its own CPU seconds
(``time.process_time``) at that moment. The fork server's one start is left out (it happens once, with the bot's first
worker). Prints one JSON object: per method, the CPU ms of each start, their median, and the wall ms to ready.

Run: ``python bench/worker_start_bench.py [--starts 5]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from bot.core import rendering
from bot.host import pipe_worker


def ready_then_report(conn: Connection) -> None:
    rendering.drawing_process_settings()  # what the background drawing process does before saying it is ready
    conn.send_bytes(json.dumps(time.process_time()).encode())
    conn.recv_bytes()  # until told to stop


def starts(method: str, count: int) -> dict[str, object]:
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(pipe_worker.WORKER_MODULES))
    cpu, wall = [], []
    for i in range(count + (1 if method == "forkserver" else 0)):
        here, there = context.Pipe()
        started = time.perf_counter()
        process = context.Process(target=ready_then_report, args=(there,), daemon=True)
        process.start()
        there.close()
        spent = json.loads(here.recv_bytes())
        took = time.perf_counter() - started
        here.send_bytes(b"stop")
        process.join()
        if method == "forkserver" and i == 0:
            continue  # the server's own start, once per bot
        cpu.append(round(spent * 1000, 1))
        wall.append(round(took * 1000, 1))
    return {"cpu_ms": cpu, "cpu_ms_median": statistics.median(cpu), "wall_ms_median": statistics.median(wall)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=5, help="worker starts per method (default 5)")
    args = parser.parse_args()
    methods = [m for m in ("spawn", "forkserver") if m in multiprocessing.get_all_start_methods()]
    print(json.dumps({method: starts(method, args.starts) for method in methods}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
