"""Longest road (rules section 9): the longest trail in a player's road network and who holds the card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.catan.board import EDGE_NODES

MIN_LENGTH: Final = 5


def longest_road(seat: int, roads: Sequence[int], node_owner: Sequence[int]) -> int:
    """Segments in ``seat``'s longest road: no segment twice, loops count, and the road cannot continue through
    an intersection holding another player's building (it may end there)."""
    if not roads:
        return 0
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for e in roads:
        a, b = EDGE_NODES[e]
        adjacent.setdefault(a, []).append((1 << e, b))
        adjacent.setdefault(b, []).append((1 << e, a))
    blocked = {n for n in adjacent if node_owner[n] != -1 and node_owner[n] != seat}
    seen = set()

    def walk(node: int, used: int) -> int:
        seen.add(node)
        best = 0
        for bit, other in adjacent[node]:
            if not used & bit:
                length = 1 + (0 if other in blocked else walk(other, used | bit))
                if length > best:
                    best = length
        return best

    # A longest trail can be taken to start at a dead end, a branch or a break. A part of the network that is
    # one closed loop has none of those: the walks never reach it, so one of its intersections is tried too.
    best = 0
    for n, links in adjacent.items():
        if len(links) != 2 or n in blocked:
            best = max(best, walk(n, 0))
    for n in adjacent:
        if n not in seen:
            best = max(best, walk(n, 0))
    return best


def award(holder: int | None, lengths: Sequence[int]) -> int | None:
    """Who holds the longest-road card after a change of road lengths.

    The holder keeps it while still longest or tied for longest (at least 5); otherwise it goes to the one
    player who is alone longest with at least 5, or is set aside when several tie or nobody has 5.
    """
    best = max(lengths)
    if best < MIN_LENGTH:
        return None
    if holder is not None and lengths[holder] == best:
        return holder
    leaders = [s for s, n in enumerate(lengths) if n == best]
    return leaders[0] if len(leaders) == 1 else None
