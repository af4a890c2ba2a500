"""Places in running text are named as the board image shows them, in every language (docs/translating.md).

A sentence never names a Carcassonne cell by a coordinate pair such as (2, -7) or a tile by its internal id (R3):
the image labels columns along its top and rows down its left, so a cell is "column 2, row -7" and the tiles of a
feature are the columns and rows they cover. A Catan sentence names an intersection or a path in its running form,
"intersection 40 (M-SE)", never the menu label "40 · M-SE", and a hex by its terrain and number, never by its letter
alone. Checked on whole games played by computer players, on the committed transcripts, and on the menus of
tower captures, whose labels shorten a long name rather than lose their target cell.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.carcassonne import turn as carc
from bot.carcassonne.narration import narrate as carcassonne_narrate
from bot.catan.narration import narrate as catan_narrate
from bot.core.components import LABEL
from bot.storage import GameRow, Seat
from bot.text import t
from bot.text.i18n import LANGUAGES, speaking
from engine.ai import decide, policy_seed
from engine.catan import Catan, public_events, stored_hexes
from engine.history import spectator_events
from engine.registry import game_class

ROOT = Path(__file__).resolve().parents[2]
PAIR = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")  # (2, -7)
MENU_PLACE = re.compile(r"\d+(?:-\d+)? · [A-S]-[NSEW]{1,2}\b")  # 40 · M-SE, 15-20 · F-E
NAMES = {
    "en": ["Alice", "Bob", "Carol", "Dave"],
    "zh-CN": ["小明", "小红", "阿强", "丽丽"],
    "zh-TW": ["志明", "春嬌", "阿傑", "小美"],
    "ru": ["Аня", "Борис", "Вера", "Глеб"],
}


def played(name: str, options: dict[str, Any], seed: int, steps: int = 2000) -> Iterator[tuple[Any, list[Any]]]:
    """Each action's events (as the channel may see them) of a game the standard computer players play through."""
    game = game_class(name).new(NAMES["en"], options, seed=seed)
    rng = random.Random(policy_seed(seed, 0, 0))
    for _ in range(steps):
        if game.finished:
            return
        auto = game.automatic_action()
        action = auto if auto is not None else decide(game, game.actors()[-1], "standard", rng)
        yield game, list(game.apply(action).events)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_carcassonne_game_is_told_without_coordinate_pairs_or_tile_ids(lang: str) -> None:
    told = 0
    for _, events in played("carcassonne", {"river": True, "tower": True}, seed=5):
        for event in spectator_events(events):
            with speaking(lang):
                lines = carcassonne_narrate([event], NAMES[lang])
            for line in lines:
                assert not PAIR.search(line), (event, line)
                tile = event.get("tile")
                if tile:  # the tile's id means nothing to a player: the image shows the tile
                    assert not re.search(rf"(?<![\w-]){re.escape(str(tile))}(?![\w-])", line), (event, line)
                told += 1
    assert told > 200, "a whole game was told"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_catan_game_names_places_as_the_image_shows_them(lang: str) -> None:
    robbers = 0
    for game, events in played("catan", {}, seed=3, steps=1500):
        hexes = game.view(None)["board"]["hexes"]
        for event in public_events(events, None):
            with speaking(lang):
                lines = catan_narrate([event], NAMES[lang], hexes)
                if event.get("type") == "robber_moved":
                    terrain = next(h for h in hexes if h["hex"] == event["hex"])["terrain"]
                    word = t(f"catan.terrain.{terrain}")
            for line in lines:
                assert not MENU_PLACE.search(line), (event, line)
                assert not PAIR.search(line), (event, line)
            if event.get("type") == "robber_moved":  # "the robber to hex R (fields 6)", not "to R"
                robbers += 1
                assert word in lines[0], lines
    assert robbers >= 3


def test_the_replay_names_the_robbers_hex_from_the_stored_board() -> None:
    game = Catan.new(NAMES["en"][:3], {"board": "beginner"}, 1)
    moved = [{"type": "robber_moved", "player": 0, "hex": "R"}]
    with speaking("en"):
        assert catan_narrate(moved, ["Alice"], stored_hexes(game.to_json())) == [
            "Alice moved the robber to hex R (fields 6)."
        ]
        assert catan_narrate([{**moved[0], "hex": "J"}], ["Alice"], stored_hexes(game.to_json())) == [
            "Alice moved the robber to hex J (desert)."
        ]
    with speaking("ru"):
        assert catan_narrate(moved, ["Аня"], stored_hexes(game.to_json())) == [
            "Аня перемещает разбойника на гекс R (пашня, 6)."
        ]
    with speaking("zh-TW"):
        told = catan_narrate(moved, ["志明"], stored_hexes(game.to_json()))
    assert told == ["志明把盜賊移到了地形版塊R（6點農田）。"]


def test_russian_names_the_cells_of_a_feature_in_a_sentence() -> None:
    def city(cells: list[list[int]]) -> str:
        event = {"type": "feature_completed", "feature": "city", "cells": cells, "tiles": len(cells), "points": 4,
                 "scorers": [1]}  # fmt: skip
        with speaking("ru"):
            return carcassonne_narrate([event], ["Аня", "Борис"])[0]

    assert city([[2, -7], [2, -6]]) == (
        "Город в столбце 2, строках -7 и -6 завершён: Борис получает 4 очка (2 квадрата)."
    )
    assert city([[1, 0], [2, 0], [3, 0]]).startswith("Город в столбцах с 1 по 3, строке 0 завершён")
    assert city([[1, -1], [2, -1], [2, 0]]).startswith("Город в столбцах 1 и 2, строках -1 и 0 завершён")
    scored = {"type": "feature_scored", "feature": "cloister", "x": 3, "y": -4, "tiles": 5, "points": 5, "scorers": [0]}
    with speaking("ru"):
        cloister = carcassonne_narrate([scored], ["Аня"])
    assert cloister == ["Аня получает 5 очков за незавершённый монастырь в столбце 3, строке -4 (5 квадратов)."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_transcript_says_no_coordinate_pair_or_tile_id_in_a_sentence(lang: str) -> None:
    """What players read in flowing text (not the menus' compact labels, which match what /place takes)."""
    said = []
    for line in (ROOT / "docs" / "transcripts" / f"{lang}.txt").read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not line.startswith("    ") or text.startswith(("[", "<", "·", "▭", "┃", "Form:")):
            continue  # a player's action, a header, a button row, a menu option, a form field or an embed field
        said.append(text)
        assert not PAIR.search(text), text
        assert not MENU_PLACE.search(text), text
        assert not re.search(r"\*\*[A-Z]\d*\*\*|\b[RT]\d{1,2}\b", text), text  # **R3**, T11
    assert len(said) > 3000


def _row(names: list[str]) -> GameRow:
    return GameRow(
        id=1, guild_id=1, channel_id=2, game="carcassonne", status="active", host_id=10**18,
        options={"tower": True}, seed=7, seats=[Seat(10**18 + i, n) for i, n in enumerate(names)], state_json=None,
        version=1, language=None, turn_limit=None, message_id=None, turn_started_at=None, reminders_sent=0,
        created_at=0.0, updated_at=0.0, finished_at=None,
    )  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", ["Александра", "Q" * 31 + "ё"])
def test_a_tower_capture_option_keeps_both_cells_and_shortens_only_a_long_name(lang: str, name: str) -> None:
    names = [name, name[::-1], "Борис", "Вера"]
    row = _row(names)
    captures = 0
    for game, _ in played("carcassonne", {"river": False, "tower": True}, seed=2, steps=400):
        if game.finished or game.decision() != "follower" or not game.tower_options():
            continue
        with speaking(lang):
            view = carc.turn_view(row, game)
        assert view is not None
        options = [o for r in view.to_components() for c in r["components"] for o in c.get("options", [])]
        for option in options:
            label, parts = option["label"], option["value"].split(",")
            if len(parts) < 5:
                continue  # raising a tower without a capture
            captures += 1
            x, y, tx, ty = parts[:4]
            assert len(label) <= LABEL, label
            assert f"({x}, {y})" in label and f"({tx}, {ty})" in label, label
            owner = names[
                next(c["player"] for tw in game.tower_options() for c in tw["captures"]
                     if (c["x"], c["y"], c["on"]) == (int(tx), int(ty), parts[4]))
            ]  # fmt: skip
            if owner == names[game.current]:
                continue  # taking back one's own follower names nobody
            if len(owner) <= 10:
                assert owner in label, label  # an ordinary name is never shortened
            else:
                assert owner in label or (owner[:8] in label and "…" in label), label
        if captures >= 12:
            break
    assert captures >= 4


def test_resources_inside_a_sentence_are_lower_case_words_in_the_case_it_needs() -> None:
    from bot.catan.names import parse_bundle_text
    from bot.host import HostError

    produced = [{"type": "produced", "gains": [{}, {}], "shortage": ["wool", "ore"]}]
    with speaking("ru"):
        assert catan_narrate(produced, ["Аня", "Борис"])[-1] == (
            "В банке не хватило карт: шерсть и руду в этот раз никто не получает."
        )
        with pytest.raises(HostError) as refused:
            parse_bundle_text("2 дракона")
    assert refused.value.params["reason"] == (
        "«дракона» — не ресурс. Ресурсы — это глина, древесина, шерсть, зерно и руда."
    )
    with speaking("en"):
        assert catan_narrate(produced, ["Alice", "Bob"])[-1] == "The bank ran short, so nobody got wool and ore."


def test_a_monopoly_of_nothing_and_a_win_past_the_target_are_sentences() -> None:
    nothing = [{"type": "monopoly", "player": 0, "resource": "ore", "taken": [0, 0, 0]}]
    won = [{"type": "game_over", "winner": 1, "scores": [9, 21]}]
    with speaking("ru"):
        assert catan_narrate(nothing, ["Вера"]) == ["Вера объявляет монополию на руду, но руды ни у кого нет."]
        assert catan_narrate(won, ["Аня", "Борис"]) == ["Борис побеждает с 21 победным очком!"]
    with speaking("en"):
        assert catan_narrate(nothing, ["Carol"]) == ["Carol claimed every ore, but nobody had any."]


def test_every_level_name_reads_well_wherever_a_message_names_a_level() -> None:
    """English puts "a" before a level name in a sentence only if every level's name takes it ("a expert" was
    shown when the expert level came): each message that names a level is written for every level there is."""
    from bot.flows.computer_turns import level_name
    from bot.text.catalogue import MESSAGES
    from engine.ai import LEVELS

    article = re.compile(r"\ba (?=[aeiou])", re.IGNORECASE)
    naming = [key for key, text in MESSAGES.items() if "{level}" in str(text)]
    assert naming, "some messages name a level"
    for key in naming:
        for level in LEVELS:
            text = t(key, level=level_name(level), name="Bob", back="/game back", mention="Bob", until="Monday",
                     number=1)  # fmt: skip
            assert not article.search(text), f"{key}: {text}"
