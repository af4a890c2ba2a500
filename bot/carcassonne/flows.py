"""Posting a Carcassonne game's changes, and the checks of a click on it: the game, fresh, and the user's turn.

A turn is one message: while the same player's turn goes on (placing, then the follower; an undo) and nothing was
posted after it, the message is brought up to date instead of a new one, its story kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.carcassonne.alt import WORDS
from bot.carcassonne.turn import step_of, turn_image, turn_text, turn_view
from bot.core import safely
from bot.core.components import image_file
from bot.core.host import Posted, Shown
from bot.core.pings import owing
from bot.core.rendering import Lane
from bot.flows.presence import presence
from bot.flows.turns import game_channel
from bot.host import HostError
from bot.storage import GameRow
from bot.text.alt import describe
from engine import Event, Game
from engine.carcassonne import Carcassonne

if TYPE_CHECKING:
    from bot.core.host import Host

NAME = "carcassonne"


def carcassonne(bot: Host, row: GameRow) -> Carcassonne:
    """The engine game of a started Carcassonne row (a row of another game is not this game's to act on)."""
    game = bot.rows.game(row)
    if not isinstance(game, Carcassonne):
        raise HostError("not_active")
    return game


async def post_turn(
    bot: Host,
    row: GameRow,
    game: Game,
    events: Sequence[Event],
    opening: bool,
    shown: Shown,
    nonce: str | None = None,
) -> Posted | None:
    """The turn message: a new one when a turn begins (or the game ends); while the same player's turn goes on
    (placing, then the follower; an undo) and nothing was posted after the turn's message, that message is brought
    up to date instead, its story kept."""
    assert isinstance(game, Carcassonne)
    channel = await game_channel(bot, row)
    step = step_of(game)
    # A process that remembers nothing of the message (started again, say) knows it still shows this turn when it
    # shows the version just before and this change began no turn: an edit a kill interrupted is made again then,
    # instead of the turn being told a second time in a new message.
    resumed = (
        shown.step is None
        and row.shown_version == row.version - 1
        and not any(e.get("type") in ("turn_started", "game_over") for e in events)
    )
    same_turn = (
        step is not None
        and (step == shown.step or resumed)
        and row.version > shown.version
        and shown.message_id is not None
        and getattr(channel, "last_message_id", None) == shown.message_id  # else the choices would be up the channel
    )
    view = game.view(None)
    here = await presence(bot, row)
    told = shown.story if same_turn else ()
    content, story = turn_text(row, game, events, opening=opening, view=view, story=told, notes=here.notes(row))
    image = await bot.renderer.png(job := turn_image(game, view), lane=Lane.INTERACTIVE)
    choices = turn_view(row, game)
    file = image_file(channel, image, f"carcassonne-{row.id}-{row.version}.png", describe(job, WORDS))
    if same_turn and hasattr(channel, "get_partial_message"):
        message_id = shown.message_id
        assert message_id is not None  # same_turn says so
        edited = await safely.edit_in_place(
            bot, row.channel_id, message_id, row.id, "turn message",
            content=content,
            attachments=[file] if file is not None else [],
            view=choices,
            allowed_mentions=owing(row, game),
        )  # fmt: skip
        if edited:
            return Posted(channel.get_partial_message(message_id), step, tuple(story))
        # deleted meanwhile: post the turn as a new message
        file = image_file(channel, image, f"carcassonne-{row.id}-{row.version}.png", describe(job, WORDS))
    kwargs: dict[str, Any] = {"content": content, **here.pings(owing(row, game))}  # silent in quiet hours
    if nonce is not None:
        kwargs["nonce"] = nonce
    if file is not None:
        kwargs["file"] = file
    if choices is not None:
        kwargs["view"] = choices
    message = await channel.send(**kwargs)
    return Posted(message, step, tuple(story) if step is not None else ())  # a finished game goes on nowhere


async def current_game(bot: Host, game_id: int, version: int, user_id: int) -> tuple[GameRow, Carcassonne]:
    """The row and game for a click on ``version``; HostError unless it is fresh and the user's turn."""
    row = await bot.rows.row_at(game_id, version)
    if row.status != "active":
        raise HostError("not_active")
    if row.version != version:
        raise HostError("stale")
    return row, require_turn(bot, row, user_id)


def require_turn(bot: Host, row: GameRow, user_id: int) -> Carcassonne:
    seat = row.seat_of(user_id)
    if seat is None:
        raise HostError("not_seated")
    game = carcassonne(bot, row)
    if game.finished:
        raise HostError("not_active")
    if seat != game.current:
        raise HostError("not_your_turn")
    return game
