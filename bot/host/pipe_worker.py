"""The loop of a worker process that answers one request at a time over a pipe: the drawing processes
(``bot.core.rendering``) and the computer players' thinking process (``bot.host.thinking``).

Both start the same way (``worker_context``): forked from a server process that imported what they run once, so a
new worker costs a fork rather than a Python start and its imports.

Each request is bytes (the caller's own pickle); each answer is ``(True, result)`` or, when answering raised,
``(False, "Kind: message")``, pickled: a request that fails is reported to whoever waits for it, and the worker goes
on with the next. The bot reads the answers from its event loop as they arrive (``Frames``): no thread of its own
waits on a worker's pipe.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import struct
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any, Final

STOP: Final = b"stop"  # the bot's last message to a worker
READ_BYTES: Final = (
    1 << 18
)  # one read from a worker's pipe: more than the pipe holds (about 200 kB), so one read empties it
# What worker processes run: the server they are forked from imports these once, before its first fork.
WORKER_MODULES: Final = ("bot.core.rendering", "bot.host.thinking")
_MONOTONIC: Final = time.monotonic  # the clock as this module found it


def worker_context() -> ForkServerContext | SpawnContext:
    """How a worker process starts: forked from multiprocessing's fork server, a process of its own with
    ``WORKER_MODULES`` imported (where the platform has one: Linux), else spawned. A spawned drawing process spent
    about 0.2 s of CPU on Python's start and its imports before its first picture, and the background one starts
    again after every quiet spell; a fork from the server costs a few milliseconds. Never a plain fork of the bot
    itself: its threads (SQLite, the event loop) would be copied mid-step."""
    if "forkserver" not in multiprocessing.get_all_start_methods() or time.monotonic is not _MONOTONIC:
        # multiprocessing waits for a fork server's children until a deadline read from ``time.monotonic``: a harness
        # that stands that clock still (simcord's virtual time, in the in-process tests and bench) would make every
        # such wait spin for ever. Spawned children are waited for without it.
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(WORKER_MODULES))  # read when the server starts: with the first worker
    return context


def start_worker(name: str, target: Callable[..., None], *args: Any) -> tuple[Any, Connection]:
    """Start a worker process that runs ``target(conn, *args)``; returns the process and the bot's end of the pipe
    ``conn`` is the other end of. The worker sees the bot's environment as it is now, as a spawned one would (the fork
    server's own is the bot's as it was when the server started)."""
    context = worker_context()
    here, there = context.Pipe()
    process = context.Process(target=_run, args=(dict(os.environ), target, there, *args), name=name, daemon=True)
    process.start()
    there.close()  # the child has its own copy; ours would keep the pipe open after the child died
    return process, here


def _run(environ: dict[str, str], target: Callable[..., None], *args: Any) -> None:
    if os.environ != environ:
        os.environ.clear()
        os.environ.update(environ)
    target(*args)


def serve(conn: Connection, answer: Callable[[bytes], Any]) -> None:
    """Answer every request read from ``conn`` with ``answer(request)`` until the bot closes the pipe or says stop."""
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):  # the bot is gone
            return
        if data == STOP:
            return
        try:
            result: tuple[bool, Any] = (True, answer(data))
        except Exception as err:  # reported to whoever waits for it; the worker goes on
            result = (False, f"{type(err).__name__}: {err}")
        conn.send_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))


class Frames:
    """The messages of one end of a pipe, read from the event loop as their bytes arrive (``feed`` each chunk
    ``os.read`` gave once the pipe was readable): multiprocessing's framing of ``send_bytes``, a 4-byte big-endian
    length (-1, then an 8-byte length, for a message of 2 GiB or more) before each message. A thread blocked in
    ``recv_bytes`` for every worker cost a thread's wake-up and a hand-over to the loop per answer."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._size: int | None = None  # the length of the message being read, once its header is in

    def feed(self, chunk: bytes) -> list[bytes]:
        """Take ``chunk`` (what one read gave) and return every message it completed, oldest first."""
        self._buffer += chunk
        done: list[bytes] = []
        while True:
            if self._size is None:
                if len(self._buffer) < _HEADER.size:
                    return done
                (size,) = _HEADER.unpack_from(self._buffer)
                header = _HEADER.size
                if size == -1:
                    if len(self._buffer) < _HEADER.size + _LONG.size:
                        return done
                    (size,) = _LONG.unpack_from(self._buffer, _HEADER.size)
                    header += _LONG.size
                elif size < 0:
                    raise ValueError(f"not a message header: length {size}")
                del self._buffer[:header]
                self._size = size
            if len(self._buffer) < self._size:
                return done
            with memoryview(self._buffer) as whole:  # one copy (a slice of the bytearray would be a second)
                done.append(whole[: self._size].tobytes())
            del self._buffer[: self._size]
            self._size = None


_HEADER: Final = struct.Struct("!i")
_LONG: Final = struct.Struct("!Q")
