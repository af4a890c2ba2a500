"""The scoring examples of the seed rule documents, each built as a real game with a fixed deck.

Seed 001 (Traditional Chinese): "a road loop scores 4; the straight road scores 3"; "the long city scores 6, the
butterfly city 8+2=10, the small city 4"; "a completed cloister scores 9"; the merged city where "red and blue
each score 10". Seed 000 (Chinese): the majority examples and the old small-city rule.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne import Carcassonne
from tests.carcassonne.helpers import new_game, of_type, only, play


def test_long_city_of_three_tiles_scores_6() -> None:
    """Seed 001: "the long city scores 6" -- 2 points per tile of a completed city (rules 4.1)."""
    g = new_game(["G", "E"])
    play(g, 0, "G", 0, -1, 90, "city:N")  # city N-S, joined to the start tile's city
    assert g.supply[0] == 6
    events = play(g, 1, "E", 0, -2, 180)  # closes the city from the north
    done = only(events, "feature_completed")
    assert done["feature"] == "city"
    assert done["points"] == 6
    assert done["tiles"] == 3
    assert done["pennants"] == 0
    assert done["scorers"] == [0]
    assert sorted(map(tuple, done["cells"])) == [(0, -2), (0, -1), (0, 0)]
    assert g.scores == [6, 0]
    assert g.breakdown[0]["city"] == 6
    assert g.supply[0] == 7


def test_butterfly_city_of_four_tiles_with_a_pennant_scores_10() -> None:
    """Seed 001: "the butterfly city scores 8+2=10" -- 2 per tile and 2 per pennant."""
    g = new_game(["N", "M", "D"])
    play(g, 0, "N", 0, -1, 180, "city:S")  # city S+E
    play(g, 1, "M", 1, -1, 270)  # city S+W with the pennant
    events = play(g, 0, "D", 1, 0, 0)  # city N closes it
    done = only(events, "feature_completed")
    assert (done["points"], done["tiles"], done["pennants"]) == (10, 4, 1)
    assert done["scorers"] == [0]
    assert g.scores == [10, 0]
    assert g.finished
    assert g.result()["scores"] == [10, 0]


def test_small_city_of_two_tiles_scores_4() -> None:
    """Seed 001: "the small city scores 4" (current rules: 2 per tile, also for 2 tiles)."""
    g = new_game(["E"])
    events = play(g, 0, "E", 0, -1, 180, "city:S")
    assert only(events, "feature_completed")["points"] == 4
    assert g.scores == [4, 0]


def test_small_city_option_scores_a_two_tile_city_2() -> None:
    """Seed 000: "if the city has only two tiles the player only gets 2 points, not 4" (option small_city)."""
    g = new_game(["E"], small_city=True)
    events = play(g, 0, "E", 0, -1, 180, "city:S")
    assert only(events, "feature_completed")["points"] == 2
    assert g.scores == [2, 0]


def test_small_city_option_leaves_bigger_cities_alone() -> None:
    """small_city changes only cities of exactly 2 tiles: a 3-tile city still scores 6."""
    g = new_game(["G", "E"], small_city=True)
    play(g, 0, "G", 0, -1, 90, "city:N")
    play(g, 1, "E", 0, -2, 180)
    assert g.scores == [6, 0]


def test_road_loop_of_four_tiles_scores_4() -> None:
    """Seed 001: "the road closed in a circle scores four" -- a loop is complete, 1 per tile."""
    g = new_game(["V", "V", "V", "V"])
    play(g, 0, "V", 0, 1, 270, "road:E")  # road E-S
    play(g, 1, "V", 1, 1, 0)  # road S-W
    play(g, 0, "V", 0, 2, 180)  # road N-E
    events = play(g, 1, "V", 1, 2, 90)  # road W-N closes the loop
    done = only(events, "feature_completed")
    assert (done["feature"], done["points"], done["tiles"], done["scorers"]) == ("road", 4, 4, [0])
    assert g.scores == [4, 0]
    assert g.breakdown[0]["road"] == 4
    assert only(events, "follower_returned")["player"] == 0


def test_straight_road_of_three_tiles_scores_3() -> None:
    """Seed 001: "the straight road scores three" -- both ends stop at junctions."""
    g = new_game(["L", "L"])
    play(g, 0, "L", 1, 0, 0, "road:W")  # the road from the start tile ends in this junction
    assert g.scores == [0, 0]
    events = play(g, 1, "L", -1, 0, 0)  # and its west end in this one
    done = only(events, "feature_completed")
    assert (done["feature"], done["points"], done["tiles"]) == ("road", 3, 3)
    assert g.scores == [3, 0]


def test_completed_cloister_scores_9() -> None:
    """Seed 001: "a cloister surrounded by 8 tiles is complete and scores 9"."""
    deck = ["B", "U", "U", "B", "B", "U", "U", "U"]
    g = new_game(deck)
    play(g, 0, "B", 0, 1, 0, "cloister")
    turns = [("U", -1, 0), ("U", 1, 0), ("B", -1, 1), ("B", 1, 1), ("U", -1, 2), ("U", 0, 2)]
    for i, (tile, x, y) in enumerate(turns):
        assert not of_type(play(g, (i + 1) % 2, tile, x, y, 0), "feature_completed")
    assert g.scores == [0, 0]
    events = play(g, 1, "U", 1, 2, 0)  # the 8th neighbour
    done = only(events, "feature_completed")
    assert (done["feature"], done["points"], done["x"], done["y"], done["scorers"]) == ("cloister", 9, 0, 1, [0])
    assert g.scores[0] == 9
    assert g.breakdown[0]["cloister"] == 9


def test_incomplete_features_score_at_the_end() -> None:
    """Rules 4.2: incomplete road 1 per tile, city 1 per tile + 1 per pennant, cloister 1 + its neighbours."""
    g = new_game(["M", "U", "B"])
    play(g, 0, "M", 0, -1, 180, "city:S")  # city S+E with a pennant, open to the east
    play(g, 1, "U", 1, 0, 0, "road:E")  # road from the start tile, open at both ends
    events = play(g, 0, "B", 0, 1, 0, "cloister")  # neighbours: (0,0) and (1,0)
    assert g.finished
    scored = {e["feature"]: e for e in of_type(events, "feature_scored")}
    assert scored["city"]["points"] == 3  # 2 tiles + 1 pennant
    assert scored["road"]["points"] == 2
    assert scored["cloister"]["points"] == 3
    assert g.scores == [6, 2]
    assert g.breakdown[0] == {"road": 0, "city": 3, "cloister": 3, "farm": 0, "ransom": 0}
    assert g.breakdown[1] == {"road": 2, "city": 0, "cloister": 0, "farm": 0, "ransom": 0}
    assert only(events, "game_over")["winners"] == [0]
    assert g.result()["winners"] == [0]


def test_follower_placed_and_scored_in_the_same_turn_returns_to_supply() -> None:
    """Seed 001: "in the same turn a player may draw, place a follower, score and take the same follower back"."""
    g = new_game(["E", "U"])
    events = play(g, 0, "E", 0, -1, 180, "city:S")
    kinds = [e["type"] for e in events]
    assert kinds.index("follower_placed") < kinds.index("feature_completed") < kinds.index("follower_returned")
    assert only(events, "follower_placed")["role"] == "knight"
    assert g.supply[0] == 7
    assert g.scores == [4, 0]
    assert g.view(None)["followers"] == []


def _merged_city_one_each(pennant_middle: str) -> tuple[Carcassonne, list[dict[str, Any]]]:
    g = new_game(["U", "G", "E", "U", "E", pennant_middle])
    play(g, 0, "U", -1, 0, 0)
    play(g, 1, "G", -1, 1, 0, "city:E")  # blue knight in the western city
    play(g, 0, "E", -2, 1, 90)  # closes that city's west end
    play(g, 1, "U", 1, 0, 0)
    play(g, 0, "E", 1, 1, 270, "city:W")  # red knight in a separate eastern city: legal, not joined yet
    return g, play(g, 1, pennant_middle, 0, 1, 0)  # the joining tile


def test_seed_001_merged_city_tie_both_score_10() -> None:
    """Seed 001: blue and red knights stood in two separate cities; the framed tile joins them. "If both colours
    have as many, both share the city and score the same: in the picture red and blue score 10 each."."""
    g, events = _merged_city_one_each("F")
    done = only(events, "feature_completed")
    assert (done["points"], done["tiles"], done["pennants"]) == (10, 4, 1)
    assert done["scorers"] == [0, 1]
    assert done["followers"] == {"0": 1, "1": 1}
    assert g.scores == [10, 10]
    assert len(of_type(events, "follower_returned")) == 2


def test_seed_000_one_knight_each_both_score_the_full_points() -> None:
    """Seed 000: "players 1 and 2 each have one follower in a completed 6-point city: player 1 scores 6, player 2
    also scores 6"."""
    g = new_game(["U", "U", "E", "E", "G"])
    play(g, 0, "U", -1, 0, 0)
    play(g, 1, "U", 1, 0, 0)
    play(g, 0, "E", -1, 1, 90, "city:E")  # a one-tile city open to the east
    play(g, 1, "E", 1, 1, 270, "city:W")  # a separate one open to the west
    events = play(g, 0, "G", 0, 1, 0)  # joins and completes them: 3 tiles
    done = only(events, "feature_completed")
    assert (done["points"], done["scorers"]) == (6, [0, 1])
    assert g.scores == [6, 6]


def test_seed_000_two_knights_against_one_only_the_majority_scores() -> None:
    """Seed 000: "player 1 has 2 followers in a completed 6-point city and player 2 only 1: player 1 scores 6,
    player 2 nothing" (here the city is worth 10)."""
    g = new_game(["U", "G", "E", "U", "E", "B", "E", "R"])
    play(g, 0, "U", -1, 0, 0)
    play(g, 1, "G", -1, 1, 0, "city:E")  # Bob: western city
    play(g, 0, "E", -2, 1, 90)
    play(g, 1, "U", 1, 0, 0)
    play(g, 0, "E", 1, 1, 270, "city:W")  # Alice: eastern city
    play(g, 1, "B", -1, 2, 0)
    play(g, 0, "E", 0, 2, 0, "city:N")  # Alice: southern city
    events = play(g, 1, "R", 0, 1, 180)  # city W+E+S joins all three
    done = only(events, "feature_completed")
    assert (done["points"], done["tiles"]) == (10, 5)
    assert done["followers"] == {"0": 2, "1": 1}
    assert done["scorers"] == [0]
    assert g.scores[:2] == [10, 0]
    assert g.supply == [7, 7]  # all three knights go home, the loser's too


def test_knight_cannot_join_an_occupied_city_but_may_stand_in_a_separate_one() -> None:
    """Seed 001: "when a feature is already occupied the other players may not send a follower onto it"; two
    separate cities may each get a knight even if a later tile joins them."""
    g = new_game(["G", "U", "E"])
    play(g, 0, "G", 0, -1, 90, "city:N")
    play(g, 1, "U", 1, 0, 0)
    place = g.apply({"player": 0, "type": "place", "tile": "E", "x": 0, "y": -2, "rotation": 180})
    assert place.events[0]["type"] == "tile_placed"
    assert "city:S" not in g.follower_spots()  # joined the occupied city


def test_road_ending_at_a_cloister_and_a_junction_is_complete() -> None:
    """Rules 4.1: a road is complete "when both ends stop (at a junction, a city, a cloister, a tower
    foundation)"."""
    g = new_game(["A", "L"])
    play(g, 0, "A", 1, 0, 90, "road:W")  # the road from the start tile ends at this cloister
    events = play(g, 1, "L", -1, 0, 0)
    assert (only(events, "feature_completed")["points"], g.scores) == (3, [3, 0])


def test_road_ending_at_a_tower_foundation_is_complete() -> None:
    """Rules 5.3: "A road that runs into the tower foundation ends there"."""
    g = new_game(["T14", "L"], tower=True)
    play(g, 0, "T14", 1, 0, 0, "road:W")  # T14: roads W>tower and S>tower
    events = play(g, 1, "L", -1, 0, 0)
    done = only(events, "feature_completed")
    assert (done["feature"], done["points"], done["scorers"]) == ("road", 3, [0])


def test_road_ending_at_a_city_is_complete() -> None:
    """Rules 5.1: S is a city with a road S>city; a road from the start tile into it stops there."""
    g = new_game(["T", "L"])
    play(g, 0, "T", 1, 0, 90, "road:W")  # rotation 90: the road leaves west, the city fills N, E and S
    events = play(g, 1, "L", -1, 0, 0)
    assert only(events, "feature_completed")["points"] == 3


def test_first_player_option_chooses_who_starts() -> None:
    """Replay format: "seat 0 moves first unless options.first_player says otherwise"."""
    g = new_game(["E", "U"], players=3, first_player=2)
    assert g.current == 2 and g.pending()["player"] == 2
    play(g, 2, "E", 0, -1, 180, "city:S")
    assert g.scores == [0, 0, 4]
    assert g.current == 0
