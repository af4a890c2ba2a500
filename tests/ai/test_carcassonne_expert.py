"""The expert Carcassonne computer player, scenario by scenario.

It searches on a model rebuilt from the seat's view: its own turn, then the next player's answer to every
tile that player may draw, then for its best two turns its own next tile. It must stay legal, decide from what the
seat may see alone, claim the farms that pay, capture with the Tower when that pays, and finish the River within
its rules.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.ai import decide, policy_for, policy_seed, situation
from engine.ai.carcassonne import Outlook, distinct_placements
from engine.ai.carcassonne_expert import ExpertCarcassonne, next_draws, value_for
from engine.carcassonne import Carcassonne
from engine.carcassonne.board import cell
from engine.carcassonne.model import sample_stack, unseen_tiles
from engine.carcassonne.tiles import FIELD, RIVER_TILES, TILES
from engine.game import Action
from tests.carcassonne.helpers import new_game, play, played_at_random

FILLER = ["U", "U", "V", "V", "B", "B"]


def test_it_is_the_expert_level_of_carcassonne() -> None:
    assert isinstance(policy_for("carcassonne", "expert"), ExpertCarcassonne)


def test_a_whole_game_with_river_and_tower_uses_only_legal_actions() -> None:
    game = Carcassonne.new(["E", "S"], {"river": True, "tower": True}, seed=3)
    levels = ["expert", "standard"]
    step = 0
    while not game.finished:
        action = game.automatic_action()
        if action is None:
            seat = game.current
            legal = game.legal_actions(seat)
            action = decide(game, seat, levels[seat], random.Random(policy_seed(3, seat, step)))
            assert action in legal
        game.apply(action)
        step += 1
    assert game.finished


def test_the_next_draw_is_a_river_tile_while_the_river_lasts() -> None:
    game = Carcassonne.new(["A", "B"], {"river": True}, seed=4)
    draws = next_draws(unseen_tiles(game.view(0)), 99)
    assert draws and all(tile in RIVER_TILES for tile, _ in draws)
    assert abs(sum(p for _, p in draws) - 1) < 1e-9


def test_the_next_draw_covers_the_tiles_that_join_two_cities() -> None:
    # A corner or three-sided city tile is how the next player merges into (and shares or takes) our city: the
    # chance node must hold them, not only the common road tiles, and most of the stack's weight.
    game = Carcassonne.new(["A", "B"], {"river": False}, seed=4)
    unseen = unseen_tiles(game.view(0))
    draws = dict(next_draws(unseen, ExpertCarcassonne().draws))
    joining = {t for t in draws if any(s.kind == "city" and len(s.edges) >= 2 for s in TILES[t].segments)}
    assert len(joining) >= 2
    assert sum(unseen[t] for t in draws) >= 0.7 * sum(unseen.values())


def test_it_finishes_the_river_legally() -> None:
    game = Carcassonne.new(["A", "B"], {"river": True, "tower": True}, seed=6)
    step = 0
    while game.phase == "follower" or game.drawn in RIVER_TILES:
        seat = game.current
        legal = game.legal_actions(seat)
        action = decide(game, seat, "expert", random.Random(step))
        assert action in legal
        game.apply(action)
        step += 1
    # Every River tile lies on the board, the lake closed the river, and play goes on with the land tiles.
    laid = Counter(game.board.cells[c][0].tile.id for c in game.board.order)
    assert all(laid[t] == TILES[t].count for t in RIVER_TILES)
    assert game.river_end is None
    assert not game.finished and game.drawn is not None


def reshuffled(game: Carcassonne, seed: int) -> Carcassonne:
    """The same game with the hidden part, the order of the stack, drawn again."""
    state = game.to_json()
    state["stack"] = sample_stack(unseen_tiles(game.view(game.current)), random.Random(seed))[::-1]
    return Carcassonne.from_json(state)


def test_the_choice_is_the_same_whatever_the_order_of_the_stack() -> None:
    game = Carcassonne.new(["A", "B"], {"river": True, "tower": True}, seed=21)
    moves = random.Random(21)
    checked = 0
    while not game.finished and checked < 6:
        seat = game.current
        if game.automatic_action() is None and moves.random() < 0.12 and len(game.legal_actions(seat)) > 1:
            other = reshuffled(game, checked)
            assert other.stack != game.stack and other.view(seat) == game.view(seat)
            mine = decide(game, seat, "expert", random.Random(checked))
            theirs = decide(other, seat, "expert", random.Random(checked))
            assert mine == theirs
            checked += 1
        game.apply(game.automatic_action() or game.random_action(moves))
    assert checked == 6


def two_closed_cities() -> Carcassonne:
    """Two small cities south of the start tile, both completed, and the one big field north of them that
    borders both: nobody farms it yet. Alice (seat 0) has just drawn T12, all field."""
    game = new_game(["E", "E", "E", "E", "T12", *FILLER], tower=True)
    play(game, 0, "E", 0, 1, 180)  # city facing south; its field joins the start tile's southern field
    play(game, 1, "E", 0, 2, 0)  # closes the first city
    play(game, 0, "E", 1, 1, 180)
    play(game, 1, "E", 1, 2, 0)  # closes the second
    assert game.drawn == "T12"
    return game


def test_it_claims_a_field_that_borders_two_completed_cities() -> None:
    game = two_closed_cities()
    game.apply(decide(game, 0, "expert", random.Random(1)))
    choice = decide(game, 0, "expert", random.Random(2))
    assert choice["type"] == "follower" and choice["on"].startswith("field")
    game.apply(choice)
    board = game.board
    (node,) = board.followers
    root = board.find(node)
    assert board.kind[root] == FIELD
    cities = {board.find(a) for a in board.adj[root]}
    assert sum(1 for c in cities if board.open_edges[c] == 0) == 2


def test_it_captures_an_opponent_thief_from_a_tower_in_reach() -> None:
    # Alice's thief stands on the road through (1, 0); Bob puts a tower tile just north of it.
    game = new_game(["U", "T1", *FILLER], tower=True)
    play(game, 0, "U", 1, 0, 0, "road:E")
    game.apply({"player": 1, "type": "place", "tile": "T1", "x": 1, "y": -1, "rotation": 0})
    choice = decide(game, 1, "expert", random.Random(5))
    assert choice == {"player": 1, "type": "tower", "x": 1, "y": -1, "capture": {"x": 1, "y": 0, "on": "road:E"}}
    game.apply(choice)
    assert game.prisoners[1][0] == 1
    assert cell(1, 0) in game.board.cells


class Counting(ExpertCarcassonne):
    """The expert, counting the own placements it follows into the search."""

    followed = 0

    def shortlist_after(self, placed: Carcassonne, options: list[Action], outlook: Outlook) -> list[Action]:
        self.followed += 1
        return super().shortlist_after(placed, options, outlook)


def near_the_end(tiles_left: int) -> Carcassonne:
    """A base game played at random until at most ``tiles_left`` tiles are left to draw and a tile with at least
    six distinct placements is to be placed."""
    game = Carcassonne.new(["A", "B"], {"river": False}, seed=4)
    moves = random.Random(4)
    while True:
        seat = game.current
        few = game.phase == "place" and sum(unseen_tiles(game.view(seat)).values()) <= tiles_left
        if few and len(distinct_placements(game.legal_actions(seat))) >= 6:
            return game
        game.apply(game.automatic_action() or game.random_action(moves))


def test_it_follows_more_placements_when_few_tiles_are_left() -> None:
    # Within `late` tiles of the end, `late_width` placements go two plies deep instead of `width`.
    end = near_the_end(20)
    late = Counting(width=3, late=20, late_width=6)
    late.choose(situation(end, end.current, random.Random(1)))
    assert late.followed == 6
    # Far from the end, only `width`.
    start = Carcassonne.new(["A", "B"], {"river": False}, seed=4)
    early = Counting(width=3, late=20, late_width=6)
    early.choose(situation(start, start.current, random.Random(1)))
    assert early.followed == 3


class Deepening(ExpertCarcassonne):
    """The expert, noting the two-ply value of each turn it follows to the third ply."""

    def __init__(self, **settings: int) -> None:
        super().__init__(**settings)
        self.deepened: list[float] = []

    def after_own_turn(self, found, outlook, rng, deeper, changed):  # type: ignore[no-untyped-def]
        self.deepened.append(sum(p * value_for(m, outlook) for _, p, m, _ in found))
        return super().after_own_turn(found, outlook, rng, deeper, changed)


def two_ply_values(expert: ExpertCarcassonne, game: Carcassonne) -> list[float]:
    """Every turn's two-ply value in the expert's own search of this decision, best first."""
    values: list[float] = []

    class Noting(ExpertCarcassonne):
        def replies(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            found = super().replies(*args, **kwargs)
            values.append(sum(p * value_for(m, args[1]) for _, p, m, _ in found))
            return found

    noting = Noting(width=expert.width, deep=0)
    noting.choose(situation(game, game.current, random.Random(1)))
    return sorted(values, reverse=True)


def test_its_best_turns_are_followed_to_its_own_next_tile() -> None:
    # Two plies see what the next player can take from us; the third (our own next tile, by chance) what we can
    # take from them. Only the `deep` best turns by their two-ply value go that far.
    game = played_at_random(20)
    expert = Deepening(width=4, deep=3)
    choice = expert.choose(situation(game, game.current, random.Random(1)))
    assert choice in game.legal_actions(game.current)
    assert sorted(expert.deepened, reverse=True) == two_ply_values(expert, game)[:3]


def test_with_three_players_it_searches_two_plies_only() -> None:
    game = Carcassonne.new(["A", "B", "C"], {"river": False}, seed=4)
    expert = Deepening(deep=3)
    expert.choose(situation(game, game.current, random.Random(1)))
    assert expert.deepened == []


def test_a_whole_game_searching_three_plies_uses_only_legal_actions() -> None:
    game = Carcassonne.new(["E", "S"], {"river": True, "tower": True}, seed=5)
    players = [ExpertCarcassonne(deep=2), policy_for("carcassonne", "standard")]
    step = 0
    while not game.finished:
        action = game.automatic_action()
        if action is None:
            seat = game.current
            found = situation(game, seat, random.Random(policy_seed(5, seat, step)))
            action = players[seat].choose(found)
            assert action in found.legal
        game.apply(action)
        step += 1
    assert game.finished
