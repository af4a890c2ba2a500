"""The bot as an interaction's handler sees it: ``bot_of(interaction)``, typed once and checked.

discord.py types ``interaction.client`` as a plain ``discord.Client``. Handlers need the ``BoardHost`` it really is
(its host service, renderer and config); ``bot_of`` checks that with ``isinstance`` and returns it typed, so no
handler needs a cast or a ``type: ignore``. ``bot.app`` names its class here when it is defined (``serves``): this
module imports nothing of the bot's, so any handler may import it without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.app import BoardHost

_kind: list[type[BoardHost]] = []  # the bot's class, once ``bot.app`` is imported


def serves(kind: type[BoardHost]) -> type[BoardHost]:
    """Class decorator of ``BoardHost``: the class ``bot_of`` checks interactions' clients against."""
    _kind[:] = [kind]
    return kind


def bot_of(interaction: discord.Interaction) -> BoardHost:
    """``interaction.client`` as the ``BoardHost`` it is; TypeError for any other client (a bug, for the funnel)."""
    client = interaction.client
    if not _kind or not isinstance(client, _kind[0]):
        raise TypeError(f"interaction {interaction.id} came to {type(client).__name__}, not a BoardHost")
    return client
