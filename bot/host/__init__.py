"""The Discord-free game host: what the commands and buttons call."""

from bot.host.errors import HostError
from bot.host.service import GameService, Outcome

__all__ = ["GameService", "HostError", "Outcome"]
