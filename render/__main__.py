"""``python -m render FILE --out board.png [--at N]``: replay FILE (all actions or the first N) and write the
public board image, exactly as the bot would post it in the channel (``../shared/replay-format.md``).

``python -m render FILE --timelapse out.webp`` (or ``out.gif``) writes the game's timelapse instead (or as well):
the public board after the set-up and after every turn, animated, in the format the file name asks for.

Exit status 2 with one line on stderr for a file that cannot be read or replayed, or a file name it cannot write.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.history import GameLog, frames
from engine.replay import ReplayError, play
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
    parser = _Parser(prog="python -m render", description="Render the public board image of a replay.")
    parser.add_argument("file", help="replay file (boardhost-replay JSON)")
    parser.add_argument("--out", help="PNG file to write")
    parser.add_argument("--timelapse", metavar="OUT", help="animated board to write, turn by turn (.webp or .gif)")
    parser.add_argument("--at", type=int, default=None, metavar="N", help="replay only the first N actions")
    args = parser.parse_args(argv)
    if args.out is None and args.timelapse is None:
        return _fail("give --out FILE.png, --timelapse FILE.webp, or both")
    if args.at is not None and args.at < 0:
        return _fail("--at must be 0 or more")
    kind = None
    if args.timelapse is not None:
        kind = Path(args.timelapse).suffix.lower().lstrip(".")
        if kind not in FORMATS:
            return _fail(f"--timelapse writes .webp or .gif files, not {Path(args.timelapse).name!r}")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        return _fail(f"cannot read {args.file}: {reason}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return _fail(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}")
    try:
        game = play(data, limit=args.at)
    except ReplayError as err:
        return _fail(str(err))
    if args.out is not None:
        try:
            Path(args.out).write_bytes(board_png(game.view(None)))
        except OSError as err:
            return _fail(f"cannot write {args.out}: {err.strerror}")
    if args.timelapse is not None and kind is not None:
        log = GameLog.from_replay(data)
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
