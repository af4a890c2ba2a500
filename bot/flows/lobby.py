"""The lobby: a message with Join / Leave / Start / Cancel (and computer player) buttons, opened by each game's
``/<game> new`` command (``open_lobby``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core.client import bot_of
from bot.core.components import BLUE, GREEN, GREY, RED
from bot.core.funnel import guarded
from bot.core.owned import GameItem
from bot.core.pings import harmless, people
from bot.flows.computer_turns import computer_name, level_name
from bot.host import GameService, HostError
from bot.storage import GameRow, Seat
from bot.text import listing, t
from bot.text.i18n import game_language, speaking
from engine import game_class
from engine.ai import LEVELS

if TYPE_CHECKING:
    from bot.app import BoardHost

OPS = ("join", "leave", "start", "cancel")
HOUR = 3600
TURN_LIMIT_HELP = "Hours a player may keep the game waiting before the bot makes a minimal move (default: no limit)"
TAKEOVER_HELP = "When a turn limit runs out, a computer plays for that player until they return"
STYLES = {"join": GREEN, "leave": GREY, "start": BLUE, "cancel": RED, "add": GREY, "remove": GREY}


def seat_for(user: discord.abc.User) -> Seat:
    return Seat(user.id, harmless(user.display_name))


def lobby_embed(row: GameRow) -> discord.Embed:
    """The lobby message, in the game's language (it is public)."""
    with speaking(game_language(row.language)):
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
    embed.set_footer(text=t("lobby.hosted_by", host=row.seats[0].name if row.seats else "?"))
    return embed


def lobby_view(row: GameRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    with speaking(game_language(row.language)):
        for op in OPS:
            view.add_item(LobbyButton(row.id, row.version, op))
        # Computer players: one button per level (engine.ai.LEVELS), then one to take the last one back.
        for level in LEVELS:
            view.add_item(LobbyButton(row.id, row.version, "add", level))
        if row.computer_seats():
            view.add_item(LobbyButton(row.id, row.version, "remove"))
    return view


class LobbyButton(
    GameItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"bh:lobby:(?P<game>\d+):(?P<version>\d+):(?P<op>join|leave|start|cancel|add|remove)(?::(?P<arg>\w+))?",
):
    def __init__(self, game_id: int, version: int, op: str, arg: str = "") -> None:
        if op == "add":
            label = t("lobby.button.add_computer", level=level_name(arg))
        elif op == "remove":
            label = t("lobby.button.remove_computer")
        else:
            label = t(f"lobby.button.{op}")
        custom_id = f"bh:lobby:{game_id}:{version}:{op}" + (f":{arg}" if arg else "")
        super().__init__(
            discord.ui.Button(label=label, style=STYLES[op], custom_id=custom_id, row=0 if op in OPS else 1)
        )
        self.game_id = game_id
        self.version = version
        self.op = op
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await self._press(interaction)

    async def _press(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        service = bot.service
        user = interaction.user
        can_manage = isinstance(user, discord.Member) and user.guild_permissions.manage_channels
        if self.op == "join":
            row = await service.join(self.game_id, self.version, seat_for(user))
        elif self.op == "leave":
            row = await service.leave_lobby(self.game_id, self.version, user.id)
        elif self.op == "add":
            row = await self._add_computer(service, user.id)
        elif self.op == "remove":
            row = await service.remove_computer(self.game_id, self.version, user.id)
        elif self.op == "cancel":
            row = await service.cancel(self.game_id, self.version, user.id, can_manage=can_manage)
            with speaking(game_language(row.language)):
                content = t("lobby.cancelled", game=t(f"game.{row.game}"))
            await interaction.response.edit_message(content=content, embed=None, view=None)
            return
        else:
            await interaction.response.defer()
            outcome = await service.start(self.game_id, self.version, user.id)
            row = outcome.row
            with speaking(game_language(row.language)):
                seats = listing(s.mention for s in row.seats)
                content = t("lobby.started", game=t(f"game.{row.game}"), seats=seats)
            await interaction.edit_original_response(
                content=content, embed=None, view=None, allowed_mentions=people(row, row.people())
            )
            await bot.outbox.deliver(outcome)  # the first turn message
            return
        await interaction.response.edit_message(embed=lobby_embed(row), view=lobby_view(row))

    async def _add_computer(self, service: GameService, user_id: int) -> GameRow:
        level = self.arg
        if level not in LEVELS:
            raise HostError("computer_unavailable", level=level)
        lobby = await service.row(self.game_id)

        def name(number: int) -> str:
            with speaking(game_language(lobby.language)):  # seat names are public: the game's language
                return computer_name(number, level)

        try:
            return await service.add_computer(self.game_id, self.version, user_id, level, name)
        except HostError as err:
            if err.key == "computer_unavailable":
                raise HostError("computer_unavailable", level=level_name(level)) from None
            raise


async def open_lobby(
    bot: BoardHost,
    interaction: discord.Interaction,
    game: str,
    options: dict[str, Any],
    turn_limit: int | None,
    takeover: bool = False,
) -> None:
    """``/<game> new``: open a lobby in the channel (refusals are raised: the funnel answers them)."""
    if interaction.channel_id is None:
        return
    row = await bot.service.open_lobby(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        game=game,
        host=seat_for(interaction.user),
        options=options,
        turn_limit=turn_limit * HOUR if turn_limit else None,
        takeover=takeover,
        language=game_language(None, interaction.guild.preferred_locale if interaction.guild else None),
    )
    await interaction.response.send_message(embed=lobby_embed(row), view=lobby_view(row))
    message = await interaction.original_response()
    await bot.service.set_message(row.id, message.id)
