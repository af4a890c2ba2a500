"""Alt text: what a sighted player learns from each picture the bot posts, in words, for screen readers, search
and transcripts (Discord's attachment ``description``, at most 1,024 characters).

``describe(job)`` reads the render ``Job`` the picture is drawn from: the same drawing function and the same
spectator view, so the words tell neither more than the picture (nothing secret: the view is the spectator's) nor
less. Each game words its boards and its own turn pictures (``bot/<game>/alt.py``, found by the view's ``"game"``
as ``render.registry`` finds its drawings); the end chart and the timelapse are worded here. Texts are in the current
language: the caller speaks the reader's (the game's language for the channel).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import render
from bot.core.rendering import Job
from bot.text import listing, t
from bot.text.alt_words import View, final_scores, joined, points, seat, won
from bot.text.i18n import decimal
from bot.text.story_words import head as story_head
from render.registry import pictures_of

log = logging.getLogger("boardhost.alt")


class GameWords(Protocol):
    """One game's part: its board in words, what changed since a turn, and its own turn pictures."""

    def board(self, view: View) -> list[str]:
        """The board as ``render.board_png`` draws it: the turn, whose it is, scores, the pieces."""
        ...

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> list[str]:
        """The board with what was placed since a player's last turn outlined (``render.since_png``)."""
        ...

    def picture(self, job: Job) -> list[str] | None:
        """The game's own turn pictures (its previews); None for a picture that is not one of them."""
        ...

    def story(self, story: View) -> list[str]:
        """The game's charts in the story of a finished game (``render.story_png``), after the shared head."""
        ...


def describe(job: Job, words: GameWords | None = None) -> str | None:
    """The alt text of the picture ``job`` draws, in the current language, its game's part told by ``words`` (its
    adapter's); None (logged) if it cannot be told."""
    try:
        return joined(_sentences(job, words))
    except Exception:  # a picture without words still goes out: the words are a help, not the move
        log.exception("no alt text for %s", getattr(job.function, "__name__", job.function))
        return None


def _sentences(job: Job, words: GameWords | None) -> list[str]:
    function, args = job.function, job.args
    if function is render.timelapse_bytes:
        return timelapse(args[0])
    if function is render.rating_chart_png:
        return rating_chart(args[0], args[1])
    view: View = args[0]
    if function is render.end_png:
        return end(view)
    if words is None:
        raise ValueError(f"no words for the game {view.get('game')!r}")
    if function is render.story_png:
        return [*story_head(view), *words.story(view)]
    if function is render.since_png:
        return words.since(view, args[1])
    if function is render.board_png:
        return words.board(view)
    told = words.picture(job)
    if told is None:
        raise ValueError(f"no words for the picture {function.__name__}")
    return told


def end(view: View) -> list[str]:
    """The end chart (``render.end_png``): who won, and each player's points by what scored them."""
    pictures = pictures_of(view)
    scoring = pictures.scoring
    derived = pictures.breakdown(view)
    sentences = [t("alt.end.chart", game=t(f"game.{view['game']}")), *won(view)]
    for player in view["players"]:
        number = int(player["seat"])
        breakdown = player.get("breakdown") or derived.get(number, {})
        parts = []
        for key in scoring.categories:
            name = scoring.legend(key)
            got = int(breakdown.get(key, 0))
            if got > 0:
                parts.append(t("alt.end.part", category=t(f"image.{name}"), count=got))
            elif got < 0 and scoring.lost:
                parts.append(t("alt.end.part", category=t(f"image.{scoring.lost}"), count=got))
        told = t("alt.points", count=points(player))
        if parts:
            sentences.append(t("alt.end.player_parts", seat=seat(view, number), points=told, parts=listing(parts)))
        else:
            sentences.append(t("alt.end.player", seat=seat(view, number), points=told))
    return sentences


def timelapse(views: Sequence[View]) -> list[str]:
    """The animation of a whole game (``render.timelapse_bytes``): one frame per turn, then the final scores."""
    last = views[-1]
    return [
        t("alt.timelapse", game=t(f"game.{last['game']}"), count=len(views) - 1),
        *won(last),
        *final_scores(last),
    ]


def rating_chart(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> list[str]:
    """A player's rating history (``render.rating_chart_png``): per game, where the line starts and ends, its
    highest point, and over how many games."""
    told = [t("alt.rating_chart", title=title)]
    for game, ratings in series:
        if len(ratings) == 1:
            told.append(t("alt.rating_one", game=t(f"game.{game}"), rating=decimal(ratings[0])))
        elif ratings:
            told.append(
                t("alt.rating_line", game=t(f"game.{game}"), count=len(ratings), first=decimal(ratings[0]),
                  last=decimal(ratings[-1]), best=decimal(max(ratings)))
            )  # fmt: skip
    return told
