"""Where the bot process's time goes, from py-spy's raw stacks (``bot_bench.py --sample FILE``).

Each sample is charged to the code that owns it: walking from the innermost frame outwards, the first frame of the
bot (``bot/<package>/<module>``), discord.py, the engine, render, aiosqlite, or simcord and the bench script (the
simulated Discord, which a real bot does not run). The standard library, builtins and asyncio are charged to whoever
called them, so ``json.dumps`` called by the bot's storage is storage, by simcord is simcord. Per thread (the event
loop, SQLite's threads, the drawing processes' pipe readers), and per action when told how many there were.

Run: ``python bench/stack_owners.py FILE [--actions N] [--top 30] [--depth 2]``.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<function>.*) \((?P<path>[^()]*?):\d+\)$")
THREAD = re.compile(r"^thread \(\d+\): (?P<name>.*)$")
OWNERS = ("discord/", "engine/", "render/", "aiosqlite/", "simcord/")
BENCH = "bot_bench.py"
BENCH_DRIVER = ("<module>", "run_command", "<lambda>", "main")  # the script's own outer frames: not the simulation


def owner(frames: list[str], depth: int) -> str:
    """The owner of one sample: its innermost frame that belongs to a known body of code."""
    for frame in reversed(frames):
        match = FRAME.match(frame)
        if match is None:
            continue
        path, function = match["path"], match["function"]
        if path.startswith("simcord/") or (path.endswith(BENCH) and function not in BENCH_DRIVER):
            return "simcord + bench"
        if path.startswith("bot/"):
            return "/".join(path.split("/")[: depth + 1])
        for prefix in OWNERS:
            if path.startswith(prefix):
                return prefix.rstrip("/")
    return "other"


def thread_of(frames: list[str]) -> str:
    match = THREAD.match(frames[0]) if frames else None
    name = match["name"] if match else "?"
    return {"MainThread": "event loop"}.get(name, re.sub(r"-\d+", "", name.split(" ")[0]))


def owners(path: Path, depth: int) -> dict[str, Counter[str]]:
    found: dict[str, Counter[str]] = {}
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        frames = stack.split(";")
        found.setdefault(thread_of(frames), Counter())[owner(frames[1:], depth)] += int(count)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(prog="python bench/stack_owners.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="py-spy raw output (bot_bench.py --sample FILE)")
    parser.add_argument("--actions", type=int, default=0, help="actions in the sampled phase: ms per action")
    parser.add_argument("--rate", type=int, default=200, help="py-spy's samples per second (bot_bench: 200)")
    parser.add_argument("--top", type=int, default=30, help="owners shown per thread")
    parser.add_argument("--depth", type=int, default=2, help="bot/ path parts kept (2: bot/flows/outbox.py)")
    args = parser.parse_args()
    for thread, counts in sorted(owners(args.file, args.depth).items(), key=lambda kv: -kv[1].total()):
        total = counts.total()
        per = f", {1000 * total / args.rate / args.actions:.2f} ms per action" if args.actions else ""
        print(f"{thread}: {total} samples ({total / args.rate:.1f} s{per})")
        for name, n in counts.most_common(args.top):
            ms = f" {1000 * n / args.rate / args.actions:6.2f} ms" if args.actions else ""
            print(f"  {100 * n / total:5.1f}%{ms}  {name}")


if __name__ == "__main__":
    main()
