"""A click on a turn message answered by its own move: when the move's delivery takes the buttons off the message
clicked (the turn ended, a new turn message is posted), that is the click's answer (Discord's update of the message
clicked) instead of an acknowledgement first and an edit of the message after: one request fewer a turn.

Only the retiring of that very message answers a click this way, so a turn that goes on in the message clicked (the
message brought up to date with its new choices) keeps its buttons; any other click is acknowledged once its move is
delivered or refused, as before, and at the latest ``ACKNOWLEDGE_AFTER`` seconds after it came (Discord waits three
for an answer).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, Final

import discord

ACKNOWLEDGE_AFTER: Final = 1.0  # seconds a click waits for its move's delivery to answer it


class Waiting:
    """A click not answered yet; whoever claims it first answers it."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.claimed = False
        self.acknowledging: asyncio.Task[Any] | None = None

    def claim(self) -> bool:
        if self.claimed or self.interaction.response.is_done():
            return False
        self.claimed = True
        return True

    def acknowledge_soon(self) -> None:
        """The delivery takes long (a picture drawn behind others): acknowledged now, the buttons retired later by
        an edit of the message."""
        if self.claim():
            self.acknowledging = asyncio.create_task(self.interaction.response.defer(), name="late-acknowledgement")


_waiting: ContextVar[Waiting | None] = ContextVar("boardhost_waiting_click", default=None)


@asynccontextmanager
async def by_its_move(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Inside the block, the retiring of the message ``interaction`` clicked answers it (``claim_for``); whatever
    else happens (a refusal raised, a turn that goes on in the message), it is acknowledged when the block ends."""
    waiting = Waiting(interaction)
    token = _waiting.set(waiting)
    timer = asyncio.get_running_loop().call_later(ACKNOWLEDGE_AFTER, waiting.acknowledge_soon)
    try:
        yield
    finally:
        timer.cancel()
        _waiting.reset(token)
        if waiting.claim():
            await interaction.response.defer()
        elif waiting.acknowledging is not None:
            await waiting.acknowledging  # a follow-up (a refusal, the actor's news) needs the answer first
        waiting.claimed = True  # tasks started inside (a computer's move) inherit it: never theirs to answer


def claim_for(message_id: int) -> discord.Interaction | None:
    """The waiting click on message ``message_id``, now claimed: whoever retires that message answers the click by
    it (None: no click waits on it here)."""
    waiting = _waiting.get()
    if waiting is None or waiting.interaction.message is None or waiting.interaction.message.id != message_id:
        return None
    return waiting.interaction if waiting.claim() else None
