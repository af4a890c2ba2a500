"""Refusals: of the game host, and of a click or command the bot cannot honour. Like engine RuleErrors they carry a
catalogue key and parameters."""

from __future__ import annotations

from typing import Any


class HostError(Exception):
    """Something a user asked for that is refused, changing nothing; ``key`` names an ``error.*`` catalogue message.

    The one exception type for a refusal: the error funnel (``bot.core.funnel``) answers it with the translated text."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
