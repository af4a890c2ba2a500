"""What Catan's slash commands do: ``/hand`` and ``/build`` (with the autocomplete of the spots a piece may go to,
which accepts ``25``, ``J-NE``, ``25-31``, ``J-E``). The cog (``commands.py``) only declares them; a refusal is
raised and answered by the funnel, a rule refusal naming the seats by name."""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands

from bot.catan.flows import hand_text
from bot.catan.handlers import TABLE
from bot.catan.menus import hand_view
from bot.catan.names import intersection_label, path_label
from bot.catan.seating import NAME, Seated, require_turn, seated
from bot.catan.typed_input import normalise
from bot.core.clicks import seat_names
from bot.core.components import PAGE, clip
from bot.core.funnel import explain
from bot.core.host import Host
from bot.host import HostError
from bot.text import t
from engine import Action, RuleError
from engine.catan import Catan, city_spots, parse_intersection, parse_path, road_spots, settlement_spots


def legal_spots(game: Catan, seat: int, what: str) -> list[str]:
    if what == "road":
        return road_spots(game, seat)
    spots = settlement_spots(game, seat) if what == "settlement" else city_spots(game, seat)
    return [str(n) for n in spots]


def spot_name(what: str, value: str) -> str:
    return path_label(value) if what == "road" else intersection_label(int(value))


async def here(host: Host, interaction: discord.Interaction) -> Seated:
    """The user's seat in this channel's running Catan game, or a HostError saying why not."""
    row = await host.rows.in_channel(interaction.channel_id or 0)
    if row.game != NAME:
        raise HostError("rule", reason=t("catan.not_catan"))
    if row.status != "active":
        raise HostError("not_started")
    return await seated(host, row.id, None, interaction.user.id)


async def hand(host: Host, interaction: discord.Interaction) -> None:
    """``/hand``: your cards, points and open offers, privately, with the buttons of your offers."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await here(host, interaction)
    view = hand_view(found)
    text = hand_text(found.row, found.game, found.seat)
    if view is None:
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.followup.send(text, view=view, ephemeral=True)


async def build(host: Host, interaction: discord.Interaction, what: str, where: str) -> None:
    """``/build what where``: a road on a path, a settlement or city on an intersection, named as players write."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await here(host, interaction)
    require_turn(found)
    typed = normalise(where)  # Ｊ－ＮＥ and 25—31 as Chinese keyboards type them
    try:
        at: str | int = parse_path(typed) if what == "road" else parse_intersection(typed)
        action: Action = {"type": what, "at": at}
        await TABLE.act(host, interaction, found.row.id, found.row.version, action)
    except RuleError as err:
        await explain(interaction, err, await seat_names(host, found.row.id))


async def build_choices(host: Host, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The spots the chosen piece may go to, the one typed first."""
    found = await here(host, interaction)  # a refusal: no choices
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
