"""The Discord-free game host: what the commands and buttons call, one service per concern (``services``)."""

from bot.host.errors import HostError
from bot.host.outcome import Outcome, OwedAnswer
from bot.host.services import Services

__all__ = ["HostError", "Outcome", "OwedAnswer", "Services"]
