"""Farms (rules 4.2 step 2 and 4.3), with the field examples of seed 001.

Layout used below (start tile D at (0, 0): city N, road W-E, field S):
- E at (0,-1) rotation 180 closes the start tile's city (city X, 2 tiles). E's own field wraps round it (field Fe).
- V at (1,0) rotation 90: road W-N; its small corner field joins the start tile's north strip (field Fn, which
  borders X); its big field joins the start tile's south field (Fs, no city).
- D at (-1,0) rotation 0: an incomplete city; its north strip is Fn, its south field is Fs.
- A cloister A at (1,-1) rotation 0 (road S) touches Fe (west), Fn and Fs (south halves): it joins all three.
"""

from __future__ import annotations

from engine.carcassonne import Carcassonne
from tests.carcassonne.helpers import new_game, of_type, play

RED, BLUE, YELLOW = 0, 1, 2


def seed_001_farms(deck_tail: list[str], farm_scoring: str = "current") -> Carcassonne:
    g = new_game(["E", "V", "D", *deck_tail], players=3, farm_scoring=farm_scoring)
    play(g, RED, "E", 0, -1, 180, "field:Nw")  # red farmer on Fe; city X completes (no knight)
    play(g, BLUE, "V", 1, 0, 90, "field:Wn")  # blue farmer on Fn (the corner between the roads)
    return g


def test_seed_001_red_and_blue_farms_share_a_city_yellow_scores_nothing() -> None:
    """Seed 001: "red, blue and yellow each hold a field. Yellow's field has no city: 0. Red's field has a city: 3.
    Blue's field has a city too (the same one red scores): 3. Blue's field also borders a city on its right, but it
    is not complete, so it gives nothing." -- and a city bordering two farms scores for each."""
    g = seed_001_farms([])
    events = play(g, YELLOW, "D", -1, 0, 0, "field:Se")  # yellow on Fs; Fn now borders an incomplete city too
    assert g.finished
    farms = of_type(events, "farm_scored")
    by_owner = {tuple(e["scorers"]): (e["points"], e["cities"]) for e in farms}
    assert by_owner == {(RED,): (3, 1), (BLUE,): (3, 1), (YELLOW,): (0, 0)}
    assert g.scores == [3, 3, 0]
    assert [b["farm"] for b in g.breakdown] == [3, 3, 0]


def test_seed_001_a_cloister_tile_joins_two_fields_and_yellow_now_shares_the_city() -> None:
    """Seed 001: "the lower picture is the same with one more cloister tile -- yellow's field had no city, but after
    this cloister tile it is joined to red's field, so yellow shares the farm and also scores the city's 3"."""
    g = seed_001_farms(["A"])
    play(g, YELLOW, "D", -1, 0, 0, "field:Se")
    assert not g.finished
    events = play(g, RED, "A", 1, -1, 0)  # the cloister tile
    farms = of_type(events, "farm_scored")
    assert len(farms) == 1  # one big farm now
    assert farms[0]["followers"] == {"0": 1, "1": 1, "2": 1}
    assert farms[0]["scorers"] == [RED, BLUE, YELLOW]
    assert (farms[0]["points"], farms[0]["cities"]) == (3, 1)
    assert g.scores == [3, 3, 3]


def test_a_field_bordering_only_an_incomplete_city_scores_nothing() -> None:
    """Seed 001: "count the completed cities bordering the farm" -- an incomplete city gives nothing."""
    g = new_game(["D"])
    events = play(g, 0, "D", -1, 0, 0, "field:Wn")  # the north strip borders two open cities
    farm = of_type(events, "farm_scored")
    assert [(e["points"], e["cities"], e["scorers"]) for e in farm] == [(0, 0, [0])]
    assert g.scores == [0, 0]


def test_farm_scores_3_for_each_completed_city_it_borders() -> None:
    """Rules 4.2: owners score 3 for every completed city that borders the field (here two cities: 6)."""
    g = new_game(["E", "D", "E", "V"])
    play(g, 0, "E", 0, -1, 180)  # city X completes
    play(g, 1, "D", -1, 0, 0)  # city Y, open
    play(g, 0, "E", -1, -1, 180)  # city Y completes
    events = play(g, 1, "V", 1, 0, 90, "field:Wn")  # the north strip of D-D-V borders X and Y
    farm = of_type(events, "farm_scored")
    assert [(e["scorers"], e["cities"], e["points"]) for e in farm] == [([1], 2, 6)]
    assert g.scores == [0, 6]


def test_one_player_with_farmers_in_two_fields_scores_the_city_for_each_field() -> None:
    """Rules 4.2: "A city bordering several fields scores for each of them", also for the same owner."""
    g = new_game(["E", "D", "V"])
    play(g, 0, "E", 0, -1, 180, "field:Nw")  # Fe
    play(g, 1, "D", -1, 0, 0)
    play(g, 0, "V", 1, 0, 90, "field:Wn")  # Fn
    assert g.scores == [6, 0]
    assert g.breakdown[0]["farm"] == 6


def test_first_edition_scores_each_city_once_with_4_points() -> None:
    """Rules 4.3 (seed 000): "look at each completed city in turn; a player with farmers supplying it, however many,
    scores 4" -- the same position as above gives 4, not 6."""
    g = new_game(["E", "D", "V"], farm_scoring="first_edition")
    play(g, 0, "E", 0, -1, 180, "field:Nw")
    play(g, 1, "D", -1, 0, 0)
    events = play(g, 0, "V", 1, 0, 90, "field:Wn")
    farms = of_type(events, "farm_scored")
    assert [(e["points"], e["scorers"], e["cities"]) for e in farms] == [(4, [0], 1)]
    assert sorted(map(tuple, farms[0]["city"])) == [(0, -1), (0, 0)]
    assert g.scores == [4, 0]


def test_first_edition_tie_between_fields_around_the_city_both_score_4() -> None:
    """Rules 4.3: count each player's farmers among all fields bordering the city; tied players each score 4."""
    g = seed_001_farms([], farm_scoring="first_edition")
    play(g, YELLOW, "D", -1, 0, 0, "field:Se")
    assert g.scores == [4, 4, 0]


def test_two_farmers_against_one_only_the_majority_owns_the_farm() -> None:
    """Rules 4.2: "each connected field with farmers is owned by the player(s) with the most farmers on it". The
    cloister joins Alice's two fields with Bob's: 2 against 1."""
    g = new_game(["E", "V", "D", "A"])
    play(g, 0, "E", 0, -1, 180, "field:Nw")  # Alice on Fe
    play(g, 1, "V", 1, 0, 90, "field:Wn")  # Bob on Fn
    play(g, 0, "D", -1, 0, 0, "field:Se")  # Alice on Fs
    events = play(g, 1, "A", 1, -1, 0)
    farm = of_type(events, "farm_scored")
    assert [(e["followers"], e["scorers"], e["points"]) for e in farm] == [({"0": 2, "1": 1}, [0], 3)]
    assert g.scores == [3, 0]


def test_first_edition_majority_around_a_city() -> None:
    """Rules 4.3: Alice has 2 farmers and Bob 1 in the fields around city X: only Alice scores its 4."""
    g = new_game(["E", "V", "D", "A"], farm_scoring="first_edition")
    play(g, 0, "E", 0, -1, 180, "field:Nw")
    play(g, 1, "V", 1, 0, 90, "field:Wn")
    play(g, 0, "D", -1, 0, 0, "field:Se")
    play(g, 1, "A", 1, -1, 0)
    assert g.scores == [4, 0]


def test_fields_are_separated_by_roads_and_cities() -> None:
    """Rules 4.2: "Fields are separated by roads, cities, rivers and the edge of the placed area": the start tile's
    south field is cut off from city X by the road, and Fe and Fn are two farms on either side of the city."""
    g = new_game(["E", "U", "V"])
    play(g, 0, "E", 0, -1, 180, "field:Nw")  # Fe, beyond the city
    play(g, 1, "U", 1, 0, 0, "field:Se")  # south of the road: no city
    # Fn (the north strip) is still free although Fe, on the other side of city X, holds a farmer
    g.apply({"player": 0, "type": "place", "tile": "V", "x": -1, "y": 0, "rotation": 180})  # road N-E
    # the corner (Fn) is free; the big field is Bob's Fs (occupied); the road is the start tile's (free)
    assert sorted(g.follower_spots()) == ["field:Ne", "road:N"]
    events = g.apply({"player": 0, "type": "follower", "on": "field:En"}).events
    farms = sorted((e["scorers"], e["points"]) for e in of_type(events, "farm_scored"))
    assert farms == [([0], 3), ([0], 3), ([1], 0)]
    assert g.scores == [6, 0]


def test_a_city_touching_a_farm_on_several_tiles_counts_once() -> None:
    """Rules 4.2: "3 points for every completed city that borders the field" -- per city, not per touching tile.
    The farm touches the 3-tile city X on the start tile and on G."""
    g = new_game(["G", "E", "U", "B"])
    play(g, 0, "G", 0, -1, 90)
    play(g, 1, "E", 0, -2, 180)  # X completes: D, G, E
    play(g, 0, "U", 1, 0, 0)
    events = play(g, 1, "B", 1, -1, 0, "field:Nw")  # joins U's north field and G's east field
    farm = of_type(events, "farm_scored")
    assert [(e["cities"], e["points"], e["scorers"]) for e in farm] == [(1, 3, [1])]
    assert g.scores == [0, 3]
