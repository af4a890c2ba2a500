"""``python -m render FILE --out board.png [--at N]``: replay FILE (all actions or the first N) and write the
public board image, exactly as the bot would post it in the channel (docs/replays.md).

``python -m render FILE --timelapse out.webp`` (or ``out.gif``) writes the game's timelapse instead (or as well):
the public board after the set-up and after every turn, animated, in the format the file name asks for.

Exit status 2 with one line on stderr for a file that cannot be read or replayed, or a file name it cannot write.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli import read_replay
from engine.history import GameLog, frames
from engine.replay import ReplayError
from render import board_png
from render.timelapse import FORMATS, timelapse


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(
        prog="python -m render",
        description="Replay a game file and write its public board image, as the bot posts it in the channel.",
    )
    parser.add_argument("file", help="replay file (boardhost-replay JSON, UTF-8)")
    parser.add_argument("--out", metavar="FILE.png", help="the PNG file to write (only PNG is written)")
    parser.add_argument(
        "--timelapse", metavar="FILE.webp", help="the game's board turn by turn, animated (.webp or .gif)"
    )
    parser.add_argument(
        "--at", type=int, default=None, metavar="N", help="replay only the first N actions (default: all of them)"
    )
    args = parser.parse_args(argv)
    if args.out is None and args.timelapse is None:
        return _fail("give --out FILE.png, --timelapse FILE.webp, or both")
    if args.at is not None and args.at < 0:
        return _fail("--at must be 0 or more")
    if args.out is not None and Path(args.out).suffix.lower() != ".png":
        return _fail(f"--out {args.out}: the image is written as PNG only; give a file name ending in .png")
    kind = None
    if args.timelapse is not None:
        kind = Path(args.timelapse).suffix.lower().lstrip(".")
        if kind not in FORMATS:
            return _fail(f"--timelapse writes .webp or .gif files, not {Path(args.timelapse).name!r}")
    try:
        game = read_replay(args.file, limit=args.at)
    except ReplayError as err:
        return _fail(str(err))
    if args.out is not None:
        try:
            Path(args.out).write_bytes(board_png(game.view(None)))
        except OSError as err:
            return _fail(f"cannot write {args.out}: {err.strerror}")
    if args.timelapse is not None and kind is not None:
        log = GameLog.from_replay(json.loads(Path(args.file).read_text(encoding="utf-8")))  # read_replay checked it
        log = GameLog(log.game, log.players, log.options, log.seed, log.actions[: args.at])
        views = [view for _, view in frames(log)]
        if len(views) < 2:
            return _fail("nothing to animate: the replay has no complete turn")
        animation = timelapse(views, formats=(kind,))
        try:
            Path(args.timelapse).write_bytes(animation.data)
        except OSError as err:
            return _fail(f"cannot write {args.timelapse}: {err.strerror}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
