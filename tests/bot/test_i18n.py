"""Languages: catalogue parity, plural forms, slash command localisations and translated image text."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from bot.text import t
from bot.text.catalogue import MESSAGES
from bot.text.i18n import LANGUAGES, PSEUDO, po_path, read_catalogue, speaking, translations
from bot.text.po import build
from bot.text.translator import command_strings
from tests.bot.conftest import World


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def params(entry: str | tuple[str, ...]) -> set[str]:
    forms = (entry,) if isinstance(entry, str) else entry
    return set().union(*(fields(f) for f in forms))


def test_the_english_catalogue_is_generated_from_messages() -> None:
    written = read_catalogue("en")
    expected = build("en", {})
    assert [(m.context, m.id, m.string) for m in written if m.id] == [
        (m.context, m.id, m.string) for m in expected if m.id
    ], "run python -m bot.text.po"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_key_is_translated_with_the_same_parameters(lang: str) -> None:
    catalogue = read_catalogue(lang)
    texts = translations(lang).texts
    assert not [m.context for m in catalogue if m.id and m.fuzzy], "fuzzy entries: English changed"
    missing = [k for k in MESSAGES if k not in texts]
    assert not missing, f"{lang} lacks {missing[:10]}"
    for key, english in MESSAGES.items():
        translated = texts[key]
        assert isinstance(translated, tuple) == isinstance(english, tuple), key
        if isinstance(translated, tuple):
            assert len(translated) == catalogue.num_plurals, key
            for form in translated:  # every plural form takes the same parameters
                assert fields(form) <= params(english), (lang, key, form)
        assert params(translated) == params(english), (lang, key)


def test_russian_has_three_plural_forms() -> None:
    with speaking("ru"):
        assert [t("narrate.tiles", count=n) for n in (1, 2, 5, 11, 21, 22)] == [
            "1 квадрат",
            "2 квадрата",
            "5 квадратов",
            "11 квадратов",
            "21 квадрат",
            "22 квадрата",
        ]
    with speaking("zh-CN"):
        assert t("narrate.tiles", count=3) == "3块版图"
    assert t("narrate.tiles", count=1) == "1 tile"


def test_the_pseudo_locale_marks_every_text() -> None:
    with speaking(PSEUDO):
        assert t("lobby.button.join") == "⟦Join⟧"


def test_catalogue_files_exist_for_every_language() -> None:
    for lang in LANGUAGES:
        assert po_path(lang).is_file()


NAME = re.compile(r"^[-_\w]{1,32}$")


async def test_command_localisations_fit_discord_rules(world: World) -> None:
    strings = command_strings(world.bot.tree)
    for key, english in strings.items():
        assert MESSAGES.get(key) == english, f"{key} missing from MESSAGES or out of date"
    for lang in LANGUAGES:
        with speaking(lang):
            for key in strings:
                text = t(key)
                if key.endswith(".name") and not key.startswith("slash.choice."):
                    assert NAME.match(text) and text == text.lower(), (lang, key, text)
                else:
                    assert 1 <= len(text) <= 100, (lang, key, text)


async def test_the_translator_gives_discord_the_localised_strings(world: World) -> None:
    import discord

    translator = world.bot.tree.translator
    assert translator is not None
    payload: list[dict[str, Any]] = [
        await command.get_translated_payload(world.bot.tree, translator) for command in world.bot.tree.get_commands()
    ]
    game = next(p for p in payload if p["name"] == "game")
    assert game["name_localizations"][discord.Locale.russian.value] == "игра"
    assert game["description_localizations"][discord.Locale.chinese.value] == "此频道的游戏"
    assert discord.Locale.american_english.value not in game["name_localizations"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_image_text_renders_in_every_language(lang: str) -> None:
    from bot.text.i18n import install_image_labels
    from render import fonts
    from render.labels import label

    install_image_labels()
    with speaking(lang):
        values: dict[str, Any] = dict(points=1, turn=2, count=3, names="x", x=0, y=0, a=1, b=2, total=3, tile="E")
        values["side"] = "s"
        values.update(game="g", name="n")  # the story picture's title and players
        for key in (k for k in MESSAGES if k.startswith("image.")):
            text = label(key.removeprefix("image."), **values)
            assert text == t(key, **values)
            assert fonts.missing(text) == "", f"{lang} {key}: characters no bundled font covers"


def test_follower_spots_are_named_in_words_in_every_language() -> None:
    from bot.carcassonne.narration import spot_name
    from engine.carcassonne.tiles import ORIENTED

    names = {name for turns in ORIENTED.values() for o in turns for name in o.names} | {"tower"}
    for lang in LANGUAGES:
        with speaking(lang):
            shown = {name: spot_name(name) for name in names}
        assert not [s for s in shown.values() if ":" in s], shown
        assert len(set(shown.values())) == len(shown), f"{lang}: two spots read the same"
    with speaking("en"):
        assert spot_name("city:S") == "city (south)"
        assert spot_name("field:Nw") == "field (north, west half)"
        assert spot_name("cloister") == "cloister"
    with speaking("zh-CN"):
        assert spot_name("road:E") == "道路（东）" and spot_name("cloister") == "修道院"
    with speaking("ru"):
        assert spot_name("field:Sw") == "поле (юг, западная половина)" and spot_name("cloister") == "монастырь"
    with speaking(PSEUDO):
        assert spot_name("city:S") == "⟦city (⟦south⟧)⟧"


def test_carcassonne_points_and_cities_take_plural_forms() -> None:
    from bot.carcassonne.narration import narrate

    def told(points: int, cities: int) -> list[str]:
        events = [
            {"type": "feature_completed", "feature": "road", "cells": [[0, 0]], "tiles": 1, "points": points,
             "scorers": [0]},
            {"type": "farm_scored", "cities": cities, "points": points, "scorers": [1]},
            {"type": "follower_placed", "player": 0, "role": "monk", "on": "cloister", "x": 1, "y": 2},
        ]  # fmt: skip
        return narrate(events, ["alice", "bob"])

    with speaking("en"):
        assert told(1, 1) == [
            "The road in column 0, row 0 was completed: 1 point to alice (1 tile).",
            "A farm supplying 1 finished city: 1 point to bob.",
            "alice put a monk on the cloister in column 1, row 2.",
        ]
        assert told(3, 2)[:2] == [
            "The road in column 0, row 0 was completed: 3 points to alice (1 tile).",
            "A farm supplying 2 finished cities: 3 points to bob.",
        ]
    with speaking("ru"):
        assert [told(n, n)[1] for n in (1, 3, 5, 21)] == [
            "bob получает 1 очко за поле, снабжающее 1 завершённый город.",
            "bob получает 3 очка за поле, снабжающее 3 завершённых города.",
            "bob получает 5 очков за поле, снабжающее 5 завершённых городов.",
            "bob получает 21 очко за поле, снабжающее 21 завершённый город.",
        ]
        assert told(1, 1)[2] == "alice ставит монаха в монастырь в столбце 1, строке 2."
    with speaking("zh-CN"):
        assert told(2, 2)[1:] == [
            "农场供养2座完成的城市：bob得2分。",
            "alice把修士放进第2行第1列的修道院。",
        ]
