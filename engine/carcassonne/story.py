"""A Carcassonne game's story: each player's points by feature and the scores turn by turn, and the single biggest
scoring of the game (``engine.story``)."""

from __future__ import annotations

from typing import Any

from engine.history import GameLog, walk
from engine.story import Story, headline

FEATURES = ("city", "road", "cloister", "farm", "ransom")
SCORED = ("feature_completed", "feature_scored", "farm_scored")


def story(log: GameLog) -> Story:
    """``features``: per player, the final points by feature (ransom: received less paid); ``lead``: ``[turn,
    scores]`` at the end of every turn; ``biggest``: the scoring that gave the most points at once (its ``category``,
    ``points``, ``scorers``, ``tiles``, ``final``: scored at the end of the game), or None."""
    lead: list[list[Any]] = []
    biggest: dict[str, Any] | None = None
    game = None
    for turn, game in walk(log):
        lead.append([turn.number, list(game.result()["scores"])])
        for event in turn.events:
            bigger = biggest is None or event.get("points", 0) > biggest["points"]
            if event["type"] in SCORED and event["scorers"] and bigger:
                biggest = {
                    "category": event["category"],
                    "points": event["points"],
                    "scorers": list(event["scorers"]),
                    "tiles": event.get("tiles", event.get("cities", 0)),
                    "final": event["type"] != "feature_completed",
                }
    if game is None:
        raise ValueError("the game has no turn: it has no story")
    result = game.result()
    told = headline(log, result)
    told.update(
        features=[{feature: int(b.get(feature, 0)) for feature in FEATURES} for b in result["breakdown"]],
        lead=lead,
        biggest=biggest,
    )
    return told
