"""A whole Carcassonne game and a whole Catan game through the real processes, at the same time, played only by
sending interactions to the fake Discord, with a kill -9 of the bot in the middle of both (``whole_games.py``).

``play_both`` fails on any request Discord would refuse, any traceback in the bot's log, any secret in the channel
and any difference between the bot's exported games and the test's own replays; here we check that the games
really went through everything they were scripted to.
"""

from __future__ import annotations

from pathlib import Path

from tests.process.whole_games import GOALS, play_both


async def test_both_games_played_to_the_end_through_the_real_bot_with_a_kill_in_the_middle(tmp_path: Path) -> None:
    played = await play_both(tmp_path)

    carcassonne, catan = played.tables
    assert carcassonne.engine.finished and catan.engine.finished
    assert len(played.bots) == 2  # killed once, started again
    events = played.carcassonne_events
    assert events["tower"] and events["capture"] and events["ransom"], events
    assert events["follower"] and events["tower_top"], events
    assert set(GOALS) <= played.catan_goals, set(GOALS) - played.catan_goals
    latencies = sorted(played.latencies())
    print(
        f"\nboth games: {played.seconds:.1f} s, {len(latencies)} interactions, "
        f"first answer p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
    )
