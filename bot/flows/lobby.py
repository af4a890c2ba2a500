"""The lobby: a message with Join / Leave / Start / Cancel (and computer player) buttons, opened by each game's
``/<game> new`` command (``open_lobby``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.core import safely
from bot.core.clicks import Click, Control, Op, Table, button
from bot.core.components import BLUE, GREEN, GREY, RED, controls
from bot.core.pings import harmless, people
from bot.flows.computer_turns import computer_name, level_name
from bot.flows.turns import game_channel
from bot.host import HostError, Outcome
from bot.host.computer_seats import stand_in_level
from bot.storage import GameRow, Seat
from bot.text import listing, t
from bot.text.languages import Languages
from engine import game_class
from engine.ai import levels

if TYPE_CHECKING:
    from bot.core.host import Host

SCOPE: Final = "lobby"  # its click table's, in custom ids bh:lobby:{game}:{version}:{op}[:{arg}]
OPS = ("join", "leave", "start", "cancel")
HOUR = 3600
TURN_LIMIT_HELP = "Hours a player may keep the game waiting before the bot makes a minimal move (default: no limit)"
TAKEOVER_HELP = "When a turn limit runs out, a computer plays for that player until they return"
AWAY_HELP = "When a player is away: their turn limit waits (default), or a computer plays for them"
STAND_IN_HELP = "The level of the computer playing for a player who times out or is away (default: the strongest)"
STYLES = {"join": GREEN, "leave": GREY, "start": BLUE, "cancel": RED, "add": GREY, "remove": GREY}


def level_choices(game: str) -> list[app_commands.Choice[str]]:
    """The ``stand_in`` option's choices of ``/<game> new``: the levels the game has, weakest first (localised by the
    keys ``slash.choice.level.<level>``: the word "random" of a level is not the one of a random map)."""
    return [
        app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
        for level in levels(game)
    ]


def seat_for(user: discord.abc.User) -> Seat:
    return Seat(user.id, harmless(user.display_name))


def lobby_embed(languages: Languages, row: GameRow) -> discord.Embed:
    """The lobby message, in the game's language (it is public)."""
    with languages.of_game(row.language):
        return _lobby_embed(row)


def _option_value(value: object) -> str:
    if value is True:
        return t("option.on")
    if value is False:
        return t("option.off")
    if isinstance(value, str):
        return t(f"option.value.{value}")
    return str(value)


def _lobby_embed(row: GameRow) -> discord.Embed:
    engine = game_class(row.game)
    low, high = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    game = t(f"game.{row.game}")
    embed = discord.Embed(title=t("lobby.title", game=game), description=t("lobby.needs", min=low, max=high))
    embed.add_field(
        name=t("lobby.players", count=len(row.seats), max=high),
        value="\n".join(f"{i + 1}. {s.mention}" for i, s in enumerate(row.seats)),
        inline=False,
    )
    options = [
        t("option.line", name=t(f"option.{name}"), value=_option_value(value)) for name, value in row.options.items()
    ]
    if options:
        embed.add_field(name=t("lobby.options"), value="\n".join(options), inline=False)
    if row.turn_limit:
        hours = row.turn_limit // HOUR
        embed.add_field(name=t("lobby.turn_limit"), value=t("lobby.turn_limit_value", count=hours), inline=False)
    if row.takeover:
        embed.add_field(name=t("lobby.takeover"), value=t("lobby.takeover_value"), inline=False)
    if row.away_rule == "computer":
        embed.add_field(name=t("lobby.away"), value=t("lobby.away_computer"), inline=False)
    if row.takeover or row.away_rule == "computer":
        embed.add_field(name=t("lobby.stand_in"), value=stand_in_line(row), inline=False)
    embed.set_footer(text=t("lobby.hosted_by", host=row.seats[0].name if row.seats else "?"))
    return embed


def stand_in_line(row: GameRow) -> str:
    """The level of the computer standing in for people who time out or are away (the lobby, rules, status)."""
    return t("rules.stand_in", level=level_name(stand_in_level(row)))


def lobby_view(languages: Languages, row: GameRow) -> discord.ui.View:
    view = controls()
    with languages.of_game(row.language):
        for op in OPS:
            view.add_item(_button(row, op))
        # Computer players: one button per level the game has (the engine's registry, weakest first), then one to
        # take the last one back.
        for level in levels(row.game):
            view.add_item(_button(row, "add", level))
        if row.computer_seats():
            view.add_item(_button(row, "remove"))
    return view


def _button(row: GameRow, op: str, arg: str = "") -> Control:
    if op == "add":
        label = t("lobby.button.add_computer", level=level_name(arg))
    elif op == "remove":
        label = t("lobby.button.remove_computer")
    else:
        label = t(f"lobby.button.{op}")
    return button(SCOPE, row.id, row.version, op, arg, label=label, style=STYLES[op], row=0 if op in OPS else 1)


async def show(bot: Host, row: GameRow, nonce: str) -> None:
    """The lobby message as the lobby is now, as every change of a lobby owes it (``bot.host.lobbies.LOBBY``;
    ``bot.flows.outbox`` delivers it): brought up to date, or posted (with ``nonce``) when it has none (the process
    that opened the lobby died first) or it was deleted. Discord's refusals are raised for the outbox to judge."""
    if row.status != "lobby":
        return  # started or ended since: that change's message says so
    embed, view = lobby_embed(bot.languages, row), lobby_view(bot.languages, row)
    if row.message_id is not None and await safely.edit_in_place(
        bot, row.channel_id, row.message_id, row.id, "lobby", embed=embed, view=view
    ):
        return
    channel = await game_channel(bot, row)
    message = await channel.send(embed=embed, view=view, nonce=nonce)
    await bot.records.set_message(row.id, message.id)


# What each lobby button does. Each answers by editing the lobby message in one request (``answer="own"``); the
# change owes that message (``show``), given by the outbox only when this answer never was (a kill, Discord failing).


async def _shown(click: Click, row: GameRow) -> None:
    host, languages = click.host, click.host.languages
    with host.outbox.answering(row.id, row.version):
        embed, view = lobby_embed(languages, row), lobby_view(languages, row)
        await click.interaction.response.edit_message(embed=embed, view=view)
        await host.outbox.deliver(Outcome(row, kind="lobby"))


async def _join(click: Click) -> None:
    await _shown(click, await click.host.lobby.join(click.game_id, click.version, seat_for(click.interaction.user)))


async def _leave(click: Click) -> None:
    await _shown(click, await click.host.lobby.leave_lobby(click.game_id, click.version, click.user_id))


async def _add_computer(click: Click) -> None:
    level = click.arg
    lobby = await click.host.rows.row(click.game_id)
    if level not in levels(lobby.game):  # a button of another release
        raise HostError("computer_unavailable", level=level_name(level))

    def name(number: int) -> str:
        with click.host.languages.of_game(lobby.language):  # seat names are public: the game's language
            return computer_name(number, level)

    try:
        row = await click.host.lobby.add_computer(click.game_id, click.version, click.user_id, level, name)
    except HostError as err:
        if err.key == "computer_unavailable":
            raise HostError("computer_unavailable", level=level_name(level)) from None
        raise
    await _shown(click, row)


async def _remove_computer(click: Click) -> None:
    await _shown(click, await click.host.lobby.remove_computer(click.game_id, click.version, click.user_id))


async def _cancel(click: Click) -> None:
    user = click.interaction.user
    can_manage = isinstance(user, discord.Member) and user.guild_permissions.manage_channels
    row = await click.host.lobby.cancel(click.game_id, click.version, user.id, can_manage=can_manage)
    with click.host.languages.of_game(row.language):
        content = t("lobby.cancelled", game=t(f"game.{row.game}"))
    await click.interaction.response.edit_message(content=content, embed=None, view=None)
    await click.host.outbox.deliver(Outcome(row, kind="ended"))  # the buttons gone, even if that answer was not


async def _start(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer()
    outcome = await click.host.lobby.start(click.game_id, click.version, click.user_id)
    row = outcome.row
    with click.host.languages.of_game(row.language):
        seats = listing(s.mention for s in row.seats)
        content = t("lobby.started", game=t(f"game.{row.game}"), seats=seats)
    await interaction.edit_original_response(
        content=content, embed=None, view=None, allowed_mentions=people(row, row.people())
    )
    await click.host.outbox.deliver(outcome)  # the first turn message


TABLE: Final = Table(
    SCOPE,
    {
        "join": Op(_join, answer="own"),
        "leave": Op(_leave, answer="own"),
        "start": Op(_start, answer="own"),
        "cancel": Op(_cancel, answer="own"),
        "add": Op(_add_computer, answer="own"),
        "remove": Op(_remove_computer, answer="own"),
    },
)


async def open_lobby(
    bot: Host,
    interaction: discord.Interaction,
    game: str,
    options: dict[str, Any],
    turn_limit: int | None,
    takeover: bool = False,
    away: str = "wait",
    stand_in: str | None = None,
) -> None:
    """``/<game> new``: open a lobby in the channel (refusals are raised: the funnel answers them). ``stand_in``:
    the level of the computers playing for people who time out or are away (None: the strongest the game has)."""
    if interaction.channel_id is None:
        return
    if stand_in is not None and stand_in not in levels(game):  # a choice of another release
        raise HostError("computer_unavailable", level=level_name(stand_in))
    row = await bot.lobby.open_lobby(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        game=game,
        host=seat_for(interaction.user),
        options=options,
        turn_limit=turn_limit * HOUR if turn_limit else None,
        takeover=takeover,
        away_rule=away,
        stand_in_level=stand_in,
        language=bot.languages.game_language(None, interaction.guild.preferred_locale if interaction.guild else None),
    )
    with bot.outbox.answering(row.id, row.version):  # the lobby message is owed with the lobby (``show``)
        embed, view = lobby_embed(bot.languages, row), lobby_view(bot.languages, row)
        await interaction.response.send_message(embed=embed, view=view)
        message = await interaction.original_response()
        await bot.records.set_message(row.id, message.id)
        await bot.outbox.deliver(Outcome(row, kind="lobby"))
