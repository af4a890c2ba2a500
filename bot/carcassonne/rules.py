"""``/game rules`` for a Carcassonne lobby or game: the rules as its own options make them, one line each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.text import t
from engine.carcassonne.options import MAX_PLAYERS, parse_options, tower_pieces


def rules(options: Mapping[str, Any], players: int | None) -> str:
    """The rules of a game with ``options`` (as stored) and ``players`` seats (None: a lobby, not settled yet)."""
    opts = parse_options(options, players or MAX_PLAYERS)
    lines = [
        t("rules.carcassonne.turn"),
        t("rules.carcassonne.scoring_small_city" if opts.small_city else "rules.carcassonne.scoring"),
        t("rules.carcassonne.end_first_edition" if opts.farm_scoring == "first_edition" else "rules.carcassonne.end"),
        t("rules.carcassonne.river" if opts.river else "rules.carcassonne.no_river"),
    ]
    if opts.tower:
        lines.append(t("rules.carcassonne.tower"))
        if players is not None or opts.tower_pieces is not None:  # the official count depends on the players
            count = tower_pieces(opts, players or MAX_PLAYERS)
            lines.append(t("rules.carcassonne.tower_pieces", count=count))
    return "\n".join(lines)
