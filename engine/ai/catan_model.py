"""A Catan game rebuilt from one seat's view, hidden parts sampled: what the ``expert`` player searches over.

The view shows the board, every building, public counts and the seat's own hand and cards; it hides the others'
hands (only their sizes), their development cards (only how many) and the deck's order. ``determinise`` deals
those from what the seat cannot see: the resource cards neither in the bank nor in its own hand, and the
development cards neither in its own hand nor played as knights. The game it returns is an ordinary engine state,
so the search applies real actions to it; it never touches the real game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.catan.board import EDGE_BY_NAME, EDGE_NODES, HEX_NAMES, NODE_COUNT, RESOURCES
from engine.catan.deck import CARDS, DECK_COUNTS, KNIGHT
from engine.catan.game import Catan
from engine.catan.state import BANK_SIZE
from engine.catan.state_json import position


def unseen_resources(view: Mapping[str, Any], seat: int) -> list[int]:
    """Per resource, the cards the other players hold between them (neither in the bank nor in our hand)."""
    mine = view["players"][seat]["hand"]
    return [max(0, BANK_SIZE - view["bank"][r] - mine[r]) for r in RESOURCES]


def unseen_cards(view: Mapping[str, Any], seat: int) -> list[int]:
    """Development cards that may be in the deck or in another hand (played knights are public)."""
    mine = view["players"][seat]["development"]
    played = sum(p["knights"] for p in view["players"])
    out = [DECK_COUNTS[c] - mine[name] for c, name in enumerate(CARDS)]
    out[KNIGHT] -= played
    return [max(0, c) for c in out]


def deal(pool: list[int], sizes: list[int], rng: random.Random, fill: int) -> list[list[int]]:
    """``pool`` (counts per kind) shuffled and dealt into hands of ``sizes``; short pools are padded with ``fill``."""
    cards = [k for k, count in enumerate(pool) for _ in range(count)]
    rng.shuffle(cards)
    hands = []
    for size in sizes:
        hand = [0] * len(pool)
        for _ in range(size):
            hand[cards.pop() if cards else fill] += 1
        hands.append(hand)
    return hands


def determinise(view: Mapping[str, Any], seat: int, rng: random.Random) -> Catan:
    """One game consistent with ``view`` (seen by ``seat``), hidden hands and the deck drawn with ``rng``."""
    board, players = view["board"], view["players"]
    n = len(players)
    others = [s for s in range(n) if s != seat]
    node_owner = [-1] * NODE_COUNT
    node_city = [False] * NODE_COUNT
    settlements: list[list[int]] = [[] for _ in range(n)]
    cities: list[list[int]] = [[] for _ in range(n)]
    roads: list[list[int]] = [[] for _ in range(n)]
    edge_owner = [-1] * len(EDGE_NODES)
    for piece in board["settlements"]:
        node_owner[piece["at"] - 1] = piece["player"]
        settlements[piece["player"]].append(piece["at"] - 1)
    for piece in board["cities"]:
        node_owner[piece["at"] - 1] = piece["player"]
        node_city[piece["at"] - 1] = True
        cities[piece["player"]].append(piece["at"] - 1)
    for road in board["roads"]:
        e = EDGE_BY_NAME[road["at"]]
        edge_owner[e] = road["player"]
        roads[road["player"]].append(e)
    me = players[seat]
    hands = [[0] * 5 for _ in range(n)]
    hands[seat] = [me["hand"][r] for r in RESOURCES]
    for s, hand in zip(
        others, deal(unseen_resources(view, seat), [players[s]["cards"] for s in others], rng, 0), strict=True
    ):
        hands[s] = hand
    dev = [[0] * 5 for _ in range(n)]
    dev[seat] = [me["development"][c] for c in CARDS]
    pool = unseen_cards(view, seat)
    dealt = deal(pool, [view["deck_size"], *(players[s]["development_cards"] for s in others)], rng, KNIGHT)
    deck = [c for c, count in enumerate(dealt[0]) for _ in range(count)]
    rng.shuffle(deck)
    for s, cards in zip(others, dealt[1:], strict=True):
        dev[s] = cards
    current = view["current_player"] if view["current_player"] is not None else seat
    bought = [me["bought_this_turn"][c] for c in CARDS] if current == seat else [0] * 5
    longest = next((p["seat"] for p in players if p["longest_road"]), None)
    army = next((p["seat"] for p in players if p["largest_army"]), None)
    seed = rng.getrandbits(48)
    data = position(
        [p["name"] for p in players],
        ([(h["terrain"], h["number"]) for h in board["hexes"]], list(board["harbors"].values())),
        rng=random.Random(seed),
        seed=seed,
        setup=view["options"]["setup"],
        strict_phases=view["options"]["strict_phases"],
        points_to_win=view["options"]["points_to_win"],
        node_owner=node_owner,
        node_city=node_city,
        edge_owner=edge_owner,
        settlements=settlements,
        cities=cities,
        roads=roads,
        hand=hands,
        bank=[view["bank"][r] for r in RESOURCES],
        dev=dev,
        bought=bought,
        deck=deck,
        knights=[p["knights"] for p in players],
        road_length=[p["road_length"] for p in players],
        owed=[p["discard_owed"] for p in players],
        dice=view["dice"],
        robber=HEX_NAMES.index(board["robber"]),
        longest_holder=longest,
        army_holder=army,
        phase=view["phase"],
        current=current,
        turn=view["turn"],
        setup_step=0,
        setup_road=False,
        card_played=view["card_played"],
        offers_made=me.get("offers_made_this_turn", 0),
        actions=0,
    )
    return Catan.from_json(data)
