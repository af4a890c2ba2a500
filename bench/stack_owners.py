"""Where the bot process's time goes, from py-spy's raw stacks (``bot_bench.py --sample FILE``).

Each sample is charged to the code that owns it: walking from the innermost frame outwards, the first frame of the
bot (``bot/<package>/<module>``), discord.py, the engine, render, aiosqlite, or simcord and the bench script (the
simulated Discord, which a real bot does not run). The standard library, builtins and asyncio are charged to whoever
called them, so ``json.dumps`` called by the bot's storage is storage, by simcord is simcord. Per thread (the event
loop, SQLite's threads, the drawing pipes' writers), and per action when told how many there were.

The same from a cProfile (``bot_bench.py --profile FILE``, the event loop's thread CPU time, which a busy machine
does not inflate; the profiler itself slows Python code down about twice, so read shares): each function's own time
goes to its owner, and the standard library's and builtins' own time to their callers, in proportion to the time
each caller spent in them, up to the first owner.

Run: ``python bench/stack_owners.py FILE [--actions N] [--top 30] [--depth 2]`` (a ``.prof`` file: the profile).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path
from typing import Any

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


def owner_of_file(path: str, function: str, depth: int) -> str | None:
    """The owner of a profiled function by its file (None: the standard library or a builtin)."""
    path = path.replace("\\", "/")
    if "/simcord/" in path or (path.endswith(BENCH) and function not in BENCH_DRIVER):
        return "simcord + bench"
    if "/site-packages/" in path:  # a library: discord.py and aiosqlite are owners, the rest is passed up
        package = path.split("/site-packages/", 1)[1].split("/", 1)[0]
        return package if package in ("discord", "aiosqlite") else None
    for top in ("bot", "engine", "render"):
        if f"/{top}/" in path:
            rest = path.split(f"/{top}/", 1)[1].split("/")
            return "/".join([top, *rest][: depth + 1]) if top == "bot" else top
    return None


def profile_owners(path: Path, depth: int) -> Counter[str]:
    """Own time per owner from a cProfile, the unowned (standard library, builtins) passed up to their callers."""
    import pstats

    stats: dict[Any, Any] = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    found: Counter[str] = Counter()

    def charge(key: Any, seconds: float, hops: int) -> None:
        owner = owner_of_file(key[0], key[2], depth)
        if owner is not None:
            found[owner] += seconds
            return
        callers = stats[key][4] if key in stats else {}
        spent = sum(edge[3] for edge in callers.values())
        if hops > 40 or not callers or spent <= 0:
            found["other"] += seconds
            return
        for caller, edge in callers.items():
            charge(caller, seconds * edge[3] / spent, hops + 1)

    for key, (_, _, own, _, _) in stats.items():
        charge(key, own, 0)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(prog="python bench/stack_owners.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="py-spy raw output (bot_bench.py --sample FILE)")
    parser.add_argument("--actions", type=int, default=0, help="actions in the sampled phase: ms per action")
    parser.add_argument("--rate", type=int, default=200, help="py-spy's samples per second (bot_bench: 200)")
    parser.add_argument("--top", type=int, default=30, help="owners shown per thread")
    parser.add_argument("--depth", type=int, default=2, help="bot/ path parts kept (2: bot/flows/outbox.py)")
    args = parser.parse_args()
    if args.file.suffix == ".prof":
        seconds = profile_owners(args.file, args.depth)
        total = sum(seconds.values())
        per = f", {1000 * total / args.actions:.2f} ms per action" if args.actions else ""
        print(f"event loop (profiled): {total:.1f} s{per}")
        for name, value in seconds.most_common(args.top):
            ms = f" {1000 * value / args.actions:6.2f} ms" if args.actions else ""
            print(f"  {100 * value / total:5.1f}%{ms}  {name}")
        return
    for thread, counts in sorted(owners(args.file, args.depth).items(), key=lambda kv: -kv[1].total()):
        total = counts.total()
        per = f", {1000 * total / args.rate / args.actions:.2f} ms per action" if args.actions else ""
        print(f"{thread}: {total} samples ({total / args.rate:.1f} s{per})")
        for name, n in counts.most_common(args.top):
            ms = f" {1000 * n / args.rate / args.actions:6.2f} ms" if args.actions else ""
            print(f"  {100 * n / total:5.1f}%{ms}  {name}")


if __name__ == "__main__":
    main()
