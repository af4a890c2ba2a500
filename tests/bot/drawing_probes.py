"""Jobs and entry points for the drawing processes' tests (tests/bot/test_drawing_lanes.py, test_rendering.py),
importable by reference in a drawing process as render jobs are."""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from multiprocessing.connection import Connection

from bot.core.rendering import _worker


def niceness() -> bytes:
    """A job: the OS priority of the process, or the thread, that draws it."""
    return str(os.getpriority(os.PRIO_PROCESS, threading.get_native_id())).encode()


def sprites_held() -> bytes:
    """A job: how many Carcassonne tile sprites the drawing process has made so far (a warmed-up one holds them all)."""
    from render.carcassonne.sprites import tile_sprite

    return str(tile_sprite.cache_info().currsize).encode()


def pause(seconds: float, name: str) -> bytes:
    """A job that takes ``seconds`` to draw and answers ``name``."""
    time.sleep(seconds)
    return name.encode()


def noise(size: int, seed: int) -> bytes:
    """A job whose picture is ``size`` bytes of seeded noise (larger than a pipe holds, if asked)."""
    return random.Random(seed).randbytes(size)


def scribble(conn: Connection) -> None:
    """A drawing process that answers its first job with bytes no worker writes (a negative length), then hangs."""
    from bot.core.rendering import READY

    conn.send_bytes(READY)
    conn.recv_bytes()
    os.write(conn.fileno(), b"\xff\xff\xff\xfb")
    time.sleep(3600)


def die_in_background(conn: Connection) -> None:
    """A drawing process that works in the interactive lane and dies at once in the background lane."""
    if multiprocessing.current_process().name.endswith("background"):
        os._exit(3)
    _worker(conn)
