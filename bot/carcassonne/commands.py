"""Carcassonne's slash commands: ``/carcassonne new`` (its options as command options) and ``/place`` (with
autocomplete of the numbered cells and their rotations). The first turn is posted when the lobby starts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.carcassonne.flows import carcassonne, require_turn
from bot.carcassonne.ids import cell_value, ordered_cells, parse_cell
from bot.core.components import PAGE, clip
from bot.core.funnel import autocomplete
from bot.flows.lobby import TAKEOVER_HELP, TURN_LIMIT_HELP, open_lobby
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from engine.carcassonne import Carcassonne

if TYPE_CHECKING:
    from bot.core.host import Host

NAME = "carcassonne"


class CarcassonneCog(commands.Cog):
    carcassonne = app_commands.Group(name="carcassonne", description="Play Carcassonne in this channel")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def _channel_game(self, interaction: discord.Interaction) -> tuple[GameRow, Carcassonne] | None:
        if interaction.channel_id is None:
            return None
        row = await self.bot.service.open_in_channel(interaction.channel_id)
        if row is None or row.game != NAME or row.status != "active" or row.state_json is None:
            return None
        return row, carcassonne(self.bot, row)

    @carcassonne.command(name="new", description="Open a Carcassonne lobby in this channel")
    @app_commands.describe(
        river="Start with The River (default on)",
        tower="Add The Tower expansion",
        farm_scoring="Farm scoring rule",
        small_city="Old rule: a 2-tile city scores 2",
        turn_limit=TURN_LIMIT_HELP,
        takeover=TAKEOVER_HELP,
    )
    async def carcassonne_new(
        self,
        interaction: discord.Interaction,
        river: bool = True,
        tower: bool = False,
        farm_scoring: Literal["current", "first_edition"] = "current",
        small_city: bool = False,
        turn_limit: app_commands.Range[int, 1, 336] | None = None,
        takeover: bool = False,
    ) -> None:
        await open_lobby(
            self.bot,
            interaction,
            "carcassonne",
            {"river": river, "tower": tower, "farm_scoring": farm_scoring, "small_city": small_city},
            turn_limit,
            takeover,
        )

    @app_commands.command(name="place", description="Place the drawn Carcassonne tile")
    @app_commands.describe(cell="Where: pick a numbered cell", rotation="Clockwise rotation in degrees")
    async def place(self, interaction: discord.Interaction, cell: str, rotation: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._channel_game(interaction)
        if found is None:
            row = await self.bot.service.in_channel(interaction.channel_id or 0)  # no game at all: say so
            if row.game == NAME:  # its lobby
                raise HostError("not_started")
            raise HostError("rule", reason=t("carcassonne.not_carcassonne"))
        row, _ = found
        require_turn(self.bot, row, interaction.user.id)
        where = parse_cell(cell)
        if where is None:
            raise HostError("rule", reason=t("carcassonne.no_cell"))
        outcome = await self.bot.service.act(
            row.id,
            row.version,
            interaction.user.id,
            {"type": "place", "x": where[0], "y": where[1], "rotation": rotation},
            row=row,
        )
        await interaction.followup.send(t("carcassonne.done"), ephemeral=True)
        await self.bot.outbox.deliver(outcome)

    @place.autocomplete("cell")
    @autocomplete
    async def place_cell(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await self._channel_game(interaction)
        if found is None:
            return []
        _, game = found
        typed = current.replace(" ", "").strip("()")
        choices = []
        for number, (x, y) in enumerate(ordered_cells(game), start=1):
            name = t("carcassonne.cell_option", number=number, x=x, y=y)
            value = cell_value(x, y)
            if not typed or value.startswith(typed) or str(number) == typed or typed in name.replace(" ", ""):
                choices.append(app_commands.Choice(name=clip(name), value=value))
        return choices[:PAGE]

    @place.autocomplete("rotation")
    @autocomplete
    async def place_rotation(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        found = await self._channel_game(interaction)
        if found is None:
            return []
        _, game = found
        cell = parse_cell(str(getattr(interaction.namespace, "cell", "") or ""))
        legal = game.legal_placements()
        rotations = legal.get(cell, []) if cell is not None else sorted({r for rs in legal.values() for r in rs})
        return [
            app_commands.Choice(name=t("carcassonne.rotation", degrees=r), value=r)
            for r in rotations
            if str(r).startswith(str(current).strip())
        ][:PAGE]
