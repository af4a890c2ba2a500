"""``python -m engine replay FILE``, ``selfplay GAME ...`` and ``arena GAME ...`` (docs/replays.md).

This module is the engine's command-line tool: unlike the rules it may read files and clocks. It also holds the
manners every command line of the project shares (``python -m render``, ``render.samples``, ``bench/*.py``): one
line for a mistake in the arguments (``Parser``, ``whole_number``), progress on a terminal (``Progress``), and no
traceback for Ctrl-C or a reader that stops reading (``run_command``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, NoReturn, TextIO

from engine.ai.arena import play_games, summary
from engine.ai.base import LEVELS
from engine.ai.registry import levels as game_levels
from engine.errors import RuleError
from engine.game import Action, Game
from engine.limits import CHECK_EVERY, Outcome, cut_short, stopped
from engine.registry import game_class, game_names
from engine.replay import ReplayError, export, play

DEFAULT_PLAYERS = {"carcassonne": 2, "catan": 4}


class Parser(argparse.ArgumentParser):
    """argparse with the command lines' manners: a mistake is one line on stderr (what was wrong, and the usage
    only on request, with --help) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``minimum`` (to ``maximum``), refused in words otherwise."""
    allowed = f"from {minimum:,} to {maximum:,}" if maximum is not None else f"of {minimum:,} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give one {allowed}") from None
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"{value} is out of range; give a whole number {allowed}")
        return value

    return parse


def decimal_number(minimum: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a number of at least ``minimum`` (above it, with ``above``), refused in words otherwise."""
    allowed = f"above {minimum:g}" if above else f"of {minimum:g} or more"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number; give one {allowed}") from None
        if not math.isfinite(value) or value < minimum or (above and value == minimum):
            raise argparse.ArgumentTypeError(f"{text} is out of range; give a number {allowed}")
        return value

    return parse


def run_command(main: Callable[[], int]) -> NoReturn:
    """Run a command line's ``main`` and exit with its status. Ctrl-C stops it with one line (status 130), and a
    reader that stops reading the output early (``| head -1``) ends it quietly (status 1), never a traceback."""
    try:
        code = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        code = 130
    except BrokenPipeError:
        # Python would fail again flushing stdout at exit: point it at /dev/null (the documented recipe).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    raise SystemExit(code)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


class Progress:
    """How far a long run is, on one line of stderr redrawn in place, for a person watching a terminal.

    Nothing is written when stderr is a file or a pipe (a log or a script reading the output wants no progress
    lines), nor in the first half second (a quick run stays quiet). ``done`` clears the line.
    """

    EVERY = 0.5  # seconds between two redraws

    def __init__(
        self,
        what: str,
        total: int,
        unit: str = "game",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.shown = 0  # width of the line on the terminal now
        self.last = clock()
        try:
            self.on = self.stream.isatty()
        except (AttributeError, ValueError):  # no stream, or a closed one
            self.on = False

    def __call__(self, index: int, actions: int = 0) -> None:
        """At item ``index`` (from 0) of the run, ``actions`` actions into it (a game)."""
        if not self.on or self.clock() - self.last < self.EVERY:
            return
        self.last = self.clock()
        text = f"{self.what}: {self.unit} {index + 1:,} of {self.total:,}"
        if actions:
            text += f", {actions:,} actions in"
        self._write(text)

    def of(self, index: int, total: int) -> None:
        """At item ``index`` of ``total`` (a total that can change as the work goes on)."""
        self.total = total
        self(index)

    def done(self) -> None:
        if self.shown:
            self._write("")

    def _write(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self.shown) + "\r" * (not text))
        self.stream.flush()
        self.shown = len(text)


# Far above any real replay (a 20,000-action game is about 1.5 MB): a file this large is not one, and reading it
# whole would take the memory.
MAX_REPLAY_BYTES = 64 * 1024 * 1024


def read_replay_json(path: str) -> Any:
    """The JSON of the replay file at ``path``; every way it can fail is a ReplayError of one line."""
    file = Path(path)
    try:
        if not file.is_file():  # a folder, a pipe or a device would be read for ever, or fail later in words unclear
            what = "no such file" if not file.exists() else "not a regular file"
            raise ReplayError(f"cannot read {path}: {what} (give a replay file, e.g. one exported by /game export)")
        if file.stat().st_size > MAX_REPLAY_BYTES:
            raise ReplayError(f"{path} is too large to be a replay (over {MAX_REPLAY_BYTES // 2**20} MiB)")
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ReplayError(f"cannot read {path}: not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise ReplayError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise ReplayError(f"{path} is nested too deeply to be a replay") from None


def play_replay(path: str, data: Any, limit: int | None = None) -> Game:
    """Play the replay ``data`` read from ``path`` (all actions, or the first ``limit``)."""
    try:
        return play(data, limit)
    except RecursionError:
        raise ReplayError(f"{path} is nested too deeply to be a replay") from None


def read_replay(path: str, limit: int | None = None) -> Game:
    """Read, parse and play the replay file at ``path``; every way it can fail is a ReplayError of one line."""
    return play_replay(path, read_replay_json(path), limit)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        game = read_replay(args.file)
    except ReplayError as err:
        return _fail(str(err))
    _print_json(game.result())
    return 0


def parse_option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE``; VALUE is read as JSON when it parses (true, 3, ["U"]) and as a string otherwise."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--option needs NAME=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def play_random_game(
    cls: type[Game],
    players: list[str],
    options: dict[str, Any],
    seed: int,
    record: list[Action] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Game, int, Outcome]:
    """One game with uniformly random legal choices, until it ends or is cut short (``engine.limits``): the game,
    its number of actions and how it ended. The actions as recorded go into ``record`` when one is given (only
    then: a long game kept in memory is what made a run grow to gigabytes)."""
    game = cls.new(players, options, seed)
    policy = random.Random(seed ^ 0x5EED)
    actions = 0
    while (ended := stopped(game, actions)) is None:
        applied = game.apply(game.random_action(policy))
        if record is not None:
            record.append(applied.action)
        actions += 1
        if progress is not None and actions % CHECK_EVERY == 0:
            progress(actions)
    return game, actions, ended


def cmd_selfplay(args: argparse.Namespace) -> int:
    cls = game_class(args.game)  # argparse allowed only known games
    try:
        options = dict(parse_option(o) for o in args.option)
    except ValueError as err:
        return _fail(str(err))
    count = args.players if args.players is not None else DEFAULT_PLAYERS.get(args.game, cls.MIN_PLAYERS)
    if not cls.MIN_PLAYERS <= count <= cls.MAX_PLAYERS:
        return _fail(f"--players {count}: {args.game} is played by {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players")
    players = [f"P{i + 1}" for i in range(count)]
    try:
        cls.new(players, options, 0)  # bad options are refused before a folder is made or a game is played
    except RuleError as err:
        return _fail(err.message)
    export_dir = Path(args.export) if args.export else None
    if export_dir:
        if export_dir.exists() and not export_dir.is_dir():
            return _fail(f"--export {export_dir}: a file of that name exists; give a folder for the replay files")
        try:
            export_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            return _fail(f"--export {export_dir}: cannot create the folder: {err.strerror or err}")
    seeds = random.Random(args.seed)
    actions = turns = 0
    elapsed = 0.0
    outcomes: list[Outcome] = []
    progress = Progress(f"selfplay {args.game}", args.games)
    try:
        for index in range(args.games):
            seed = seeds.getrandbits(48)
            record: list[Action] | None = [] if export_dir else None
            progress(index)
            started = time.perf_counter()
            try:
                game, count, ended = play_random_game(cls, players, options, seed, record, partial(progress, index))
            except RuleError as err:
                progress.done()
                return _fail(err.message)
            elapsed += time.perf_counter() - started
            actions += count
            turns += game.result()["turn"]
            outcomes.append(ended)
            if export_dir and record is not None:
                path = export_dir / f"{args.game}-{index + 1:04d}.json"
                try:
                    path.write_text(json.dumps(export(game, seed, record), ensure_ascii=False), encoding="utf-8")
                except OSError as err:
                    progress.done()
                    return _fail(f"cannot write {path}: {err.strerror or err}")
    finally:
        progress.done()  # also when interrupted: the terminal is left clean for the one line that says so
    seconds = max(elapsed, 1e-9)
    _print_json(
        {
            "game": args.game,
            "games": args.games,
            "seconds": round(elapsed, 4),
            "games_per_second": round(args.games / seconds, 2),
            "actions": actions,
            "actions_per_second": round(actions / seconds, 1),
            "mean_turns": round(turns / args.games, 2),
        }
    )
    return _report_cut_short(outcomes)


def _report_cut_short(outcomes: list[Outcome]) -> int:
    """Exit status 1 and one line on stderr when some games were cut short (the JSON on stdout is printed anyway:
    its figures count those games as they stood)."""
    line = cut_short(outcomes)
    if line is None:
        return 0
    sys.stderr.write(line + "\n")
    return 1


def cmd_arena(args: argparse.Namespace) -> int:
    levels = [p.strip() for p in args.players.split(",") if p.strip()]
    known = game_levels(args.game)  # the levels the game's registry has
    unknown = [level for level in levels if level not in known]
    if unknown:
        return _fail(f"--players: unknown computer level {unknown[0]!r} (levels: {', '.join(known)})")
    cls = game_class(args.game)
    if not cls.MIN_PLAYERS <= len(levels) <= cls.MAX_PLAYERS:
        example = ",".join(["standard"] * cls.MIN_PLAYERS)
        return _fail(
            f"--players {args.players} names {len(levels)} computer players; {args.game} is played by "
            f"{cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} (one level per seat, e.g. {example})"
        )
    progress = Progress(f"arena {args.game}", args.games)
    try:
        options = dict(parse_option(o) for o in args.option)
        tally = play_games(args.game, levels, args.games, args.seed, options, time.perf_counter, progress)
    except (ValueError, RuleError) as err:
        progress.done()
        return _fail(err.message if isinstance(err, RuleError) else str(err))
    finally:
        progress.done()  # also when interrupted
    _print_json(summary(args.game, tally))
    return _report_cut_short(tally.outcomes)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m engine",
        description="boardhost game engines: replay a game file, time random games, or match computer players. "
        "Each command prints one JSON object; bad input gives one line on stderr and exit status 2.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rep = sub.add_parser(
        "replay",
        help="replay a game file and print its result as JSON",
        description="Replay a boardhost-replay file and print the result (scores, winners, turn) as one JSON object.",
    )
    rep.add_argument("file", help="the replay file (boardhost-replay JSON, UTF-8), e.g. one exported by /game export")
    rep.set_defaults(run=cmd_replay)
    games = ", ".join(game_names())
    option_help = "a game option, e.g. tower=true or board=beginner (repeat for several; VALUE is read as JSON)"
    sp = sub.add_parser(
        "selfplay",
        help="play random games and print timing as JSON",
        description="Play complete games with uniformly random legal moves and print how fast they ran.",
    )
    sp.add_argument("game", choices=game_names(), help=f"the game to play: {games}")
    sp.add_argument("--games", type=whole_number(1), default=100, help="how many games to play (default 100)")
    sp.add_argument("--seed", type=int, default=0, help="seed of the whole run: the same seed plays the same games")
    sp.add_argument("--players", type=int, default=None, help="players per game (default: carcassonne 2, catan 4)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
    sp.add_argument("--export", metavar="DIR", help="also write each game's replay file into this folder")
    sp.set_defaults(run=cmd_selfplay)
    ar = sub.add_parser(
        "arena",
        help="play computer players against each other and print results as JSON",
        description="Play computer players against each other (seats rotate every game) and print wins, win rates, "
        "mean scores and the 95th percentile of seconds per decision.",
    )
    ar.add_argument("game", choices=game_names(), help=f"the game to play: {games}")
    ar.add_argument(
        "--players",
        required=True,
        help=f"computer levels, one per seat, comma-separated, e.g. standard,random (levels: {', '.join(LEVELS)}, "
        "where the game has them)",
    )
    ar.add_argument("--games", type=whole_number(1), default=100, help="how many games to play (default 100)")
    ar.add_argument("--seed", type=int, default=0, help="seed of the whole run: the same seed plays the same games")
    ar.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
    ar.set_defaults(run=cmd_arena)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code
