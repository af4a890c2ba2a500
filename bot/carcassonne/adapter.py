"""Carcassonne's side of the game contract (``bot.core.host.GameAdapter``), built with the host at start-up."""

from __future__ import annotations

from collections.abc import Sequence

from discord.ext import commands

from bot.carcassonne import narration
from bot.carcassonne.commands import NAME, CarcassonneCog
from bot.carcassonne.flows import post_turn
from bot.carcassonne.handlers import TABLE
from bot.core.host import ClickTable, Host, Posted, Shown
from bot.host import Outcome
from bot.storage import GameRow
from engine import Event, Game


class CarcassonneAdapter:
    name = NAME
    table: ClickTable = TABLE
    cog_type: type[commands.Cog] = CarcassonneCog

    def cog(self, host: Host) -> commands.Cog:
        return CarcassonneCog(host)

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
        """Carcassonne has no secrets to deliver: the turn message says everything."""

    def narrate(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        return narration.narrate(events, names)
