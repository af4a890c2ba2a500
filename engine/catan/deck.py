"""The development cards: their names, in the order hands and the deck count them, and how many the deck holds."""

from __future__ import annotations

from typing import Final

# In the order of every per-card list (a hand's cards, the deck's counts).
CARDS: Final = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
CARD_INDEX: Final = {name: i for i, name in enumerate(CARDS)}
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DECK_COUNTS: Final = (14, 5, 2, 2, 2)
