"""``/game`` (status, mine, replay, board, rules, leave, abandon, undo, back, language, export) and ``/stats``.

Declarations only: each command calls its flow in ``bot.flows.game_commands`` (``/stats``: ``bot.flows.leaderboard``);
refusals reach the funnel (``bot.core.funnel``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.flows import game_commands as game_flows
from bot.flows import leaderboard, mine
from bot.flows import replay as replays
from bot.text.i18n import LANGUAGES, NATIVE_NAMES

if TYPE_CHECKING:
    from bot.core.host import Host


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @game.command(name="status", description="Scores, turn and what the game is waiting for")
    async def status(self, interaction: discord.Interaction) -> None:
        await game_flows.status(self.bot, interaction)

    @game.command(name="mine", description="Every game of yours, where it waits for you first (only you see it)")
    async def mine(self, interaction: discord.Interaction) -> None:
        await mine.command(self.bot, interaction)

    @game.command(name="replay", description="Look back at any turn of this channel's game")
    @app_commands.describe(turn="The turn to show (default: the latest)")
    async def replay(
        self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, 10_000] | None = None
    ) -> None:
        await replays.command(self.bot, interaction, turn)

    @game.command(name="board", description="Show the board of the game in this channel")
    async def board(self, interaction: discord.Interaction) -> None:
        await game_flows.board(self.bot, interaction)

    @game.command(name="rules", description="A short summary of the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        await game_flows.rules(self.bot, interaction)

    @game.command(name="abandon", description="End the game in this channel (host or Manage Channels)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        await game_flows.abandon(self.bot, interaction)

    @game.command(name="leave", description="Leave the game in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await game_flows.leave(self.bot, interaction)

    @game.command(name="undo", description="Take back your last move of this turn, if it revealed nothing")
    async def undo(self, interaction: discord.Interaction) -> None:
        await game_flows.undo(self.bot, interaction)

    @game.command(name="back", description="Play again yourself after a computer stood in for you")
    async def back(self, interaction: discord.Interaction) -> None:
        await game_flows.back(self.bot, interaction)

    @game.command(name="language", description="The language of this game's public messages (host or Manage Channels)")
    @app_commands.describe(language="The language")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=app_commands.locale_str(NATIVE_NAMES[code], key=code), value=code)
            for code in LANGUAGES
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await game_flows.language(self.bot, interaction, language)

    @game.command(name="export", description="The replay file of the last finished game in this channel")
    async def export(self, interaction: discord.Interaction) -> None:
        await game_flows.export(self.bot, interaction)

    @app_commands.command(name="stats", description="Ratings and games played in this server")
    @app_commands.describe(player="Show this player's ratings, with a chart of their rating over time")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await leaderboard.stats(self.bot, interaction, player)
