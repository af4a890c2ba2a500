"""Refusals of the game host. Like engine RuleErrors they carry a catalogue key and parameters."""

from __future__ import annotations

from typing import Any


class HostError(Exception):
    """Something a user asked for that the host refuses; ``key`` names the message in the catalogue."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
