"""Names in any script draw with the bundled fonts; characters no font covers are left out, never boxed."""

from __future__ import annotations

import pytest

from render import fonts

NAMES = ["Zoë Ångström", "Ёжик Борисович", "张伟", "張偉", "さくら", "カタカナ", "Łukasz Ñandú"]


def test_bundled_fonts_and_licences_within_8_mb() -> None:
    files = list(fonts.FONT_DIR.iterdir())
    assert sum(f.stat().st_size for f in files) <= 8 * 1024 * 1024
    assert any(f.name.startswith("LICENSE-DejaVu") for f in files)
    assert any(f.name.startswith("LICENSE-Droid") for f in files)


@pytest.mark.parametrize("name", NAMES)
def test_every_character_is_covered(name: str) -> None:
    for bold in (False, True):
        runs = fonts.runs(name, bold)
        assert "".join(text for text, _ in runs) == name
        for text, index in runs:
            for ch in text:
                assert ch == " " or fonts.covers(index, ch, bold), (name, ch)


def test_names_render_with_ink() -> None:
    for name in NAMES:
        img = fonts.text_image(name, 24, (0, 0, 0, 255))
        bbox = img.getbbox()
        assert bbox is not None
        assert bbox[2] - bbox[0] >= fonts.text_width(name, 24) * 0.8


@pytest.mark.parametrize("emoji", ["\U0001f3b2", "\U0001f984", "\U0001f1fa\U0001f1f8"])
def test_uncovered_characters_are_dropped_without_a_box(emoji: str) -> None:
    name = f"Bob{emoji}"
    assert fonts.clean(name) == "Bob"
    with_emoji = fonts.text_image(name, 24, (0, 0, 0, 255))
    without = fonts.text_image("Bob", 24, (0, 0, 0, 255))
    assert with_emoji.tobytes() == without.tobytes()


def test_missing_glyph_detector_works() -> None:
    assert not fonts.covers(0, "张")
    assert fonts.covers(1, "张")
    assert fonts.covers(0, "Ж")
    assert not fonts.covers(1, "\U0001f3b2")


def test_fit_cuts_long_names() -> None:
    long = "Александр " * 8
    cut = fonts.fit(long, 20, 150)
    assert cut.endswith("…") and fonts.text_width(cut, 20) <= 150


def test_remembered_glyph_masks_draw_exactly_what_a_plain_font_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Board images redraw the same numbers and names: the fonts keep their masks, and the picture is unchanged."""
    import random

    from PIL import ImageFont

    import render
    from engine.carcassonne import Carcassonne

    game = Carcassonne.new(["Alice", "Борис", "张伟"], {"tower": True}, 4)
    moves = random.Random(4)
    for _ in range(60):
        game.apply(game.random_action(moves))
    view = game.view(game.current)
    cells = sorted(game.legal_placements()) if game.decision() == "place" else []
    stamped = render.carcassonne_preview_image(view, cells).tobytes()

    rendered = 0
    plain_getmask2 = ImageFont.FreeTypeFont.getmask2

    def counting(self: ImageFont.FreeTypeFont, *args: object, **kwargs: object) -> object:
        nonlocal rendered
        rendered += 1
        return plain_getmask2(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counting)
    again = render.carcassonne_preview_image(view, cells).tobytes()
    assert rendered == 0, "the second picture renders no text: every mask is remembered"
    monkeypatch.setattr(fonts.StampingFont, "getmask2", counting)  # no memory: every text rendered afresh
    plain = render.carcassonne_preview_image(view, cells).tobytes()
    assert rendered > 0
    assert stamped == again == plain
