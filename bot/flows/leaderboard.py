"""``/stats``: the server's finished games and, per game, its best players by rating (rating, games, wins, wins in a
row); ``/stats player:@x``: one player's card, their rating in each game with their place, and their rating after
each game as a small chart (drawn in the drawing processes, told in words for its alt text).

Ratings are ``bot.host.skill``'s (openskill's Plackett-Luce, shown as ``mu - 3 sigma``): every finished game counts,
against people and computer players (rated per level); abandoned games never do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord

import render
from bot.core.components import image_file
from bot.core.pings import harmless
from bot.core.rendering import Job, Lane
from bot.flows.computer_turns import level_name
from bot.host.skill import Player, Standing
from bot.text import t
from bot.text.alt import describe
from bot.text.i18n import decimal

if TYPE_CHECKING:
    from bot.core.host import Host

BOARD: Final = 10  # players shown per game
CHART: Final = "ratings.png"


def who(player: Player) -> str:
    """A rated player as the leaderboard names them: a person's mention (which pings nobody here), a computer
    player by its level."""
    return t("cmd.stats.computer", level=level_name(player.level)) if player.computer else f"<@{player.user_id}>"


def record(standing: Standing) -> dict[str, str]:
    """A standing's numbers in words, for the leaderboard's and the card's lines."""
    return {
        "rating": decimal(standing.rating),
        "games": t("cmd.stats.games", count=standing.games),
        "wins": t("cmd.stats.wins", count=standing.wins),
        "streak": t("cmd.stats.streak", count=standing.streak),
    }


async def stats(bot: Host, interaction: discord.Interaction, player: discord.User | discord.Member | None) -> None:
    if player is not None:
        await card(bot, interaction, player)
        return
    guild = interaction.guild_id or 0
    total, _, per_game = await bot.records.stats(guild)
    if not total:
        await interaction.response.send_message(t("cmd.stats.none"))
        return
    lines = [t("cmd.stats.total", count=total)]
    lines += [t("cmd.stats.per_game", game=t(f"game.{g}"), count=n) for g, n in sorted(per_game.items())]
    lines.append(t("cmd.stats.explain"))
    embed = discord.Embed(title=t("cmd.stats.title"), description="\n".join(lines))
    standings = bot.records.standings
    for game in await standings.games_rated(guild):
        pool = (guild, game)
        best = await standings.leaderboard(pool, BOARD)
        rows = [t("cmd.stats.row", place=n, player=who(p), **record(s)) for n, (p, s) in enumerate(best, 1)]
        more = await standings.players(pool) - len(best)
        if more > 0:
            rows.append(t("cmd.stats.more", count=more))
        embed.add_field(name=t("cmd.stats.board", game=t(f"game.{game}")), value="\n".join(rows), inline=False)
    await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())


async def card(bot: Host, interaction: discord.Interaction, player: discord.User | discord.Member) -> None:
    """One player's ratings in this server, with the chart of their rating after each game."""
    await interaction.response.defer(thinking=True)  # the chart is drawn first
    name = harmless(player.display_name)
    cards = await bot.records.standings.card(interaction.guild_id or 0, Player(player.id))
    if not cards:
        await interaction.followup.send(t("cmd.stats.card_none", name=name))
        return
    lines = [
        t("cmd.stats.card_game", game=t(f"game.{c.game}"), place=c.position, players=c.players, **record(c.standing))
        for c in cards
    ]
    embed = discord.Embed(title=t("cmd.stats.card_title", name=name), description="\n".join(lines))
    series = [(c.game, c.history) for c in cards]
    job = Job(render.rating_chart_png, t("cmd.stats.chart_title", name=name), series)
    png = await bot.renderer.png(job, lane=Lane.INTERACTIVE)  # the command's answer waits for it
    file = image_file(interaction.channel, png, CHART, describe(job))
    if file is None:
        await interaction.followup.send(embed=embed)
        return
    embed.set_image(url=f"attachment://{CHART}")
    await interaction.followup.send(embed=embed, file=file)
