"""Names in any script draw right: every script has a font, Arabic is joined and read right to left, emoji are in
colour, and a character no font has is drawn as a visible box, never left out."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from render import fonts
from render.palette import initial, marks

LATIN = ["Zoë Ångström", "Łukasz Ñandú"]
CYRILLIC = ["Ёжик Борисович"]
CHINESE = ["张伟", "張偉", "さくら", "カタカナ"]
KOREAN = ["김민준", "이서연 Kim"]
ARABIC = ["محمد علي", "فاطمة"]
HEBREW = ["דוד כהן", "שרה"]
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
EMOJI = ["Bob \U0001f3b2", "\U0001f984 Unicorn", "Ann \U0001f1fa\U0001f1f8", f"{FAMILY} fam"]
NAMES = LATIN + CYRILLIC + CHINESE + KOREAN + ARABIC + HEBREW + EMOJI
BLACK = (0, 0, 0, 255)

# Budget: see bench/README.md ("Fonts") for what each file buys.
FONT_BUDGET = 10.5 * 1024 * 1024


def test_bundled_fonts_and_their_licences_stay_within_the_budget() -> None:
    files = list(fonts.FONT_DIR.iterdir())
    assert sum(f.stat().st_size for f in files) <= FONT_BUDGET
    names = {f.name for f in files}
    for face in set(fonts.REGULAR + fonts.BOLD):
        assert face.file in names
    for licence in ("LICENSE-DejaVu.txt", "LICENSE-DroidSansFallback.txt", "LICENSE-Nanum.txt"):
        assert licence in names
    assert "LICENSE-NotoColorEmoji.txt" in names


@pytest.mark.parametrize("name", NAMES)
def test_every_script_of_the_names_has_a_font(name: str) -> None:
    for bold in (False, True):
        assert fonts.missing(name, bold) == ""
        drawn = "".join(run.text for run in fonts.runs(name, bold))
        assert sorted(drawn) == sorted(name)  # every character drawn (in visual order)


@pytest.mark.parametrize("name", NAMES)
def test_names_draw_ink_across_their_whole_width(name: str) -> None:
    for bold in (False, True):
        img = fonts.text_image(name, 24, BLACK, bold)
        bbox = img.getchannel("A").getbbox()
        assert bbox is not None, name
        assert bbox[2] - bbox[0] >= fonts.text_width(name, 24, bold) * 0.8, name


def test_korean_is_drawn_with_the_hangul_font_in_both_weights() -> None:
    for bold in (False, True):
        assert [run.index for run in fonts.runs("김민준", bold)] == [fonts.HANGUL]
    regular = fonts.text_image("김민준", 24, BLACK)
    bold = fonts.text_image("김민준", 24, BLACK, bold=True)
    ink = [sum(img.getchannel("A").histogram()[129:]) for img in (regular, bold)]
    assert ink[1] > ink[0] * 1.1, "bold Hangul has a bold face"


def _raqm_reference(text: str, file: str, size: int = 24) -> Image.Image:
    """``text`` shaped and ordered by Pillow's Raqm layout directly, as :func:`fonts.text_image` places it."""
    face = ImageFont.truetype(str(fonts.FONT_DIR / file), size, layout_engine=ImageFont.Layout.RAQM)
    img = Image.new("RGBA", (fonts.text_width(text, size) + 4, size * 2), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((2, round(size * 1.4)), text, font=face, fill=BLACK, anchor="ls", direction="rtl")
    return img


@pytest.mark.parametrize("name", ARABIC + HEBREW)
def test_right_to_left_names_are_shaped_and_ordered_like_raqm(name: str) -> None:
    ours = fonts.text_image(name, 24, BLACK)
    assert ImageChops.difference(ours, _raqm_reference(name, "DejaVuSans.ttf")).getbbox() is None
    basic = ImageFont.truetype(str(fonts.FONT_DIR / "DejaVuSans.ttf"), 24, layout_engine=ImageFont.Layout.BASIC)
    naive = Image.new("RGBA", ours.size, (0, 0, 0, 0))
    ImageDraw.Draw(naive).text((2, round(24 * 1.4)), name, font=basic, fill=BLACK, anchor="ls")
    assert ImageChops.difference(ours, naive).getbbox() is not None, "not the unshaped left-to-right drawing"


def test_arabic_letters_are_joined() -> None:
    """Joined letters are narrower than the same letters drawn alone (their isolated forms)."""
    name = "محمد"
    alone = sum(fonts.text_width(ch, 24) for ch in name)
    assert fonts.text_width(name, 24) < alone


def test_the_first_letter_of_a_hebrew_name_is_on_the_right() -> None:
    img = fonts.text_image("אבבב", 24, BLACK)
    first = fonts.text_image("א", 24, BLACK).getchannel("A").crop(fonts.text_image("א", 24, BLACK).getbbox())
    alpha = img.getchannel("A")
    box = alpha.getbbox()
    assert box is not None
    right = alpha.crop((box[2] - first.width, box[1], box[2], box[1] + first.height))
    assert ImageChops.difference(right, first).getbbox() is None


def test_mixed_directions_follow_the_bidirectional_algorithm() -> None:
    """An Arabic name starts at the right: a dice after it (logically) is drawn at its left, numbers read left to
    right; a Hebrew word inside an English name stays in its place."""
    runs = fonts.runs("علي 42 \U0001f3b2")
    assert [r.text for r in runs] == ["\U0001f3b2", " ", "42", "علي "]
    assert [r.rtl for r in runs] == [True, True, False, True]
    assert [r.text for r in fonts.runs("Alice (עברית) x")] == ["Alice (", "עברית", ") x"]


def _colourful(img: Image.Image) -> list[int]:
    """x of every opaque pixel whose colour is far from grey."""
    rgba = img.convert("RGBA")
    w, h = rgba.size
    px = rgba.load()
    assert px is not None
    out = []
    for x in range(w):
        for y in range(h):
            r, g, b, a = px[x, y]  # type: ignore[misc]
            if a > 200 and max(r, g, b) - min(r, g, b) > 80:
                out.append(x)
    return out


@pytest.mark.parametrize("emoji", ["\U0001f3b2", "\U0001f984", "\U0001f1fa\U0001f1f8", "\U0001f44d\U0001f3fd"])
def test_emoji_are_drawn_in_colour_where_they_are(emoji: str) -> None:
    img = Image.new("RGB", (200, 60), (255, 255, 255))
    width = fonts.draw_text(ImageDraw.Draw(img), (10, 40), f"Bob {emoji}", 24, (0, 0, 0))
    xs = _colourful(img)
    assert xs, "the emoji is in colour"
    bob = fonts.text_width("Bob ", 24)
    assert min(xs) >= 10 + bob - 2 and max(xs) <= 10 + width + 2
    assert [r.index for r in fonts.runs(f"Bob {emoji}")] == [0, fonts.EMOJI]


def test_a_family_is_one_emoji_not_three() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert fonts.clusters(family) == (family,)
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # a flag spelt in tags
    assert fonts.clusters(f"A{england}") == ("A", england)
    assert fonts.text_width(family, 24) < 2 * fonts.text_width("\U0001f468", 24)


def test_emoji_on_an_arabic_name_sit_at_its_left_end() -> None:
    img = Image.new("RGB", (200, 60), (255, 255, 255))
    width = fonts.draw_text(ImageDraw.Draw(img), (10, 40), "فاطمة \U0001f338", 24, (0, 0, 0))
    xs = _colourful(img)
    assert xs and max(xs) < 10 + width / 2


def test_a_character_no_font_has_is_drawn_as_a_box() -> None:
    hieroglyph = "\U00013000"
    assert fonts.missing(f"A{hieroglyph}B") == hieroglyph
    assert [r.index for r in fonts.runs(f"A{hieroglyph}B")] == [0, fonts.BOX, 0]
    assert fonts.text_width(f"A{hieroglyph}B", 24) >= fonts.text_width("AB", 24) + 10
    img = fonts.text_image(f"A{hieroglyph}B", 24, BLACK)
    a = fonts.text_width("A", 24)
    between = img.getchannel("A").crop((2 + a + 2, 0, 2 + a + 12, img.height))
    assert between.getbbox() is not None, "the box is drawn between A and B"
    assert not any(fonts.covers(i, hieroglyph) for i in range(fonts.chain_length()))


def test_missing_glyph_detector_works() -> None:
    assert not fonts.covers(0, "张")
    assert fonts.covers(1, "张")
    assert fonts.covers(0, "Ж")
    assert fonts.covers(fonts.HANGUL, "김")
    assert not fonts.covers(1, "\U0001f3b2")
    assert fonts.covers(fonts.EMOJI, "\U0001f3b2")


def test_bold_chinese_is_drawn_bold() -> None:
    regular = fonts.text_image("张伟", 24, BLACK)
    bold = fonts.text_image("张伟", 24, BLACK, bold=True)
    ink = [sum(img.getchannel("A").histogram()[129:]) for img in (regular, bold)]
    assert ink[1] > ink[0] * 1.15


@pytest.mark.parametrize("text", ["Александр " * 4, "长" * 32, "W" * 32, "محمد " * 7])
def test_fitting_wraps_and_shrinks_but_never_cuts(text: str) -> None:
    fitted = fonts.fit(text, 21, 200, bold=True, lines=2, smallest=14)
    assert "".join(fitted.lines).replace(" ", "") == text.replace(" ", "")
    assert all(fonts.text_width(line, fitted.size, True) <= 200 for line in fitted.lines)
    assert 14 <= fitted.size <= 21


def test_fitting_keeps_the_size_when_it_fits() -> None:
    assert fonts.fit("Alice", 21, 200) == fonts.Fitted(21, ("Alice",))


def test_marks_are_the_first_visible_character_of_every_name() -> None:
    assert marks(["P1", "P2"]) == ["P1", "P2"]
    assert marks(["alice", "Bob"]) == ["A", "B"]
    assert marks(["anna", "Bob", "Alex"]) == ["A1", "B", "A3"]
    names = ["김민준", "محمد", "דוד", "\U0001f984 Uni", "  ", "[x] Zed"]
    assert marks(names) == ["김", "م", "ד", "\U0001f984", "5", "X"]
    assert initial("\U0001f44d\U0001f3fd ok") == "\U0001f44d\U0001f3fd"
    assert initial("...") == "."


def test_remembered_glyph_masks_draw_exactly_what_a_plain_font_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Board images redraw the same numbers and names: the fonts keep their masks, and the picture is unchanged."""
    import random

    from engine.carcassonne import Carcassonne
    from render.carcassonne import pictures

    game = Carcassonne.new(["Alice", "Борис", "张伟"], {"tower": True}, 4)
    moves = random.Random(4)
    for _ in range(60):
        game.apply(game.random_action(moves))
    view = game.view(game.current)
    cells = sorted(game.legal_placements()) if game.decision() == "place" else []
    stamped = pictures.preview_image(view, cells).tobytes()

    rendered = 0
    plain_getmask2 = ImageFont.FreeTypeFont.getmask2

    def counting(self: ImageFont.FreeTypeFont, *args: object, **kwargs: object) -> object:
        nonlocal rendered
        rendered += 1
        return plain_getmask2(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counting)
    again = pictures.preview_image(view, cells).tobytes()
    assert rendered == 0, "the second picture renders no text: every mask is remembered"
    monkeypatch.setattr(fonts.StampingFont, "getmask2", counting)  # no memory: every text rendered afresh
    monkeypatch.setattr(fonts, "stamping", False)  # and drawn by Pillow's ``text`` itself
    plain = pictures.preview_image(view, cells).tobytes()
    assert rendered > 0
    assert stamped == again == plain


STAMP_TEXTS = ["-12", "7", "Alice", "Борис Годунов", "张伟", "김민준", "محمد علي", "דוד כהן", "Zoë", "Ab 张 Жж"]


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "RGB over RGBA"])
def test_text_drawn_again_from_what_pillow_drew_the_first_time_is_the_same_pixels(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """A board picture draws the same coordinates, names and scores every turn: a run drawn once at a fraction of a
    pixel is drawn again from the masks and inks Pillow's ``text`` used then. Every script, bold (drawn with a
    stroke where a face has no bold), a stroke of another colour, fractions of a pixel either side of zero, text
    running off the edges, a translucent colour blended over the picture: the same pixels as Pillow's own."""
    fonts._stamps.clear()
    image_mode, draw_mode = ("RGB", "RGBA") if mode == "RGB over RGBA" else (mode, mode)
    fill = {"L": 200, "RGB over RGBA": (250, 200, 40, 140)}.get(mode, (250, 200, 40))
    stroke_fill = {"L": 30}.get(mode, (30, 30, 30))

    def picture() -> bytes:
        img = Image.new(image_mode, (420, 600), 90 if image_mode == "L" else (60, 70, 90))
        d = ImageDraw.Draw(img, draw_mode)
        y = 20.0
        for text in STAMP_TEXTS:
            for at, anchor in (((10.0, y), "ls"), ((200.25, y + 0.5), "mm"), ((-7.6, y + 9.75), "rs")):
                for bold in (False, True):
                    fonts.draw_text(d, at, text, 17, fill, bold=bold, anchor=anchor)  # type: ignore[arg-type]
            fonts.draw_text(d, (400.5, y), text, 20, fill, stroke=2, stroke_fill=stroke_fill, anchor="ls")  # type: ignore[arg-type]
            y += 57.25
        return img.tobytes()

    first, again = picture(), picture()  # drawn through Pillow once (and remembered), then from what it drew
    assert fonts._stamps, "the runs were remembered"
    monkeypatch.setattr(fonts, "stamping", False)
    plain = picture()
    assert first == again == plain


def test_chinese_lines_never_start_with_closing_punctuation() -> None:
    text = "请在下方菜单中选择带编号的位置。玩家（张伟）说：「好」"
    for width in range(60, 400, 7):
        lines = fonts.wrap(text, 16, width)
        assert "".join(lines) == text
        assert not any(line[0] in "。）：」，" for line in lines), lines
        assert not any(line[-1] in "（「" for line in lines), lines


@pytest.mark.parametrize("name", ["Zoë", "Ёжик", "张伟", "김민준", "محمد", "דוד", "\U0001f984\U0001f3b2"])
def test_a_name_in_any_script_is_drawn_on_the_board_where_its_card_is(name: str) -> None:
    """The first card of the Catan panel with the name, and with no name: the name's place has ink only with it,
    as wide as the name measures."""
    import render
    from render.catan.board import BOARD_W
    from render.panel import HEADER, PAD, TEXT

    from .test_catan import beginner_view

    def board(first: str) -> Image.Image:
        players = [
            {"seat": i, "name": n, "points": 2, "cards": 3, "dev_cards": 0, "knights": 0}
            for i, n in enumerate([first, "Blue", "White", "Orange"])
        ]
        return render.board_image(beginner_view(players=players)).convert("RGB")

    box = (BOARD_W + PAD + 56, HEADER + 14, BOARD_W + PAD + 56 + 230, HEADER + 44)  # the first card's name line
    with_name, without = board(name).crop(box), board("").crop(box)
    difference = ImageChops.difference(with_name, without).getbbox()
    assert difference is not None
    assert difference[2] - difference[0] >= fonts.text_width(name, 21, True) * 0.8
    if not name.startswith("\U0001f984"):  # text in the panel's text colour (emoji keep their own colours)
        assert any(colour == TEXT for _, colour in with_name.getcolors(1 << 16) or [])
