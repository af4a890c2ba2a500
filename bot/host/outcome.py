"""What an accepted change did (``Outcome``), and what it owes Discord (``owed``), as every service of the host
returns and stores it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from bot.storage import GameRow
from engine import Event, Game

# Seconds Discord keeps an interaction's token (15 minutes), less a margin for the request itself.
REPLY_WITHIN: Final = 15 * 60 - 30


@dataclass(frozen=True)
class OwedAnswer:
    """The answer a change owes the interaction that made it, which waits on it ("thinking…"): a private "Done.", or
    a public line ("alice abandoned the game").

    Stored with the change (``owed``), so that a process killed between the write and the answer does not leave the
    interaction waiting: the next process answers through the interaction's token (Discord keeps it 15 minutes).
    ``text`` is the caller's answer; without it the game tells what the actor alone learned from the move. The
    language is the one the answer was to be given in."""

    application_id: int
    token: str
    language: str
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"application_id": self.application_id, "token": self.token, "language": self.language,
                "text": self.text}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> OwedAnswer | None:
        if not data:
            return None
        return cls(int(data["application_id"]), str(data["token"]), str(data["language"]), data.get("text"))


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
    answer: OwedAnswer | None = None  # the answer the actor's interaction waits on, owed with the change

    def owed(self) -> dict[str, Any]:
        return owed(self.kind, self.events, self.before, self.actor, self.opening, self.answer)

    @property
    def final(self) -> bool:
        """The game's last change: the game is over and stored as finished (its rating, story and timelapse)."""
        return self.game is not None and self.game.finished and self.row.status == "finished"


def owed(
    kind: str,
    events: list[Event],
    before: list[int],
    actor: int | None = None,
    opening: bool = False,
    answer: OwedAnswer | None = None,
) -> dict[str, Any]:
    """What a change owes Discord, as stored in the outbox with it (JSON: engine events are plain values)."""
    owes: dict[str, Any] = {"kind": kind, "events": events, "before": before, "actor": actor, "opening": opening}
    if answer is not None:
        owes["answer"] = answer.to_json()
    return owes


def waiting_for(game: Game) -> list[int]:
    """The seats owing a decision as anyone may know it (private offers hide their recipients)."""
    return game.public_actors()
