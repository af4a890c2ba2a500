"""Catan's slash commands: ``/catan new`` (its options as command options), ``/build`` (with autocomplete that
accepts ``25``, ``J-NE``, ``25-31``, ``J-E``) and ``/hand``. The first turn is posted when the lobby starts."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.catan.flows import act, hand_text
from bot.catan.menus import hand_view
from bot.catan.names import intersection_label, path_label
from bot.catan.seating import NAME, Seated, require_turn, seated
from bot.catan.typed_input import normalise
from bot.core.components import PAGE, clip
from bot.core.funnel import autocomplete
from bot.flows.lobby import TAKEOVER_HELP, TURN_LIMIT_HELP, open_lobby
from bot.host import HostError
from bot.text import t
from engine import RuleError
from engine.catan import Catan, city_spots, parse_intersection, parse_path, road_spots, settlement_spots

if TYPE_CHECKING:
    from bot.core.host import Host

Piece = Literal["road", "settlement", "city"]


def legal_spots(game: Catan, seat: int, what: str) -> list[str]:
    if what == "road":
        return road_spots(game, seat)
    spots = settlement_spots(game, seat) if what == "settlement" else city_spots(game, seat)
    return [str(n) for n in spots]


def spot_name(what: str, value: str) -> str:
    return path_label(value) if what == "road" else intersection_label(int(value))


class CatanCog(commands.Cog):
    catan = app_commands.Group(name="catan", description="Play Catan in this channel")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def _here(self, interaction: discord.Interaction) -> Seated:
        """The user's seat in this channel's running Catan game, or a HostError saying why not."""
        row = await self.bot.service.in_channel(interaction.channel_id or 0)
        if row.game != NAME:
            raise HostError("rule", reason=t("catan.not_catan"))
        if row.status != "active":
            raise HostError("not_started")
        return await seated(self.bot, row.id, None, interaction.user.id)

    @catan.command(name="new", description="Open a Catan lobby in this channel")
    @app_commands.describe(
        board="Map: random, random numbers, or the beginner map",
        setup="Set-up: snake draft or the beginner positions",
        points_to_win="Victory points needed (default 10)",
        strict_phases="All trading before any building",
        turn_limit=TURN_LIMIT_HELP,
        takeover=TAKEOVER_HELP,
    )
    async def catan_new(
        self,
        interaction: discord.Interaction,
        board: Literal["random", "random_numbers", "beginner"] = "random",
        setup: Literal["snake", "beginner"] = "snake",
        points_to_win: app_commands.Range[int, 3, 20] = 10,
        strict_phases: bool = False,
        turn_limit: app_commands.Range[int, 1, 336] | None = None,
        takeover: bool = False,
    ) -> None:
        await open_lobby(
            self.bot,
            interaction,
            "catan",
            {"board": board, "setup": setup, "points_to_win": points_to_win, "strict_phases": strict_phases},
            turn_limit,
            takeover,
        )

    @app_commands.command(name="hand", description="Your Catan cards, points and open trade offers (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._here(interaction)
        view = hand_view(found)
        text = hand_text(found.row, found.game, found.seat)
        if view is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, view=view, ephemeral=True)

    @app_commands.command(name="build", description="Build a Catan road, settlement or city")
    @app_commands.describe(
        what="What to build",
        where="Intersection (25 or J-NE) for a settlement or city; path (25-31 or J-E) for a road",
    )
    async def build(self, interaction: discord.Interaction, what: Piece, where: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._here(interaction)
        require_turn(found)
        typed = normalise(where)  # Ｊ－ＮＥ and 25—31 as Chinese keyboards type them
        at: str | int = parse_path(typed) if what == "road" else parse_intersection(typed)
        await act(self.bot, interaction, found.row.id, found.row.version, {"type": what, "at": at})

    @build.autocomplete("where")
    @autocomplete
    async def build_where(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await self._here(interaction)  # a refusal: no choices
        what = str(getattr(interaction.namespace, "what", "") or "settlement")
        current = normalise(current)
        typed = current.strip().upper()
        if typed and what != "road":
            with contextlib.suppress(RuleError):  # "J-NE" or "25": put the named intersection first
                typed = str(parse_intersection(current))
        elif typed:
            with contextlib.suppress(RuleError):
                typed = parse_path(current).upper()
        choices = []
        for value in legal_spots(found.game, found.seat, what):
            name = spot_name(what, value)
            if not typed or value.upper() == typed or value.upper().startswith(typed) or typed in name.upper():
                choices.append(app_commands.Choice(name=clip(name), value=value))
        choices.sort(key=lambda c: c.value.upper() != typed)
        return choices[:PAGE]
