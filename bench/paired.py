"""Two arena runs on the same seeds, compared game by game (issue 28's keep-or-drop reads).

A seed replays one game, so where two versions of a player differ, most games come out the same and only the games
one of them won and the other lost say which is better. This reads two ``--log`` files of the arenas
(``catanatron_arena.py``, ``catan_expert_arena.py``, ``carcassonne_expert_arena.py``), keeps the games both played
(by game number; a game whose seed differs between the two is an error: not the same game), and prints each run's
wins over those games with a Wilson 95% interval, the games only one of them won, and the exact two-sided sign
test on those (the chance of a split at least as uneven if neither were better). Only runs played since a seed
replays one game pair up (the catanatron arena's from the eighth session of 2026-11-26 on): the seeds of an older
log are the same, its games are not::

    python bench/paired.py bench/catan_expert_ab_tune6.log variant.log
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.ai.arena import wilson


def won(game: dict[str, Any]) -> bool:
    """Whether the player measured won this game, in any of the arenas' log formats."""
    if "result" in game:  # catanatron_arena: "ours", "theirs" or "unfinished"
        return bool(game["result"] == "ours")
    if "won" in game:  # catan_expert_arena
        return bool(game["won"])
    return bool(game["expert_seat"] in game["winners"])  # carcassonne_expert_arena: a shared first place counts


def games(path: Path) -> dict[int, dict[str, Any]]:
    """The log's games by number (a game logged twice, by an overlap of two runs: the first one kept)."""
    out: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            game = json.loads(line)
            out.setdefault(int(game["index"]), game)
    return out


def sign_test(only_a: int, only_b: int) -> float:
    """Exact two-sided sign test: how likely a split of the discordant games at least this uneven is by chance."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2.0 * float(tail))


def compare(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> dict[str, Any]:
    common = sorted(set(a) & set(b))
    differ = [i for i in common if "seed" in a[i] and "seed" in b[i] and a[i]["seed"] != b[i]["seed"]]
    if differ:
        raise ValueError(f"games {differ[:5]} have other seeds in the two logs: not the same games")
    wins_a = sum(won(a[i]) for i in common)
    wins_b = sum(won(b[i]) for i in common)
    only_a = [i for i in common if won(a[i]) and not won(b[i])]
    only_b = [i for i in common if won(b[i]) and not won(a[i])]
    return {
        "games": len(common),
        "first": common[0] if common else None,
        "last": common[-1] if common else None,
        "wins": [wins_a, wins_b],
        "wilson95": [[round(x, 4) for x in wilson(w, len(common))] for w in (wins_a, wins_b)],
        "only": [len(only_a), len(only_b)],
        "only_games": [only_a, only_b],
        "sign_test_p": round(sign_test(len(only_a), len(only_b)), 4),
    }


def table(names: tuple[str, str], report: dict[str, Any]) -> str:
    n = report["games"]
    lines = [f"{n} games both played (numbers {report['first']}-{report['last']})"]
    for k, name in enumerate(names):
        low, high = report["wilson95"][k]
        wins = report["wins"][k]
        rate = wins / n if n else 0.0
        lines.append(f"  {name}: {wins} won, {rate:.1%} (Wilson 95%: {low:.1%} - {high:.1%}); "
                     f"{report['only'][k]} that only it won")  # fmt: skip
    lines.append(f"  sign test on the games only one won: p = {report['sign_test_p']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python bench/paired.py", description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path, help="the first run's --log (the base, say)")
    parser.add_argument("b", type=Path, help="the second run's --log, on the same seeds")
    args = parser.parse_args()
    try:
        report = compare(games(args.a), games(args.b))
    except ValueError as err:
        sys.stderr.write(f"{err}\n")
        return 1
    sys.stderr.write(table((args.a.name, args.b.name), report) + "\n")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
