"""The ``expert`` Carcassonne computer player: expectimax over its own model of the game, two plies deep for
its best few turns and three for the best two of those.

Like ``standard`` it sees only ``situation.view`` and ``situation.legal`` and rebuilds a game from the view. The
drawn tile is known; the stack is not, so the opponent's next tile is a chance node over the tiles still unseen
(the ``DRAWS`` likeliest kinds, weighted by how many of each are left; River tiles while the River lasts). For each
of its own best few turns (placement with the follower, tower or pass that goes with it) it plays each of those
tiles for the next player, lets that player answer as a one-ply searcher would (``standard``'s evaluation from that
player's seat), and scores the position for itself with the same estimate of final scores (exact once the game is
over). So it sees a follower or farmer stolen next turn, a tower capture answered, a feature completed for an
opponent, and it keeps those it can defend. In a two-player game the best ``DEEP`` of those turns are compared once
more after its own next tile (a chance node over what the opponent's tile leaves, played as a one-ply searcher
would): what it can take from the opponent next turn counts as much as what the opponent can take from it. With
more than two players only the next one answers.

Its settings trade strength for time: a decision takes about 0.2 s of CPU on average and about 0.35 s at the 95th
percentile in the base game (bench/README.md, "Carcassonne expert").
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

from engine.ai.base import Situation
from engine.ai.carcassonne import (
    RANSOM_MARGIN,
    Before,
    Outlook,
    before_placing,
    best_follower,
    choose_after_placing,
    distinct_placements,
    margin,
    outlook_for,
    placement_value,
    ransom_gain,
    worth,
)
from engine.carcassonne.board import cell, xy
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.model import game_from_view, unseen_tiles
from engine.carcassonne.options import stage
from engine.game import Action

# One own turn: the position after placing (or the model, when only the follower decision is left), the follower
# decision, and the index of the placement among the distinct placements (-1: none).
Turn = tuple[Carcassonne, Action, int]
# The next player's answer to one tile: the tile ("" once the game is over), its chance, the position after it, and
# the cell it went to (None: it fitted nowhere).
Reply = tuple[str, float, Carcassonne, int | None]

# Own placements searched two plies deep (the rest are cut by their one-ply value). Five, not three: on 200
# tuning games (with LATE below) the mean margin rose by 3.7 points (bench/README.md, third round).
WIDTH: Final = 5
# Follower decisions searched for each placement besides pass and the one-ply best follower spot.
FOLLOWER_WIDTH: Final = 1
# Tile types tried for the next player's draw (the likeliest first; their weights are renormalised). Twelve of the
# base game's 24 kinds hold about 70% of the stack and the corner cities the next player joins ours with; six held
# under half, nearly all roads.
DRAWS: Final = 12
# With at most LATE tiles left to draw (the last ten turns each in a two-player game), LATE_WIDTH own placements
# are searched: the end is where a one-ply value misjudges most (followers coming home, farms scored) and where
# the search is cheapest (fewer kinds of tile left, smaller chance node).
LATE: Final = 20
LATE_WIDTH: Final = 8
# The best DEEP turns by their two-ply value are looked at one ply further: after the next player's answer, our own
# next tile (its OWN_DRAWS likeliest kinds) played as a one-ply searcher would. Two plies see what the next player
# can take from us next turn but not what we can take from them; the third sees both. Two-player games only. In the
# base game's evaluation the mean margin rose by 5.7 points a game and 73.8% of games were won against 63.7%
# (bench/README.md, fourth round), for about three times the CPU.
DEEP: Final = 2
OWN_DRAWS: Final = 8


def next_draws(unseen: Counter[str], limit: int) -> list[tuple[str, float]]:
    """The tiles the next player may draw with their chances: the unseen tiles of the earliest draw stage (River
    first, then the lake, then the rest), at most ``limit`` kinds, likeliest first."""
    if not unseen:
        return []
    first = min(stage(t) for t in unseen)
    kinds = sorted(((n, t) for t, n in unseen.items() if stage(t) == first), key=lambda p: (-p[0], p[1]))[:limit]
    total = sum(n for n, _ in kinds)
    return [(t, n / total) for n, t in kinds]


def final_margin(model: Carcassonne, me: int) -> float:
    scores = model.scores
    return scores[me] - max(s for seat, s in enumerate(scores) if seat != me)


def value_for(model: Carcassonne, outlook: Outlook) -> float:
    """Own estimated final margin in a position between turns (exact once the game is over)."""
    if model.finished:
        return final_margin(model, outlook.me)
    return margin(worth(model, outlook), outlook.me)


def placement_actions(model: Carcassonne, seat: int) -> list[Action]:
    """The drawn tile's placements, one per cell and edge layout."""
    actions: list[Action] = []
    for c, rots in model.placements().items():
        x, y = xy(c)
        actions += [
            {"player": seat, "type": "place", "tile": model.drawn, "x": x, "y": y, "rotation": q * 90} for q in rots
        ]
    return distinct_placements(actions)


# Placements of the next player that a search re-scores in each position after its own turn, besides those near
# its own tile: the best few from the position before that turn (far from its tile, their order hardly changes).
FAR: Final = 3


@dataclass
class Answers:
    """The next player's answers, worked out once per decision: for each tile that player may draw, its best few
    placements in the position before our turn (``FAR`` of them). In a position after our turn only these and
    the placements near our tile are scored again."""

    far: dict[str, list[Action]]


def near(action: Action, cells: tuple[int, ...]) -> bool:
    """Whether a placement is close enough to one of ``cells`` for a tile there to change its worth."""
    for c in cells:
        x, y = xy(c)
        if abs(int(action["x"]) - x) <= 2 and abs(int(action["y"]) - y) <= 2:
            return True
    return False


def answers_from(model: Carcassonne, seat: int, outlook: Outlook, draws: list[tuple[str, float]]) -> Answers:
    """The next player's best placements per tile in ``model`` (the position before our own tile is placed, or
    with it placed and the follower decision left)."""
    theirs = replace(outlook, me=seat)
    trial = model.copy()
    trial.current = seat
    trial.phase = "place"
    trial.placed = None
    before = before_placing(trial, theirs)
    far: dict[str, list[Action]] = {}
    for tile, _ in draws:
        trial.drawn = tile
        placements = placement_actions(trial, seat)
        scored = sorted(
            ((placement_value(before, a, theirs), i) for i, a in enumerate(placements)), key=lambda s: (-s[0], s[1])
        )
        far[tile] = [placements[i] for _, i in scored[:FAR]]
    return Answers(far)


def answer(
    between: Carcassonne,
    before: Before,
    tile: str,
    theirs: Outlook,
    rng: random.Random,
    answers: Answers | None = None,
    changed: tuple[int, ...] = (),
) -> tuple[Carcassonne, int | None]:
    """The position after the player to move draws ``tile`` and plays it as a one-ply searcher would, and the cell
    the tile went to (None: it fits nowhere, and the turn passes without effect). ``before`` is the position
    ``between`` turns evaluated for that player (it does not depend on the tile drawn). With ``answers`` and the
    cells of the tiles placed since they were worked out (``changed``), only the placements near those and the best
    far ones are scored."""
    seat = theirs.me
    between.drawn = tile
    placements = placement_actions(between, seat)
    if not placements:
        return between, None  # the tile is discarded and another drawn: a turn without effect
    if answers is not None and changed:
        fits = {(a["x"], a["y"], a["rotation"]) for a in placements}
        far = [a for a in answers.far.get(tile, []) if (a["x"], a["y"], a["rotation"]) in fits and not near(a, changed)]
        close = [a for a in placements if near(a, changed)]
        if far or close:
            placements = close + [{**a, "player": seat} for a in far]
    best = max(placements, key=lambda a: placement_value(before, a, theirs))
    m = between.copy()
    m.apply(best)
    legal = m.legal_actions(seat)
    after = choose_after_placing(Situation("carcassonne", seat, {}, legal, rng), m, theirs)
    m.apply(after)
    return m, cell(int(best["x"]), int(best["y"]))


class ExpertCarcassonne:
    """``expert``: expectimax over placements and follower choices, two plies (three for the best ``deep`` turns),
    each draw a chance node over the unseen tiles."""

    level = "expert"

    def __init__(
        self,
        width: int = WIDTH,
        follower_width: int = FOLLOWER_WIDTH,
        draws: int = DRAWS,
        late: int = LATE,
        late_width: int = LATE_WIDTH,
        deep: int = DEEP,
        own_draws: int = OWN_DRAWS,
    ) -> None:
        self.width = width
        self.follower_width = follower_width
        self.draws = draws
        self.late = late
        self.late_width = late_width
        self.deep = deep
        self.own_draws = own_draws

    def choose(self, situation: Situation) -> Action:
        legal = list(situation.legal)
        if len(legal) == 1:
            return dict(legal[0])
        rng = situation.rng
        model = game_from_view(situation.view, rng)
        outlook = outlook_for(situation, model)
        base = margin(worth(model, outlook), outlook.me)
        for action in legal:
            if action["type"] == "ransom" and ransom_gain(model, action["from"], outlook, base) > RANSOM_MARGIN:
                return dict(action)
        unseen = unseen_tiles(situation.view)
        draws = next_draws(unseen, self.draws)
        width = self.late_width if outlook.left <= self.late else self.width
        deeper = self.deeper_search(model, outlook, unseen)
        if model.phase == "follower":
            options = [a for a in legal if a["type"] != "ransom"]
            now: list[Turn] = [(model, a, -1) for a in self.shortlist_after(model, options, outlook)]
            answers = answers_from(model, (outlook.me + 1) % outlook.players, outlook, draws)
            return dict(self.best_turn(now, outlook, draws, rng, answers, deeper)[1])
        placements = distinct_placements(legal)
        if not placements:
            return dict(next(a for a in legal if a["type"] != "ransom"))
        before = before_placing(model, outlook)
        scored = sorted(
            ((placement_value(before, a, outlook), rng.random(), i) for i, a in enumerate(placements)), reverse=True
        )
        answers = answers_from(model, (outlook.me + 1) % outlook.players, outlook, draws)
        turns: list[Turn] = []
        for _, _, i in scored[:width]:
            placed = model.copy()
            placed.apply(placements[i])
            options = [a for a in placed.legal_actions(outlook.me) if a["type"] != "ransom"]
            turns += [(placed, a, i) for a in self.shortlist_after(placed, options, outlook)]
        return dict(placements[self.best_turn(turns, outlook, draws, rng, answers, deeper)[2]])

    def deeper_search(self, model: Carcassonne, outlook: Outlook, unseen: Counter[str]) -> Deeper | None:
        """What the third ply needs, worked out once per decision (None: no third ply)."""
        if self.deep < 2 or outlook.players != 2:
            return None
        draws = next_draws(unseen, self.own_draws + 1)  # one more: the next player's tile leaves one kind out
        return Deeper(unseen, answers_from(model, outlook.me, outlook, draws))

    def shortlist_after(self, placed: Carcassonne, options: list[Action], outlook: Outlook) -> list[Action]:
        """The follower decisions worth a deeper look: pass, the one-ply best follower, and the ``follower_width``
        best others (towers, captures, other spots) by the value of the position once the turn ends."""
        if len(options) <= self.follower_width + 2:
            return options
        _, spot = best_follower(placed, outlook)
        keep: list[Action] = [{"player": outlook.me, "type": "pass"}]
        if spot is not None:
            keep.append({"player": outlook.me, "type": "follower", "on": spot})
        rest: list[tuple[float, int, Action]] = []
        for action in options:
            if action in keep:
                continue
            trial = placed.copy()
            trial.apply(action)
            rest.append((value_for(trial, outlook), len(rest), action))
        rest.sort(key=lambda r: (-r[0], r[1]))
        keep += [a for _, _, a in rest[: self.follower_width]]
        return [a for a in keep if a in options]

    def best_turn(
        self,
        turns: list[Turn],
        outlook: Outlook,
        draws: list[tuple[str, float]],
        rng: random.Random,
        answers: Answers | None = None,
        deeper: Deeper | None = None,
    ) -> Turn:
        """The turn (position after placing, follower decision) with the best expected margin after the next
        player's answer; with ``deeper``, the best few of those compared once more after our own next turn."""
        scored: list[tuple[float, float, int, list[Reply]]] = []
        for index, (placed, action, _) in enumerate(turns):
            after = placed.copy()
            after.apply(action)
            changed = () if placed.placed is None else (placed.placed,)
            found = self.replies(after, outlook, draws, rng, answers, changed)
            value = sum(p * value_for(m, outlook) for _, p, m, _ in found)
            scored.append((value, rng.random(), index, found))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        if deeper is None or len(scored) < 2:
            return turns[scored[0][2]]
        best: tuple[float, float] = (float("-inf"), 0.0)
        choice = turns[scored[0][2]]
        for _, tie, index, found in scored[: self.deep]:
            cell_placed = turns[index][0].placed
            changed = () if cell_placed is None else (cell_placed,)
            key = (self.after_own_turn(found, outlook, rng, deeper, changed), tie)
            if key > best:
                best, choice = key, turns[index]
        return choice

    def replies(
        self,
        after: Carcassonne,
        outlook: Outlook,
        draws: list[tuple[str, float]],
        rng: random.Random,
        answers: Answers | None,
        changed: tuple[int, ...],
    ) -> list[Reply]:
        """The next player's answer to each tile they may draw (none once the game is over)."""
        if after.finished or not draws:
            return [("", 1.0, after, None)]
        theirs = replace(outlook, me=after.current)
        before = before_placing(after, theirs)
        return [(tile, p, *answer(after, before, tile, theirs, rng, answers, changed)) for tile, p in draws]

    def after_own_turn(
        self, found: list[Reply], outlook: Outlook, rng: random.Random, deeper: Deeper, changed: tuple[int, ...]
    ) -> float:
        """Own expected margin once the next player has answered (``found``) and we have played our own next tile
        (by chance, from what their tile leaves) as a one-ply searcher would."""
        total = 0.0
        for tile, p, answered, went in found:
            left = deeper.unseen.copy()
            if tile:
                left[tile] -= 1
            own = next_draws(+left, self.own_draws)
            if answered.finished or answered.current != outlook.me or not own:
                total += p * value_for(answered, outlook)
                continue
            ours = changed if went is None else (*changed, went)
            mine = before_placing(answered, outlook)
            total += p * sum(
                q * value_for(answer(answered, mine, kind, outlook, rng, deeper.answers, ours)[0], outlook)
                for kind, q in own
            )
        return total


@dataclass
class Deeper:
    """For the third ply: the tiles unseen at the decision, and our own best far placements per tile."""

    unseen: Counter[str]
    answers: Answers
