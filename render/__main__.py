"""``python -m render FILE --out board.png [--at N]``: replay FILE (all actions or the first N) and write the
public board image, exactly as the bot would post it in the channel (docs/replays.md).

Exit status 2 with one line on stderr for a file that cannot be read or replayed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cli import read_replay
from engine.replay import ReplayError
from render import board_png


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
    parser.add_argument("--out", required=True, metavar="FILE.png", help="the PNG file to write (only PNG is written)")
    parser.add_argument(
        "--at", type=int, default=None, metavar="N", help="replay only the first N actions (default: all of them)"
    )
    args = parser.parse_args(argv)
    if args.at is not None and args.at < 0:
        return _fail("--at must be 0 or more")
    if Path(args.out).suffix.lower() != ".png":
        return _fail(f"--out {args.out}: the image is written as PNG only; give a file name ending in .png")
    try:
        game = read_replay(args.file, limit=args.at)
    except ReplayError as err:
        return _fail(str(err))
    png = board_png(game.view(None))
    try:
        Path(args.out).write_bytes(png)
    except OSError as err:
        return _fail(f"cannot write {args.out}: {err.strerror}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
