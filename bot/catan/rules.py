"""``/game rules`` for a Catan lobby or game: the rules as its own options make them, one line each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.text import t
from engine.catan import Catan
from engine.catan.options import parse_options


def rules(options: Mapping[str, Any], players: int | None) -> str:
    """The rules of a game with ``options`` (as stored) and ``players`` seats (None: a lobby, not settled yet)."""
    opts = parse_options(options, players or Catan.MAX_PLAYERS)
    board = opts.board if isinstance(opts.board, str) else "fixed"  # an explicit layout: a map set for this game
    return "\n".join(
        [
            t("rules.catan.turn"),
            t("rules.catan.strict_phases" if opts.strict_phases else "rules.catan.phases"),
            t("rules.catan.goal", count=opts.points_to_win),
            t(f"rules.catan.board.{board}"),
            t(f"rules.catan.setup.{opts.setup}"),
        ]
    )
