"""The standard Carcassonne computer player, scenario by scenario.

It decides from the seat's view alone: the same view and generator give the same choice whatever the hidden
stack order, and a view turned into plain JSON (no game object anywhere) is enough.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine.ai import Situation, decide, policy_for, policy_seed
from engine.ai.carcassonne import (
    StandardCarcassonne,
    before_placing,
    distinct_placements,
    outlook_for,
    placement_value,
    spot_gain,
)
from engine.carcassonne import BASE_TILES, Carcassonne
from engine.carcassonne.board import cell
from engine.carcassonne.model import game_from_view, sample_stack, unseen_tiles
from tests.carcassonne.helpers import new_game, of_type, place, play, played_at_random

FILLER = ["U", "U", "V", "V", "B", "B"]


def run_to_end(game: Carcassonne, levels: list[str], seed: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Play to the end, each seat at its level; returns every computer choice with the legal actions it had."""
    chosen = []
    step = 0
    while not game.finished:
        auto = game.automatic_action()
        if auto is not None:
            game.apply(auto)
            continue
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        action = decide(game, seat, levels[seat], random.Random(policy_seed(seed, seat, step)))
        chosen.append((action, legal))
        game.apply(action)
        step += 1
    return chosen


def test_a_whole_game_with_river_and_tower_uses_only_legal_actions() -> None:
    game = Carcassonne.new(["S", "R"], {"river": True, "tower": True}, seed=11)
    chosen = run_to_end(game, ["standard", "random"], seed=11)
    mine = [(a, legal) for a, legal in chosen if a["player"] == 0]
    assert mine and all(action in legal for action, legal in mine)
    assert game.finished
    assert game.scores[0] > game.scores[1]


def test_three_players_with_the_tower_and_first_edition_farms_stay_legal() -> None:
    options = {"river": False, "tower": True, "farm_scoring": "first_edition", "small_city": True}
    game = Carcassonne.new(["S1", "R", "S2"], options, seed=5)
    chosen = run_to_end(game, ["standard", "random", "standard"], seed=5)
    assert all(action in legal for action, legal in chosen)
    assert game.finished


def test_it_closes_a_city_for_four_points_when_the_drawn_tile_can() -> None:
    # The start tile's city faces north; the drawn E closes it from (0, -1) turned 180 degrees.
    game = new_game(["E", *FILLER])
    place_action = decide(game, 0, "standard", random.Random(1))
    assert place_action == {"player": 0, "type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180}
    game.apply(place_action)
    follower = decide(game, 0, "standard", random.Random(2))
    assert follower == {"player": 0, "type": "follower", "on": "city:S"}
    events = game.apply(follower).events
    assert of_type(events, "feature_completed")[0]["points"] == 4
    assert game.scores[0] == 4
    assert game.supply[0] == 7  # the knight came straight home


def hopeless_cities() -> Carcassonne:
    """Bob has just put E at (0, -2), its city facing south into (0, -1), whose four neighbours show city N and S
    and road E and W: no base tile fits there, so neither that city nor the start tile's can ever be completed."""
    game = new_game(["U", "U", "V", "V", "V", "E", *FILLER])
    play(game, 0, "U", 1, 0, 0)
    play(game, 1, "U", -1, 0, 0)
    play(game, 0, "V", 1, -1, 90)
    play(game, 1, "V", -1, -1, 180)
    play(game, 0, "V", 1, -2, 270)
    place(game, 1, "E", 0, -2, 180)
    assert not any(game.board.fits(cell(0, -1), tile) for tile in BASE_TILES)
    return game


def test_it_keeps_its_last_follower_rather_than_strand_it_in_a_city_that_cannot_close() -> None:
    game = hopeless_cities()
    game.supply[1] = 1
    assert {"player": 1, "type": "follower", "on": "city:S"} in game.legal_actions(1)
    assert decide(game, 1, "standard", random.Random(3)) == {"player": 1, "type": "pass"}


def test_with_one_follower_left_early_it_passes_on_a_small_road_it_would_take_with_seven() -> None:
    # Alice puts a straight road east of the start tile; a lone road tile is worth little.
    game = new_game(["U", *FILLER])
    place(game, 0, "U", 1, 0, 0)
    claim = decide(game, 0, "standard", random.Random(4))
    assert claim["type"] == "follower"
    game.supply[0] = 1
    assert decide(game, 0, "standard", random.Random(4)) == {"player": 0, "type": "pass"}


def test_it_captures_an_opponent_thief_from_a_tower_in_reach() -> None:
    # Alice's thief stands on the road through (1, 0); Bob puts a tower tile just north of it.
    game = new_game(["U", "T1", *FILLER], tower=True)
    play(game, 0, "U", 1, 0, 0, "road:E")
    place(game, 1, "T1", 1, -1, 0)
    # Building the tower to height 1 reaches one cell south: Bob takes the thief prisoner.
    choice = decide(game, 1, "standard", random.Random(5))
    assert choice == {"player": 1, "type": "tower", "x": 1, "y": -1, "capture": {"x": 1, "y": 0, "on": "road:E"}}
    game.apply(choice)
    assert game.prisoners[1][0] == 1


def test_it_pays_a_ransom_early_only_when_it_has_no_follower_left() -> None:
    game = new_game(["U", "T1", *FILLER], tower=True)
    play(game, 0, "U", 1, 0, 0, "road:E")
    play(game, 1, "T1", 1, -1, 0, {"type": "tower", "x": 1, "y": -1, "capture": {"x": 1, "y": 0, "on": "road:E"}})
    game.scores[0] = 10
    game.supply[0] = 5
    assert decide(game, 0, "standard", random.Random(6))["type"] == "place"
    game.supply[0] = 0
    assert decide(game, 0, "standard", random.Random(6)) == {"player": 0, "type": "ransom", "from": 1}


def reshuffled(game: Carcassonne, seed: int) -> Carcassonne:
    """The same game with the hidden part, the order of the stack, drawn again."""
    state = game.to_json()
    state["stack"] = sample_stack(unseen_tiles(game.view(game.current)), random.Random(seed))[::-1]
    return Carcassonne.from_json(state)


def test_the_choice_depends_only_on_what_the_seat_may_see() -> None:
    game = Carcassonne.new(["A", "B"], {"river": True, "tower": True}, seed=21)
    moves = random.Random(21)
    checked = 0
    while not game.finished:
        seat = game.current
        if game.automatic_action() is None and moves.random() < 0.15:
            other = reshuffled(game, checked)
            assert other.stack != game.stack and other.view(seat) == game.view(seat)
            mine = decide(game, seat, "standard", random.Random(checked))
            theirs = decide(other, seat, "standard", random.Random(checked))
            assert mine == theirs
            checked += 1
        game.apply(game.automatic_action() or game.random_action(moves))
    assert checked >= 10


def test_a_situation_built_from_plain_json_is_enough() -> None:
    game = Carcassonne.new(["A", "B"], {"tower": True}, seed=3)
    moves = random.Random(3)
    for _ in range(60):
        game.apply(game.random_action(moves))
    seat = game.current
    view = json.loads(json.dumps(game.view(seat)))
    legal = json.loads(json.dumps(game.legal_actions(seat)))
    situation = Situation(game="carcassonne", seat=seat, view=view, legal=legal, rng=random.Random(9))
    action = policy_for("carcassonne", "standard").choose(situation)
    assert action in legal
    assert isinstance(policy_for("carcassonne", "standard"), StandardCarcassonne)


def test_a_model_rebuilt_from_a_view_shows_the_same_view_and_moves() -> None:
    game = Carcassonne.new(["A", "B", "C"], {"river": True, "tower": True}, seed=8)
    moves = random.Random(8)
    while not game.finished:
        seat = game.current
        model = game_from_view(game.view(seat), random.Random(1))
        assert model.view(seat) == game.view(seat)
        assert model.legal_actions(seat) == game.legal_actions(seat)
        assert sorted(model.stack) == sorted(game.stack)
        game.apply(game.automatic_action() or game.random_action(moves))


def test_trying_moves_on_a_copy_leaves_the_original_as_it_was() -> None:
    game = Carcassonne.new(["A", "B"], {"river": True, "tower": True}, seed=13)
    moves = random.Random(13)
    for _ in range(120):
        game.apply(game.random_action(moves))
    before = game.to_json()
    trial = game.copy()
    while not trial.finished:
        trial.apply(trial.automatic_action() or trial.random_action(moves))
    assert game.to_json() == before
    # The original still plays on exactly like a fresh load of its own state.
    reloaded = Carcassonne.from_json(before)
    for _ in range(40):
        action = game.random_action(random.Random(len(game.board)))
        assert game.apply(action) == reloaded.apply(action)
        if game.finished:
            break
    assert game.view(None) == reloaded.view(None)


def test_a_knight_an_opponent_tower_can_reach_is_worth_less_to_it() -> None:
    # Alice puts a tower foundation south of the start tile; Bob then opens a city at (-1, 1), next to it.
    def bobs_city_knight(alice_has_pieces: bool) -> float:
        game = new_game(["T12", "E", *FILLER], tower=True)
        play(game, 0, "T12", 0, 1, 0)
        place(game, 1, "E", -1, 1, 270)  # city facing west, one cell from the foundation
        if not alice_has_pieces:
            game.pieces[0] = 0
        view = game.view(1)
        model = game_from_view(view, random.Random(1))
        situation = Situation("carcassonne", 1, view, game.legal_actions(1), random.Random(1))
        o, base = model.board.cells[cell(-1, 1)]
        return spot_gain(model, base + o.lookup["city:W"], outlook_for(situation, model))

    assert bobs_city_knight(alice_has_pieces=True) < bobs_city_knight(alice_has_pieces=False)


def test_computer_players_of_several_games_decide_the_same_in_parallel_threads() -> None:
    """The bot decides for many games at once in worker threads; the shared memo of rebuilt boards must neither
    break nor change a decision."""
    import random
    from concurrent.futures import ThreadPoolExecutor

    from engine.ai import decide, policy_seed
    from engine.carcassonne import Carcassonne

    def play(seed: int) -> list[dict[str, object]]:
        game = Carcassonne.new(["A", "B"], {"river": True}, seed)
        chosen = []
        for step in range(24):
            if game.finished:
                break
            auto = game.automatic_action()
            seat = game.actors()[0]
            action = auto or decide(game, seat, "standard", random.Random(policy_seed(seed, seat, step)))
            chosen.append(game.apply(action).action)
        return chosen

    alone = [play(seed) for seed in range(6)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(play, range(6)))
    assert together == alone


def test_a_placement_is_worth_the_same_whatever_was_scored_before_it() -> None:
    # What a cell's placements share (the features near it, their worth before) is worked out once per cell: a
    # placement's value must not depend on which rotations or cells were scored first.
    game = played_at_random(40)
    seat = game.current
    situation = Situation("carcassonne", seat, game.view(seat), game.legal_actions(seat), random.Random(1))
    model = game_from_view(situation.view, situation.rng)
    outlook = outlook_for(situation, model)
    placements = distinct_placements(list(situation.legal))
    assert len({(a["x"], a["y"]) for a in placements}) < len(placements), "choose a position with rotations to share"
    alone = [placement_value(before_placing(model, outlook), a, outlook) for a in placements]
    shared = before_placing(model, outlook)
    forwards = [placement_value(shared, a, outlook) for a in placements]
    backwards = [placement_value(shared, a, outlook) for a in reversed(placements)][::-1]
    assert forwards == alone and backwards == alone
