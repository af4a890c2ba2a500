"""The side panel painted again over the one before: only what changed, the same pixels as painting it whole."""

from __future__ import annotations

import itertools

from PIL import Image

from render.panel import BG, WIDTH, Panel, PlayerCard, paint_panel, panel_height, repaint_panel

LEFT = 200  # the panel sits right of a board, as in every board picture
RED, BLUE, GREEN = (200, 40, 40), (40, 80, 200), (40, 160, 70)

ALICE = PlayerCard("Alice", RED, "A", "12", ("Followers 5 · Tower 2",))
BOB = PlayerCard("Bob", BLUE, "B", "9", ("Followers 7",))
CAROL = PlayerCard("Каролина Сергеевна Длиннофамильная-Двойная", GREEN, "C", "30", ("Всё ещё здесь",))


def painted(panel: Panel, height: int) -> Image.Image:
    img = Image.new("RGB", (LEFT + WIDTH, height), (10, 20, 30))
    paint_panel(img, LEFT, panel)
    return img


def step(before: Panel, after: Panel, height: int) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    img = painted(before, height)
    return img, repaint_panel(img, LEFT, after, before)


def test_a_turn_that_changes_one_card_paints_that_card_alone_and_the_rest_stays_as_painted_whole() -> None:
    before = Panel("Carcassonne", "Tiles left: 40", (ALICE, BOB))
    after = Panel("Carcassonne", "Tiles left: 40", (ALICE, PlayerCard("Bob", BLUE, "B", "13", ("Followers 6",))))
    height = panel_height(before)
    img, boxes = step(before, after, height)
    assert img.tobytes() == painted(after, height).tobytes()
    assert len(boxes) == 1
    left, top, right, bottom = boxes[0]
    assert (left, right) == (LEFT, LEFT + WIDTH) and 0 < top < bottom < height  # Bob's card, not the header


def test_nothing_changed_paints_nothing() -> None:
    panel = Panel("Carcassonne", "Tiles left: 3", (ALICE, BOB), ("Frames: each player's latest tile",))
    height = panel_height(panel)
    img, boxes = step(panel, panel, height)
    assert boxes == []
    assert img.tobytes() == painted(panel, height).tobytes()


def test_every_change_from_any_panel_to_any_other_is_the_panel_painted_whole() -> None:
    """Cards in every script, names on two lines, badges on a second row, winners and the card to move, footers:
    a card that grows moves every part under it, and each part painted again draws nothing outside its rows."""
    cards = [
        ALICE,
        BOB,
        CAROL,
        PlayerCard("محمد عبد الرحمن", GREEN, "M", "7", ("أتباع 4",), ("أطول طريق",)),
        PlayerCard("张伟 🎲", BLUE, "Z", "10", ("随从 3", "塔 1"), ("最长道路", "最大军队", "港口 2:1 木材")),
        PlayerCard("Bob", BLUE, "B", "13", ("Followers 6",), active=True),
        PlayerCard("Alice", RED, "A", "55", ("Followers 7",), winner=True),
    ]
    panels = [
        Panel("Carcassonne", "Tiles left: 40", (cards[0], cards[1])),
        Panel("Carcassonne", "Tiles left: 39", (cards[0], cards[5])),
        Panel("Carcassonne", "Tiles left: 39", (cards[2], cards[1]), ("Frames: each player's latest tile",)),
        Panel("Catan", "Dice 6 + 6 = 12", (cards[3], cards[4], cards[0])),
        Panel("Catan", "Dice 6 + 6 = 12", (cards[3], cards[4], cards[6]), ("Game over",)),
        Panel("Каркассон — очень длинное название партии", "Осталось тайлов: 1", (cards[2], cards[4])),
    ]
    height = max(panel_height(p) for p in panels) + 30
    for before, after in itertools.permutations(panels, 2):
        img, boxes = step(before, after, height)
        assert img.tobytes() == painted(after, height).tobytes(), (before.subtitle, after.subtitle)
        assert boxes, "a different panel paints something again"


def test_parts_not_painted_again_keep_whatever_was_there() -> None:
    """Only the boxes returned are painted: a pixel outside them is not touched (so a timelapse frame need compare
    nothing else)."""
    before = Panel("Carcassonne", "Tiles left: 40", (ALICE, BOB))
    after = Panel("Carcassonne", "Tiles left: 39", (ALICE, BOB))
    height = panel_height(before)
    img = Image.new("RGB", (LEFT + WIDTH, height), BG)
    boxes = repaint_panel(img, LEFT, after, before)
    assert len(boxes) == 1 and boxes[0][1] == 0  # the header, with the count
    outside = img.copy()
    outside.paste((0, 0, 0), boxes[0])
    assert outside.crop((LEFT, boxes[0][3], LEFT + WIDTH, height)).getcolors() == [(WIDTH * (height - boxes[0][3]), BG)]
