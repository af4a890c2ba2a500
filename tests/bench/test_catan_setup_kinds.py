"""The set-up bench's rule: ``standard``'s own at 0, and a bonus for missing kinds that buys kinds."""

from __future__ import annotations

from bench.catan_setup_kinds import SEED_BASE, opening, placed, summary
from engine.ai.catan import StandardCatanPolicy, read
from engine.catan.game import Catan
from engine.catan.state import SETUP


def test_without_a_bonus_the_bench_places_as_standard_does() -> None:
    for seed in range(SEED_BASE, SEED_BASE + 6):
        game = Catan.new(["a", "b", "c", "d"], {}, seed=seed)
        while game.phase == SETUP:
            who = game.current
            t, legal = read(game.view(who), who), game.legal_actions(who)
            chosen = StandardCatanPolicy().setup(t, legal)
            assert placed(t, legal, 0.0) == chosen
            game.apply(chosen)


def test_a_bonus_for_missing_kinds_covers_more_kinds_for_fewer_pips() -> None:
    base, bonus = summary(40, 0.0), summary(40, 3.0)
    assert bonus["kinds"] > base["kinds"]
    assert bonus["pips"] <= base["pips"]
    pips, kinds = opening(SEED_BASE, 0, 3.0)
    assert 0 < pips <= 2 * 15 and 1 <= kinds <= 5  # two settlements, at most three hexes of five pips each
