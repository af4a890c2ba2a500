"""Catan's side of the game contract (``bot.core.host.GameAdapter``), built with the host at start-up."""

from __future__ import annotations

from bot.catan import narration, recap, rules
from bot.catan.alt import WORDS
from bot.catan.commands import CatanCog
from bot.catan.flows import deliver, post_turn
from bot.catan.handlers import TABLE
from bot.catan.seating import NAME
from bot.catan.turn import awaiting
from bot.core.host import GameAdapter

# A bought card, a card stolen from you, offers and replies meant for you: by direct message, after the turn message.
ADAPTER = GameAdapter(
    NAME,
    TABLE,
    CatanCog,
    post_turn,
    narration.narrate_stored,
    rules.rules,
    after_move=deliver,
    words=WORDS,
    awaiting=awaiting,
    recap=recap.sentences,
)
