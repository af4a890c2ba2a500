"""The database's health: what stops it storing moves or keeping its files in shape, said once, loudly.

Problems are kept by area ("write": the last write failed; "checkpoint": SQLite cannot fold its WAL back into the
database file). Each is logged at ERROR when it starts (or changes its code) and again when it ends, never once per
move; ``Database.health()`` reports the one standing problem that matters most, for the bot to show its host.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

log = logging.getLogger("boardhost.storage")

# Areas in the order their problems matter: a failing write loses moves, a failing checkpoint only grows a file.
AREAS: Final = ("write", "checkpoint")


@dataclass(frozen=True, slots=True)
class Problem:
    """``code``: what is wrong ("full", "readonly", "io", "busy", "corrupt", "unreachable", "checkpoint",
    "wal_backlog"); ``detail``: the database's own words (for the log and the host)."""

    code: str
    detail: str

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}"


class Health:
    def __init__(self, name: str) -> None:
        self.name = name  # the database, as logs show it (no password)
        self._problems: dict[str, Problem] = {}

    def fail(self, area: str, problem: Problem) -> None:
        known = self._problems.get(area)
        self._problems[area] = problem  # the newest detail, for whoever asks
        if known is None or known.code != problem.code:
            log.error("storage %s: %s problem on %s: %s", problem.code, area, self.name, problem.detail)

    def ok(self, area: str) -> None:
        known = self._problems.pop(area, None)
        if known is not None:
            log.error("storage recovered: the %s problem on %s is over (it was %s)", area, self.name, known)

    def failing(self, area: str) -> bool:
        return area in self._problems

    def worst(self) -> Problem | None:
        for area in AREAS:
            if area in self._problems:
                return self._problems[area]
        return None
