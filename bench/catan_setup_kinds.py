"""What a Catan set-up rule yields one seat: its two set-up settlements' pips and kinds of resource (issue 28).

Plays only the set-up of N four-player games in our engine (default board, seeds 5000000... by default: outside both
the tune and the evaluation ranges of the arenas), every seat placing by ``standard``'s rule; in game i the seat i mod
4 places its second settlement with ``--new-kind K`` more for each kind of resource it adds that the first does not
yield (0: ``standard``'s rule as it is). Prints one JSON line: the seat's mean pips (out of 36 rolls) and kinds, and
how often it has all five kinds or three or fewer. bench/README.md ("A set-up that reaches every kind of resource")::

    python bench/catan_setup_kinds.py --games 400 --new-kind 0
    python bench/catan_setup_kinds.py --games 400 --new-kind 3
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.ai.catan import StandardCatanPolicy, Table, read, spot_value
from engine.catan.game import Catan
from engine.catan.state import SETUP
from engine.game import Action

SEED_BASE = 5_000_000


def placed(t: Table, legal: Sequence[Action], new_kind: float) -> Action:
    """The set-up rule with ``new_kind`` more for each kind a second settlement adds."""
    if legal[0]["type"] != "settlement":
        return StandardCatanPolicy().setup(t, legal)
    produced = t.production()

    def worth(a: Action) -> tuple[float, int]:
        gain = t.node_pips(a["at"] - 1)
        new = sum(1 for r in range(5) if gain[r] and not produced[r]) if any(produced) else 0
        return spot_value(t, a["at"] - 1, produced) + new_kind * new, -a["at"]

    return max(legal, key=worth)


def opening(seed: int, seat: int, new_kind: float) -> tuple[float, int]:
    """The pips and kinds ``seat``'s set-up yields in the game of ``seed``."""
    game = Catan.new(["a", "b", "c", "d"], {}, seed=seed)
    standard = StandardCatanPolicy()
    while game.phase == SETUP:
        who = game.current
        t = read(game.view(who), who)
        legal = game.legal_actions(who)
        game.apply(placed(t, legal, new_kind) if who == seat else standard.setup(t, legal))
    made = read(game.view(seat), seat).production()
    return sum(made), sum(1 for p in made if p)


def summary(games: int, new_kind: float, first_seed: int = SEED_BASE) -> dict[str, Any]:
    seen = [opening(first_seed + i, i % 4, new_kind) for i in range(games)]
    return {
        "games": games,
        "new_kind": new_kind,
        "pips": round(sum(p for p, _ in seen) / games, 2),
        "kinds": round(sum(k for _, k in seen) / games, 2),
        "five_kinds": round(sum(k == 5 for _, k in seen) / games, 2),
        "three_or_fewer": round(sum(k <= 3 for _, k in seen) / games, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--new-kind", type=float, default=0.0, help="more for each kind a second settlement adds")
    parser.add_argument("--first-seed", type=int, default=SEED_BASE)
    args = parser.parse_args()
    print(json.dumps(summary(args.games, args.new_kind, args.first_seed)))


if __name__ == "__main__":
    main()
