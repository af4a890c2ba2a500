"""What an accepted change did (``Outcome``), and what it owes Discord (``owed``), as every service of the host
returns and stores it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.storage import GameRow
from engine import Event, Game


@dataclass
class Outcome:
    """What an accepted change did: the stored row, the engine game after it, and the engine's events.

    ``kind`` says what the change owes Discord (``bot.flows.outbox``): ``turn`` (the turn message, private news, turn
    DMs, the timelapse at the end), ``takeover`` (the takeover message) or ``ended`` (the last message's buttons
    retired); it is stored with the change, as ``owed()``, in the same write.
    """

    row: GameRow
    game: Game | None = None
    events: list[Event] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    before: list[int] = field(default_factory=list)  # the seats owing a decision before the change
    kind: str = "turn"
    actor: int | None = None  # the user whose click it was (None: a computer, a timeout)
    opening: bool = False  # the first turn message, after the lobby

    def owed(self) -> dict[str, Any]:
        return owed(self.kind, self.events, self.before, self.actor, self.opening)

    @property
    def final(self) -> bool:
        """The game's last change: the game is over and stored as finished (its rating, story and timelapse)."""
        return self.game is not None and self.game.finished and self.row.status == "finished"


def owed(
    kind: str, events: list[Event], before: list[int], actor: int | None = None, opening: bool = False
) -> dict[str, Any]:
    """What a change owes Discord, as stored in the outbox with it (JSON: engine events are plain values)."""
    return {"kind": kind, "events": events, "before": before, "actor": actor, "opening": opening}


def waiting_for(game: Game) -> list[int]:
    """The seats owing a decision as anyone may know it (private offers hide their recipients)."""
    return game.public_actors()
