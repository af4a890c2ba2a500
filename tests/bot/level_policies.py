"""Test players registered at a level (``engine.ai.register``) by tests of the lobby and of the decision process.

They are module-level so that the decision process can import them: a factory crosses to it by reference.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from engine.ai import Policy, Situation
from engine.game import Action

MARKS = "BOARDHOST_TEST_THINKING"  # a directory where the slow player notes when it thought (crosses processes)
# The regular expression engine backtracks through every way of splitting the a's (a Fibonacci number of them) in
# one C call that never lets the GIL go: about a second and a half here, the worst a search could do to a thread.
HOLD_GIL = re.compile(r"(a|aa)*c")
AS = 35


class FirstLegal:
    """Plays the first legal action: a stand-in for an ``expert`` that is not there yet."""

    level = "expert"

    def choose(self, situation: Situation) -> Action:
        return dict(situation.legal[0])


class SlowFirstLegal(FirstLegal):
    """Thinks about a second and a half holding the GIL, then plays the first legal action; notes when (wall
    clock) it started and ended in ``$BOARDHOST_TEST_THINKING/<pid>.json``."""

    def choose(self, situation: Situation) -> Action:
        marks = Path(os.environ[MARKS])
        started = time.time()
        (marks / "started").write_text(str(started))
        HOLD_GIL.match("a" * AS)
        ended = time.time()
        (marks / f"{os.getpid()}.json").write_text(json.dumps({"started": started, "ended": ended}))
        return super().choose(situation)


def first_legal() -> Policy:
    return FirstLegal()


def slow_first_legal() -> Policy:
    return SlowFirstLegal()


def crash() -> Policy:
    os._exit(3)  # the decision process dies mid-decision


def broken() -> Policy:
    raise RuntimeError("this player is broken")


def crash_once() -> Policy:
    """The first decision process to make it dies; the next one plays."""
    crashed = Path(os.environ[MARKS]) / "crashed"
    if not crashed.exists():
        crashed.write_text("once")
        os._exit(3)
    return FirstLegal()


class Endless(FirstLegal):
    """Never decides (notes in ``$BOARDHOST_TEST_THINKING/endless`` that it began)."""

    def choose(self, situation: Situation) -> Action:
        (Path(os.environ[MARKS]) / "endless").write_text("thinking")
        while True:
            time.sleep(0.05)


def endless() -> Policy:
    return Endless()
