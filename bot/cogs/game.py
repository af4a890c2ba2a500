"""``/game`` (board, status, rules, leave, abandon, undo, export), ``/stats`` and ``/settings``."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import replay as replays
from bot import safely, since
from bot.components import image_file, refuse
from bot.computers import come_back, level_name
from bot.games import adapters
from bot.host import HostError
from bot.host.computers import controllers
from bot.host.service import waiting_for
from bot.lobby import lobby_embed, lobby_view
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.i18n import LANGUAGES, NATIVE_NAMES, game_language, speaking
from bot.turns import announce, retire

if TYPE_CHECKING:
    from bot.app import BoardHost


def can_manage(interaction: discord.Interaction) -> bool:
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_channels


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel")

    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot

    async def _row(self, interaction: discord.Interaction, *, started: bool = False) -> GameRow | None:
        """The open game of this channel (``started``: past its lobby), or None after explaining why not."""
        try:
            row = await self.bot.service.in_channel(interaction.channel_id or 0)
            if started and row.status == "lobby":
                raise HostError("not_started")
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return None
        return row

    @game.command(name="status", description="Scores, turn and what the game is waiting for")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # "since your last turn" replays the log
        row = await self._row(interaction, started=True)
        if row is None:
            return
        game = self.bot.service.game(row)
        result = game.result()
        lines = [
            t("cmd.status.score_line", name=seat.name, score=score)
            for seat, score in zip(row.seats, result["scores"], strict=True)
        ]
        waiting = waiting_for(game)
        lines.append(t("cmd.status.waiting", who=listing(row.mention(s) for s in waiting), count=len(waiting)))
        embed = discord.Embed(
            title=t("cmd.status.title", game=t(f"game.{row.game}"), turn=result["turn"]), description="\n".join(lines)
        )
        embeds, files = [embed], []
        missed = await since.for_status(self.bot, row, game, interaction.user.id, interaction.channel)
        if missed is not None:  # the reader's turn: what the others did since their last move
            embeds.append(missed[0])
            files += [missed[1]] if missed[1] is not None else []
        await interaction.followup.send(embeds=embeds, files=files, ephemeral=True)

    @game.command(name="replay", description="Look back at any turn of this channel's game")
    @app_commands.describe(turn="The turn to show (default: the latest)")
    async def replay(
        self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, 10_000] | None = None
    ) -> None:
        await replays.command(self.bot, interaction, turn)

    @game.command(name="board", description="Show the board of the game in this channel")
    async def board(self, interaction: discord.Interaction) -> None:
        row = await self._row(interaction, started=True)
        if row is None:
            return
        await interaction.response.defer()
        game = self.bot.service.game(row)
        with speaking(game_language(row.language)):  # posted in the channel: the game's language
            png = await self.bot.renderer.png(("board_png", (game.view(None),)))  # the spectator view: nothing secret
            caption = t("cmd.board.caption", game=t(f"game.{row.game}"), turn=game.result()["turn"])
        file = image_file(interaction.channel, png, "board.png")
        if file is None:
            await interaction.followup.send(caption)
        else:
            await interaction.followup.send(caption, file=file)

    @game.command(name="rules", description="A short summary of the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        row = await self.bot.service.open_in_channel(interaction.channel_id or 0)
        names = [row.game] if row else [game.name for game in adapters()]
        await interaction.response.send_message("\n\n".join(t(f"rules.{n}") for n in names), ephemeral=True)

    @game.command(name="abandon", description="End the game in this channel (host or Manage Channels)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        row = await self._row(interaction)
        if row is None:
            return
        try:
            await self.bot.service.abandon(row.id, row.version, interaction.user.id, can_manage=can_manage(interaction))
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        with speaking(game_language(row.language)):
            text = t("cmd.abandoned", name=interaction.user.display_name, game=t(f"game.{row.game}"))
        await interaction.response.send_message(text)
        await self._retire(row)

    @game.command(name="leave", description="Leave the game in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await self._row(interaction)
        if row is None:
            return
        user = interaction.user
        try:
            if row.status == "lobby":
                updated = await self.bot.service.leave_lobby(row.id, row.version, user.id)
                with speaking(game_language(row.language)):
                    text = t("lobby.left", name=user.display_name)
                await interaction.response.send_message(text)
                await self._show_lobby(updated)
                return
            if row.seat_of(user.id) is None:
                raise HostError("not_seated")
            # A seat is never emptied mid-game: a computer player takes it, unless only computers would be left.
            outcome = await self.bot.service.leave_game(row.id, row.version, user.id)
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        if outcome is not None:
            seat = outcome.events[0]["player"]
            level = controllers(outcome.row)[seat]
            with speaking(game_language(row.language)):
                text = t("cmd.left_for_computer", name=user.display_name, level=level_name(level))
            await interaction.response.send_message(text)
            await announce(self.bot, outcome)  # the turn again, its buttons on the new version; computers move
            return
        with speaking(game_language(row.language)):
            text = t("cmd.left_game", name=user.display_name, game=t(f"game.{row.game}"))
        await interaction.response.send_message(text)
        await self._retire(row)

    async def _retire(self, row: GameRow) -> None:
        """An ended game's last message keeps its story but not its buttons (they could only be refused)."""
        if row.message_id:
            await retire(self.bot, row, row.message_id)

    @game.command(name="undo", description="Take back your last move of this turn, if it revealed nothing")
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledged before any database work
        row = await self._row(interaction, started=True)
        if row is None:
            return
        try:
            if row.seat_of(interaction.user.id) is None:
                raise HostError("not_seated")
            outcome = await self.bot.service.undo(row.id, row.version, interaction.user.id)
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        await interaction.followup.send(t("cmd.undo.done"), ephemeral=True)
        await announce(self.bot, outcome)

    async def _show_lobby(self, row: GameRow) -> None:
        """The lobby message shows the seats now, and its buttons the new version (the old ones would be stale)."""
        channel = self.bot.get_channel(row.channel_id)
        if row.message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        await safely.edit(channel.get_partial_message(row.message_id), row.id, "lobby", embed=lobby_embed(row),
                          view=lobby_view(row))  # fmt: skip

    @game.command(name="back", description="Play again yourself after a computer stood in for you")
    async def back(self, interaction: discord.Interaction) -> None:
        row = await self._row(interaction, started=True)
        if row is None:
            return
        await come_back(self.bot, interaction, row.id)

    @game.command(name="language", description="The language of this game's public messages (host or Manage Channels)")
    @app_commands.describe(language="The language")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=app_commands.locale_str(NATIVE_NAMES[code], key=code), value=code)
            for code in LANGUAGES
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        row = await self._row(interaction)
        if row is None:
            return
        try:
            updated = await self.bot.service.set_language(
                row.id, interaction.user.id, language, can_manage=can_manage(interaction)
            )
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        with speaking(updated.language):
            await interaction.response.send_message(t("cmd.language.set", language=t(f"language.{language}")))
            if updated.status == "lobby":
                await self._show_lobby(updated)

    @game.command(name="export", description="The replay file of the last finished game in this channel")
    async def export(self, interaction: discord.Interaction) -> None:
        row = await self.bot.service.latest_in_channel(interaction.channel_id or 0)
        if row is None:
            await refuse(interaction, "no_game_here")
            return
        try:
            replay = await self.bot.service.export(row.id)
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        data = json.dumps(replay, ensure_ascii=False, indent=1).encode()
        with speaking(game_language(row.language)):
            text = t("cmd.export.caption", game=t(f"game.{row.game}"))
        await interaction.response.send_message(
            text,
            file=discord.File(io.BytesIO(data), filename=f"{row.game}-{row.id}.json"),
        )

    @app_commands.command(name="stats", description="Games played and won in this server")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction) -> None:
        total, wins, per_game = await self.bot.service.stats(interaction.guild_id or 0)
        if not total:
            await interaction.response.send_message(t("cmd.stats.none"))
            return
        lines = [t("cmd.stats.total", count=total)]
        lines += [t("cmd.stats.per_game", game=t(f"game.{g}"), count=n) for g, n in sorted(per_game.items())]
        lines += [t("cmd.stats.wins", user=u, count=n) for u, n in sorted(wins.items(), key=lambda w: -w[1])[:10]]
        embed = discord.Embed(title=t("cmd.stats.title"), description="\n".join(lines))
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="settings", description="Your boardhost settings")
    @app_commands.describe(dm_on_turn="Get a direct message when a turn of yours starts")
    async def settings_command(self, interaction: discord.Interaction, dm_on_turn: bool) -> None:
        await self.bot.service.set_dm_on_turn(interaction.user.id, dm_on_turn)
        key = "cmd.settings.saved_on" if dm_on_turn else "cmd.settings.saved_off"
        await interaction.response.send_message(t(key), ephemeral=True)
