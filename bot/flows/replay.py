"""Looking back at a game in Discord: ``/game replay [turn]``, an ephemeral board at any earlier turn with buttons to
move through the turns.

Everything shown is what the channel could see at that point: the spectator's view at the end of the turn
(``engine.history.view_at``; no hand, no card, no order of the stack) and the narration of the turn's spectator
events, the sentences the turn message told. Text and image labels are in the reader's language (the reply is
ephemeral). Buttons and the turn select are dynamic items whose custom ids carry the game id and the turn they
lead to (``bh:rp:{game}:{turn}:{op}``): they work across restarts and after a new game has started in the channel.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

import render
from bot.core.clicks import Click, Op, Reply, Table, button, select
from bot.core.components import CONTENT, PAGE, Layout, image_file, option
from bot.core.funnel import explain
from bot.core.rendering import Job, Lane
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from bot.text.alt import describe
from bot.text.limits import LABEL, Name, fitted
from bot.text.story import fit
from engine import Game
from engine.history import GameLog, Turn, history, walk

if TYPE_CHECKING:
    from bot.core.host import Host

SCOPE: Final = "rp"  # its click table's
BUTTONS: Final = ("first", "back10", "back", "next", "fwd10", "last")
STEP: Final = {"first": None, "back10": -10, "back": -1, "next": 1, "fwd10": 10, "last": None}


def turn_label(turn: Turn) -> str:
    """A turn as the channel named it: "Turn 5", or a set-up placement (Catan's, before turn 1)."""
    return t("replay.setup", part=turn.part) if turn.part else t("replay.turn", turn=turn.number)


def seat_name(row: GameRow, seat: int | None) -> str:
    return row.seats[seat].name if seat is not None and 0 <= seat < len(row.seats) else "?"


def story(host: Host, row: GameRow, turn: Turn) -> list[str]:
    """The turn's events in sentences, as the turn messages told them (spectator events: nothing secret)."""
    return host.adapter(row.game).narrate(turn.events, [s.name for s in row.seats], row.state)


@dataclass(frozen=True)
class Page:
    """One turn of a replay: the turns of the game, the one shown and the spectator's view at its end."""

    row: GameRow
    turns: list[Turn]
    index: int
    view: Mapping[str, Any]

    @property
    def turn(self) -> Turn:
        return self.turns[self.index]


def _page(row: GameRow, log: GameLog, index: int | None) -> Page:
    """On a worker thread: replay the log once, keeping the spectator's view at the end of turn ``index`` (the last
    turn if None or past the end)."""
    turns: list[Turn] = []
    view: Mapping[str, Any] | None = None
    final: Game | None = None
    for turn, game in walk(log):  # the same game object throughout, moved on turn by turn
        turns.append(turn)
        if turn.index == index:
            view = game.view(None)
        final = game
    assert final is not None, "a game always has a first turn"
    chosen = len(turns) - 1 if index is None else max(0, min(index, len(turns) - 1))
    if view is None:  # the last turn: the game as it stands at the end of the log
        view = final.view(None)
    return Page(row, turns, chosen, view)


async def load(bot: Host, row: GameRow, index: int | None) -> Page:
    log = await bot.records.log(row)
    return await asyncio.to_thread(_page, row, log, index)


def index_of(turns: Sequence[Turn], number: int) -> int | None:
    """The history index of turn ``number`` as players count them (0: the first set-up placement)."""
    return next((turn.index for turn in turns if turn.number == number), None)


def text_of(host: Host, page: Page) -> str:
    row, turn = page.row, page.turn
    head = t(
        "replay.header",
        game=t(f"game.{row.game}"),
        turn=turn_label(turn),
        name=seat_name(row, turn.seat),
        index=page.index + 1,
        count=len(page.turns),
    )
    lines = story(host, row, turn)
    if not turn.complete:
        lines.append(t("replay.in_progress"))
    elif not lines:
        lines.append(t("replay.quiet"))
    return fit([head, *lines], "", CONTENT).rstrip("\n")


def controls(page: Page) -> discord.ui.View:
    """First / -10 / Back / Next / +10 / Last, and a select of up to 25 turns around the one shown."""
    layout = Layout()
    last = len(page.turns) - 1
    gid = page.row.id
    for op in BUTTONS:
        step = STEP[op]
        target = 0 if op == "first" else last if op == "last" else max(0, min(last, page.index + (step or 0)))
        disabled = target == page.index
        layout.button(button(SCOPE, gid, target, op, label=t(f"replay.button.{op}"), disabled=disabled))
    low = max(0, min(page.index - PAGE // 2, len(page.turns) - PAGE))
    window = page.turns[low : low + PAGE]
    options = [
        option(
            fitted(LABEL, "replay.option", turn=turn_label(turn), name=Name(seat_name(page.row, turn.seat))),
            str(turn.index),
        )
        for turn in window
    ]
    for choice, turn in zip(options, window, strict=True):
        choice.default = turn.index == page.index
    placeholder = t("replay.select", first=window[0].index + 1, last=window[-1].index + 1, count=len(page.turns))
    layout.select(select(SCOPE, gid, page.index, "pick", options=options, placeholder=placeholder))
    return layout.view


async def picture(bot: Host, page: Page) -> discord.File | None:
    job = Job(render.board_png, page.view)  # the spectator's view: nothing secret
    png = await bot.renderer.png(job, lane=Lane.BACKGROUND)  # looking back: never before a game in play
    return image_file(
        None, png, f"replay-{page.row.id}-{page.index + 1}.png", describe(job, bot.adapter(page.row.game).words)
    )


async def command(bot: Host, interaction: discord.Interaction, turn: int | None) -> None:
    """``/game replay [turn]``: the channel's open game, else its last one, at ``turn`` (default: the latest)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        row = await bot.rows.latest_game(interaction.channel_id or 0)
        log = await bot.records.log(row)
    except HostError as err:
        await explain(interaction, err)
        return
    index: int | None = None
    if turn is not None:
        turns = await asyncio.to_thread(history, log)
        index = index_of(turns, turn)
        if index is None:
            first, last = turns[0].number, turns[-1].number
            await explain(interaction, HostError("replay_no_turn", turn=turn, first=first, last=last))
            return
    page = await asyncio.to_thread(_page, row, log, index)
    file = await picture(bot, page)
    kwargs: dict[str, Any] = {"content": text_of(bot, page), "view": controls(page), "ephemeral": True}
    if file is not None:
        kwargs["file"] = file
    await interaction.followup.send(**kwargs)


async def show(click: Click) -> Reply:
    """A button or the select of a replay: the same reply, at another turn (the custom id's number, or the
    choice)."""
    index = click.version
    if click.values:
        index = int(click.values[0]) if click.values[0].isdigit() else 0
    page = await load(click.host, await click.host.rows.row(click.game_id), index)
    file = await picture(click.host, page)
    return Reply(text_of(click.host, page), controls(page), files=[file] if file is not None else [])


# bh:rp:{game}:{turn}:{op}: each button names the turn it shows; the select, the turn shown now.
TABLE: Final = Table(
    SCOPE,
    {
        **{op: Op(show, answer="update", strict=False) for op in BUTTONS},
        "pick": Op(show, kind="select", answer="update", strict=False),
    },
)
