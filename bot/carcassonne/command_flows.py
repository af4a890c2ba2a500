"""What Carcassonne's slash commands do: ``/place`` and the autocomplete of its numbered cells and rotations. The
cog (``commands.py``) only declares them; a refusal is raised and answered by the funnel."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.carcassonne.flows import NAME, carcassonne, require_turn
from bot.carcassonne.handlers import TABLE
from bot.carcassonne.ids import cell_value, ordered_cells, parse_cell
from bot.core.components import PAGE, clip
from bot.core.host import Host
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from engine import Action
from engine.carcassonne import Carcassonne


async def channel_game(host: Host, interaction: discord.Interaction) -> tuple[GameRow, Carcassonne] | None:
    """The channel's running Carcassonne game, if it has one."""
    if interaction.channel_id is None:
        return None
    row = await host.rows.open_in_channel(interaction.channel_id)
    if row is None or row.game != NAME or row.status != "active" or row.state_json is None:
        return None
    return row, carcassonne(host, row)


async def place(host: Host, interaction: discord.Interaction, cell: str, rotation: int) -> None:
    """``/place cell rotation``: the drawn tile on a numbered cell (or ``x,y``), turned clockwise."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await channel_game(host, interaction)
    if found is None:
        row = await host.rows.in_channel(interaction.channel_id or 0)  # no game at all: say so
        if row.game == NAME:  # its lobby
            raise HostError("not_started")
        raise HostError("rule", reason=t("carcassonne.not_carcassonne"))
    row, _ = found
    require_turn(host, row, interaction.user.id)
    where = parse_cell(cell)
    if where is None:
        raise HostError("rule", reason=t("carcassonne.no_cell"))
    action: Action = {"type": "place", "x": where[0], "y": where[1], "rotation": rotation}
    await TABLE.act(host, interaction, row.id, row.version, action, answer=t("carcassonne.done"))


async def cell_choices(host: Host, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The numbered cells, narrowed to what is typed (a number, ``x,y`` or part of the cell's name)."""
    found = await channel_game(host, interaction)
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


async def rotation_choices(
    host: Host, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The rotations the tile fits in on the chosen cell (every legal rotation before a cell is chosen)."""
    found = await channel_game(host, interaction)
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
