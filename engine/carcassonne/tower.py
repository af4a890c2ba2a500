"""The Tower's reach (rules section 6.1a): the tower's cell and ``height`` cells in each orthogonal direction."""

from __future__ import annotations


def in_reach(tower: int, target: int, height: int) -> bool:
    """Whether packed cell ``target`` is within reach of a tower of ``height`` at packed cell ``tower``.

    Cells pack as ``(x + 512) << 10 | (y + 512)``, so a shared column means equal high bits and a shared row equal
    low bits. Nothing blocks: other towers and empty cells in between do not matter.
    """
    if tower >> 10 == target >> 10:
        return abs((tower & 1023) - (target & 1023)) <= height
    if tower & 1023 == target & 1023:
        return abs((tower >> 10) - (target >> 10)) <= height
    return False
