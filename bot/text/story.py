"""What every game's narration shares: names of seats, the events the host adds, and fitting lines into a message.

Each game tells its own events (``bot/<game>/narration.py``); all text comes from the catalogue (``narrate.*``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.text import listing, t
from bot.text.limits import CONTENT

Event = Mapping[str, Any]  # an engine's event (``engine.Event``), read only


def name_of(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def who(names: Sequence[str], seats: Sequence[int]) -> str:
    return listing(name_of(names, s) for s in seats)


def host_event(event: Event, names: Sequence[str]) -> str | None:
    """The events the host adds to any game's (an undo, a timeout, a person leaving or coming back), or None."""
    kind = event.get("type")
    if kind in ("undone", "timed_out", "returned", "left"):
        return t(f"narrate.{kind}", name=name_of(names, event.get("player")))
    return None


def fit(lines: Sequence[str], tail: str, limit: int = CONTENT) -> str:
    """``lines`` then ``tail`` within ``limit`` characters: the tail always stays, late lines give way first."""
    tail = tail[:limit]
    budget = limit - len(tail) - 1
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = t("narrate.more", count=len(lines) - i)
        cost = len(line) + 1
        # keep room for the "and N more" note unless this is the last line
        reserve = 0 if i == len(lines) - 1 else len(more) + 1
        if used + cost + reserve > budget:
            note = t("narrate.more", count=len(lines) - i)
            if used + len(note) + 1 <= budget:
                kept.append(note)
            elif budget > 0 and not kept:
                kept.append(line[: max(budget - 2, 0)] + "…")
            break
        kept.append(line)
        used += cost
    return "\n".join([*kept, tail]) if kept else tail
