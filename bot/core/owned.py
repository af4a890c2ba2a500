"""Every button and select names a game in its custom id; a click counts only where that game is.

A click on a game's component is honoured in the game's own channel (its lobby, turn messages, replies there, the
replays shown there), or in a direct message with one of the game's seated people (Catan's private offers); anywhere
else (a custom id of one channel's game clicked in another, a DM of someone not playing) it is refused with a
translated reply and changes nothing.

The check is ``GameItem.interaction_check``, which discord.py asks before any dynamic item's callback; the bot
registers only items that mix it in (``BoardHost.add_dynamic_items`` refuses any other), so a new item cannot
forget it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.client import bot_of
from bot.core.funnel import handle
from bot.host import HostError


def in_direct_message(interaction: discord.Interaction) -> bool:
    """Whether the click came from a one-to-one DM with the bot (not a server channel, not a group DM)."""
    channel = interaction.channel
    return interaction.guild_id is None and getattr(channel, "type", None) == discord.ChannelType.private


async def check(interaction: discord.Interaction, game_id: int) -> bool:
    """Whether a click on game ``game_id``'s component may go on; if not, the user has been told why."""
    try:
        row = await bot_of(interaction).service.placed(game_id)
        if interaction.channel_id == row.channel_id:
            return True
        if not in_direct_message(interaction):
            raise HostError("elsewhere")
        if row.seat_of(interaction.user.id) is None:
            raise HostError("not_your_game")
        return True
    except Exception as err:  # the funnel: a refusal in the reader's language, anything else an incident
        await handle(interaction, err, game_id)
        return False


class GameItem:
    """Mixed into every dynamic item, before ``DynamicItem``: its ``game_id`` must belong where it is clicked."""

    game_id: int

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await check(interaction, self.game_id)
