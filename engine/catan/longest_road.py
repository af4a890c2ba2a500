"""Longest road (rules section 9): the longest trail in a player's road network and who holds the card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.catan.board import EDGE_NODES

MIN_LENGTH: Final = 5

Links = dict[int, list[tuple[int, int]]]  # intersection -> (path bit, other end) of each road leaving it


def _links(roads: Sequence[int]) -> Links:
    """Intersection -> (path bit, other end) for each of the roads touching it."""
    links: Links = {}
    for e in roads:
        a, b = EDGE_NODES[e]
        bit = 1 << e
        links.setdefault(a, []).append((bit, b))
        links.setdefault(b, []).append((bit, a))
    return links


def _onward(seat: int, links: Links, node_owner: Sequence[int]) -> Links:
    """Where a road may go on from an intersection: nowhere from another player's building."""
    return {n: ([] if node_owner[n] != -1 and node_owner[n] != seat else out) for n, out in links.items()}


def _walk(onward: Links, node: int, used: int, seen: set[int]) -> int:
    """The longest trail on from ``node`` over roads not in ``used`` (path bits); adds each node reached to
    ``seen``."""
    seen.add(node)
    top = 0
    for bit, other in onward[node]:
        if not used & bit:
            length = _walk(onward, other, used | bit, seen) + 1
            if length > top:
                top = length
    return top


def longest_road(seat: int, roads: Sequence[int], node_owner: Sequence[int]) -> int:
    """Segments in ``seat``'s longest road: no segment twice, loops count, and the road cannot continue through
    an intersection holding another player's building (it may end there)."""
    count = len(roads)
    if count < 2:
        return count
    links = _links(roads)
    onward = _onward(seat, links, node_owner)
    seen: set[int] = set()

    def longest_from(node: int) -> int:
        seen.add(node)
        top = 0
        for bit, other in links[node]:  # a road may start at a break
            length = _walk(onward, other, bit, seen) + 1
            if length > top:
                top = length
        return top

    # A longest trail can be taken to start at a dead end, a branch or a break. A part of the network that is
    # one closed loop has none of those: the walks never reach it, so one of its intersections is tried too.
    best = 0
    for n, out in links.items():
        if len(out) != 2 or not onward[n]:
            best = max(best, longest_from(n))
            if best == count:
                return best
    for n in links:
        if n not in seen:
            best = max(best, longest_from(n))
    return best


def extended(seat: int, roads: Sequence[int], node_owner: Sequence[int], joint: int, before: int) -> int:
    """``seat``'s longest road after a new segment that meets its other roads only at ``joint`` (the new
    segment's far end touches none of them): every new trail ends with that segment, so only trails starting
    at ``joint`` need a look. ``roads`` does not hold the new segment yet."""
    if node_owner[joint] != -1 and node_owner[joint] != seat:
        return max(before, 1)  # the new segment cannot join the road through another player's building
    onward = _onward(seat, _links(roads), node_owner)
    return max(before, _walk(onward, joint, 0, set()) + 1)


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
