"""A Catan game's story: the dice rolled against the odds, each player's resources gained, lost to the robber and
traded away, and who held the longest road and the largest army, turn by turn (``engine.story``)."""

from __future__ import annotations

from typing import Any

from engine.history import GameLog, walk
from engine.story import Story, headline

TOTALS = range(2, 13)
AWARDS = ("longest_road", "largest_army")


def cards(bundle: Any) -> int:
    return sum(int(n) for n in bundle.values()) if isinstance(bundle, dict) else 0


def story(log: GameLog) -> Story:
    """``dice``: how often each total 2..12 was rolled; ``gained`` per player (dice production, starting resources,
    Year of Plenty and Monopoly), ``robbed`` (cards stolen or discarded on a seven), ``traded`` (cards given away to
    other players or the bank); ``holders``: per award, ``[turn, seat or None]`` each time it changed hands."""
    n = len(log.players)
    dice = [0] * len(TOTALS)
    gained, robbed, traded = [0] * n, [0] * n, [0] * n
    holders: dict[str, list[list[Any]]] = {award: [] for award in AWARDS}
    last = None
    for turn, game in walk(log):
        last = game
        for event in turn.events:
            kind = event["type"]
            if kind == "rolled":
                dice[int(event["total"]) - TOTALS.start] += 1
            elif kind == "produced":
                for seat, gains in enumerate(event["gains"]):
                    gained[seat] += cards(gains)
            elif kind in ("start_resources", "took"):
                gained[event["player"]] += cards(event["cards"])
            elif kind == "monopoly":
                gained[event["player"]] += sum(event["taken"])
            elif kind == "discarded":
                robbed[event["player"]] += cards(event["cards"])
            elif kind == "stolen" and "resource" not in event:  # a card was taken (which one was secret)
                robbed[event["victim"]] += 1
            elif kind == "traded":
                traded[event["player"]] += cards(event["give"])
                traded[event["with"]] += cards(event["get"])
            elif kind == "bank_traded":
                traded[event["player"]] += cards(event["give"])
            elif kind == "award" and event.get("card") in holders:
                holders[event["card"]].append([turn.number, event["to"]])
    if last is None:
        raise ValueError("the game has no turn: it has no story")
    told = headline(log, last.result())
    told.update(dice=dice, gained=gained, robbed=robbed, traded=traded, holders=holders)
    return told
