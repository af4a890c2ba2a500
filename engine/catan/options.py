"""Catan options (replay format): board, setup, strict_phases, points_to_win, first_player, dev_deck."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.catan.deck import CARD_INDEX, CARDS, DECK_COUNTS
from engine.catan.maps import Layout, beginner_layout, explicit_layout
from engine.errors import RuleError

OPTION_NAMES: Final = frozenset({"board", "setup", "strict_phases", "points_to_win", "first_player", "dev_deck"})
# The most points a game may ask for: what the computer players reach in practice. Measured by
# bench/points_to_win.py (bench/README.md): at 12, four standard players finished 200 games of 200 and four random
# ones 199; at 13 and more, games stall more and more often (at 14, one in five of four random players' games):
# the pieces, free intersections, awards and cards left no longer add up to the points, and nobody ever wins.
MAX_POINTS_TO_WIN = 12


@dataclass
class Options:
    board: str | Layout  # "random", "random_numbers", "beginner" or an explicit layout
    setup: str = "snake"
    strict_phases: bool = False
    points_to_win: int = 10
    first_player: int | None = None
    dev_deck: list[str] | None = None
    given: frozenset[str] = frozenset()


def parse_options(raw: Mapping[str, Any], players: int) -> Options:
    unknown = sorted(set(raw) - OPTION_NAMES)
    if unknown:
        raise RuleError(
            "unknown_option",
            f"unknown Catan option {unknown[0]!r} (options: {', '.join(sorted(OPTION_NAMES))})",
            option=unknown[0],
        )
    board_raw = raw.get("board", "random")
    board: str | Layout
    if isinstance(board_raw, Mapping):
        board = explicit_layout(board_raw)
    elif board_raw in ("random", "random_numbers", "beginner"):
        board = str(board_raw)
    else:
        raise RuleError(
            "bad_option",
            "option board must be random, random_numbers, beginner or an explicit layout",
            option="board",
        )
    setup = raw.get("setup", "snake")
    if setup not in ("snake", "beginner"):
        raise RuleError("bad_option", "option setup must be snake or beginner", option="setup")
    if setup == "beginner" and board != "beginner" and board != beginner_layout():
        raise RuleError("bad_option", "the beginner set-up needs the beginner map (board beginner)", option="setup")
    strict = raw.get("strict_phases", False)
    if not isinstance(strict, bool):
        raise RuleError("bad_option", "option strict_phases must be true or false", option="strict_phases")
    points = raw.get("points_to_win", 10)
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= MAX_POINTS_TO_WIN:
        raise RuleError(
            "bad_option",
            f"option points_to_win must be a whole number from 1 to {MAX_POINTS_TO_WIN}",
            option="points_to_win",
            allowed=[1, MAX_POINTS_TO_WIN],
        )
    first = raw.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players):
        raise RuleError(
            "bad_option", f"option first_player must be a seat from 0 to {players - 1}", option="first_player"
        )
    deck = raw.get("dev_deck")
    if deck is not None:
        if not isinstance(deck, list) or not all(isinstance(c, str) and c in CARD_INDEX for c in deck):
            raise RuleError(
                "bad_option",
                f"option dev_deck must be a list of development cards ({', '.join(CARDS)})",
                option="dev_deck",
            )
        for i, name in enumerate(CARDS):
            if deck.count(name) > DECK_COUNTS[i]:
                raise RuleError(
                    "bad_option",
                    f"option dev_deck has {deck.count(name)} {name} cards but the deck holds only {DECK_COUNTS[i]}",
                    option="dev_deck",
                    card=name,
                )
        deck = list(deck)
    return Options(board, setup, strict, points, first, deck, frozenset(raw))
