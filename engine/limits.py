"""How long the command lines let one game run, and why a game stopped without a winner.

A Catan game can go on for ever: with a ``points_to_win`` nobody reaches before the pieces, spots and cards that
score run out, or with players who never build. The command lines (selfplay, arena, the bench scripts) stop a
game that ``Game.stalled`` says can no longer end, and any game at ``MAX_ACTIONS``, and say so.
"""

from __future__ import annotations

from typing import Final, Literal

from engine.game import Game

# Above any game that finished in bench/points_to_win.py at the points_to_win allowed (the longest: 16,627 actions,
# four random players wandering for 5,000 turns; standard players' games took at most 477); the one game of random
# players measured still going here turned out, played on, to be one nobody could win (bench/README.md).
MAX_ACTIONS: Final = 20_000
# Actions between two checks that the game can still end (the check reads every seat's spots and roads).
CHECK_EVERY: Final = 64

Outcome = Literal["finished", "stalled", "limit"]


def stopped(game: Game, actions: int) -> Outcome | None:
    """Why a game played for ``actions`` actions stops now, or None while it goes on."""
    if game.finished:
        return "finished"
    if actions >= MAX_ACTIONS:
        return "stalled" if game.stalled() else "limit"
    if actions % CHECK_EVERY == 0 and game.stalled():
        return "stalled"
    return None


def cut_short(outcomes: list[Outcome]) -> str | None:
    """One line saying how many games stopped without a winner and why, or None when every game finished."""
    stalled = outcomes.count("stalled")
    limited = outcomes.count("limit")
    if not stalled and not limited:
        return None
    reasons = []
    if stalled:
        reasons.append(f"{stalled} that nobody could win any more")
    if limited:
        reasons.append(f"{limited} still going after {MAX_ACTIONS:,} actions")
    return f"{stalled + limited} of {len(outcomes)} games were cut short without a winner ({' and '.join(reasons)})"
