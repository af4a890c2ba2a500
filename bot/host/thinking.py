"""Computer decisions off the event loop: quick levels in a thread, searching levels in a worker process.

A searching level (``engine.ai.SEARCHING``, e.g. ``expert``) may think for about a second of CPU. In a thread of
the bot's process it would hold the GIL that long and every other game's clicks would wait behind it, so its
decisions go to one worker process of their own, started on first use (a bot without such players never starts
it). The levels that take milliseconds stay in a thread: sending a game to another process costs more than they
think.

A job crosses to the worker as plain data: the policy's factory (by reference: pickle sends its module and name),
the game's name and state JSON, the seat and the decision's seed. The worker rebuilds the game and decides; a
decision is a pure function of those, so a job whose worker died is simply sent again to a new one, and a bot that
restarts mid-decision loses nothing (the computer's runner asks again). A worker that dies twice on one job, or
thinks past ``limit`` seconds (it is killed), makes the job fail with ``ThinkingFailed``; the caller decides then at
a quick level, so a searching player never stalls a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Final

from bot.host.pipe_worker import STOP, serve, start_worker
from engine import game_class
from engine.ai import Factory, decide_with, policy_seed
from engine.game import Action

log = logging.getLogger("boardhost.thinking")

ATTEMPTS: Final = 2  # a job whose worker dies is sent to a new worker once more
LIMIT: Final = 20.0  # seconds a decision may take (a policy's budget is about one): then the worker is killed


class ThinkingFailed(RuntimeError):
    """A decision could not be had from the worker process: the policy raised, the worker died, or it took too long."""


@dataclass(frozen=True)
class Decision:
    """One computer decision as plain data: what a worker process needs, and all it needs."""

    factory: Factory
    game: str
    state: Mapping[str, Any]
    seat: int
    seed: int  # the decision's own seed (``policy_seed``)

    @classmethod
    def of(
        cls, factory: Factory, game: str, state: Mapping[str, Any], seat: int, game_seed: int, step: int
    ) -> Decision:
        return cls(factory, game, state, seat, policy_seed(game_seed, seat, step))


def decide(job: Decision) -> Action:
    """The decision ``job`` describes (in the worker, and in tests)."""
    game = game_class(job.game).from_json(job.state)
    return decide_with(job.factory(), game, job.seat, random.Random(job.seed))


def _worker(conn: Connection) -> None:
    """The worker process: one decision at a time until the bot closes the pipe or says stop."""
    serve(conn, lambda data: decide(pickle.loads(data)))


@dataclass(eq=False)
class _Worker:
    process: Any  # a multiprocessing Process (forked from the fork server, or spawned)
    conn: Connection


class Thinker:
    """The worker process of the searching levels: started on first use, one decision at a time."""

    def __init__(self, *, limit: float = LIMIT) -> None:
        self.limit = limit
        self._worker: _Worker | None = None
        self._lock = asyncio.Lock()  # one decision at a time: the worker has one pipe
        self._closing = False
        self.started = 0  # worker processes started so far (tests watch it)

    def pid(self) -> int | None:
        """The worker's process id while one runs."""
        worker = self._worker
        return worker.process.pid if worker is not None and worker.process.is_alive() else None

    async def choose(self, job: Decision) -> Action:
        """``job``'s decision, made in the worker process (``ThinkingFailed`` when it cannot be had)."""
        payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        async with self._lock:
            for attempt in range(1, ATTEMPTS + 1):
                if self._closing:
                    raise ThinkingFailed("the bot is closing")
                worker = self._worker if self._worker is not None else self._start()
                try:
                    data = await asyncio.wait_for(asyncio.to_thread(_exchange, worker.conn, payload), self.limit)
                except TimeoutError:
                    self._drop(worker)
                    raise ThinkingFailed(f"no decision within {self.limit:g} s (worker stopped)") from None
                except asyncio.CancelledError:  # its answer would be read as the next decision's: a fresh worker
                    self._drop(worker)
                    raise
                except (EOFError, OSError) as err:  # the worker died: a new one gets the job again
                    self._drop(worker)
                    process = worker.process
                    log.error("decision process %s exited (code %s) while thinking; attempt %d of %d (%s)",
                              process.pid, process.exitcode, attempt, ATTEMPTS, type(err).__name__)  # fmt: skip
                    continue
                ok, value = pickle.loads(data)
                if not ok:
                    raise ThinkingFailed(str(value))
                return dict(value)
        raise ThinkingFailed(f"the decision process died {ATTEMPTS} times on one decision")

    def _start(self) -> _Worker:
        process, here = start_worker("boardhost-think", _worker)
        self.started += 1
        self._worker = _Worker(process, here)
        return self._worker

    def _drop(self, worker: _Worker) -> None:
        """Kill ``worker`` (a thread still waiting on its pipe then sees the pipe end) and forget it."""
        if self._worker is worker:
            self._worker = None
        if worker.process.is_alive():
            worker.process.kill()
        threading.Thread(target=_reap, args=(worker,), name="boardhost-think-reap", daemon=True).start()

    def close(self) -> None:
        """Stop the worker (SIGTERM of the bot): a decision under way is dropped; its game's runner asks again after
        the next start."""
        self._closing = True
        worker, self._worker = self._worker, None
        if worker is None:
            return
        with contextlib.suppress(OSError):  # already gone
            worker.conn.send_bytes(STOP)
        worker.process.join(timeout=0.5)  # idle: it reads STOP at once; thinking: it is killed
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout=5)
        worker.conn.close()


def _exchange(conn: Connection, payload: bytes) -> bytes:
    """In a thread: send the job and wait for the worker's answer (the GIL is free while it thinks)."""
    conn.send_bytes(payload)
    return conn.recv_bytes()


def _reap(worker: _Worker) -> None:
    worker.process.join(timeout=5)
    with contextlib.suppress(OSError):
        worker.conn.close()
