"""What a player or a spectator sees, and events redacted for one viewer.

Own hand and own development cards exactly (and, in one's own turn, how many trade offers one has made); for
others only counts, played knights and public points. The deck order is never shown, nor anyone's victory point
cards before the game ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from engine.catan.board import EDGE_NAMES, HARBOR_SPOTS, HEX_NAMES, RESOURCES
from engine.catan.state import CARDS, CITIES, GAME, ROADS, SETTLEMENTS, VICTORY_POINT, Offer, State
from engine.catan.trading import bundle_json
from engine.game import Event

OfferView = TypedDict(
    "OfferView",
    {
        "id": int,
        "from": int,
        "to": int | None,
        "give": dict[str, int],  # resource name -> count, only the resources offered
        "get": dict[str, int],
        "accepted": list[int],
        "declined": list[int],
    },
)
"""An open trade offer as a viewer sees it (an entry of the view's ``offers``): who has not answered is not shown."""


def visible_offer(offer: Offer, seat: int | None) -> bool:
    return offer["to"] is None or seat in (offer["from"], offer["to"])


def player_view(game: State, seat: int | None) -> dict[str, Any]:
    """The one way game state leaves the engine for display. ``seat`` None is a spectator."""
    over = game.finished
    hexes, harbors = game.layout
    players = []
    for s in range(game.n):
        entry: dict[str, Any] = {
            "seat": s,
            "name": game.players[s],
            "cards": sum(game.hand[s]),
            "development_cards": sum(game.dev[s]),
            "knights": game.knights[s],
            "points": game.points(s) if over else game.public_points(s),
            "road_length": game.road_length[s],
            "longest_road": game.longest_holder == s,
            "largest_army": game.army_holder == s,
            "settlements_left": SETTLEMENTS - len(game.settlements[s]),
            "cities_left": CITIES - len(game.cities[s]),
            "roads_left": ROADS - len(game.roads[s]),
            "discard_owed": game.owed[s],
        }
        if over:
            entry["victory_point_cards"] = game.dev[s][VICTORY_POINT]
        if s == seat:
            entry["hand"] = {r: game.hand[s][i] for i, r in enumerate(RESOURCES)}
            entry["development"] = {c: game.dev[s][i] for i, c in enumerate(CARDS)}
            entry["bought_this_turn"] = (
                {c: game.bought[i] for i, c in enumerate(CARDS)} if s == game.current else dict.fromkeys(CARDS, 0)
            )
            entry["victory_points"] = game.points(s)
            entry["trade_rates"] = {r: game.rates[s][i] for i, r in enumerate(RESOURCES)}
            entry["offers_made_this_turn"] = game.offers_made if s == game.current else 0
        players.append(entry)
    offers: list[OfferView] = [
        {
            "id": o["id"],
            "from": o["from"],
            "to": o["to"],
            "give": bundle_json(o["give"]),
            "get": bundle_json(o["get"]),
            "accepted": list(o["accepted"]),
            "declined": list(o["declined"]),
        }
        for o in game.offers
        if visible_offer(o, seat)
    ]
    shown = {o["id"] for o in offers}
    pending = [p for p in game.pending() if p["decision"] != "trade_reply" or p["offer"] in shown]
    return {
        "game": GAME,
        "viewer": seat,
        "players": players,
        "board": {
            "hexes": [{"hex": HEX_NAMES[h], "terrain": t, "number": num} for h, (t, num) in enumerate(hexes)],
            "harbors": dict(zip(HARBOR_SPOTS, harbors, strict=True)),
            "robber": HEX_NAMES[game.robber],
            "settlements": [
                {"at": node + 1, "player": s} for s in range(game.n) for node in sorted(game.settlements[s])
            ],
            "cities": [{"at": node + 1, "player": s} for s in range(game.n) for node in sorted(game.cities[s])],
            "roads": [{"at": EDGE_NAMES[e], "player": s} for s in range(game.n) for e in sorted(game.roads[s])],
        },
        "bank": {r: game.bank[i] for i, r in enumerate(RESOURCES)},
        "deck_size": len(game.deck),
        "turn": game.turn,
        "dice": None if game.dice is None else list(game.dice),
        "phase": game.phase,
        "current_player": None if over else game.current,
        "card_played": game.card_played,
        "pending": pending,
        "offers": offers,
        "winner": game.winner,
        "options": {
            "setup": game.options.setup,
            "strict_phases": game.options.strict_phases,
            "points_to_win": game.options.points_to_win,
        },
    }


def public_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """``events`` as ``seat`` (None: a spectator) may see them.

    An event with ``private`` (the seats that may see all of it) lists in ``secret`` the keys others must not
    see; ``"*"`` hides the whole event (a private trade offer) from everyone else.
    """
    out = []
    for event in events:
        private = event.get("private")
        if private is None:
            out.append(event)
            continue
        secret = event.get("secret", [])
        if seat in private:
            out.append({k: v for k, v in event.items() if k not in ("private", "secret")})
        elif "*" not in secret:
            out.append({k: v for k, v in event.items() if k not in secret and k not in ("private", "secret")})
    return out
