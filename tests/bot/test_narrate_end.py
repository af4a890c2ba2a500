"""The end of a Carcassonne game tells what scored; features nobody held are counted in one sentence, not listed."""

from __future__ import annotations

from typing import Any

from bot.carcassonne.narration import narrate
from bot.text.i18n import speaking


def _end_events(unclaimed: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "feature_scored", "feature": "city", "cells": [[0, 0], [0, 1]], "tiles": 2, "pennants": 0,
         "points": 2, "scorers": [0]},
        {"type": "farm_scored", "cities": 1, "points": 3, "scorers": [1]},
    ]  # fmt: skip
    for i in range(unclaimed):
        if i % 2:
            events.append({"type": "farm_scored", "cities": 2, "points": 6, "scorers": []})
        else:
            events.append({"type": "feature_scored", "feature": "road", "cells": [[i, 5]], "tiles": 1, "points": 1,
                           "scorers": []})  # fmt: skip
    return events


def test_unclaimed_features_at_the_end_are_one_sentence() -> None:
    with speaking("en"):
        lines = narrate(_end_events(4), ["alice", "bob"])
    assert lines == [
        "The unfinished city in column 0, rows 0 and 1 scores 2 points for alice (2 tiles).",
        "A farm supplying 1 finished city: 3 points to bob.",
        "4 unfinished features and farms without followers score nothing.",
    ]


def test_the_sentence_takes_each_languages_plural() -> None:
    with speaking("en"):
        assert narrate(_end_events(1), ["a", "b"])[-1] == (
            "1 unfinished feature or farm without a follower scores nothing."
        )
    with speaking("ru"):
        told = [narrate(_end_events(n), ["a", "b"])[-1] for n in (1, 3, 5)]
    assert told == [
        "1 незавершённый объект или поле без подданных не приносит очков.",
        "3 незавершённых объекта или поля без подданных не приносят очков.",
        "5 незавершённых объектов и полей без подданных не приносят очков.",
    ]
    with speaking("zh-TW"):
        assert narrate(_end_events(2), ["a", "b"])[-1] == ("2處沒有部屬的未完成城堡、道路、修道院或農地不計分。")


def test_nothing_is_added_when_every_feature_had_a_follower() -> None:
    with speaking("en"):
        lines = narrate(_end_events(0), ["alice", "bob"])
    assert len(lines) == 2 and "nothing" not in " ".join(lines)
