"""Catan's pictures in words: the board and its side panel (turn, dice, robber, every player's points, cards and
pieces), the legal spots of a set-up preview, and what was built since a player's last turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.catan import recap
from bot.catan.names import path_label
from bot.core.rendering import Job
from bot.text import listing, t
from bot.text.alt_words import View, name, seat, to_move
from render.catan import pictures


def head(view: View) -> str:
    game = t("game.catan")
    if view["phase"] == "over":
        return t("alt.catan.board_over", game=game, turn=view["turn"])
    if view["phase"] == "setup":
        return t("alt.catan.board_setup", game=game)
    return t("alt.catan.board", game=game, turn=view["turn"])


def dice(view: View) -> list[str]:
    rolled = view.get("dice")
    if not rolled:
        return []
    a, b = rolled
    return [t("alt.catan.dice", a=a, b=b, total=a + b)]


def robber(view: View) -> list[str]:
    letter = view["board"]["robber"]
    entry = next(h for h in view["board"]["hexes"] if h["hex"] == letter)
    terrain = t(f"catan.terrain.{entry['terrain']}")
    if entry["number"] is None:
        return [t("alt.catan.robber_plain", hex=letter, terrain=terrain)]
    return [t("alt.catan.robber", hex=letter, terrain=terrain, number=entry["number"])]


def players(view: View) -> list[str]:
    """Each player's line of the side panel: public points, cards in hand, development cards, knights played."""
    return [
        t(
            "alt.catan.player",
            seat=seat(view, int(p["seat"])),
            points=t("alt.catan.points", count=p["points"]),
            cards=t("alt.catan.cards", count=p["cards"]),
            development=t("alt.catan.development", count=p["development_cards"]),
            knights=t("alt.catan.knights", count=p["knights"]),
        )
        for p in view["players"]
    ]


def awards(view: View) -> list[str]:
    told = []
    for p in view["players"]:
        if p.get("longest_road"):
            told.append(t("alt.catan.longest_road", name=str(p["name"]), count=p["road_length"]))
        if p.get("largest_army"):
            told.append(t("alt.catan.largest_army", name=str(p["name"])))
        if p.get("discard_owed"):
            told.append(t("alt.catan.discard", name=str(p["name"]), count=p["discard_owed"]))
    return told


def pieces(view: View) -> list[str]:
    """How many settlements, cities and roads each player has on the board."""
    board = view["board"]
    told = []
    for p in view["players"]:
        number = int(p["seat"])
        counts = [
            (kind, sum(1 for piece in board[pieces] if piece["player"] == number))
            for kind, pieces in (("settlement", "settlements"), ("city", "cities"), ("road", "roads"))
        ]
        kinds = [t(f"alt.catan.count.{kind}", count=count) for kind, count in counts if count]
        if kinds:
            told.append(t("alt.catan.pieces", name=str(p["name"]), pieces=listing(kinds)))
    return told


def _piece(kind: str, at: object) -> str:
    if kind == "roads":
        a, _, b = str(at).partition("-")
        return t("alt.catan.since.road", a=a, b=b)
    return t("alt.catan.since.city" if kind == "cities" else "alt.catan.since.settlement", number=at)


class CatanWords:
    """Catan's part of the alt text (``bot.text.alt.GameWords``)."""

    def board(self, view: View) -> list[str]:
        return [
            head(view),
            *to_move(view),
            *dice(view),
            *robber(view),
            *players(view),
            *awards(view),
            *pieces(view),
            t("alt.catan.legend"),
        ]

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> list[str]:
        built = [_piece(kind, at) for kind in ("settlements", "cities", "roads") for at in placed.get(kind, [])]
        told = [t("alt.catan.since", count=len(built), pieces=listing(built))] if built else []
        return [*told, *self.board(view)]

    def story(self, story: View) -> list[str]:
        return recap.words(story)

    def picture(self, job: Job) -> list[str] | None:
        if job.function is not pictures.preview_png:
            return None
        view, spots = job.args
        who = name(view, view.get("current_player"))
        if spots and isinstance(spots[0], str):  # paths: a set-up road
            paths = listing((path_label(p) for p in spots), style="enumeration")
            shown = t("alt.catan.preview_road", name=who, paths=paths)
        else:
            shown = t("alt.catan.preview_settlement", name=who, count=len(spots))
        return [head(view), *to_move(view), shown, *players(view), *pieces(view), t("alt.catan.legend")]


WORDS: Final = CatanWords()
