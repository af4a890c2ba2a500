"""Carcassonne's side of the game contract (``bot.core.host.GameAdapter``), built with the host at start-up."""

from __future__ import annotations

from bot.carcassonne import narration, recap, rules
from bot.carcassonne.alt import WORDS
from bot.carcassonne.commands import CarcassonneCog
from bot.carcassonne.flows import NAME, post_turn
from bot.carcassonne.handlers import TABLE
from bot.carcassonne.turn import awaiting
from bot.core.host import GameAdapter

# No private news: the turn message says everything.
ADAPTER = GameAdapter(
    NAME,
    TABLE,
    CarcassonneCog,
    post_turn,
    narration.narrate,
    rules.rules,
    words=WORDS,
    awaiting=awaiting,
    recap=recap.sentences,
)
