"""The channel messages of public trade offers: their Accept / Decline / Counter buttons last as long as the offer.

An offer closes when it is traded, withdrawn, void (its maker can no longer pay) or its turn ends. After such a
change the bot looks through the channel's latest messages and takes the buttons off those of closed offers; a
click on a closed offer's button that was missed (further back, or in a DM) takes them off that message and is
answered that the offer is no longer open.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.catan.turn import PREFIX
from bot.host import HostError
from bot.text import t

if TYPE_CHECKING:
    from bot.app import BoardHost

# The reply buttons of an offer (Accept, Decline, Counter; Confirm and Withdraw in the maker's DMs): the offer's
# number is their argument (Confirm's is "offer,seat").
OFFER_BUTTON: Final = re.compile(PREFIX + r":(?P<game>\d+):\d+:(?:acc|dec|cnt|wd|conf):(?P<offer>\d+)")
# How far back in the channel a closed offer's message is looked for.
OFFER_SCAN: Final = 25
# Events after which no offer can have closed: nothing to take off older messages.
KEEPS_OFFERS: Final = frozenset({"offer_made", "offer_accepted", "offer_declined", "discarded"})


def offers_on(message: discord.Message, game_id: int) -> set[int]:
    """The numbers of the offers of game ``game_id`` whose reply buttons ``message`` shows."""
    found = set()
    for row in message.components:
        for child in getattr(row, "children", ()):
            match = OFFER_BUTTON.match(str(getattr(child, "custom_id", None) or ""))
            if match is not None and int(match["game"]) == game_id:
                found.add(int(match["offer"]))
    return found


async def open_offers(bot: BoardHost, game_id: int) -> set[int] | None:
    """The numbers of the running game's open offers now; None once it is over (or if there is no such game)."""
    try:
        row = await bot.service.row(game_id)  # the newest state: a later offer may have been posted meanwhile
    except HostError:
        return None
    if row.status != "active":
        return None
    game: Any = bot.service.game(row)
    return {offer["id"] for offer in game.offers}


async def close_offers(bot: BoardHost, game_id: int, channel: discord.abc.Messageable) -> None:
    """Take the reply buttons off the game's recent offer messages in ``channel`` whose offer has closed."""
    open_now = await open_offers(bot, game_id) or set()
    try:
        async for message in channel.history(limit=OFFER_SCAN):
            if bot.user is not None and message.author.id != bot.user.id:
                continue
            shown = offers_on(message, game_id)
            if shown and not shown <= open_now:
                await message.edit(view=None)
    except discord.HTTPException:  # the buttons stay; a click on one heals it (refuse_closed_offer)
        return


async def refuse_closed_offer(bot: BoardHost, interaction: discord.Interaction, game_id: int, offer: int) -> None:
    """A click on a reply button of ``offer``: if it is no longer open, take the buttons off the message clicked
    (a public offer or a DM; an ephemeral reply cannot be edited) and, while the game runs, refuse the click."""
    open_now = await open_offers(bot, game_id)
    if open_now is not None and offer in open_now:
        return
    message = interaction.message
    if message is not None and not message.flags.ephemeral and offers_on(message, game_id):
        with contextlib.suppress(discord.HTTPException):
            await message.edit(view=None)
    if open_now is not None:  # a game that is over says so itself
        raise HostError("rule", reason=t("catan.offer_gone", offer=offer))
