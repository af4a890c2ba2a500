"""Chinese that reads as a player wrote it, for the faults a native review found in whole games (docs/translating.md,
"Chinese: sentences a player would write")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.catan.narration import narrate
from bot.text.catalogue import MESSAGES
from bot.text.i18n import speaking, translations

CHINESE = ("zh-CN", "zh-TW")
CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")


def forms(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    return () if value is None else (value,) if isinstance(value, str) else value


@pytest.mark.parametrize("lang", CHINESE)
def test_a_development_card_is_named_as_a_card_and_never_as_a_button(lang: str) -> None:
    texts = translations(lang).texts
    cards = {card: texts[f"catan.card.{card}"] for card in CARDS}
    buttons = {text for key, text in texts.items() if key.startswith("catan.button.")}
    assert all(str(name).endswith("卡") for name in cards.values()), cards
    assert not buttons & set(cards.values())
    with speaking(lang):
        played = narrate([{"type": "played", "player": 0, "card": "monopoly"}], ["阿傑"])
    assert played == [f"阿傑打出了{cards['monopoly']}。"]


@pytest.mark.parametrize(
    ("lang", "nothing", "three"),
    [
        ("en", "Ann claimed every ore, but nobody had any.", "Ann claimed every ore: 3 cards taken."),
        ("zh-CN", "阿强垄断了矿石，但其他人手里都没有矿石。", "阿强垄断了所有矿石：共拿走3张。"),
        ("zh-TW", "阿傑宣告壟斷鐵，但其他玩家手上都沒有鐵。", "阿傑宣告壟斷鐵，從其他玩家手上拿走所有的鐵，共3張。"),
        (
            "ru",
            "Вера объявляет монополию на руду, но руды ни у кого нет.",
            "Вера объявляет монополию на руду и получает 3 карты.",
        ),
    ],
)
def test_a_monopoly_that_finds_nothing_says_so_instead_of_counting_zero(lang: str, nothing: str, three: str) -> None:
    name = {"en": "Ann", "zh-CN": "阿强", "zh-TW": "阿傑", "ru": "Вера"}[lang]

    def told(taken: list[int]) -> list[str]:
        event: dict[str, Any] = {"type": "monopoly", "player": 0, "resource": "ore", "taken": taken}
        with speaking(lang):
            return narrate([event], [name, "B", "C"])

    assert told([0, 0, 0]) == [nothing]
    assert told([0, 2, 1]) == [three]


@pytest.mark.parametrize("lang", CHINESE)
def test_a_seven_is_rolled_once_not_twice(lang: str) -> None:
    events: list[dict[str, Any]] = [
        {"type": "rolled", "player": 0, "dice": [6, 1], "total": 7},
        {"type": "must_discard", "counts": [4, 0]},
    ]
    with speaking(lang):
        rolled, seven = narrate(events, ["阿傑", "志明"])
    verb = "擲" if lang == "zh-TW" else "掷"
    assert verb in rolled and verb not in seven, seven


@pytest.mark.parametrize("lang", CHINESE)
def test_no_sentence_names_an_option_by_its_english_slash_name(lang: str) -> None:
    # The reader's client shows the option under its Chinese name (回合时限), so a sentence says that name.
    english_names = {
        str(value)
        for key, value in MESSAGES.items()
        if key.startswith("slash.") and key.endswith(".name") and "_" in str(value)
    }
    assert "turn_limit" in english_names
    found = [
        f"{key}: {text!r}"
        for key, value in translations(lang).texts.items()
        for text in forms(value)
        for name in english_names
        if re.search(rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])", text)  # Chinese letters are word characters too
    ]
    assert not found, "\n".join(found)
