"""``python -m render FILE --out board.png [--at N]``: replay FILE (all actions or the first N) and write the
public board image, exactly as the bot would post it in the channel (docs/replays.md).

``python -m render FILE --timelapse out.webp`` (or ``out.gif``) writes the game's timelapse instead (or as well):
the public board after the set-up and after every turn, animated, in the format the file name asks for. A game of
more than ``render.timelapse.MAX_FRAMES`` turns shows that many, evenly spread; on a terminal the drawing shows how
far it is.

Exit status 2 with one line on stderr for a file that cannot be read or replayed, or a file name it cannot write.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.cli import Parser, Progress, play_replay, read_replay_json, run_command, whole_number
from engine.history import GameLog, frame_count, frames
from engine.replay import ReplayError
from render import board_png
from render.timelapse import FORMATS, kept_frames, timelapse


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


def _unwritable(option: str, name: str) -> str | None:
    """Why the file ``name`` cannot be written, found before any work is done (None when it looks writable)."""
    path = Path(name)
    if path.is_dir():
        return f"{option} {name}: that is a folder; give a file name"
    if not path.parent.is_dir():
        return f"{option} {name}: the folder {path.parent} does not exist"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="python -m render",
        description="Replay a game file and write its public board image, as the bot posts it in the channel.",
    )
    parser.add_argument("file", help="replay file (boardhost-replay JSON, UTF-8)")
    parser.add_argument("--out", metavar="FILE.png", help="the PNG file to write (only PNG is written)")
    parser.add_argument(
        "--timelapse", metavar="FILE.webp", help="the game's board turn by turn, animated (.webp or .gif)"
    )
    parser.add_argument(
        "--at", type=whole_number(0), default=None, metavar="N", help="replay only the first N actions (default: all)"
    )
    args = parser.parse_args(argv)
    if args.out is None and args.timelapse is None:
        return _fail("give --out FILE.png, --timelapse FILE.webp, or both")
    if args.out is not None and Path(args.out).suffix.lower() != ".png":
        return _fail(f"--out {args.out}: the image is written as PNG only; give a file name ending in .png")
    kind = None
    if args.timelapse is not None:
        kind = Path(args.timelapse).suffix.lower().lstrip(".")
        if kind not in FORMATS:
            return _fail(f"--timelapse writes .webp or .gif files, not {Path(args.timelapse).name!r}")
    for option, name in (("--out", args.out), ("--timelapse", args.timelapse)):
        problem = None if name is None else _unwritable(option, name)
        if problem:
            return _fail(problem)
    try:
        data = read_replay_json(args.file)
        game = play_replay(args.file, data, args.at)
        log = GameLog.from_replay(data)  # play_replay checked it
    except ReplayError as err:
        return _fail(str(err))
    if args.out is not None:
        try:
            Path(args.out).write_bytes(board_png(game.view(None)))
        except OSError as err:
            return _fail(f"cannot write {args.out}: {err.strerror or err}")
    if args.timelapse is not None and kind is not None:
        log = GameLog(log.game, log.players, log.options, log.seed, log.actions[: args.at])
        # Only the frames shown are kept in memory: a long game has thousands.
        views = [view for _, view in frames(log, set(kept_frames(frame_count(log))))]
        if len(views) < 2:
            return _fail("nothing to animate: the replay has no complete turn")
        progress = Progress(f"timelapse {Path(args.timelapse).name}", len(views), unit="frame")
        try:
            animation = timelapse(views, formats=(kind,), progress=progress.of)
        except ValueError as err:
            return _fail(f"--timelapse {args.timelapse}: {err}")
        finally:
            progress.done()
        try:
            Path(args.timelapse).write_bytes(animation.data)
        except OSError as err:
            return _fail(f"cannot write {args.timelapse}: {err.strerror or err}")
    return 0


if __name__ == "__main__":
    run_command(main)
