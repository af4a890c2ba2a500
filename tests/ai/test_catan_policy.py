"""The Catan computer players: whole games with legal moves only, and the standard player's judgement in scenes
from the beginner map (seat 0 red, 1 blue, 2 white, 3 orange; red starts)."""

from __future__ import annotations

import random

import pytest

from engine.ai import decide, policy_seed
from engine.ai.catan import read
from engine.catan import Catan
from engine.catan.board import HEX_CORNERS, HEX_NAMES, NODE_HEXES, RESOURCES, TERRAIN_RESOURCE
from engine.catan.state import CARDS
from engine.game import Action
from tests.catan.helpers import act, beginner, empty_hands, grant, to_main


def next_seat(game: Catan) -> int:
    """Replies and discards first, as a host waits for them; then the active player."""
    for p in game.pending():
        if p["decision"] in ("trade_reply", "discard"):
            return int(p["seat"])
    return game.current


def play(game: Catan, levels: list[str], seed: int, limit: int = 4000) -> list[tuple[int, Action, Catan | None]]:
    """Play to the end; every decision must be one of the seat's legal actions."""
    log: list[tuple[int, Action, Catan | None]] = []
    for step in range(limit):
        if game.finished:
            break
        seat = next_seat(game)
        action = decide(game, seat, levels[seat], random.Random(policy_seed(seed, seat, step)))
        assert action in game.legal_actions(seat), action
        log.append((seat, action, None))
        game.apply(action)
    return log


# -- whole games -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_standard_against_three_random_players_plays_legally_and_wins(seat: int) -> None:
    levels = ["random"] * 4
    levels[seat] = "standard"
    game = Catan.new(["a", "b", "c", "d"], {}, seed=10 + seat)
    play(game, levels, seed=seat)
    assert game.finished and game.winner == seat


def test_four_random_players_finish_a_game() -> None:
    game = Catan.new(["a", "b", "c", "d"], {}, seed=3)
    play(game, ["random"] * 4, seed=3, limit=8000)
    assert game.finished


def test_four_standard_players_finish_and_never_offer_more_than_twice_a_turn() -> None:
    game = Catan.new(["a", "b", "c", "d"], {}, seed=5)
    offers: dict[int, int] = {}
    for step in range(4000):
        if game.finished:
            break
        seat = next_seat(game)
        action = decide(game, seat, "standard", random.Random(step))
        if action["type"] == "offer":
            offers[game.turn] = offers.get(game.turn, 0) + 1
        game.apply(action)
    assert game.finished
    assert max(offers.values(), default=0) <= 2


# -- set-up ------------------------------------------------------------------------------------------------------


def test_first_settlements_go_on_high_pips_and_several_resources() -> None:
    game = Catan.new(["a", "b", "c", "d"], {"board": "beginner", "first_player": 0}, seed=1)
    table = read(game.view(0), 0)
    best = max(sum(table.node_pips(a["at"] - 1)) for a in game.legal_actions(0))
    chosen = decide(game, 0, "standard", random.Random(1))
    pips = table.node_pips(chosen["at"] - 1)
    assert sum(pips) >= best - 1  # among the richest spots on the map
    assert sum(1 for p in pips if p) == 3  # and touching three different resources


def test_the_second_settlement_adds_resources_the_first_lacks() -> None:
    game = Catan.new(["a", "b", "c", "d"], {"board": "beginner", "first_player": 0}, seed=1)
    firsts: dict[int, set[int]] = {}
    while game.phase == "setup":
        seat = game.current
        action = decide(game, seat, "standard", random.Random(0))
        if action["type"] == "settlement":
            kinds = {TERRAIN_RESOURCE[game.layout[0][h][0]] for h in NODE_HEXES[action["at"] - 1]} - {None}
            if seat in firsts:
                assert kinds - firsts[seat], f"seat {seat}'s second settlement adds nothing new"
                assert len(firsts[seat] | kinds) >= 4
            else:
                firsts[seat] = {k for k in kinds if k is not None}
        game.apply(action)


# -- the robber --------------------------------------------------------------------------------------------------


def test_the_robber_never_goes_on_its_own_hex_and_hits_the_leader() -> None:
    moves = 0
    for seed in range(6):
        game = Catan.new(["a", "b", "c", "d"], {}, seed=100 + seed)
        levels = ["standard", "random", "random", "random"]
        for step in range(4000):
            if game.finished:
                break
            seat = next_seat(game)
            action = decide(game, seat, levels[seat], random.Random(policy_seed(seed, seat, step)))
            if seat == 0 and action["type"] in ("robber", "knight"):
                moves += 1
                check_robber(game, action)
            game.apply(action)
    assert moves >= 10


def check_robber(game: Catan, action: Action) -> None:
    corners = HEX_CORNERS[HEX_NAMES.index(action["hex"])]
    owners = {game.node_owner[n] for n in corners}
    assert 0 not in owners, "the robber went on its own hex"
    points = [game.public_points(s) for s in range(1, 4)]
    leaders = [s for s in range(1, 4) if game.public_points(s) == max(points)]
    if len(leaders) == 1:
        leader = leaders[0]
        # The leader has a building on some hex where we have none: the robber goes to one of those.
        reachable = any(
            leader in {game.node_owner[n] for n in cs} and 0 not in {game.node_owner[n] for n in cs}
            for h, cs in enumerate(HEX_CORNERS)
            if h != game.robber
        )
        if reachable:
            assert leader in owners
            if sum(game.hand[leader]):
                assert action["victim"] == leader


def test_a_knight_before_the_roll_chases_the_robber_off_its_own_hex() -> None:
    game = beginner(dev_deck=["knight"])
    to_main(game)
    grant(game, 0, wool=1, grain=1, ore=1)
    act(game, 0, "buy")
    act(game, 0, "end_turn")
    for seat in (1, 2, 3):
        act(game, seat, "roll", dice=[6, 6])
        act(game, seat, "end_turn")
    game.robber = HEX_NAMES.index("B")  # red's pasture (a 2) - set by hand for the scene
    assert game.phase == "roll" and game.current == 0
    action = decide(game, 0, "standard", random.Random(1))
    assert action["type"] == "knight" and action["hex"] != "B"


# -- sevens ------------------------------------------------------------------------------------------------------


def test_a_discard_keeps_the_city_it_is_saving_for() -> None:
    game = beginner()
    empty_hands(game)
    grant(game, 1, ore=3, grain=2, wool=3, lumber=2)
    act(game, 0, "roll", dice=[3, 4])
    assert game.owed[1] == 5
    action = decide(game, 1, "standard", random.Random(1))
    assert action["cards"] == {"wool": 3, "lumber": 2}


# -- trading -----------------------------------------------------------------------------------------------------


def offer_to_blue(game: Catan, give: dict[str, int], get: dict[str, int]) -> Action:
    """Red (the active player) offers to everyone; blue (holding what a city needs but one ore) answers."""
    empty_hands(game)
    grant(game, 0, ore=2, brick=2)
    grant(game, 1, ore=2, grain=2, wool=3)
    act(game, 0, "offer", to=None, give=give, get=get)
    return decide(game, 1, "standard", random.Random(1))


def test_accepts_a_fair_offer_that_completes_its_city() -> None:
    game = beginner()
    to_main(game)
    assert offer_to_blue(game, {"ore": 1}, {"wool": 1})["type"] == "accept"


def test_declines_an_offer_that_asks_too_much_or_brings_nothing_it_needs() -> None:
    game = beginner()
    to_main(game)
    assert offer_to_blue(game, {"ore": 1}, {"wool": 2})["type"] == "decline"
    game = beginner()
    to_main(game)
    assert offer_to_blue(game, {"brick": 1}, {"wool": 1})["type"] == "decline"


def test_declines_to_help_a_player_about_to_win() -> None:
    game = beginner(points_to_win=4)  # red's 2 points are 2 short of winning
    to_main(game)
    assert offer_to_blue(game, {"ore": 1}, {"wool": 1})["type"] == "decline"


def test_trades_with_the_bank_toward_its_city_then_builds_it() -> None:
    game = beginner()
    to_main(game)
    empty_hands(game)
    grant(game, 0, ore=2, grain=2, brick=4)
    action = decide(game, 0, "standard", random.Random(1))
    assert action == {"player": 0, "type": "bank_trade", "give": {"brick": 4}, "get": {"ore": 1}}
    game.apply(action)
    assert decide(game, 0, "standard", random.Random(1))["type"] == "city"


# -- hidden information ------------------------------------------------------------------------------------------


def reshuffle_secrets(game: Catan, seat: int, rng: random.Random) -> Catan:
    """A copy where the other seats' cards are dealt among them afresh (each keeps its count, the bank is
    untouched) and their unplayed development cards are of other kinds."""
    other = Catan.from_json(game.to_json())
    others = [s for s in range(other.n) if s != seat]
    pool = [r for s in others for r in range(5) for _ in range(other.hand[s][r])]
    rng.shuffle(pool)
    for s in others:
        count = sum(other.hand[s])
        other.hand[s] = [0] * 5
        for r in pool[:count]:
            other.hand[s][r] += 1
        pool = pool[count:]
        # A bought-this-turn card keeps its kind; the rest become knights, victory points or monopolies.
        kept = list(other.bought) if s == other.current else [0] * 5
        free = sum(other.dev[s]) - sum(kept)
        other.dev[s] = list(kept)
        for _ in range(free):
            other.dev[s][rng.choice([0, 1, 4])] += 1
    return other


@pytest.mark.parametrize("level", ["standard", "random"])
def test_decisions_depend_on_the_view_only(level: str) -> None:
    """Two games differing only in other seats' hidden cards give the same decisions from the same generator."""
    game = Catan.new(["a", "b", "c", "d"], {}, seed=21)
    levels = [level, "random", "standard", "random"]
    shuffler = random.Random(5)
    compared = differs = 0
    for step in range(3000):
        if game.finished:
            break
        seat = next_seat(game)
        if seat == 0 and step % 3 == 0:
            twin = reshuffle_secrets(game, 0, shuffler)
            assert twin.view(0) == game.view(0)
            differs += twin.hand != game.hand or twin.dev != game.dev
            mine = decide(game, 0, level, random.Random(step))
            theirs = decide(twin, 0, level, random.Random(step))
            assert mine == theirs, (step, mine, theirs)
            compared += 1
        game.apply(decide(game, seat, levels[seat], random.Random(policy_seed(21, seat, step))))
    assert compared >= 20 and differs >= compared // 2


def test_the_view_keeps_other_hands_hidden() -> None:
    view = Catan.new(["a", "b", "c"], {}, seed=1).view(0)
    assert "hand" in view["players"][0] and all("hand" not in p for p in view["players"][1:])
    assert set(view["players"][0]["development"]) == set(CARDS)
    assert set(view["players"][0]["hand"]) == set(RESOURCES)
