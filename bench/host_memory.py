"""Memory and CPU of the real bot, idle and per active game: what a host needs to size a machine (issue 25).

``python -m bot`` runs as a process against the loopback fake Discord (``bot/local/loopback``) with its default two
drawing processes and a SQLite file, as a host runs it. Measured from ``/proc``: each process's resident memory
(RSS) and proportional share (PSS: shared pages split among the processes that map them, so they add up), and
CPU seconds (user + system) of the bot and of its drawing processes.

1. Idle: connected, nothing played, after ``--settle`` seconds; the CPU of ``--idle`` seconds doing nothing.
2. Then stages of games in play at once (``--games 1,5,10``: 1 game, then 4 more, then 5 more; half Carcassonne with
   River and Tower for two people, half Catan for three), each game played through interactions as people's clients
   send them (``tests/process``: selects, buttons, forms), ``--moves`` moves per game per stage, every game at once.
   After each stage: the memory, with that many games open, and the CPU per move during the stage.

Players click as fast as the fake's per-channel rate limit lets the bot post (5 messages in 5 seconds, Discord's),
about a move a second per game: far busier than asynchronous games played over days.

    python bench/host_memory.py [--games 1,5,10] [--moves 30] [--render-processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.local.loopback import FakeDiscord
from tests.process.carcassonne_play import CarcassonnePeople
from tests.process.catan_play import CatanPeople, Script
from tests.process.conftest import Launcher
from tests.process.people import Person, Table

TICKS = os.sysconf("SC_CLK_TCK")
ROLES = ("bot", "drawing", "forkserver", "tracker")


@dataclass
class Sample:
    rss: dict[str, float]  # MB per role (ROLES): the drawing processes together, multiprocessing's fork server
    pss: dict[str, float]
    cpu: dict[str, float]  # seconds since each process started
    drawing: int  # drawing processes


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def kb(path: Path, field: str) -> float:
    for line in path.read_text().splitlines():
        if line.startswith(field + ":"):
            return float(line.split()[1])
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def sample(bot_pid: int) -> Sample:
    roles = {bot_pid: "bot"}
    # The drawing processes, multiprocessing's resource tracker beside them, and the fork server they are forked
    # from (``bot.host.pipe_worker``): its children are drawing processes (they keep its command line).
    for child in children(bot_pid):
        command = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"forkserver" in command:
            roles[child] = "forkserver"
            roles.update(dict.fromkeys(children(child), "drawing"))
        else:
            roles[child] = "tracker" if b"resource_tracker" in command else "drawing"
    rss = dict.fromkeys(ROLES, 0.0)
    pss = dict.fromkeys(ROLES, 0.0)
    cpu = dict.fromkeys(ROLES, 0.0)
    for pid, role in roles.items():
        rss[role] += kb(Path(f"/proc/{pid}/status"), "VmRSS") / 1024
        pss[role] += kb(Path(f"/proc/{pid}/smaps_rollup"), "Pss") / 1024
        cpu[role] += cpu_seconds(pid)
    return Sample(rss, pss, cpu, sum(role == "drawing" for role in roles.values()))


def people(fake: FakeDiscord, count: int, names: itertools.count[int]) -> list[Person]:
    return [Person(fake.add_user(f"Player {n}"), f"Player {n}") for n in itertools.islice(names, count)]


class Players:
    """The people at one table, who keep their plan (Catan's script) from stage to stage."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.opened = False
        self.people: CarcassonnePeople | CatanPeople | None = None
        self.failed: str | None = None  # why this table stopped (it then plays no more)

    async def play(self, moves: int) -> int:
        """``moves`` more moves of the table's game (opening it first); the moves made (fewer if it ended)."""
        table = self.table
        if not self.opened:
            if table.kind == "carcassonne":
                await table.open("carcassonne new", river=True, tower=True)
                self.people = CarcassonnePeople(table)
            else:
                await table.open("catan new")
                self.people = CatanPeople(table, Script(table.seed))
            self.opened = True
        assert self.people is not None
        made = 0
        while made < moves and not table.engine.finished and self.failed is None:
            try:
                await self.people.perform(self.people.next_action())
            except (AssertionError, TimeoutError) as err:  # the scripted people lost track: say so, measure on
                self.failed = f"{table.kind} game (seed {table.seed}) stopped at version {table.version}: {err!r}"
                print(self.failed, file=sys.stderr)
                break
            made += 1
        return made


def row(label: str, s: Sample) -> dict[str, object]:
    return {
        "stage": label,
        "bot_rss_mb": round(s.rss["bot"], 1),
        "drawing_rss_mb": round(s.rss["drawing"], 1),
        "forkserver_rss_mb": round(s.rss["forkserver"], 1),
        "tracker_rss_mb": round(s.rss["tracker"], 1),
        "bot_pss_mb": round(s.pss["bot"], 1),
        "drawing_pss_mb": round(s.pss["drawing"], 1),
        "forkserver_pss_mb": round(s.pss["forkserver"], 1),
        "tracker_pss_mb": round(s.pss["tracker"], 1),
        "total_pss_mb": round(sum(s.pss.values()), 1),
        "drawing_processes": s.drawing,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1,5,10", help="games in play at each stage, rising (default 1,5,10)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game per stage (default 30)")
    parser.add_argument("--render-processes", type=int, default=2, help="the bot's drawing processes (default 2)")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds to wait after connecting (default 10)")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU to measure (default 30)")
    args = parser.parse_args()
    try:
        stages = [int(n) for n in args.games.split(",")]
    except ValueError:
        parser.error(f"--games: whole numbers separated by commas, not {args.games!r}")
    if not stages or stages[0] < 1 or stages != sorted(set(stages)):
        parser.error("--games: rising whole numbers from 1 (1,5,10)")
    if args.moves < 1 or args.render_processes < 0 or args.settle < 0 or args.idle <= 0:
        parser.error("--moves must be at least 1; --render-processes, --settle at least 0; --idle above 0")

    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        launcher = Launcher(Path(tmp), fake)
        config = launcher.config().read_text(encoding="utf-8")
        config = config.replace("processes = 0", f"processes = {args.render_processes}")
        config = config.replace("pause_seconds = 0", "pause_seconds = 1.5")
        (Path(tmp) / "config.toml").write_text(config, encoding="utf-8")
        try:
            code, sync = await launcher.run("sync", "--guild", str(fake.guild_id), config=Path(tmp) / "config.toml")
            assert code == 0, sync.log
            bot = await launcher.start(config=Path(tmp) / "config.toml")
            await fake.wait_ready(timeout=60)
            pid = bot.proc.pid
            await asyncio.sleep(args.settle)
            idle = sample(pid)
            rows = [row("idle", idle)]
            await asyncio.sleep(args.idle)
            after_idle = sample(pid)
            idle_cpu = {k: (after_idle.cpu[k] - idle.cpu[k]) / args.idle * 100 for k in idle.cpu}
            print(
                f"idle: bot {idle.rss['bot']:.0f} MB RSS ({idle.pss['bot']:.0f} MB PSS), "
                f"{idle.drawing} drawing processes {idle.rss['drawing']:.0f} MB RSS "
                f"({idle.pss['drawing']:.0f} MB PSS), fork server {idle.rss['forkserver']:.0f} MB RSS "
                f"({idle.pss['forkserver']:.0f} MB PSS), resource tracker {idle.rss['tracker']:.0f} MB RSS; "
                f"CPU {idle_cpu['bot']:.2f}% bot, "
                f"{idle_cpu['drawing']:.2f}% drawing",
                file=sys.stderr,
            )
            tables: list[Players] = []
            names = itertools.count(1)
            seeds = itertools.count(1)
            per_move = []
            before = after_idle
            for count in stages:
                while len(tables) < count:
                    kind = "carcassonne" if len(tables) % 2 == 0 else "catan"
                    who = people(fake, 2 if kind == "carcassonne" else 3, names)
                    channel = fake.add_channel(f"game-{len(tables) + 1}")
                    table = Table(fake, Path(tmp) / "boardhost.sqlite3", kind, who, channel, next(seeds))
                    tables.append(Players(table))
                started = time.monotonic()
                made = await asyncio.gather(*(players.play(args.moves) for players in tables))
                seconds = time.monotonic() - started
                await asyncio.sleep(2)  # the last images drawn, the last answers sent
                now = sample(pid)
                moves = sum(made)
                cpu = {k: (now.cpu[k] - before.cpu[k]) / moves * 1000 for k in now.cpu}
                per_move.append(
                    {
                        "games": count,
                        "moves": moves,
                        "seconds": round(seconds, 1),
                        "moves_per_second": round(moves / seconds, 2),
                        "bot_cpu_ms_per_move": round(cpu["bot"], 1),
                        "drawing_cpu_ms_per_move": round(cpu["drawing"], 1),
                    }
                )
                rows.append(row(f"{count} games", now))
                print(f"{count} games: {json.dumps(rows[-1])} {json.dumps(per_move[-1])}", file=sys.stderr)
                before = now
            print(
                json.dumps(
                    {
                        "memory": rows,
                        "idle_cpu_percent": {k: round(v, 2) for k, v in idle_cpu.items()},
                        "cpu": per_move,
                    },
                    indent=1,
                )
            )
            bot.terminate()
            await bot.wait(timeout=15)
            trouble = [line for line in bot.stderr if "ERROR" in line or "Traceback" in line]
            print(f"bot log: {len(bot.stderr)} lines, {len(trouble)} errors", *trouble[:20], sep="\n", file=sys.stderr)
        finally:
            for each in launcher.started:
                each.kill()
                await each.proc.wait()
            await fake.stop()


if __name__ == "__main__":
    asyncio.run(main())
