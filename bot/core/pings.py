"""Who a message may ping: nobody, unless it names exactly the people it is for.

The client's default (``Host.__init__``) is ``AllowedMentions.none()``: discord.py sends it with every message,
edit, interaction response and follow-up that gives none of its own, so a player's name in a text (a nickname such
as ``@everyone`` or ``<@id>``) pings nobody. The few messages meant to ping someone (the players owing a decision in
a turn message, the player asked to open their DMs, ...) pass one of these, naming the users by id: never
``@everyone``, ``@here``, a role, or anyone merely mentioned in the text. Names are also kept from looking like
mentions where they enter (``harmless``).
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.storage import GameRow
from engine import Game

ZERO_WIDTH_SPACE = "\u200b"


def only(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Exactly these users may be pinged (a computer seat's negative id is no user; Discord refuses repeats)."""
    ids = dict.fromkeys(user_id for user_id in user_ids if user_id > 0)
    return discord.AllowedMentions(
        everyone=False, users=[discord.Object(id=user_id) for user_id in ids], roles=False, replied_user=False
    )


def people(row: GameRow, seats: Iterable[int]) -> discord.AllowedMentions:
    """The people of ``seats``: never a computer player, nor a person a computer plays for now (``row.mention``
    names them without a ping)."""
    return only(row.seats[s].user_id for s in seats if not row.seats[s].computer and s not in row.stand_ins)


def owing(row: GameRow, game: Game) -> discord.AllowedMentions:
    """A turn message: the people owing a decision as the channel may know it (a private offer's recipient is told
    privately); nobody once the game is over."""
    return people(row, [] if game.finished else game.public_actors())


def harmless(name: str) -> str:
    """A display name as the bot shows it: an invisible space after every ``@``, so that no nickname (``@everyone``,
    ``<@id>``, ``<@&role>``) can read as a mention wherever the name is shown; it looks the same."""
    return name.replace("@", "@" + ZERO_WIDTH_SPACE)
