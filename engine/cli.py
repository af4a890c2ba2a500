"""``python -m engine replay FILE``, ``selfplay GAME ...`` and ``arena GAME ...`` (docs/replays.md).

This module is the engine's command-line tool: unlike the rules it may read files and clocks.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from engine.ai.arena import arena
from engine.ai.base import LEVELS
from engine.errors import RuleError
from engine.game import Action, Game
from engine.registry import game_class, game_names
from engine.replay import ReplayError, export, play

DEFAULT_PLAYERS = {"carcassonne": 2, "catan": 4}


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


def read_replay(path: str, limit: int | None = None) -> Game:
    """Read, parse and play the replay file at ``path``; every way it can fail is a ReplayError of one line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ReplayError(f"cannot read {path}: not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise ReplayError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise ReplayError(f"{path} is nested too deeply to be a replay") from None
    try:
        return play(data, limit)
    except RecursionError:
        raise ReplayError(f"{path} is nested too deeply to be a replay") from None


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
    cls: type[Game], players: list[str], options: dict[str, Any], seed: int
) -> tuple[Game, list[Action]]:
    """One complete game with uniformly random legal choices; returns it with its recorded actions."""
    game = cls.new(players, options, seed)
    policy = random.Random(seed ^ 0x5EED)
    record: list[Action] = []
    while not game.finished:
        record.append(game.apply(game.random_action(policy)).action)
    return game, record


def cmd_selfplay(args: argparse.Namespace) -> int:
    try:
        cls = game_class(args.game)
    except RuleError as err:
        return _fail(err.message)
    try:
        options = dict(parse_option(o) for o in args.option)
    except ValueError as err:
        return _fail(str(err))
    if args.games < 1:
        return _fail("--games must be at least 1")
    count = args.players if args.players is not None else DEFAULT_PLAYERS.get(args.game, cls.MIN_PLAYERS)
    if not cls.MIN_PLAYERS <= count <= cls.MAX_PLAYERS:
        return _fail(f"--players {count}: {args.game} is played by {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players")
    players = [f"P{i + 1}" for i in range(count)]
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
    for index in range(args.games):
        seed = seeds.getrandbits(48)
        started = time.perf_counter()
        try:
            game, record = play_random_game(cls, players, options, seed)
        except RuleError as err:
            return _fail(err.message)
        elapsed += time.perf_counter() - started
        actions += len(record)
        turns += game.result()["turn"]
        if export_dir:
            path = export_dir / f"{args.game}-{index + 1:04d}.json"
            try:
                path.write_text(json.dumps(export(game, seed, record), ensure_ascii=False), encoding="utf-8")
            except OSError as err:
                return _fail(f"cannot write {path}: {err.strerror or err}")
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
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    levels = [p.strip() for p in args.players.split(",") if p.strip()]
    if args.games < 1:
        return _fail("--games must be at least 1")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        return _fail(f"--players: unknown computer level {unknown[0]!r} (levels: {', '.join(LEVELS)})")
    cls = game_class(args.game)
    if not cls.MIN_PLAYERS <= len(levels) <= cls.MAX_PLAYERS:
        example = ",".join(["standard"] * cls.MIN_PLAYERS)
        return _fail(
            f"--players {args.players} names {len(levels)} computer players; {args.game} is played by "
            f"{cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} (one level per seat, e.g. {example})"
        )
    try:
        options = dict(parse_option(o) for o in args.option)
        summary = arena(args.game, levels, args.games, args.seed, options, time.perf_counter)
    except (ValueError, RuleError) as err:
        return _fail(err.message if isinstance(err, RuleError) else str(err))
    _print_json(summary)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    sp.add_argument("--games", type=int, default=100, help="how many games to play (default 100)")
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
        help=f"computer levels, one per seat, comma-separated, e.g. standard,random (levels: {', '.join(LEVELS)})",
    )
    ar.add_argument("--games", type=int, default=100, help="how many games to play (default 100)")
    ar.add_argument("--seed", type=int, default=0, help="seed of the whole run: the same seed plays the same games")
    ar.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=option_help)
    ar.set_defaults(run=cmd_arena)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code
