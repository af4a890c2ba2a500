"""The timelapse of a game (render/timelapse.py), the "since your last turn" picture, and ``python -m render
REPLAY --timelapse``."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from PIL import GifImagePlugin, Image, ImageChops

import render
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from engine.history import GameLog, frames
from render.carcassonne import board as carcassonne_board
from render.carcassonne.pictures import FRAME_TILES
from render.catan import board as catan_board
from render.panel import ACTIVE
from render.timelapse import (
    BACKGROUND,
    CLEAR,
    LAST_MS,
    MAX_FRAMES,
    _drawer,
    durations,
    format_of,
    frame_source,
    kept_frames,
    timelapse,
    turns,
)

from .helpers import carcassonne_replay, decode, share, turn_count
from .test_carcassonne import ACTIONS, DECK
from .test_catan import engine_replay

WHITE = (255, 255, 255)


def views_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [view for _, view in frames(GameLog.from_replay(data))]


def opened(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def frame(img: Image.Image, index: int) -> Image.Image:
    """The picture of turn ``index`` (frame 0: the set-up) as it shows."""
    return turns(img)[index][0]


@pytest.fixture(scope="module")
def carcassonne_views() -> list[dict[str, Any]]:
    return views_of(carcassonne_replay(ACTIONS, DECK))


def test_one_frame_for_the_set_up_and_one_per_turn_all_of_one_size(carcassonne_views: list[dict[str, Any]]) -> None:
    animation = timelapse(carcassonne_views, formats=("webp",))
    assert animation.format == "webp" and format_of(animation.data) == "webp"
    img = opened(animation.data)
    assert len(turns(img)) == 4 == len(carcassonne_views)  # set-up, then Alice, Bob, Alice
    assert {frame(img, i).size for i in range(4)} == {animation.size}
    assert img.info.get("loop") == 0


def test_the_webp_frames_are_the_boards_exactly(carcassonne_views: list[dict[str, Any]]) -> None:
    img = opened(timelapse(carcassonne_views, formats=("webp",)).data)
    draw = _drawer(carcassonne_views, 0)
    for index in (0, 2, 3):
        expected = draw(carcassonne_views[index])
        got = frame(img, index).crop((0, 0, *expected.size))
        assert ImageChops.difference(got, expected).getbbox() is None, f"frame {index} differs"


def test_the_board_grows_on_one_grid_from_the_first_frame(carcassonne_views: list[dict[str, Any]]) -> None:
    img = opened(timelapse(carcassonne_views, formats=("webp",)).data)
    first, last = frame(img, 0), frame(img, 3)
    final = carcassonne_views[-1]
    lay = carcassonne_board.layout(final, max_tile=48)
    x, y = lay.cell_origin(1, 1)  # Alice's cloister tile, placed in the last turn
    centre = (x + lay.tile // 2, y + lay.tile // 4)
    assert share(first, centre, carcassonne_board.EMPTY, radius=2) > 0.9
    assert share(last, centre, carcassonne_board.EMPTY, radius=2) < 0.5


def test_a_gif_shows_the_same_frames_within_its_palette(carcassonne_views: list[dict[str, Any]]) -> None:
    animation = timelapse(carcassonne_views, formats=("gif",))
    assert animation.format == "gif" and animation.data.startswith(b"GIF89a")
    img = opened(animation.data)
    assert img.n_frames == len(turns(img)) == 4  # GIF: one frame a turn
    expected = _drawer(carcassonne_views, 0)(carcassonne_views[-1])
    got = frame(img, 3).crop((0, 0, *expected.size))
    diff = ImageChops.difference(got, expected).convert("L")
    assert sum(diff.histogram()[40:]) < 0.01 * expected.width * expected.height  # palette rounding only
    assert img.info.get("loop") == 0


def test_the_smaller_format_is_kept(carcassonne_views: list[dict[str, Any]]) -> None:
    sizes = {f: len(timelapse(carcassonne_views, formats=(f,)).data) for f in ("webp", "gif")}
    chosen = timelapse(carcassonne_views, formats=("webp", "gif"))
    assert len(chosen.data) == min(sizes.values())
    assert chosen.format == min(sizes, key=lambda f: sizes[f])


def test_each_game_is_encoded_in_its_own_format_only(
    carcassonne_views: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The format that always came out smaller for the game's boards, and the other encoder not run at all."""
    from render import timelapse as module

    encoded: list[str] = []
    encode = module._encode
    monkeypatch.setattr(module, "_encode", lambda views, attempt, formats, progress: (
        encoded.extend(formats), encode(views, attempt, formats, progress))[1])  # fmt: skip
    assert opened(render.timelapse_bytes(carcassonne_views)).format == "WEBP"
    assert opened(render.timelapse_bytes(views_of(engine_replay()))).format == "GIF"
    assert encoded == ["webp", "gif"]


def test_the_final_board_stays_up_longest(carcassonne_views: list[dict[str, Any]]) -> None:
    img = opened(timelapse(carcassonne_views, formats=("gif",)).data)
    times = []
    for i in range(img.n_frames):
        img.seek(i)
        times.append(img.info["duration"])
    assert times[-1] == LAST_MS and max(times) == LAST_MS


def test_too_large_for_the_limit_draws_smaller_frames(carcassonne_views: list[dict[str, Any]]) -> None:
    full = timelapse(carcassonne_views, formats=("webp",))
    smaller = timelapse(carcassonne_views, formats=("webp",), limit=len(full.data) - 1)
    assert len(smaller.data) < len(full.data)
    assert smaller.size[0] < full.size[0]
    with pytest.raises(ValueError, match="does not fit"):
        timelapse(carcassonne_views, formats=("webp",), limit=100)


def test_an_unknown_format_is_refused(carcassonne_views: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match="unknown timelapse format 'mp4'"):
        timelapse(carcassonne_views, formats=("mp4",))


def marked_pixels(img: Image.Image) -> int:
    """Pixels in the colour of the card of the player to move."""
    return dict((colour, count) for count, colour in img.convert("RGB").getcolors(1 << 24) or []).get(ACTIVE, 0)


def test_a_timelapse_marks_nobodys_turn_so_no_mark_jumps_from_card_to_card_every_frame(
    carcassonne_views: list[dict[str, Any]],
) -> None:
    """A turn picture marks the card of the player to move; the frames of a timelapse mark nobody's."""
    catan_views = views_of(engine_replay())
    for game, views, board in (
        ("carcassonne", carcassonne_views, carcassonne_board.board_image),
        ("catan", catan_views, catan_board.board_image),
    ):
        assert marked_pixels(board(views[1])) > 1000, game
        draw = _drawer(views, 0)
        assert [marked_pixels(draw(view)) for view in views[:3]] == [0, 0, 0], game


def test_a_catan_timelapse_shows_the_set_up_piece_by_piece() -> None:
    views = views_of(engine_replay())
    assert len(views) == 9  # the empty board, then eight set-up placements
    img = opened(render.timelapse_bytes(views))
    assert img.n_frames == 9
    x, y = catan_board.intersection_point(25)  # seat 2's first settlement, placed in the third placement
    body = (x - round(catan_board.R * 0.42 * 0.28), y + 2)
    from render.palette import player_colour

    assert share(frame(img, 2), body, player_colour(2), radius=2) < 0.3
    assert share(frame(img, 3), body, player_colour(2), radius=2) >= 0.7


def test_since_picture_outlines_the_new_carcassonne_tiles_in_white() -> None:
    data = carcassonne_replay(ACTIONS, DECK)
    view = views_of(data)[-1]
    img = render.since_image(view, {"tiles": [[0, -1]]})
    lay = carcassonne_board.layout(view)
    ox, oy = lay.cell_origin(0, -1)
    edge = max(3, lay.tile // 14)
    assert share(img, (ox + lay.tile // 2, oy + 1 + edge // 2), WHITE, radius=1) > 0.6
    mx, my = lay.cell_origin(1, 1)  # not new: no white frame
    assert share(img, (mx + lay.tile // 2, my + 1 + edge // 2), WHITE, radius=1) < 0.2


def test_since_picture_rings_new_catan_settlements_and_stays_small() -> None:
    views = views_of(engine_replay())
    png = render.since_png(views[-1], {"roads": ["12-17"], "settlements": [17], "cities": []})
    img = decode(png)
    assert max(img.size) <= render.SMALL
    scale = img.width / catan_board.board_image(views[-1]).width
    x, y = catan_board.intersection_point(17)
    ring = round(catan_board.R * 0.4)
    probe = (round((x + ring) * scale), round(y * scale))
    assert share(img, probe, WHITE, radius=1, tol=40) > 0.3
    x, y = catan_board.intersection_point(1)  # placed long before: no ring
    assert share(img, (round((x + ring) * scale), round(y * scale)), WHITE, radius=1, tol=40) < 0.2


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "render", *args], capture_output=True, text=True, timeout=120)


def test_command_line_writes_the_timelapse_in_the_format_of_its_name(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(carcassonne_replay(ACTIONS, DECK)), encoding="utf-8")
    for name, magic in (("game.webp", b"RIFF"), ("game.gif", b"GIF89a")):
        done = run(str(replay), "--timelapse", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        data = (tmp_path / name).read_bytes()
        assert data.startswith(magic) and turn_count(data) == 4
    done = run(str(replay), "--timelapse", str(tmp_path / "short.webp"), "--at", "4")
    assert done.returncode == 0 and turn_count((tmp_path / "short.webp").read_bytes()) == 3


def test_command_line_refuses_an_extension_it_does_not_write_in_one_line(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(carcassonne_replay(ACTIONS, DECK)), encoding="utf-8")
    done = run(str(replay), "--timelapse", str(tmp_path / "game.mp4"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == ["--timelapse writes .webp or .gif files, not 'game.mp4'"]
    assert not (tmp_path / "game.mp4").exists()
    neither = run(str(replay))
    assert neither.returncode == 2 and len(neither.stderr.strip().splitlines()) == 1


def test_a_game_of_thousands_of_turns_shows_at_most_max_frames_spread_evenly_from_set_up_to_the_end() -> None:
    assert kept_frames(5) == [0, 1, 2, 3, 4]
    kept = kept_frames(6_001)
    assert len(kept) == MAX_FRAMES and kept[0] == 0 and kept[-1] == 6_000
    gaps = {b - a for a, b in pairwise(kept)}
    assert gaps <= {12, 13}


def test_drawing_a_timelapse_tells_its_progress_frame_by_frame(carcassonne_views: list[dict[str, Any]]) -> None:
    told: list[tuple[int, int]] = []
    timelapse(carcassonne_views, formats=("gif",), progress=lambda index, total: told.append((index, total)))
    assert [index for index, _ in told][-4:] == [0, 1, 2, 3] and {total for _, total in told} == {4}


def whole_game(players: int, options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """The frames' views of a whole game of random moves."""
    names = ["Alice", "Борис", "张伟", "김민준", "محمد علي", "Bob \U0001f3b2"][:players]
    game = Carcassonne.new(names, options, seed)
    moves = random.Random(seed)
    actions = []
    while not game.finished:
        actions.append(game.apply(game.random_action(moves)).action)
    return [view for _, view in frames(GameLog("carcassonne", tuple(names), options, seed, tuple(actions)))]


WHOLE_GAMES = [(2, {}, 1), (6, {"river": True, "tower": True}, 3)]


@pytest.mark.parametrize(("players", "options", "seed"), WHOLE_GAMES)
def test_each_frame_drawn_over_a_recent_one_is_the_board_drawn_whole(
    players: int, options: dict[str, Any], seed: int
) -> None:
    views = whole_game(players, options, seed)
    extent = sorted({(t["x"], t["y"]) for view in (views[0], views[-1]) for t in view["tiles"]})
    for attempt in (0, 2):
        draw = _drawer(views, attempt)
        for index in [0, len(views) - 1, *range(1, len(views) - 1)]:  # the order the timelapse draws them in
            expected = carcassonne_board.board_image(
                views[index], extent=extent, max_tile=FRAME_TILES[attempt], turn_marked=False
            )
            assert draw(views[index]).tobytes() == expected.tobytes(), f"attempt {attempt}, frame {index}"


@pytest.mark.parametrize(("players", "options", "seed"), WHOLE_GAMES)
def test_every_frame_of_a_whole_games_animation_is_its_board(players: int, options: dict[str, Any], seed: int) -> None:
    views = whole_game(players, options, seed)
    img = opened(timelapse(views, formats=("webp",)).data)
    assert len(turns(img)) == len(views)
    extent = sorted({(t["x"], t["y"]) for view in (views[0], views[-1]) for t in view["tiles"]})
    for index, view in enumerate(views):
        expected = carcassonne_board.board_image(view, extent=extent, max_tile=FRAME_TILES[0], turn_marked=False)
        got = frame(img, index).crop((0, 0, *expected.size))
        assert got.tobytes() == expected.tobytes(), f"frame {index} differs"


@pytest.mark.parametrize(("players", "options", "seed"), WHOLE_GAMES)
def test_the_webp_animation_shows_what_libwebps_own_animation_encoder_makes_of_the_frames(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """The rectangles and the container are put together by ``_WebP``; libwebp's animation encoder (Pillow's
    ``save_all``), given the same frames and settings, shows the same pictures for the same times, in a file no
    smaller. Ours stores a turn that changed two places far apart (the tile, the scores) as two rectangles, the first
    shown for ``PART_MS``: less area for libwebp to code, the time saved."""
    views = whole_game(players, options, seed)
    animation = timelapse(views, formats=("webp",))
    size, draw = frame_source(views)
    assert size == animation.size
    drawn = [draw(index).copy() for index in range(len(views))]
    img = opened(animation.data)
    times = durations(len(views))
    reference = io.BytesIO()
    drawn[0].save(reference, "WEBP", save_all=True, append_images=drawn[1:], duration=times, loop=0, lossless=True,
                  quality=0, method=1, kmin=0, kmax=0)  # fmt: skip
    theirs = opened(reference.getvalue())
    assert theirs.n_frames == len(views) < img.n_frames  # some turns are two rectangles
    ours, made = turns(img), turns(theirs)
    assert [ms for _, ms in ours] == [ms for _, ms in made] == times
    for index in range(len(views)):
        assert ours[index][0].tobytes() == made[index][0].tobytes() == drawn[index].tobytes(), f"turn {index}"
    assert len(animation.data) <= len(reference.getvalue())


@pytest.mark.parametrize(("players", "options", "seed"), WHOLE_GAMES)
def test_comparing_frames_only_where_the_drawer_drew_again_makes_the_same_animation(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """A Carcassonne frame drawn over the one before tells the writer where it drew (the boxes drawn again and the
    scoreboard), and only there are the two frames compared: the same file, byte for byte, as comparing them whole."""
    from render.timelapse import _WebP

    views = whole_game(players, options, seed)
    size, draw = frame_source(views)
    times = durations(len(views))
    hinted, whole = _WebP(size, times), _WebP(size, times)
    told = 0
    for index in range(len(views)):
        frame = draw(index)
        told += draw.changed is not None
        hinted.add(frame, draw.changed)
        whole.add(frame)
    assert told >= len(views) // 2, "the drawer hardly ever said where it drew"
    assert hinted.finish() == whole.finish()
    assert timelapse(views, formats=("webp",)).data == whole.finish()


def whole_frames_gif(pictures: list[Image.Image], palette: Image.Image, times: list[int]) -> bytes:
    """The GIF writer as it was: every whole frame mapped to the palette, the indices compared with the last."""
    out, previous = io.BytesIO(), None
    for index, picture in enumerate(pictures):
        indexed = picture.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        if previous is None:
            header, _ = GifImagePlugin.getheader(indexed, None, {"loop": 0, "duration": times[0]})
            out.write(b"".join(header) + b"".join(GifImagePlugin.getdata(indexed, (0, 0), duration=times[0])))
        else:
            changed = ImageChops.difference(*(Image.frombytes("L", i.size, i.tobytes()) for i in (previous, indexed)))
            box = changed.getbbox() or (0, 0, 1, 1)
            part = indexed.crop(box)
            part.paste(CLEAR, mask=changed.crop(box).point([255] + [0] * 255, "1"))
            out.write(b"".join(GifImagePlugin.getdata(part, box[:2], duration=times[index], transparency=CLEAR)))
        previous = indexed
    return out.getvalue() + b";"


def test_a_gif_maps_only_what_changed_to_its_palette_and_is_the_file_of_mapping_every_whole_frame() -> None:
    """The GIF writer maps to the palette only the rectangle that changed since the frame before (a pixel's index is
    its nearest colour, whatever its neighbours): the file is byte for byte what mapping every whole frame makes."""
    game = Catan.new(["Ann", "Бо", "陈"], {"board": "random"}, 7)
    moves = random.Random(7)
    actions = [game.apply(game.random_action(moves)).action for _ in range(120)]
    views = [view for _, view in frames(GameLog("catan", ("Ann", "Бо", "陈"), {"board": "random"}, 7, tuple(actions)))]
    views = views[:40]
    (width, height), draw = frame_source(views)
    sample = Image.new("RGB", (width * 2, height), BACKGROUND)
    sample.paste(draw(0), (0, 0))
    sample.paste(draw(len(views) - 1), (width, 0))
    palette = sample.quantize(255, method=Image.Quantize.FASTOCTREE)
    pictures = [draw(index).copy() for index in range(len(views))]
    assert timelapse(views, formats=("gif",)).data == whole_frames_gif(pictures, palette, durations(len(views)))


def test_a_gif_frame_that_changed_nothing_or_only_within_a_palette_colour_is_one_clear_pixel() -> None:
    from render.timelapse import _Gif

    palette = Image.new("P", (1, 1))
    palette.putpalette([0, 0, 0, 200, 0, 0] + [0, 0, 0] * 253)
    first = Image.new("RGB", (40, 30), (0, 0, 0))
    same = first.copy()
    nearly = first.copy()
    nearly.putpixel((20, 10), (3, 0, 0))  # another colour, the same palette entry
    changed = nearly.copy()
    changed.paste((200, 0, 0), (5, 6, 9, 8))
    pictures, times = [first, same, nearly, changed], [100, 100, 100, 100]
    writer = _Gif(palette, times)
    for picture in pictures:
        writer.add(picture)
    assert writer.finish() == whole_frames_gif(pictures, palette, times)


def test_a_turn_is_cut_in_two_only_across_a_band_of_unchanged_pixels_and_only_where_it_saves_area() -> None:
    from render.timelapse import PART_MS, SPLIT_GAIN, _parts

    def mask(size: tuple[int, int], *boxes: tuple[int, int, int, int]) -> Image.Image:
        img = Image.new("L", size, 0)
        for box in boxes:
            img.paste(255, box)
        return img

    tile, scores = (10, 300, 90, 380), (700, 20, 790, 60)  # far apart: two rectangles
    parts = _parts(mask((800, 400), tile, scores), (0, 0, 800, 400))
    assert parts == [tile, scores]
    assert sum((r - x) * (b - y) for x, y, r, b in parts) <= SPLIT_GAIN * 800 * 400
    near = mask((200, 100), (0, 0, 90, 100), (110, 0, 200, 100))  # the band between is small: one rectangle
    assert _parts(near, (0, 0, 200, 100)) == [(0, 0, 200, 100)]
    lone = mask((800, 400), (0, 0, 800, 400))
    lone.putpixel((400, 200), 0)  # no band at all
    assert _parts(lone, (40, 60, 840, 460)) == [(40, 60, 840, 460)]
    odd = _parts(mask((800, 400), (11, 301, 90, 380), (701, 21, 790, 60)), (2, 4, 802, 404))
    assert [(x % 2, y % 2) for x, y, _, _ in odd] == [(0, 0), (0, 0)]  # offsets stored halved: even
    assert odd == [(12, 304, 92, 384), (702, 24, 792, 64)]
    assert 10 < PART_MS < 100  # under 11 ms browsers show a frame for 100 ms
