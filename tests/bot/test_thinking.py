"""The decision process of the searching levels: it decides like the engine does in this process, a worker that dies
is replaced and the decision asked again, one that thinks too long is stopped, and a host whose search fails
decides at a quick level instead of stalling the game."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.host import Services
from bot.host.thinking import Decision, Thinker, ThinkingFailed, decide
from bot.storage import Seat
from engine.ai import Factory, decide_with, register, unregister
from engine.carcassonne import Carcassonne
from tests.bot import level_policies
from tests.bot.conftest import code

ALICE = Seat(1, "Alice")


@pytest.fixture(autouse=True)
def marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(level_policies.MARKS, str(tmp_path))
    return tmp_path


@pytest.fixture
async def thinker() -> Iterator[Thinker]:
    found = Thinker(limit=10)
    yield found
    found.close()


def wait_for(path: Path, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


def a_game() -> Carcassonne:
    return Carcassonne.new(["A", "B"], {"river": False, "first_player": 0}, 5)


def job(factory: Factory) -> Decision:
    game = a_game()
    return Decision.of(factory, "carcassonne", game.to_json(), 0, game_seed=5, step=0)


async def test_the_worker_decides_as_this_process_would(thinker: Thinker) -> None:
    from engine.ai.registry import _standard_carcassonne

    there = await thinker.choose(job(_standard_carcassonne))
    here = decide(job(_standard_carcassonne))
    assert there == here
    assert here == decide_with(_standard_carcassonne(), a_game(), 0, random.Random(job(_standard_carcassonne).seed))
    first = thinker.pid()
    assert first is not None and thinker.started == 1
    await thinker.choose(job(level_policies.first_legal))
    assert thinker.pid() == first and thinker.started == 1, "one worker, started once, kept"


async def test_a_worker_that_dies_is_replaced_and_the_decision_asked_again(thinker: Thinker) -> None:
    action = await thinker.choose(job(level_policies.crash_once))
    assert action == dict(a_game().legal_actions(0)[0])
    assert thinker.started == 2


async def test_a_decision_that_cannot_be_had_fails_clearly(thinker: Thinker) -> None:
    with pytest.raises(ThinkingFailed, match="died 2 times"):
        await thinker.choose(job(level_policies.crash))
    with pytest.raises(ThinkingFailed, match="this player is broken"):
        await thinker.choose(job(level_policies.broken))
    thinker.limit = 0.5
    with pytest.raises(ThinkingFailed, match=r"no decision within 0\.5 s"):
        await thinker.choose(job(level_policies.endless))
    thinker.limit = 10
    assert await thinker.choose(job(level_policies.first_legal)), "a new worker after the one stopped"


async def test_a_decision_given_up_leaves_the_next_one_a_free_worker(thinker: Thinker, marks: Path) -> None:
    stuck = asyncio.create_task(thinker.choose(job(level_policies.endless)))
    await asyncio.to_thread(wait_for, marks / "endless")
    stuck.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stuck
    thinker.limit = 5  # the worker still thinking about the given-up decision would make this one wait it out
    assert await thinker.choose(job(level_policies.first_legal)) == dict(a_game().legal_actions(0)[0])
    assert thinker.started == 2


async def test_closing_stops_the_worker(thinker: Thinker) -> None:
    await thinker.choose(job(level_policies.first_legal))
    assert thinker.pid() is not None
    thinker.close()
    assert thinker.pid() is None
    with pytest.raises(ThinkingFailed, match="closing"):
        await thinker.choose(job(level_policies.first_legal))


@pytest.fixture
def broken_expert() -> Iterator[None]:
    before = register("carcassonne", "expert", level_policies.broken)
    yield
    unregister("carcassonne", "expert", before)


async def test_a_failed_search_is_played_at_a_quick_level(service: Services, broken_expert: None) -> None:
    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={"river": False, "first_player": 1}
    )
    await service.lobby.add_computer(row.id, None, ALICE.user_id, "expert", lambda n: f"Computer {n}")
    assert await code(service.lobby.add_computer(row.id, None, ALICE.user_id, "genius", str)) == "computer_unavailable"
    row = (await service.lobby.start(row.id, None, ALICE.user_id)).row
    try:
        moved = await service.stand_ins.computer_move(row.id)
    finally:
        service.stand_ins.close()
    assert moved is not None and moved.actions[0]["player"] == 1, "the broken expert's seat moved all the same"
    assert service.stand_ins.thinker.started == 1
