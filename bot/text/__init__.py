"""User-facing text: the message catalogue, lists in each language's format, and event narration."""

from bot.text.catalogue import MESSAGES, t
from bot.text.i18n import listing

__all__ = ["MESSAGES", "listing", "t"]
