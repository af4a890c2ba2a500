"""Every picture the bot posts carries alt text: what a sighted player learns from it, in the reader's language,
built from the same spectator view the picture is drawn from, within Discord's 1,024 characters."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import render
from bot.carcassonne.alt import tile_features
from bot.carcassonne.narration import spot_name
from bot.carcassonne.turn import turn_image as carcassonne_image
from bot.catan.turn import turn_image as catan_image
from bot.core.rendering import Job
from bot.lineup import GAMES
from bot.text.alt import describe as describe_with
from bot.text.i18n import LANGUAGES, speaking
from bot.text.limits import ATTACHMENT_DESCRIPTION
from engine import Game, game_class
from engine.ai import decide
from engine.catan import road_spots, settlement_spots
from engine.catan.state import CARDS
from engine.history import GameLog, frames
from tests.bot.test_discord_limits import SCRIPTS


def describe(job: Job) -> str | None:
    """The alt text of ``job``'s picture, its game's part told by that game's adapter (as the bot does)."""
    view = job.args[0] if job.args else None
    game = view.get("game") if isinstance(view, dict) else None
    words = next((adapter.words for adapter in GAMES if adapter.name == game), None)
    return describe_with(job, words)


NAMES = ["Alice", "Bob", "Carol"]


def played(name: str, options: dict[str, Any], players: list[str], seed: int = 5) -> Iterator[Game]:
    """Each state of a game played to its end by random computer players."""
    game = game_class(name).new(players, options, seed=seed)
    rng = random.Random(seed)
    while True:
        yield game
        if game.finished:
            return
        auto = game.automatic_action()
        game.apply(auto if auto is not None else decide(game, game.actors()[-1], "random", rng))


def first(name: str, options: dict[str, Any], wanted: Any, players: list[str] = NAMES) -> Game:
    return next(game for game in played(name, options, players) if wanted(game))


def test_a_carcassonne_turn_picture_tells_whose_turn_the_drawn_tile_the_numbered_cells_and_the_scores() -> None:
    game = first("carcassonne", {}, lambda g: g.decision() == "place" and g.turn > 3)
    with speaking("en"):
        text = describe(carcassonne_image(game))
    view = game.view(None)
    assert text is not None
    turn, left = view["turn"], view["tiles_left"]
    assert text.startswith(f"Carcassonne board at turn {turn}. {left} tiles are left in the stack.")
    assert f"It is {NAMES[game.current]}'s turn." in text
    assert f"The drawn tile, shown on the right, has {tile_features(view['drawn'])}." in text
    cells = len(game.legal_placements())
    assert (f"It fits in {cells} cells, framed in yellow and numbered 1 to {cells}" in text) or cells == 1
    for player in view["players"]:
        assert re.search(rf"{player['name']} \(\w+( \w+)?, marked \w\): {player['score']} points?,", text)
    assert "the columns and rows" in text, "what the numbers on the board mark"
    assert view["drawn"] not in re.findall(r"\b[A-Z]\d*\b", text.replace("(", " ")), "never the tile's id"


def test_the_follower_picture_names_every_labelled_spot_as_the_buttons_do() -> None:
    game = first("carcassonne", {}, lambda g: g.decision() == "follower" and len(list(g.follower_spots())) > 1)
    with speaking("en"):
        text = describe(carcassonne_image(game))
        spots = [spot_name(on) for on in game.follower_spots()]
    x, y = game.view(None)["placed"]
    assert text is not None and text.startswith(f"The tile {NAMES[game.current]} just placed at ({x}, {y}),")
    assert f"Its {len(spots)} follower spots are labelled: " in text and all(spot in text for spot in spots)


def test_a_tile_is_told_side_by_side_as_it_lies() -> None:
    with speaking("en"):
        assert tile_features("D") == "a city on the north side, a road between the east and west sides"
        assert tile_features("D", 90) == "a city on the east side, a road between the north and south sides"
        assert tile_features("B") == "a cloister in the middle"
        assert tile_features("T12") == "a tower foundation"
        assert tile_features("M", 180) == "a city with a pennant on the east and south sides"
    with speaking("ru"):
        assert tile_features("D") == "город на северной стороне, дорога между восточной и западной сторонами"


def test_a_catan_board_tells_the_dice_the_robbers_hex_and_everyones_public_counts() -> None:
    game = first("catan", {}, lambda g: g.phase == "main" and g.view(None)["dice"])
    view = game.view(None)
    with speaking("en"):
        text = describe(catan_image(game))
    a, b = view["dice"]
    robber = view["board"]["robber"]
    assert text is not None and f"The dice show {a} and {b}: {a + b}." in text
    assert f"The robber stands on hex {robber} (" in text
    for player in view["players"]:
        assert f"{player['points']} victory point" in text and f"{player['cards']} resource card" in text
    assert "the small numbers at the corners are the intersections".lower() in text.lower()


def test_a_hidden_victory_point_card_stays_hidden_in_the_words() -> None:
    game = first("catan", {}, lambda g: g.phase == "main")
    seat = game.current
    before = game.view(None)["players"][seat]["points"]
    game.dev[seat][CARDS.index("victory_point")] += 1
    assert game.view(seat)["players"][seat]["victory_points"] > before
    with speaking("en"):
        text = describe(catan_image(game))
    assert text is not None and f"{NAMES[seat]} (" in text
    told = re.search(rf"{NAMES[seat]} \([^)]*\): (\d+) victory point", text)
    assert told is not None and int(told[1]) == before


def test_catan_set_up_pictures_tell_where_the_next_piece_may_go() -> None:
    game = first("catan", {}, lambda g: True)
    with speaking("en"):
        text = describe(catan_image(game))
        assert text is not None and "during the set-up" in text
        assert f"({len(settlement_spots(game, game.current))}); their numbers are the ones in the menu" in text
        road = first("catan", {}, lambda g: g.pending()[0]["decision"] == "setup_road")
        told = describe(catan_image(road))
    assert told is not None and "The paths where" in told
    assert all(path.split("-")[0] in told for path in road_spots(road, road.current))


@pytest.mark.parametrize("name,options", [("carcassonne", {"tower": True}), ("catan", {})])
def test_the_end_chart_and_the_timelapse_tell_the_winner_and_the_final_scores(
    name: str, options: dict[str, Any]
) -> None:
    actions: list[Any] = []
    game = game_class(name).new(NAMES, options, seed=5)
    rng = random.Random(5)
    while not game.finished:
        auto = game.automatic_action()
        action = auto if auto is not None else decide(game, game.actors()[-1], "random", rng)
        game.apply(action)
        actions.append(action)
    view = game.view(None)
    winners = {NAMES[s] for s in game.result()["winners"]}
    with speaking("en"):
        chart = describe(Job(render.end_png, view))
        animation = describe(
            Job(render.timelapse_bytes, [v for _, v in frames(GameLog(name, tuple(NAMES), options, 5, tuple(actions)))])
        )
    assert chart is not None and animation is not None
    assert any(f"{w} won." in chart for w in winners) or "tie for the win" in chart
    assert animation.startswith(f"An animation of the whole {name.capitalize()} game,")
    for seat, score in enumerate(game.result()["scores"]):
        assert f"{NAMES[seat]} {score} point" in animation


def test_the_since_picture_tells_what_was_placed_since_the_readers_last_turn() -> None:
    states = [g.view(None) for g in played("catan", {}, NAMES) if g.phase == "main"][:40]
    before, after = states[0], states[-1]
    placed = game_class("catan").changes(before, after)
    with speaking("en"):
        text = describe(Job(render.since_png, after, placed))
    assert text is not None and text.startswith("What was built since your last turn is outlined in white: ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_picture_is_told_within_1024_characters_with_the_longest_names(lang: str) -> None:
    names = [*SCRIPTS.values(), *SCRIPTS.values()]
    for name, players, options in (("carcassonne", 6, {"river": True, "tower": True}), ("catan", 4, {})):
        seated = names[:players]
        views = []
        for step, game in enumerate(played(name, options, seated)):
            views.append(game.view(None))
            if step % 7 and not game.finished:
                continue
            image = carcassonne_image if name == "carcassonne" else catan_image
            jobs = [image(game), Job(render.board_png, game.view(None))]  # type: ignore[arg-type]
            if len(views) > 5:
                jobs.append(Job(render.since_png, views[-1], game_class(name).changes(views[-5], views[-1])))
            with speaking(lang):
                for job in jobs:
                    text = describe(job)
                    assert text and len(text) <= ATTACHMENT_DESCRIPTION, (job.function.__name__, text)
                    assert text.count("…") == 0, "whole sentences give way, never half of one"
        with speaking(lang):
            text = describe(Job(render.timelapse_bytes, views))
        assert text and len(text) <= ATTACHMENT_DESCRIPTION


def test_a_picture_that_cannot_be_told_still_goes_out_without_words(caplog: pytest.LogCaptureFixture) -> None:
    assert describe(Job(render.board_png, {"game": "chess"})) is None
    assert "no alt text" in caplog.text
