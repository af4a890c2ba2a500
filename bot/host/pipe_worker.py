"""The loop of a worker process that answers one request at a time over a pipe: the drawing processes
(``bot.core.rendering``) and the computer players' thinking process (``bot.host.thinking``).

Each request is bytes (the caller's own pickle); each answer is ``(True, result)`` or, when answering raised,
``(False, "Kind: message")``, pickled: a request that fails is reported to whoever waits for it, and the worker goes
on with the next.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

STOP: Final = b"stop"  # the bot's last message to a worker


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
