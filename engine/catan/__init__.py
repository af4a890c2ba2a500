"""Catan: the base game for 3 or 4 players (``shared/rules/catan.md``)."""

from engine.catan.board import parse_intersection, parse_path
from engine.catan.game import Catan
from engine.catan.view import public_events

__all__ = ["Catan", "parse_intersection", "parse_path", "public_events"]
