"""Image text follows each game's rulebook where the two differ: Taiwan's Carcassonne calls a city 城堡, its Catan
城市; lists of names in images take the language's list format."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import render.end
from bot.text.i18n import install_image_labels, speaking
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from render.labels import names_list, set_lister, set_translator


@pytest.fixture(autouse=True)
def catalogues() -> Iterator[None]:
    install_image_labels()
    yield
    set_translator(None)
    set_lister(None)


def _chart_categories(monkeypatch: pytest.MonkeyPatch, view: dict[str, Any]) -> list[str]:
    drawn: list[list[str]] = []
    monkeypatch.setattr(render.end, "chart_image", lambda title, categories, rows, lost: drawn.append(categories))
    render.end.end_image(view)
    return drawn[0]


def test_the_end_chart_names_a_city_as_each_games_rulebook_does(monkeypatch: pytest.MonkeyPatch) -> None:
    carcassonne = Carcassonne.new(["安娜", "鮑伯"], {}, 1).view(None)
    catan = Catan.new(["安娜", "鮑伯", "卡佳"], {}, 1).view(None)
    with speaking("zh-TW"):
        assert _chart_categories(monkeypatch, carcassonne) == ["道路", "城堡", "修道院", "農地", "贖回"]
        assert _chart_categories(monkeypatch, catan) == ["村落", "城市", "最長道路", "最大軍隊", "勝利點數卡"]
    with speaking("en"):
        assert _chart_categories(monkeypatch, catan)[1] == _chart_categories(monkeypatch, carcassonne)[1] == "Cities"


def test_names_in_images_are_listed_in_the_language_of_the_picture() -> None:
    with speaking("zh-CN"):
        assert names_list(["安娜", "鲍勃", "卡佳"]) == "安娜、鲍勃和卡佳"
    with speaking("ru"):
        assert names_list(["Аня", "Боб"]) == "Аня и Боб"
    set_lister(None)
    assert names_list(["a", "b"]) == "a, b"
