"""Interaction latency through the real process (issue 13): from the fake Discord sending INTERACTION_CREATE on the
gateway to the bot's first answer reaching it (the interaction callback: a deferral, a message, a modal, an update
or autocomplete choices), over the whole-game run of ``tests/process/whole_games.py``.

That run is ``python -m bot sync --guild ID`` then ``python -m bot`` as subprocesses against the loopback fake
Discord, a whole Carcassonne game (River + Tower) and a whole Catan game played at the same time in two channels
only through interactions, with one kill -9 and restart of the bot midway. It checks everything the test checks.

    python bench/interaction_latency.py [--runs N]

prints p50 / p95 / max of the first answer, overall and per kind of interaction, and the run's wall time (paced
by the fake's per-channel rate limit of 5 messages in 5 seconds, as Discord's).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cli import Parser, run_command, whole_number

KINDS = {2: "slash command", 3: "button or select", 4: "autocomplete", 5: "modal submit"}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"| {name} | {len(ms)} | {quantile(ms, 0.5):.1f} | {quantile(ms, 0.95):.1f} | {max(ms):.1f} |"


def arguments() -> argparse.Namespace:
    parser = Parser(prog="python bench/interaction_latency.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=whole_number(1), default=1, help="whole-game runs (each about two minutes)")
    return parser.parse_args()


async def main(args: argparse.Namespace) -> None:
    from tests.process.whole_games import play_both  # lazy: the test harness loads once the arguments are read

    per_kind: dict[str, list[float]] = {}
    seconds = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            played = await play_both(Path(tmp))
        seconds.append(played.seconds)
        for inter in played.fake.interactions.values():
            if inter.answered_at is not None:
                per_kind.setdefault(KINDS.get(inter.kind, str(inter.kind)), []).append(
                    inter.answered_at - inter.sent_at
                )
    everything = [v for values in per_kind.values() for v in values]
    print(f"runs: {args.runs}, wall time per run: {', '.join(f'{s:.1f} s' for s in seconds)}")
    print("| interactions | count | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|---|")
    print(line("all", everything))
    for name, values in sorted(per_kind.items()):
        print(line(name, values))


if __name__ == "__main__":
    run_command(lambda: asyncio.run(main(arguments())) or 0)
