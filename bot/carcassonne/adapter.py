"""Carcassonne's side of the game contract (``bot.core.contract.GameAdapter``), built with the
host at start-up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.carcassonne import handlers, narration
from bot.carcassonne.commands import NAME, CarcassonneCog
from bot.carcassonne.flows import post_turn
from bot.carcassonne.items import DISPATCH, CarcButton, CarcSelect
from bot.core.contract import Posted, Shown
from bot.host import Outcome
from bot.storage import GameRow
from engine import Event, Game

if TYPE_CHECKING:
    from bot.app import BoardHost


class CarcassonneAdapter:
    name = NAME
    items: Sequence[type[discord.ui.DynamicItem[Any]]] = (CarcButton, CarcSelect)

    cog_type: type[commands.Cog] = CarcassonneCog

    def __init__(self) -> None:
        DISPATCH.bind(handlers.dispatch)

    def cog(self, bot: BoardHost) -> commands.Cog:
        return CarcassonneCog(bot)

    async def post_turn(
        self,
        bot: BoardHost,
        row: GameRow,
        game: Game,
        events: Sequence[Event],
        opening: bool,
        shown: Shown,
        nonce: str | None = None,
    ) -> Posted | None:
        return await post_turn(bot, row, game, events, opening, shown, nonce)

    async def after_move(self, bot: BoardHost, outcome: Outcome, *, actor: int | None) -> None:
        """Carcassonne has no secrets to deliver: the turn message says everything."""

    def narrate(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        return narration.narrate(events, names)
