"""The channel messages of public trade offers: their Accept / Decline / Counter buttons last as long as the offer.

An offer closes when it is traded, withdrawn, void (its maker can no longer pay), taken back with ``/game undo``,
or its turn or the game ends. The bot remembers each public offer's message (in the database, so a restart loses
nothing) and after every change takes the buttons off the messages of offers no longer open. A click on a closed
offer's button that kept it anyway (a DM, or a message Discord failed to edit) takes the buttons off that message
and is answered that the offer is no longer open. Nothing here reads the channel's history.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

import discord

from bot.catan.ids import SCOPE
from bot.core import safely
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from engine.catan import Catan

if TYPE_CHECKING:
    from bot.core.host import Host

# The reply buttons of an offer (Accept, Decline, Counter; Confirm and Withdraw in the maker's DMs): the offer's
# number is their argument (Confirm's is "offer,seat").
OFFER_BUTTON: Final = re.compile(r"bh:" + SCOPE + r":(?P<game>\d+):\d+:(?:acc|dec|cnt|wd|conf):(?P<offer>\d+)")


def offers_on(message: discord.Message, game_id: int) -> set[int]:
    """The numbers of the offers of game ``game_id`` whose reply buttons ``message`` shows."""
    found = set()
    for row in message.components:
        for child in getattr(row, "children", ()):
            match = OFFER_BUTTON.match(str(getattr(child, "custom_id", None) or ""))
            if match is not None and int(match["game"]) == game_id:
                found.add(int(match["offer"]))
    return found


async def open_offers(bot: Host, game_id: int, current: GameRow | None = None) -> set[int] | None:
    """The numbers of the running game's open offers now (in ``current``, the game's row just read, if given); None
    once it is over (or if there is no such game)."""
    try:
        row = current or await bot.rows.row(game_id)  # the newest state: a later offer may have been posted
    except HostError:
        return None
    if row.status != "active":
        return None
    game = bot.rows.game(row)
    if not isinstance(game, Catan):  # a row of another game has no offers of this game's
        return None
    return {offer["id"] for offer in game.offers}


async def remember(bot: Host, game_id: int, offer: int, message: discord.Message) -> None:
    """``message`` shows the reply buttons of the public ``offer``."""
    await bot.records.remember_offer_message(game_id, offer, message.id)


async def close_offers(
    bot: Host, game_id: int, channel: discord.abc.Messageable, current: GameRow | None = None
) -> None:
    """Take the reply buttons off the messages of the game's public offers that have closed, and forget them
    (``current``: the game's row, if the caller has just read it)."""
    shown = await bot.records.offer_messages(game_id)
    if not shown:
        return
    open_now = await open_offers(bot, game_id, current) or set()
    for offer, message_id in shown.items():
        if offer in open_now:
            continue
        if hasattr(channel, "get_partial_message"):  # if Discord refuses, a click on it heals it (below)
            await safely.edit(channel.get_partial_message(message_id), game_id, "closed offer", view=None)
        await bot.records.forget_offer_message(game_id, offer)


async def refuse_closed_offer(bot: Host, interaction: discord.Interaction, game_id: int, offer: int) -> None:
    """A click on a reply button of ``offer``: if it is no longer open, take the buttons off the message clicked
    (a public offer or a DM; an ephemeral reply cannot be edited) and, while the game runs, refuse the click."""
    open_now = await open_offers(bot, game_id)
    if open_now is not None and offer in open_now:
        return
    message = interaction.message
    if message is not None and not message.flags.ephemeral and offers_on(message, game_id):
        await safely.edit(message, game_id, "closed offer", view=None)
    if open_now is not None:  # a game that is over says so itself
        raise HostError("rule", reason=t("catan.offer_gone", offer=offer))
