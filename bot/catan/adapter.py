"""Catan's side of the game contract (``bot.core.contract.GameAdapter``), registered at start-up by ``bot.app``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.catan import handlers, narration
from bot.catan.commands import CatanCog
from bot.catan.flows import deliver, post_turn
from bot.catan.items import DISPATCH, CatanButton, CatanSelect
from bot.catan.seating import NAME
from bot.core.contract import Posted, Shown
from bot.host import Outcome
from bot.storage import GameRow
from engine import Event, Game

if TYPE_CHECKING:
    from bot.app import BoardHost


class CatanAdapter:
    name = NAME
    items: Sequence[type[discord.ui.DynamicItem[Any]]] = (CatanButton, CatanSelect)

    cog_type: type[commands.Cog] = CatanCog

    def __init__(self) -> None:
        DISPATCH.bind(handlers.dispatch)

    def cog(self, bot: BoardHost) -> commands.Cog:
        return CatanCog(bot)

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
        """A bought card, a card stolen from you, offers and replies meant for you: by direct message."""
        await deliver(bot, outcome, actor=actor)

    def narrate(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        return narration.narrate(events, names)
