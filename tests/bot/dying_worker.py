"""A drawing process that dies before it is ready (a broken install, say), for tests/bot/test_rendering.py."""

from __future__ import annotations

import os
from multiprocessing.connection import Connection


def die(conn: Connection) -> None:
    os._exit(3)
