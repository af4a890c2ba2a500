"""Properties over many random 3- and 4-player games: conservation, limits, replay, JSON and secrecy."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catan import Catan, public_events
from engine.catan.longest_road import longest_road
from engine.game import Action
from engine.replay import export, play

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"board": "random_numbers", "strict_phases": True},
    {"board": "beginner", "setup": "beginner", "points_to_win": 8},
]


def check_invariants(game: Catan) -> None:
    for r in range(5):
        assert game.bank[r] + sum(h[r] for h in game.hand) == 19
        assert game.bank[r] >= 0 and all(h[r] >= 0 for h in game.hand)
    for s in range(game.n):
        assert game.road_length[s] == longest_road(s, game.roads[s], game.node_owner)
        assert len(game.settlements[s]) <= 5 and len(game.cities[s]) <= 4 and len(game.roads[s]) <= 15
    played = sum(game.knights) + sum(sum(d) for d in game.dev)
    assert len(game.deck) + played <= 25
    assert sum(sum(d) for d in game.dev) + len(game.deck) + sum(game.knights) <= 25


def scrambled(game: Catan, seat: int | None) -> Catan:
    """A copy in which everything ``seat`` may not know is different: other hands (same counts), other
    development cards (same counts, victory points moved around), the deck order and the generator."""
    data = game.to_json()
    for other in range(game.n):
        if other == seat:
            continue
        total = sum(data["hand"][other])
        data["hand"][other] = [0, 0, 0, 0, total]
        dev_total = sum(data["dev"][other])
        data["dev"][other] = [0, dev_total, 0, 0, 0] if game.phase != "over" else data["dev"][other]
        if other == game.current:
            data["bought"] = [0, sum(data["bought"]), 0, 0, 0]
    data["deck"] = sorted(data["deck"])
    data["rng"] = Catan.new(game.players, {}, 12345).to_json()["rng"]
    # Keep the bank consistent for the view's own invariant (the bank is public, so leave it as it is).
    return Catan.from_json(data)


def check_views(game: Catan) -> None:
    for seat in [None, *range(game.n)]:
        view = game.view(seat)
        assert view == scrambled(game, seat).view(seat), seat
        json.dumps(view)
        for s, entry in enumerate(view["players"]):
            if s != seat:
                assert "hand" not in entry and "development" not in entry


# A seat that owes nothing may still propose to the active player, withdraw, or change its reply.
REPLIES = ("offer", "withdraw", "accept", "decline", "counter")


def check_legal_actions(game: Catan, rng: random.Random) -> None:
    """Every seat that owes a decision has legal actions, and a sample of them is accepted."""
    data = game.to_json()
    for seat in game.actors():
        actions = game.legal_actions(seat)
        assert actions, (seat, game.pending())
        for action in rng.sample(actions, min(15, len(actions))):
            Catan.from_json(data).apply(action)
    for seat in range(game.n):
        if seat not in game.actors():
            assert all(a["type"] in REPLIES for a in game.legal_actions(seat))


def play_checked(seed: int, players: int, options: dict[str, Any]) -> tuple[Catan, list[Action]]:
    game = Catan.new([f"P{i}" for i in range(players)], options, seed)
    policy = random.Random(seed ^ 0x5EED)
    record: list[Action] = []
    check_at = random.Random(seed).randrange(40, 160)
    while not game.finished:
        action = game.random_action(policy)
        assert action["player"] in game.actors()
        applied = game.apply(action)
        record.append(applied.action)
        for event in applied.events:
            for seat in [None, *range(players)]:
                shown = public_events([event], seat)
                if event["type"] == "stolen" and event.get("private") and seat not in event["private"]:
                    assert shown == [{k: v for k, v in event.items() if k not in ("resource", "private", "secret")}]
                if event["type"] == "bought" and seat != event["player"]:
                    assert "card" not in shown[0]
        check_invariants(game)
        if len(record) % check_at == 0 and not game.finished:
            check_views(game)
            check_legal_actions(game, random.Random(len(record)))
            data = game.to_json()
            copy = Catan.from_json(json.loads(json.dumps(data)))
            assert copy.to_json() == data
            # The copy continues exactly like the original.
            probe = game.random_action(random.Random(len(record)))
            applied = game.apply(probe)
            assert copy.apply(probe).action == applied.action and copy.to_json() == game.to_json()
            record.append(applied.action)
    check_views(game)
    return game, record


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.sampled_from([3, 4]), options=st.sampled_from(range(3)))
def test_random_games_keep_the_invariants_and_replay_exactly(seed: int, players: int, options: int) -> None:
    game, record = play_checked(seed, players, OPTION_SETS[options])
    assert game.finished and len(game.result()["winners"]) == 1
    winner = game.winner
    assert winner is not None and game.points(winner) >= game.options.points_to_win
    replayed = play(json.loads(json.dumps(export(game, seed, record))))
    assert replayed.result() == game.result()
