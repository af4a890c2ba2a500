"""A click answered by its own move (``bot.core.move_answers``): by the retiring of the message clicked when its
move ends the turn, else acknowledged when the move is done or refused, and at the latest soon enough for Discord."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core import move_answers as answers


class Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def defer(self) -> None:
        await asyncio.sleep(0)  # a request on its way
        self.sent.append("acknowledged")


def click_on(message_id: int) -> Any:
    return SimpleNamespace(message=SimpleNamespace(id=message_id), response=Response())


async def test_the_retiring_of_the_message_clicked_answers_the_click() -> None:
    click = click_on(5)
    async with answers.by_its_move(click):
        assert answers.claim_for(4) is None, "another message's retiring is not this click's answer"
        assert answers.claim_for(5) is click
        assert answers.claim_for(5) is None, "answered once"
    assert click.response.sent == [], "not acknowledged as well"


async def test_a_click_whose_turn_goes_on_in_its_message_is_acknowledged_when_its_move_is_delivered() -> None:
    click = click_on(5)
    async with answers.by_its_move(click):
        assert click.response.sent == []
    assert click.response.sent == ["acknowledged"]


async def test_a_refused_click_is_acknowledged_before_the_refusal_is_told() -> None:
    click = click_on(5)
    with pytest.raises(LookupError):
        async with answers.by_its_move(click):
            raise LookupError("stale")
    assert click.response.sent == ["acknowledged"]


async def test_a_click_whose_move_is_slow_to_deliver_is_acknowledged_in_time(monkeypatch: Any) -> None:
    """Discord waits three seconds for an answer: a turn message not out by ``ACKNOWLEDGE_AFTER`` (its picture
    drawn behind others) leaves the click acknowledged then, and the old message's buttons to an edit of it."""
    monkeypatch.setattr(answers, "ACKNOWLEDGE_AFTER", 0.01)
    click = click_on(5)
    async with answers.by_its_move(click):
        await asyncio.sleep(0.1)  # the delivery
        assert click.response.sent == ["acknowledged"]
        assert answers.claim_for(5) is None
    assert click.response.sent == ["acknowledged"]


async def test_work_started_by_the_move_never_answers_the_click_after_it() -> None:
    """A computer's move started by the turn message runs on after the click (its task inherits the context)."""
    click = click_on(5)
    later: list[Any] = []

    async def computer_move() -> None:
        await asyncio.sleep(0.01)
        later.append(answers.claim_for(5))

    async with answers.by_its_move(click):
        task = asyncio.create_task(computer_move())
    await task
    assert later == [None] and click.response.sent == ["acknowledged"]
