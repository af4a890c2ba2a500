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
