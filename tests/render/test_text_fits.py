"""Every image fits every language: with 32-character names (Discord's longest) in four scripts, every board,
preview and end image in English, Simplified and Traditional Chinese and Russian draws each text whole, inside the
room made for it: names and labels wrap or shrink, nothing is cut with an ellipsis."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial

import pytest
from PIL import Image

import render
from bot.text.i18n import LANGUAGES, install_image_labels, speaking
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from engine.catan.board import EDGE_NAMES
from engine.history import GameLog
from engine.story import story
from render import fonts
from render.carcassonne import pictures as carcassonne_pictures
from render.catan import pictures as catan_pictures
from render.labels import label, set_translator

LONG_NAMES = [
    "Maximilian Alexander Wolfgangsen",  # Latin, with spaces
    "Константинопольский Александрови",  # Cyrillic
    "长" * 16 + "張" * 16,  # Chinese without spaces
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",  # the widest Latin letter, no place to break
]
ARABIC_AND_KOREAN = ["عبد الرحمن بن محمد العبد الكريم", "김민준" * 10 + "🎲🦄"]


def test_the_names_are_discords_longest() -> None:
    assert all(len(name) <= 32 for name in LONG_NAMES + ARABIC_AND_KOREAN)
    assert sum(len(name) == 32 for name in LONG_NAMES + ARABIC_AND_KOREAN) >= 4


@pytest.fixture(autouse=True)
def catalogues() -> Iterator[None]:
    install_image_labels()
    yield
    set_translator(None)


def _carcassonne_views(names: list[str]) -> dict[str, Callable[[], Image.Image]]:
    game = Carcassonne.new(names, {"tower": True}, 7)
    rng = random.Random(7)
    jobs: dict[str, Callable[[], Image.Image]] = {}
    actions = []
    while not game.finished:
        view = game.view(game.current)
        prisoners = any(any(p.get("prisoners") or []) for p in view["players"])
        if "preview" not in jobs and len(game.board) >= 20 and game.decision() == "place":
            cells = sorted(game.legal_placements())
            jobs["preview"] = partial(carcassonne_pictures.preview_image, view, cells)
        if "spots" not in jobs and len(game.board) >= 20 and game.decision() == "follower" and game.follower_spots():
            x, y = view["placed"]
            spots = game.follower_spots()
            jobs["spots"] = partial(carcassonne_pictures.spots_image, view, x, y, spots)
        if "board" not in jobs and (prisoners or len(game.board) >= 60):
            jobs["board"] = partial(render.board_image, game.view(None))
        actions.append(game.apply(game.random_action(rng)).action)
    jobs["end"] = partial(render.end_image, game.view(None))
    jobs["final board"] = partial(render.board_image, game.view(None))
    told = story(GameLog("carcassonne", tuple(names), {"tower": True}, 7, actions))
    jobs["story"] = partial(render.story_image, told)
    return jobs


def _catan_views(names: list[str]) -> dict[str, Callable[[], Image.Image]]:
    game = Catan.new(names, {"board": "random"}, 3)
    rng = random.Random(3)
    jobs: dict[str, Callable[[], Image.Image]] = {}
    actions = []
    while not game.finished:
        seat = game.current
        view = game.view(None)
        discarding = any(p.get("discard_owed") for p in view.get("players", []))
        if "board" not in jobs and len(actions) >= 150 and game.phase == "main":
            jobs["board"] = partial(render.board_image, view)
            settle = [n + 1 for n in game.legal_settlements(seat)] or [1, 2, 3]
            roads = [EDGE_NAMES[e] for e in game.legal_roads(seat)] or ["1-2"]
            jobs["settlement preview"] = partial(catan_pictures.preview_image, game.view(seat), settle)
            jobs["road preview"] = partial(catan_pictures.preview_image, game.view(seat), roads)
        if "discards" not in jobs and discarding:
            jobs["discards"] = partial(render.board_image, view)
        actions.append(game.apply(game.random_action(rng)).action)
    jobs["end"] = partial(render.end_image, game.view(None))
    jobs["final board"] = partial(render.board_image, game.view(None))
    jobs["story"] = partial(render.story_image, story(GameLog("catan", tuple(names), {"board": "random"}, 3, actions)))
    return jobs


def _check(image: Callable[[], Image.Image], names: list[str], lang: str, what: str) -> None:
    with speaking(lang), fonts.recording() as events:
        image()
    assert events, what
    bad = [e for e in events if not e.ok or "…" in e.text]
    assert not bad, f"{lang} {what}: {bad[:3]}"
    drawn = "".join(e.text for e in events).replace(" ", "")
    for name in names if what != "carcassonne spots" else ():  # the follower-spots picture has no player list
        assert name.replace(" ", "") in drawn, f"{lang} {what}: {name} not drawn whole"


VIEWS: dict[str, dict[str, Callable[[], Image.Image]]] = {}


def _views(game: str, names: list[str]) -> dict[str, Callable[[], Image.Image]]:
    key = game + "|".join(names)
    if key not in VIEWS:
        VIEWS[key] = _carcassonne_views(names) if game == "carcassonne" else _catan_views(names)
    return VIEWS[key]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["carcassonne", "catan"])
def test_every_image_draws_every_text_whole_with_the_longest_names(lang: str, game: str) -> None:
    for names in (LONG_NAMES, ARABIC_AND_KOREAN + LONG_NAMES[:2]):
        jobs = _views(game, names)
        assert {"board", "end", "final board", "story"} <= set(jobs)
        for what, image in jobs.items():
            _check(image, names, lang, f"{game} {what}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rating_chart_draws_every_text_whole_with_the_longest_name(lang: str) -> None:
    for name in LONG_NAMES + ARABIC_AND_KOREAN:
        with speaking(lang):
            title = label("story_title", game=name)  # any text holding a name: the bot's title is its own
        chart = partial(render.rating_chart_image, title, [("catan", [0.0, 4.2, -1.5]), ("carcassonne", [3.3])])
        _check(chart, [name], lang, "rating chart")


def test_the_russian_catan_panel_is_not_cut() -> None:
    """The panel text that used to end in an ellipsis: Russian card counts and both awards on one card."""
    from render.panel import Panel, PlayerCard, draw_panel

    with speaking("ru"), fonts.recording() as events:
        facts = [label("cards", count=12), label("dev_cards", count=3), label("knights", count=3)]
        facts.append(label("discard_owed", count=6))
        card = PlayerCard(
            name=LONG_NAMES[1],
            colour=(0, 114, 178),
            mark="К",
            score=label("public_points", points=10),
            details=("  ·  ".join(facts),),
            badges=(label("longest_road"), label("largest_army")),
            active=True,
        )
        draw_panel(Panel(label("title_catan"), label("dice", a=6, b=6, total=12), (card,)), 400)
    assert events and all(e.ok and "…" not in e.text for e in events)
    drawn = "".join(e.text for e in events)
    for fact in facts:
        for word in fact.split():
            assert word in drawn
