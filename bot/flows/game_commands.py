"""What the game-neutral commands do (``/game ...``), for whichever game the channel has.

``bot/cogs/game.py`` only declares the commands and calls these. A refusal is raised as ``HostError`` and answered
by the one funnel (``bot.core.funnel``, the command tree's error handler), like every other interaction's.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord

import render
from bot.core import safely
from bot.core.clicks import answer_then_deliver, owed_answer
from bot.core.components import CONTENT, image_file
from bot.core.pings import harmless
from bot.core.rendering import Job, Lane
from bot.flows import since
from bot.flows.computer_turns import come_back, level_name
from bot.flows.lobby import lobby_embed, lobby_view, stand_in_line
from bot.flows.outbox import waiting_text
from bot.flows.presence import presence
from bot.host import HostError
from bot.host.computer_seats import stand_in_level
from bot.host.lobbies import refuse_leaving
from bot.host.outcome import Outcome, waiting_for
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.alt import describe

if TYPE_CHECKING:
    from bot.core.host import Host


def can_manage(interaction: discord.Interaction) -> bool:
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_channels


async def channel_game(bot: Host, interaction: discord.Interaction, *, started: bool = False) -> GameRow:
    """The open game of this channel (``started``: past its lobby); HostError when there is none."""
    row = await bot.rows.in_channel(interaction.channel_id or 0)
    if started and row.status == "lobby":
        raise HostError("not_started")
    return row


async def show_lobby(bot: Host, row: GameRow) -> None:
    """The lobby message shows the seats now, and its buttons the new version (the old ones would be stale)."""
    channel = bot.get_channel(row.channel_id)
    if row.message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
        return
    embed, view = lobby_embed(bot.languages, row), lobby_view(bot.languages, row)
    await safely.edit(channel.get_partial_message(row.message_id), row.id, "lobby", embed=embed, view=view)


async def status(bot: Host, interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)  # "since your last turn" replays the log
    row = await bot.rows.open_in_channel(interaction.channel_id or 0)
    if row is None:  # over, or never begun: the channel's last game, if it was played at all
        await final_status(bot, interaction)
        return
    if row.status == "lobby":
        raise HostError("not_started")
    game = bot.rows.game(row)
    result = game.result()
    lines = [
        t("cmd.status.score_line", name=seat.name, score=score)
        for seat, score in zip(row.seats, result["scores"], strict=True)
    ]
    waiting = waiting_for(game)
    lines.append(t("cmd.status.waiting", who=listing(row.mention(s) for s in waiting), count=len(waiting)))
    lines += (await presence(bot, row)).notes(row)  # who is away, and until when
    if row.takeover or row.away_rule == "computer":  # at which level computers stand in for them
        lines.append(stand_in_line(row))
    waits = await bot.outbox.problem(row.id)
    if waits is not None:  # Discord refuses the game's messages (permissions, a deleted channel): everyone may know
        lines.append(waiting_text(row, waits))
    problem = bot.rows.storage_health()
    if problem is not None and (interaction.user.id == row.host_id or can_manage(interaction)):
        lines.append(t("cmd.status.storage", problem=str(problem)))  # for those who can act on it, not everyone
    embed = discord.Embed(
        title=t("cmd.status.title", game=t(f"game.{row.game}"), turn=result["turn"]), description="\n".join(lines)
    )
    embeds, files = [embed], []
    missed = await since.for_status(bot, row, game, interaction.user.id, interaction.channel)
    if missed is not None:  # the reader's turn: what the others did since their last move
        embeds.append(missed[0])
        files += [missed[1]] if missed[1] is not None else []
    await interaction.followup.send(embeds=embeds, files=files, ephemeral=True)


async def final_status(bot: Host, interaction: discord.Interaction) -> None:
    """How the channel's last game ended: its winners and scores, and where to see it again."""
    row = await bot.rows.latest_game(interaction.channel_id or 0)
    if row.state is None:  # a lobby cancelled before it started
        raise HostError("no_game_here")
    result = bot.rows.game(row).result()
    name, lines = t(f"game.{row.game}"), []
    if row.status == "finished":
        title = t("cmd.status.finished_title", game=name, turn=result["turn"])
        winners = [row.seats[seat].name for seat in result["winners"]]
        if len(winners) == 1:
            lines.append(t("cmd.status.winner", winner=winners[0]))
        elif winners:
            lines.append(t("cmd.status.winners_tie", winners=listing(winners)))
    else:
        title = t("cmd.status.abandoned_title", game=name, turn=result["turn"])
    lines += [
        t("cmd.status.score_line", name=seat.name, score=score)
        for seat, score in zip(row.seats, result["scores"], strict=True)
    ]
    lines.append(t("cmd.status.look_back" if row.status == "finished" else "cmd.status.look_back_abandoned"))
    embed = discord.Embed(title=title, description="\n".join(lines))
    await interaction.followup.send(embed=embed, ephemeral=True)


async def board(bot: Host, interaction: discord.Interaction) -> None:
    row = await channel_game(bot, interaction, started=True)
    await interaction.response.defer()
    game = bot.rows.game(row)
    with bot.languages.of_game(row.language):  # posted in the channel: the game's language
        job = Job(render.board_png, game.view(None))  # the spectator view
        png = await bot.renderer.png(job, lane=Lane.INTERACTIVE)
        alt = describe(job, bot.adapter(row.game).words)
        caption = t("cmd.board.caption", game=t(f"game.{row.game}"), turn=game.result()["turn"])
    file = image_file(interaction.channel, png, "board.png", alt)
    if file is None:
        await interaction.followup.send(caption)
    else:
        await interaction.followup.send(caption, file=file)


async def rules(bot: Host, interaction: discord.Interaction) -> None:
    row = await bot.rows.open_in_channel(interaction.channel_id or 0)
    if row is not None:  # this game's rules, as its options make them
        players = None if row.status == "lobby" else len(row.seats)
        text = bot.adapter(row.game).rules(row.options, players)
        if row.turn_limit:
            text += "\n" + t("rules.turn_limit", count=row.turn_limit // 3600)
        text += "\n" + t(f"rules.away.{row.away_rule}")
        if row.takeover or row.away_rule == "computer":
            text += "\n" + stand_in_line(row)
    else:
        text = "\n\n".join([*(t(f"rules.{game.name}") for game in bot.adapters()), t("rules.clock")])
    await interaction.response.send_message(text[:CONTENT], ephemeral=True)


async def abandon(bot: Host, interaction: discord.Interaction) -> None:
    row = await channel_game(bot, interaction)
    if interaction.user.id != row.host_id and not can_manage(interaction):
        raise HostError("host_only")  # refused privately, before the answer the channel sees is deferred
    with bot.languages.of_game(row.language):
        text = t("cmd.abandoned", name=harmless(interaction.user.display_name), game=t(f"game.{row.game}"))
    await interaction.response.defer(thinking=True)  # the channel's line, owed with the write
    ended = await bot.play.abandon(row.id, None, interaction.user.id, can_manage=can_manage(interaction),
                                   answer=owed_answer(interaction, text))  # fmt: skip
    await answer_then_deliver(bot, interaction, Outcome(ended, kind="ended"), text, private=False)


async def leave(bot: Host, interaction: discord.Interaction) -> None:
    row = await channel_game(bot, interaction)
    user = interaction.user
    if row.status == "lobby":
        refuse_leaving(row, user.id)  # refused privately, before the public deferral
        with bot.languages.of_game(row.language):
            text = t("lobby.left", name=harmless(user.display_name))
        await interaction.response.defer(thinking=True)  # the channel's line, owed with the write
        line = owed_answer(interaction, text)
        updated = await bot.lobby.leave_lobby(row.id, None, user.id, answer=line)
        # the line, then the lobby message showing the seat free
        await answer_then_deliver(bot, interaction, Outcome(updated, kind="lobby", answer=line), text, private=False)
        return
    if row.seat_of(user.id) is None:
        raise HostError("not_seated")
    with bot.languages.of_game(row.language):
        game = t(f"game.{row.game}")
        stood_in = t("cmd.left_for_computer", name=harmless(user.display_name), level=level_name(stand_in_level(row)))
        ended = t("cmd.left_game", name=harmless(user.display_name), game=game)
    await interaction.response.defer(thinking=True)  # the channel's line, owed with the write
    # A seat is never emptied mid-game: a computer player takes it, unless only computers would be left.
    outcome = await bot.stand_ins.leave_game(row.id, None, user.id, answer=owed_answer(interaction, stood_in),
                                             ended=ended)  # fmt: skip
    if outcome is not None:  # the turn again, its buttons on the new version; computers move
        await answer_then_deliver(bot, interaction, outcome, stood_in, private=False)
    else:  # abandoned: the last message's buttons retired
        gone = Outcome(await bot.rows.row(row.id), kind="ended")
        await answer_then_deliver(bot, interaction, gone, ended, private=False)


async def undo(bot: Host, interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledged before any database work
    row = await channel_game(bot, interaction, started=True)
    if row.seat_of(interaction.user.id) is None:
        raise HostError("not_seated")
    done = t("cmd.undo.done")
    outcome = await bot.play.undo(row.id, row.version, interaction.user.id, answer=owed_answer(interaction, done))
    await answer_then_deliver(bot, interaction, outcome, done)


async def back(bot: Host, interaction: discord.Interaction) -> None:
    row = await channel_game(bot, interaction, started=True)
    await come_back(bot, interaction, row.id)


async def language(bot: Host, interaction: discord.Interaction, language: str) -> None:
    row = await channel_game(bot, interaction)
    updated = await bot.records.set_language(row.id, interaction.user.id, language, can_manage=can_manage(interaction))
    with bot.languages.speaking(updated.language):
        await interaction.response.send_message(t(f"cmd.language.set.{language}"))
        if updated.status == "lobby":
            await show_lobby(bot, updated)


async def export(bot: Host, interaction: discord.Interaction) -> None:
    row = await bot.rows.latest_in_channel(interaction.channel_id or 0)
    if row is None:
        raise HostError("no_game_here")
    replay = await bot.records.export(row.id)
    data = json.dumps(replay, ensure_ascii=False, indent=1).encode()
    with bot.languages.of_game(row.language):
        text = t("cmd.export.caption", game=t(f"game.{row.game}"))
    await interaction.response.send_message(
        text,
        file=discord.File(io.BytesIO(data), filename=f"{row.game}-{row.id}.json"),
    )
