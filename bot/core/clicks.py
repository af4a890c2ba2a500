"""What every game's dynamic buttons and selects share: the press they report, and the dispatcher they call.

A game's items (``bot/<game>/items.py``) parse their custom ids and hand a ``Press`` to a dispatcher that the game's
adapter binds at start-up: the items never import the handlers (which build items of their own), so the two do not
import each other. Every press runs inside the error funnel (``bot.core.funnel``), and only where its game is
(``bot.core.owned``: the game's channel, or a DM of one of its players).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core.components import PAGE, PLACEHOLDER, clip


@dataclass
class Press:
    """One click or choice: who (in ``interaction``), on which game at which version, which op, argument, values."""

    interaction: discord.Interaction
    game_id: int
    version: int
    op: str
    arg: str = ""
    values: list[str] = field(default_factory=list)


Dispatcher = Callable[[Press], Awaitable[None]]


class Slot:
    """The dispatcher a game's items call, bound once by the game's adapter."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._dispatch: Dispatcher | None = None

    def bind(self, dispatcher: Dispatcher) -> None:
        self._dispatch = dispatcher

    async def __call__(self, press: Press) -> None:
        if self._dispatch is None:
            raise RuntimeError(f"the {self.game} items are not bound to a dispatcher (register its adapter)")
        await self._dispatch(press)


def single_select(
    custom_id: str, options: list[discord.SelectOption] | None, placeholder: str | None
) -> discord.ui.Select[Any]:
    """A one-choice select within Discord's limits (at most a page of options, never none, a clipped placeholder)."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=(options or [])[:PAGE] or [discord.SelectOption(label="-", value="-")],
        placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
        min_values=1,
        max_values=1,
    )
