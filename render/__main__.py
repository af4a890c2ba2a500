"""``python -m render FILE --out board.png [--at N]``: replay FILE (all actions or the first N) and write the
public board image, exactly as the bot would post it in the channel (``../shared/replay-format.md``).

Exit status 2 with one line on stderr for a file that cannot be read or replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.replay import ReplayError, play
from render import board_png


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
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--at", type=int, default=None, metavar="N", help="replay only the first N actions")
    args = parser.parse_args(argv)
    if args.at is not None and args.at < 0:
        return _fail("--at must be 0 or more")
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
    png = board_png(game.view(None))
    try:
        Path(args.out).write_bytes(png)
    except OSError as err:
        return _fail(f"cannot write {args.out}: {err.strerror}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
