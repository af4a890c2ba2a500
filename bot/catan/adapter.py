"""Catan's side of the game contract (``bot.core.host.GameAdapter``), built with the host at start-up."""

from __future__ import annotations

from collections.abc import Sequence

from discord.ext import commands

from bot.catan import narration
from bot.catan.commands import CatanCog
from bot.catan.flows import deliver, post_turn
from bot.catan.handlers import TABLE
from bot.catan.seating import NAME
from bot.core.host import ClickTable, Host, Posted, Shown
from bot.host import Outcome
from bot.storage import GameRow
from engine import Event, Game


class CatanAdapter:
    name = NAME
    table: ClickTable = TABLE
    cog_type: type[commands.Cog] = CatanCog

    def cog(self, host: Host) -> commands.Cog:
        return CatanCog(host)

    async def post_turn(
        self,
        host: Host,
        row: GameRow,
        game: Game,
        events: Sequence[Event],
        opening: bool,
        shown: Shown,
        nonce: str | None = None,
    ) -> Posted | None:
        return await post_turn(host, row, game, events, opening, shown, nonce)

    async def after_move(self, host: Host, outcome: Outcome, *, actor: int | None) -> None:
        """A bought card, a card stolen from you, offers and replies meant for you: by direct message."""
        await deliver(host, outcome, actor=actor)

    def narrate(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        return narration.narrate(events, names)
